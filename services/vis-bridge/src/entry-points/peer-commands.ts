// cmd.vis-bridge commands of direct mode (docs/architecture.md#vis-direct-mode): link a peer (POST /port-peer), and
// take what a peer delivered to the gateway's /vis/* endpoints. The gateway verified the delivery before sending it
// here (src/queries/peer-verifier.ts: signature, recipient, time, not seen before), and says so; this command, like
// every command on the broker, trusts its caller. Each message is then stored once (a redelivery is answered
// "duplicate"), through the same inbox functions the agent's posts use, and acknowledged back to the sender.

import { type CommandFunction, decodeCommand, eventMetadata } from '@pcas/commands';
import { ApiError, type ServiceDeps } from '@pcas/contracts';
import type { Deliverer } from '../adapters/delivery-worker.ts';
import { BATCH_ANSWER } from '../adapters/peer-client.ts';
import { linkPeer, type Peer, peerFor, unsealSecret } from '../adapters/peer-store.ts';
import type { VisInbox } from '../adapters/transport.ts';
import { isPeerOperation, type PeerMessage } from '../domain/outbox.ts';
import { batchOf, singleMessageId } from '../domain/peer-input.ts';
import { peerSecretProblem } from '../domain/peer-secret.ts';
import { MAX_SERVICE_ID_LENGTH, SIGNATURE_VERSION } from '../domain/signature.ts';
import { createPeerReceiver } from './peer-receive.ts';

/** The command names (the gateway's routes/vis-peer.ts sends them). */
export const PeerCommands = {
  linkVisPeer: 'linkVisPeer',
  receiveFromPeer: 'receiveFromPeer',
} as const;

export interface LinkVisPeerInput {
  service_id: string;
  url: string;
  /** The secret sealed with vis.peer_sealing_key's public half (base64), never the secret itself. */
  sealed_secret: string;
}

/** What the gateway passes on from a request to a /vis/* endpoint it verified: the operation, the sender, the body. */
export interface ReceiveFromPeerInput {
  /**
   * `messages` (a batch; the acknowledgements go back through the outbox), `batch` (a batch whose answer carries
   * the acknowledgements, see BATCH_ANSWER) or one of the single operations.
   */
  operation: string;
  /** The signed path, e.g. `/messages`. */
  path: string;
  /** The sender, as verified. */
  service_id?: string;
  /**
   * The signature version the gateway verified the request with. Absent (a gateway of an earlier version, which
   * left the check to this command) or another version: refused.
   */
  verified_version?: string;
  body: Record<string, unknown>;
}

export interface PeerCommandOptions {
  inbox: VisInbox;
  deliverer: Deliverer;
  serviceId: string;
  portName: string;
  syncPoint: { lat: number; lon: number; radiusMeters: number };
  now?: () => number;
}

export interface PeerSide {
  /** linkVisPeer and receiveFromPeer, served on cmd.vis-bridge. */
  commands: Record<string, CommandFunction>;
  /**
   * Takes the acknowledgements a peer's answer to one of our `batch` posts carried (its `acknowledgements`), as
   * if the peer had delivered them: stored once each, the sent messages marked. Throws when they could not be
   * stored (the batch then goes again, and the peer acknowledges it again).
   */
  takeAnsweredAcknowledgements(peer: Peer, answer: unknown): Promise<void>;
}

export function peerCommands(deps: ServiceDeps, options: PeerCommandOptions): PeerSide {
  const { db, store, log } = deps;
  const { inbox, deliverer } = options;
  const { takeAll } = createPeerReceiver(deps, options);

  async function link(payload: unknown, headers: Record<string, unknown> = {}) {
    const { actor, input } = decodeCommand<Partial<LinkVisPeerInput>>(payload);
    const serviceId = typeof input.service_id === 'string' ? input.service_id.trim() : '';
    // The longest id the signature's key derivation takes (src/domain/signature.ts).
    if (!serviceId || serviceId.length > MAX_SERVICE_ID_LENGTH) throw ApiError.badRequest('Invalid service_id');
    const url = typeof input.url === 'string' ? input.url.trim().replace(/\/+$/, '') : '';
    let protocol = '';
    try {
      protocol = new URL(url).protocol;
    } catch {}
    if (protocol !== 'http:' && protocol !== 'https:') throw ApiError.badRequest(`Invalid peer URL: ${url}`);
    const secret = typeof input.sealed_secret === 'string' ? await unsealSecret(db, input.sealed_secret) : undefined;
    if (secret === undefined) throw ApiError.badRequest('Invalid secret');
    const weakness = peerSecretProblem(secret);
    if (weakness) throw ApiError.badRequest(weakness);
    await linkPeer(db, store, { service_id: serviceId, url, secret }, eventMetadata(actor, headers));
    log.info({ peer: serviceId, url }, 'VIS peer linked');
    // Known as a VIS service at once (as the agent's find-services would record it), so the API can address it.
    const linked = await peerFor(db, serviceId);
    await inbox.recordVisVessel({
      imo: 0,
      vessel_name: linked?.name ?? serviceId,
      service_id: serviceId,
      service_url: url,
    });
    // Anything queued for it before the link can go now.
    await deliverer.kick(serviceId).catch(() => {});
    return { result: 'OK' };
  }

  async function receive(payload: unknown) {
    const { input } = decodeCommand<Partial<ReceiveFromPeerInput>>(payload);
    const body = (input.body ?? {}) as Record<string, unknown>;
    const peer = await authenticate(input);
    if (input.operation === BATCH_ANSWER.operation) {
      // Nothing is queued for the sender: its acknowledgements go back in this answer.
      const { results, acknowledgements } = await takeAll(peer, batchOf(body.messages), 'answer');
      return { results, acknowledgements };
    }
    try {
      if (input.operation === 'messages') {
        return { results: (await takeAll(peer, batchOf(body.messages), 'queue')).results };
      }
      if (!isPeerOperation(input.operation)) {
        throw ApiError.badRequest(`Unknown VIS operation: ${String(input.operation)}`);
      }
      const message = { message_id: singleMessageId(input.operation, body), operation: input.operation, body };
      const [result] = (await takeAll(peer, [message], 'queue')).results;
      if (result.status === 'refused') throw new ApiError(result.status_code ?? 400, result.error ?? 'Refused');
      return { result: 'OK', message_id: result.message_id, status: result.status };
    } finally {
      // The acknowledgements queued for the sender go in one delivery, after the whole request.
      await deliverer.kick(peer.service_id).catch(() => {});
    }
  }

  async function takeAnsweredAcknowledgements(peer: Peer, answer: unknown): Promise<void> {
    const carried = (answer as { acknowledgements?: unknown } | null)?.acknowledgements;
    if (carried === undefined) return;
    let acknowledgements: PeerMessage[];
    try {
      acknowledgements = batchOf(carried).filter((m) => m.operation === 'acknowledgement');
    } catch {
      // Not ours to retry: the batch is delivered all the same; only its acknowledgements are missing.
      log.warn({ peer: peer.service_id }, 'VIS peer answered with malformed acknowledgements; ignored');
      return;
    }
    if (acknowledgements.length > 0) await takeAll(peer, acknowledgements, 'queue');
  }

  async function authenticate(input: Partial<ReceiveFromPeerInput>): Promise<Peer> {
    const refuse = (reason: string): never => {
      log.warn({ peer: input.service_id ?? null, operation: input.operation, reason }, 'VIS peer request refused');
      throw new ApiError(401, reason);
    };
    if (input.verified_version !== SIGNATURE_VERSION || !input.service_id) {
      return refuse('VIS peer request was not verified');
    }
    const peer = await peerFor(db, input.service_id);
    if (!peer) return refuse(`Unknown VIS peer: ${input.service_id}`);
    return peer;
  }

  return {
    commands: { [PeerCommands.linkVisPeer]: link, [PeerCommands.receiveFromPeer]: receive },
    takeAnsweredAcknowledgements,
  };
}
