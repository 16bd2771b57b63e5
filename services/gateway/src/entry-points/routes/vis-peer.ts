// The VIS service endpoint other ports reach in direct mode (docs/architecture.md#vis-direct-mode), and the link to
// each peer. A peer's request is public here and checked first, in this process, by the vis-bridge's verifier
// (@pcas/vis-bridge/queries: signature version, recipient, time, signature with the key of the sender's direction,
// not seen before): a refusal (401/403/409) is answered here and sends or writes nothing. A verified request goes on
// to cmd.vis-bridge, where its whitelist is checked and each message stored once. The operations are those of the
// STM VIS interface the API uses (upload a text message, upload a voyage plan with its RTA, delivery
// acknowledgements) plus the departure notice, one at a time or as a batch (`/vis/batch`, how our outbox sends,
// whose answer carries the acknowledgements; `/vis/messages`, whose come back later as messages, as earlier
// versions sent). Each body is signed as the route hands it on (its declared fields).

import {
  createCipheriv,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
} from 'node:crypto';
import { ApiError, VIS_BRIDGE } from '@pcas/contracts';
import type { ParamSpec, Route } from '@pcas/http-kit';
import type { Queryable } from '@pcas/sql';
import { createPeerVerifier, peerSealingKey } from '@pcas/vis-bridge/queries';
import { sendAs } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { array, float, int, optionalText, text } from './params.ts';

// The vis-bridge's names (services/vis-bridge/src/entry-points/peer-commands.ts).
const LINK_VIS_PEER = 'linkVisPeer';
const RECEIVE_FROM_PEER = 'receiveFromPeer';

/** An XML document in a body (a route or text message): the edge's body limit is what bounds it. */
const DOCUMENT = 1024 * 1024;

/** The peer operations: path under /vis and the fields of each body. */
const OPERATIONS: { operation: string; path: string; params: Record<string, ParamSpec> }[] = [
  { operation: 'messages', path: '/messages', params: { messages: array() } },
  // A batch whose answer carries the acknowledgements (services/vis-bridge/src/adapters/peer-client.ts).
  { operation: 'batch', path: '/batch', params: { messages: array() } },
  {
    operation: 'textMessage',
    path: '/textMessage',
    params: { message: text(DOCUMENT), message_id: optionalText(), deliveryAckEndPoint: optionalText() },
  },
  {
    operation: 'voyagePlan',
    path: '/voyagePlans',
    params: {
      message: text(DOCUMENT),
      message_id: optionalText(),
      uvid: optionalText(),
      rta: optionalText(64),
      eta_min: optionalText(64),
      eta_max: optionalText(64),
      deliveryAckEndPoint: optionalText(),
      callbackEndpoint: optionalText(),
    },
  },
  {
    operation: 'departure',
    path: '/departure',
    params: {
      message_id: text(),
      from_locode: text(16),
      to_locode: text(16),
      vessel_imo: int(),
      vessel_name: text(),
      to_lat: float(),
      to_lon: float(),
      time: text(64),
    },
  },
  {
    operation: 'acknowledgement',
    path: '/acknowledgement',
    params: {
      id: text(),
      referenceId: text(),
      timeOfDelivery: optionalText(64),
      fromId: optionalText(),
      fromName: optionalText(),
      toId: optionalText(),
      toName: optionalText(),
      ackResult: optionalText(),
    },
  },
];

export function visPeerRoutes(deps: GatewayDeps): Route[] {
  const { bus, db } = deps;
  const verifier = createPeerVerifier(db, {
    ownServiceId: deps.config.vis.serviceInstanceUrn,
    skewSeconds: deps.config.vis.peerClockSkewSeconds,
  });
  const peerRoutes: Route[] = OPERATIONS.map(({ operation, path, params }) => ({
    method: 'POST',
    path: `/vis${path}`,
    // Authenticated by the peer signature headers (checked in the handler), not by a session or API key.
    permission: 'public',
    module: 'vis',
    params,
    // Per sender address, before the body is even read (docs/security.md#limits).
    rateLimits: [{ limit: 'vis_address', perAddress: true }],
    async handle(ctx) {
      const body: Record<string, unknown> = {};
      for (const name of Object.keys(params)) if (ctx.params[name] !== undefined) body[name] = ctx.params[name];
      const checked = await verifier.verify({ method: 'POST', path, headers: ctx.headers, body });
      if (!checked.ok) {
        // Who knocked and why it was refused; never the signature or any secret.
        const peer = String(ctx.headers['x-vis-service-id'] ?? '').slice(0, 256) || null;
        ctx.log.warn({ peer, operation, status: checked.status, reason: checked.reason }, 'VIS peer request refused');
        throw new ApiError(checked.status, checked.reason);
      }
      // The sender as verified, and by which version: the vis-bridge takes only requests the gateway verified.
      const input = { operation, path, service_id: checked.sender, verified_version: checked.version, body };
      return sendAs(bus, VIS_BRIDGE, RECEIVE_FROM_PEER, ctx.auth, input);
    },
  }));
  return [
    ...peerRoutes,
    {
      method: 'POST',
      path: '/port-peer',
      permission: 'manage_port',
      module: 'vis',
      params: { service_id: text(), url: text(2048), secret: text(128) },
      async handle({ params, auth }) {
        // The secret goes on sealed: the RPC crosses the broker, which must never carry it readable.
        const sealed_secret = await sealSecret(db, params.secret);
        const input = { service_id: params.service_id, url: params.url, sealed_secret };
        const linked = await sendAs(bus, VIS_BRIDGE, LINK_VIS_PEER, auth, input);
        // This process knows the new key at once; the others within the verifier's refresh interval.
        verifier.invalidate();
        return linked;
      },
    },
  ];
}

/**
 * Seals a peer's secret to the vis-bridge's public key (vis.peer_sealing_key, made at its start): an ephemeral
 * X25519 key agreement, HKDF-SHA256, AES-256-GCM; sent as the ephemeral public key (DER), nonce, tag and text.
 */
async function sealSecret(db: Queryable, secret: string): Promise<string> {
  const publicPem = await peerSealingKey(db);
  // The vis-bridge makes its key when it first starts; until then no secret can be sealed for it.
  if (!publicPem) throw new ApiError(503, 'VIS bridge not ready');
  const ephemeral = generateKeyPairSync('x25519');
  const ephemeralDer = ephemeral.publicKey.export({ format: 'der', type: 'spki' });
  const shared = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: createPublicKey(publicPem) });
  const key = Buffer.from(hkdfSync('sha256', shared, ephemeralDer, 'pcas vis peer secret', 32));
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const text = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([ephemeralDer, nonce, cipher.getAuthTag(), text]).toString('base64');
}
