// Deterministic event ids: the event store stores an id once per stream, so deriving the TimestampReceived id
// from the timestamp's content makes a re-post of the same timestamp a no-op (the original's duplicate check).

import { createHash } from 'node:crypto';

// Fixed namespace of this service's name-based UUIDs; changing it would break deduplication of old posts.
const NAMESPACE = Buffer.from('5d0f4c3e8a1b4f6c9e2d7a3b1c0e9f48', 'hex');

/** JSON with object keys sorted at every depth, so key order never changes the result. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** RFC 4122 version-5 (SHA-1, name-based) UUID of `name` in this service's namespace. */
export function uuidV5(name: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
