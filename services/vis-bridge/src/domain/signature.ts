// How two ports in direct mode know each other (docs/architecture.md#vis-direct-mode, docs/security.md#vis-peers):
// every peer request carries the sender's and the recipient's service ids, a time, a nonce and an HMAC-SHA256
// over all of them, the method, the VIS operation's path and a digest of the body. The key is not the secret the
// two ports share but one derived from it per direction (HKDF-SHA256, the info naming the scheme, the sender and
// the recipient), so a request from A to B never verifies as one from B to A, nor at a third port. Pure: no I/O;
// the clock and the nonce are passed in.
//
// The body is signed in a canonical form (keys sorted, no blanks) rather than as bytes: the gateway's route hands
// on the parsed JSON, not the bytes, so both sides serialise the same value the same way. Top-level strings are
// trimmed by the edge before anyone sees them, so the sender trims them before signing too.

import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '@pcas/values';

export const SIGNATURE_SCHEME = 'VIS-HMAC-SHA256';
/**
 * The scheme's version, sent in its own header. Version 1 (no header; one key for both directions, no recipient,
 * no nonce) is refused: it is open to reflection and replay, and a port still speaking it is told so.
 */
export const SIGNATURE_VERSION = '2';

/** The headers a peer request carries (lower case, as Node hands them over). */
export const PEER_HEADERS = {
  version: 'x-vis-signature-version',
  /** The sender. */
  serviceId: 'x-vis-service-id',
  recipient: 'x-vis-recipient-id',
  timestamp: 'x-vis-timestamp',
  nonce: 'x-vis-nonce',
  signature: 'x-vis-signature',
} as const;

/** Longest service id signed: the HKDF info (at most 1024 bytes) holds two. */
export const MAX_SERVICE_ID_LENGTH = 256;

/** The form a peer signs a body in (@pcas/values' canonical JSON: keys sorted, no blanks, absent values left out). */
export { canonicalJson };

/** A body as the edge will hand it on: top-level strings trimmed, absent values left out. */
export function edgeForm<T extends Record<string, unknown>>(body: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (v === undefined) continue;
    out[k] = typeof v === 'string' ? v.trim() : v;
  }
  return out as T;
}

/** Who sends to whom: the direction a key is made for. */
export interface Direction {
  sender: string;
  recipient: string;
}

/**
 * The key for requests from `sender` to `recipient`, derived from the secret the two share (HKDF-SHA256, no
 * salt: the secret is the only input the two ports share, the info names what the key is for).
 */
export function directionKey(secret: string, { sender, recipient }: Direction): Buffer {
  const info = `${SIGNATURE_SCHEME} v${SIGNATURE_VERSION}\nfrom ${sender}\nto ${recipient}`;
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), info, 32));
}

export interface SignedRequest extends Direction {
  method: string;
  /** The VIS operation, relative to the service's URL (`/batch`, `/textMessage`), so proxies may prefix it. */
  path: string;
  /** Seconds since the epoch, as sent. */
  timestamp: string;
  /** Makes each request unique, so a replay is told from a new request with the same content. */
  nonce: string;
  body: unknown;
}

export function stringToSign(request: SignedRequest): string {
  const digest = createHash('sha256').update(canonicalJson(request.body)).digest('hex');
  return [
    SIGNATURE_SCHEME,
    `v${SIGNATURE_VERSION}`,
    `from ${request.sender}`,
    `to ${request.recipient}`,
    request.method.toUpperCase(),
    request.path,
    request.timestamp,
    request.nonce,
    digest,
  ].join('\n');
}

export function sign(key: Buffer, request: SignedRequest): string {
  return createHmac('sha256', key).update(stringToSign(request)).digest('hex');
}

/** The headers of a request from `link.sender` to `link.recipient`, signed at `nowMs` with a fresh `nonce`. */
export function signedHeaders(
  link: Direction & { secret: string },
  request: { method: string; path: string; body: unknown },
  nowMs: number,
  nonce: string,
): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  const signed = { ...request, sender: link.sender, recipient: link.recipient, timestamp, nonce };
  return {
    [PEER_HEADERS.version]: SIGNATURE_VERSION,
    [PEER_HEADERS.serviceId]: link.sender,
    [PEER_HEADERS.recipient]: link.recipient,
    [PEER_HEADERS.timestamp]: timestamp,
    [PEER_HEADERS.nonce]: nonce,
    [PEER_HEADERS.signature]: sign(directionKey(link.secret, link), signed),
  };
}

export type Verdict =
  /**
   * Signed by `sender` for us. `replayKey` identifies the request (its signature): remembered until
   * `rememberUntil` (seconds since the epoch), when its time leaves the window, it refuses the same request again.
   */
  | { ok: true; sender: string; replayKey: string; rememberUntil: number }
  /** 401: the request is not signed in a way we can check. 403: it is, and the check fails. */
  | { ok: false; status: 401 | 403; reason: string };

export interface VerifyContext {
  /** Our own service id: the only recipient we take requests for. */
  ownServiceId: string;
  /** The key for requests from `sender` to us (directionKey(secret, {sender, recipient: us})), if it is a peer. */
  inboundKey(sender: string): Buffer | undefined;
  nowMs: number;
  skewSeconds: number;
}

/** How long past its window a request is still remembered: the clocks of the hosts checking it may differ. */
export const REPLAY_GRACE_SECONDS = 60;

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const headerOf = (headers: Headers, name: string): string | undefined => {
  const value = headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/** A value from a header, fit to quote in an answer: as it is when plain, else in JSON and cut short. */
const quoted = (value: string, max: number): string =>
  value.length <= max && /^[\w.:/-]+$/.test(value) ? value : JSON.stringify(value.slice(0, max));

/**
 * Checks a peer request: the scheme's version, that it is addressed to us, its time against `nowMs`
 * (±`skewSeconds`), that the sender is a peer, and its signature with the key for that direction. The cheap checks
 * come first and need no key; the comparison takes the same time whatever the mismatch. Whether the request was
 * seen before is the caller's to check with `replayKey` (it needs a store shared by every process).
 */
export function verifyPeerRequest(
  request: { method: string; path: string; headers: Headers; body: unknown },
  context: VerifyContext,
): Verdict {
  const refuse = (status: 401 | 403, reason: string): Verdict => ({ ok: false, status, reason });
  const { headers } = request;
  const sender = headerOf(headers, PEER_HEADERS.serviceId);
  const signature = headerOf(headers, PEER_HEADERS.signature);
  if (sender === undefined || signature === undefined) return refuse(401, 'VIS peer request is not signed');
  // No header: a port of an earlier version, which signs with version 1.
  const version = headerOf(headers, PEER_HEADERS.version) ?? '1';
  if (version !== SIGNATURE_VERSION) {
    return refuse(
      401,
      `VIS signature version ${quoted(version, 16)} is not supported here; this port speaks version ${SIGNATURE_VERSION}`,
    );
  }
  const recipient = headerOf(headers, PEER_HEADERS.recipient);
  if (recipient === undefined) return refuse(401, 'VIS peer request names no recipient');
  if (recipient !== context.ownServiceId) {
    return refuse(
      403,
      `VIS peer request is addressed to ${quoted(recipient, MAX_SERVICE_ID_LENGTH)}, not to this port`,
    );
  }
  const timestamp = headerOf(headers, PEER_HEADERS.timestamp);
  if (timestamp === undefined || !/^\d{1,12}$/.test(timestamp)) return refuse(401, 'Invalid VIS peer request time');
  if (Math.abs(Number(timestamp) - context.nowMs / 1000) > context.skewSeconds) {
    return refuse(401, 'VIS peer request time is outside the allowed window');
  }
  const nonce = headerOf(headers, PEER_HEADERS.nonce);
  if (nonce === undefined || !/^[\w-]{16,64}$/.test(nonce)) return refuse(401, 'Invalid VIS peer request nonce');
  const key = sender.length <= MAX_SERVICE_ID_LENGTH ? context.inboundKey(sender) : undefined;
  if (!key) return refuse(401, `Unknown VIS peer: ${sender.slice(0, MAX_SERVICE_ID_LENGTH)}`);
  const { method, path, body } = request;
  const expected = Buffer.from(sign(key, { method, path, body, sender, recipient, timestamp, nonce }), 'hex');
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return refuse(403, 'Invalid VIS peer signature');
  }
  return {
    ok: true,
    sender,
    replayKey: expected.toString('hex'),
    rememberUntil: Number(timestamp) + context.skewSeconds + REPLAY_GRACE_SECONDS,
  };
}
