// How two ports in direct mode know each other (docs/architecture.md#vis-direct-mode): every peer request carries
// the sender's service id, a time and an HMAC-SHA256 made with the secret the two ports share, over the method,
// the VIS operation's path, that time and a digest of the body. Pure: no I/O, the clock is passed in.
//
// The body is signed in a canonical form (keys sorted, no blanks) rather than as bytes: the gateway hands the
// vis-bridge the parsed JSON, not the bytes, so both sides serialise the same value the same way. Top-level
// strings are trimmed by the edge before anyone sees them, so the sender trims them before signing too.

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_SCHEME = 'VIS-HMAC-SHA256';

/** The headers a peer request carries (lower case, as Node hands them over). */
export const PEER_HEADERS = {
  serviceId: 'x-vis-service-id',
  timestamp: 'x-vis-timestamp',
  signature: 'x-vis-signature',
} as const;

/** A JSON value serialised with object keys in order, so equal values give equal text whoever wrote them. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** A body as the edge will hand it on: top-level strings trimmed, absent values left out. */
export function edgeForm<T extends Record<string, unknown>>(body: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (v === undefined) continue;
    out[k] = typeof v === 'string' ? v.trim() : v;
  }
  return out as T;
}

export interface SignedRequest {
  method: string;
  /** The VIS operation, relative to the service's URL (`/messages`, `/textMessage`), so proxies may prefix it. */
  path: string;
  /** Seconds since the epoch, as sent. */
  timestamp: string;
  body: unknown;
}

export function stringToSign(request: SignedRequest): string {
  const digest = createHash('sha256').update(canonicalJson(request.body)).digest('hex');
  return [SIGNATURE_SCHEME, request.method.toUpperCase(), request.path, request.timestamp, digest].join('\n');
}

export function sign(secret: string, request: SignedRequest): string {
  return createHmac('sha256', secret).update(stringToSign(request)).digest('hex');
}

/** The headers of a request from `serviceId`, signed at `nowMs`. */
export function signedHeaders(
  serviceId: string,
  secret: string,
  request: Omit<SignedRequest, 'timestamp'>,
  nowMs: number,
): Record<string, string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  return {
    [PEER_HEADERS.serviceId]: serviceId,
    [PEER_HEADERS.timestamp]: timestamp,
    [PEER_HEADERS.signature]: sign(secret, { ...request, timestamp }),
  };
}

export type Verdict =
  | { ok: true }
  /** 401: the request is not signed in a way we can check. 403: it is, and the check fails. */
  | { ok: false; status: 401 | 403; reason: string };

/**
 * Checks a request's signature against the peer's secret and its time against `nowMs` (±`skewSeconds`, so a
 * recorded request cannot be played again later). The comparison takes the same time whatever the mismatch.
 */
export function verify(
  secret: string,
  request: { method: string; path: string; timestamp: unknown; signature: unknown; body: unknown },
  nowMs: number,
  skewSeconds: number,
): Verdict {
  const { timestamp, signature } = request;
  if (typeof signature !== 'string' || signature === '' || typeof timestamp !== 'string' || timestamp === '') {
    return { ok: false, status: 401, reason: 'VIS peer request is not signed' };
  }
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, status: 401, reason: 'Invalid VIS peer request time' };
  if (Math.abs(Number(timestamp) - nowMs / 1000) > skewSeconds) {
    return { ok: false, status: 401, reason: 'VIS peer request time is outside the allowed window' };
  }
  const expected = Buffer.from(sign(secret, { ...request, timestamp }), 'hex');
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { ok: false, status: 403, reason: 'Invalid VIS peer signature' };
  }
  return { ok: true };
}
