// cmd.vis-bridge commands of direct mode (docs/architecture.md#vis-direct-mode): link a peer (POST /port-peer), and
// take what a peer delivered to the gateway's /vis/* endpoints. The gateway verified the delivery before sending it
// here (src/queries/peer-verifier.ts: signature, recipient, time, not seen before), and says so; this command, like
// every command on the broker, trusts its caller. Each message is then stored once (a redelivery is answered
// "duplicate"), through the same inbox functions the agent's posts use, and acknowledged back to the sender.

import { createHash } from 'node:crypto';
import { type CommandFunction, decodeCommand, eventMetadata } from '@pcas/commands';
import { ApiError, type ServiceDeps } from '@pcas/contracts';
import { assessRoute, parseRtz, parseTextMessage } from '@pcas/stm';
import type { Deliverer } from '../adapters/delivery-worker.ts';
import {
  enqueueMany,
  markAcknowledged,
  markAcknowledgedMany,
  receivedAmong,
  recordReceivedMany,
} from '../adapters/outbox-store.ts';
import { BATCH_ANSWER } from '../adapters/peer-client.ts';
import { linkPeer, type Peer, peerFor, unsealSecret } from '../adapters/peer-store.ts';
import type { InboxItem, VisInbox } from '../adapters/transport.ts';
import type { PeerResult } from '../domain/delivery.ts';
import {
  acknowledgementOf,
  incomingRefusal,
  isPeerOperation,
  lanesOf,
  messageTypeOf,
  type PeerMessage,
  type PeerOperation,
} from '../domain/outbox.ts';
import { peerSecretProblem } from '../domain/peer-secret.ts';
import { MAX_SERVICE_ID_LENGTH, SIGNATURE_VERSION } from '../domain/signature.ts';

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

/** Messages of one batch stored at once (in lanes, see lanesOf). */
const STORE_CONCURRENCY = 16;

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
  const now = options.now ?? Date.now;

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

  /**
   * Takes a batch: what the peer delivered before is answered "duplicate" (and acknowledged again); the rest is
   * stored. Text messages and acknowledgements (the bulk of the traffic) are stored together in one transaction,
   * with the record of what was received; the other operations in lanes side by side (a vessel's departures in
   * the order sent; each message keeps its time of sending). Should the common transaction fail, its messages go
   * one by one as the others do. The acknowledgements for the sender are queued in one statement, or, for a
   * `batch`, answered (a lost answer makes the sender post the batch again: answered "duplicate" and acknowledged
   * again, with the same acknowledgement ids).
   */
  async function takeAll(
    peer: Peer,
    messages: readonly PeerMessage[],
    acknowledge: 'queue' | 'answer',
  ): Promise<{ results: PeerResult[]; acknowledgements: PeerMessage[] }> {
    const known = await receivedAmong(
      db,
      peer.service_id,
      messages.map((m) => m.message_id),
    );
    const results = new Map<string, PeerResult>();
    // Stored one by one, so their receipt is still to be recorded (takeTogether records its own).
    const storedAlone: { message_id: string; operation: PeerOperation }[] = [];
    const toAcknowledge: string[] = [];
    const settle = (message: PeerMessage, result: PeerResult, recorded = false) => {
      results.set(message.message_id, result);
      if (result.status === 'stored') {
        known.add(message.message_id);
        if (!recorded) storedAlone.push({ message_id: message.message_id, operation: message.operation });
      }
      if (result.status !== 'refused' && message.operation !== 'acknowledgement')
        toAcknowledge.push(message.message_id);
    };
    const one = async (message: PeerMessage) => settle(message, await take(peer, message, known));

    // The same id twice in one batch is taken once (its answer serves both).
    const distinct = [...new Map(messages.map((m) => [m.message_id, m])).values()];
    const together: PeerMessage[] = [];
    const alone: PeerMessage[] = [];
    for (const message of distinct) {
      const answered = refusedOrKnown(peer, message, known);
      if (answered) settle(message, answered);
      else if (message.operation === 'textMessage' || message.operation === 'acknowledgement') together.push(message);
      else alone.push(message);
    }
    if (together.length > 0) {
      const recorded = await takeTogether(peer, together);
      if (recorded) for (const [i, result] of recorded.entries()) settle(together[i], result, true);
      else for (const message of together) await one(message);
    }
    // Lanes side by side, so their commits share the disk's flushes; inside a lane, the order sent.
    const lanes = lanesOf(alone);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(STORE_CONCURRENCY, lanes.length) }, async () => {
        for (let i = next++; i < lanes.length; i = next++) for (const message of lanes[i]) await one(message);
      }),
    );
    await recordReceivedMany(db, peer.service_id, storedAlone);
    const deliveredAt = new Date(now());
    const acknowledgements = [...new Set(toAcknowledge)].map((message_id) =>
      acknowledgementOf(
        { message_id, from_service_id: peer.service_id, from_name: peer.name ?? peer.service_id },
        { service_id: options.serviceId, name: options.portName },
        deliveredAt,
      ),
    );
    if (acknowledge === 'queue') await enqueueMany(db, peer.service_id, acknowledgements);
    return {
      results: messages.map((m) => results.get(m.message_id) as PeerResult),
      acknowledgements: acknowledge === 'answer' ? acknowledgements : [],
    };
  }

  /**
   * Text messages and acknowledgements stored in one transaction (VisInbox.receiveMany), their receipt recorded
   * in it; a message refused on its own (malformed) is answered so. Undefined when the transaction failed.
   */
  async function takeTogether(peer: Peer, messages: readonly PeerMessage[]): Promise<PeerResult[] | undefined> {
    const results: (PeerResult | undefined)[] = messages.map(() => undefined);
    const refuse = (i: number, error: unknown) => {
      if (!(error instanceof ApiError) || error.status >= 500) throw error;
      results[i] = {
        message_id: messages[i].message_id,
        status: 'refused',
        status_code: error.status,
        error: error.message,
      };
    };
    // What each acknowledgement answers, marked in one statement (as markAcknowledged does for one).
    const references = new Map<number, string>();
    messages.forEach((m, i) => {
      if (m.operation !== 'acknowledgement') return;
      try {
        references.set(i, stringField(m.body, 'referenceId'));
      } catch (error) {
        refuse(i, error);
      }
    });
    const sent = await markAcknowledgedMany(db, peer.service_id, [...new Set(references.values())]);
    const items: InboxItem[] = [];
    const itemOf: number[] = [];
    messages.forEach((m, i) => {
      if (results[i]) return;
      try {
        const time = optionalString(m.body, 'sent_at') ?? new Date(now()).toISOString();
        if (m.operation === 'textMessage') {
          items.push({ kind: 'text', input: textInput(peer, m, time) });
        } else {
          const referenceId = references.get(i) as string;
          const operation = sent.get(referenceId);
          items.push({ kind: 'notification', input: acknowledgementInput(peer, m, referenceId, operation, time) });
        }
        itemOf.push(i);
      } catch (error) {
        refuse(i, error);
      }
    });
    let refusals: (unknown | undefined)[];
    try {
      refusals = await inbox.receiveMany(items, (tx, accepted) =>
        recordReceivedMany(
          tx,
          peer.service_id,
          items.flatMap((_, k) => (accepted[k] ? [messages[itemOf[k]]] : [])),
        ),
      );
    } catch (error) {
      log.warn({ peer: peer.service_id, err: error }, 'VIS batch not stored together; storing one by one');
      return undefined;
    }
    refusals.forEach((refusal, k) => {
      const i = itemOf[k];
      if (refusal === undefined) results[i] = { message_id: messages[i].message_id, status: 'stored' };
      else refuse(i, refusal);
    });
    return results as PeerResult[];
  }

  /** A message refused by the whitelists, or delivered before; undefined when it is to be stored. */
  function refusedOrKnown(peer: Peer, message: PeerMessage, known: ReadonlySet<string>): PeerResult | undefined {
    const { message_id, operation } = message;
    const refusal = incomingRefusal(operation, whitelistsOf(peer), peer.service_id);
    if (refusal) {
      log.warn({ peer: peer.service_id, message_id, operation }, 'VIS message from a port not whitelisted refused');
      return { message_id, status: 'refused', status_code: refusal.status, error: refusal.error };
    }
    if (known.has(message_id)) return { message_id, status: 'duplicate' };
    return undefined;
  }

  function textInput(peer: Peer, message: PeerMessage, time: string) {
    const xml = stringField(message.body, 'message');
    return {
      time,
      from_service_id: peer.service_id,
      to_service_id: options.serviceId,
      message_id: message.message_id,
      message_type: 'TXT',
      payload: JSON.stringify({ stmMessage: { message: xml } }),
    };
  }

  function acknowledgementInput(
    peer: Peer,
    message: PeerMessage,
    referenceId: string,
    sent: PeerOperation | undefined,
    time: string,
  ) {
    return {
      time: optionalString(message.body, 'timeOfDelivery') ?? time,
      from_service_id: peer.service_id,
      message_id: referenceId,
      message_type: sent ? messageTypeOf(sent) : 'TXT',
      notification_type: 'ACKNOWLEDGEMENT_RECEIVED',
      subject: 'Acknowledgement received',
      payload: JSON.stringify(message.body),
    };
  }

  async function take(peer: Peer, message: PeerMessage, known: ReadonlySet<string>): Promise<PeerResult> {
    const { message_id } = message;
    const answered = refusedOrKnown(peer, message, known);
    if (answered) return answered;
    try {
      await store_(peer, message);
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) {
        return { message_id, status: 'refused', status_code: error.status, error: error.message };
      }
      throw error;
    }
    return { message_id, status: 'stored' };
  }

  async function store_(peer: Peer, message: PeerMessage): Promise<void> {
    const { body, message_id } = message;
    // The sender's time of sending: a redelivery after a crash between storing and recording makes the same event.
    const time = optionalString(body, 'sent_at') ?? new Date(now()).toISOString();
    const base = { time, from_service_id: peer.service_id, to_service_id: options.serviceId, message_id };
    switch (message.operation) {
      case 'textMessage': {
        await inbox.receiveTextMessage(textInput(peer, message, time));
        return;
      }
      case 'voyagePlan': {
        const xml = stringField(body, 'message');
        const rta = optionalString(body, 'rta');
        const assessment = assessRoute(parseRtz(xml), options.syncPoint);
        // A plan that comes with an RTA is a port's answer to ours: stored as such, and never answered again.
        const state = rta ? 'RTA_SENT' : assessment.state;
        const payload: Record<string, unknown> = { stmMessage: { message: xml } };
        for (const key of ['rta', 'eta_min', 'eta_max']) {
          const value = optionalString(body, key);
          if (value !== undefined) payload[key] = value;
        }
        await inbox.receiveVoyagePlan({
          ...base,
          message_type: 'RTZ',
          rtz_state: state,
          rtz_parse_results: JSON.stringify(assessment.parseResults),
          payload: JSON.stringify(payload),
        });
        return;
      }
      case 'departure': {
        const imo = body.vessel_imo;
        if (typeof imo !== 'number' || !Number.isSafeInteger(imo) || imo < 0)
          throw ApiError.badRequest('Invalid vessel_imo');
        await inbox.recordInboundVessel({
          time: stringField(body, 'time'),
          imo,
          vessel_name: typeof body.vessel_name === 'string' ? body.vessel_name : '',
          from_service_id: peer.service_id,
        });
        return;
      }
      case 'acknowledgement': {
        const referenceId = stringField(body, 'referenceId');
        const sent = await markAcknowledged(db, peer.service_id, referenceId);
        await inbox.receiveNotification(acknowledgementInput(peer, message, referenceId, sent, time));
        return;
      }
    }
  }

  return {
    commands: { [PeerCommands.linkVisPeer]: link, [PeerCommands.receiveFromPeer]: receive },
    takeAnsweredAcknowledgements,
  };
}

const whitelistsOf = (peer: Peer) =>
  peer.whitelist_in === null
    ? undefined
    : { whitelist_in: peer.whitelist_in, whitelist_out: peer.whitelist_out ?? true };

function stringField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') throw ApiError.badRequest(`Missing parameter: ${name}`);
  return value;
}

function optionalString(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A batch's messages, checked for shape; at most 1000. */
function batchOf(value: unknown): PeerMessage[] {
  if (!Array.isArray(value) || value.length > 1000) throw ApiError.badRequest('Invalid parameter: messages');
  return value.map((m) => {
    const message = m as Partial<PeerMessage> | null;
    if (
      !message ||
      typeof message.message_id !== 'string' ||
      message.message_id === '' ||
      !isPeerOperation(message.operation) ||
      message.body === null ||
      typeof message.body !== 'object' ||
      Array.isArray(message.body)
    ) {
      throw ApiError.badRequest('Invalid parameter: messages');
    }
    return { message_id: message.message_id, operation: message.operation, body: message.body };
  });
}

/**
 * A single upload's message id: given (`message_id`, or STM's `uvid` for a plan, `id` for an acknowledgement),
 * else the text message's own textMessageId, else one derived from the content (the same upload twice is one).
 */
function singleMessageId(operation: PeerOperation, body: Record<string, unknown>): string {
  const given = optionalString(body, 'message_id') ?? optionalString(body, 'uvid') ?? optionalString(body, 'id');
  if (given) return given;
  if (operation === 'textMessage' && typeof body.message === 'string') return parseTextMessage(body.message).id;
  return `sha256:${createHash('sha256').update(JSON.stringify(body)).digest('hex')}`;
}
