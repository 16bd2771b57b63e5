// Name-based event ids: the same fact received again gets the same id, which the event store stores once.

import { createHash } from 'node:crypto';

// Fixed namespace of the vis-bridge's name-based ids; changing it would break deduplication of old messages.
const NAMESPACE = Buffer.from('5f0c2a7e9b1d4c3aa8e6d1f4b2c7e903', 'hex');

/** RFC 4122 version-5 UUID of `parts` as JSON (callers keep key order fixed). */
export function nameBasedId(parts: unknown): string {
  const hash = createHash('sha1').update(NAMESPACE).update(JSON.stringify(parts), 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
