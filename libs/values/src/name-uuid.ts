// Content-based ids: an RFC 4122 version-5 UUID (SHA-1, name-based) of a name in a namespace, so the same fact
// received again gets the same event id, which the event store stores once. Node only (node:crypto), hence its
// own entry point (`@pcas/values/name-uuid`), apart from the browser-safe index.

import { createHash } from 'node:crypto';

/** A namespace as 32 hex digits (a UUID without dashes). Changing a service's namespace changes all its ids. */
export function uuidNamespace(hex: string): Uint8Array {
  if (!/^[0-9a-f]{32}$/i.test(hex)) throw new Error(`not a UUID namespace: ${hex}`);
  return Buffer.from(hex, 'hex');
}

/** No namespace: the SHA-1 of the name alone (the ids the projector's timers and the queue's live ETA make). */
export const NO_NAMESPACE: Uint8Array = new Uint8Array(0);

/** RFC 4122 version-5 UUID of `name` (UTF-8) in `namespace`. */
export function nameUuid(namespace: Uint8Array, name: string): string {
  const hash = createHash('sha1').update(namespace).update(name, 'utf8').digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
