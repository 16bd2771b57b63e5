// Deterministic event ids: the event store stores an id once per stream, so deriving the TimestampReceived id
// from the timestamp's content (its canonical JSON, @pcas/values) makes a re-post of the same timestamp a no-op
// (the original's duplicate check).

import { nameUuid, uuidNamespace } from '@pcas/values/name-uuid';

// Fixed namespace of this service's name-based UUIDs; changing it would break deduplication of old posts.
const NAMESPACE = uuidNamespace('5d0f4c3e8a1b4f6c9e2d7a3b1c0e9f48');

/** RFC 4122 version-5 (SHA-1, name-based) UUID of `name` in this service's namespace. */
export const uuidV5 = (name: string): string => nameUuid(NAMESPACE, name);
