// Name-based event ids: the same fact received again gets the same id, which the event store stores once.

import { nameUuid, uuidNamespace } from '@pcas/values/name-uuid';

// Fixed namespace of the vis-bridge's name-based ids; changing it would break deduplication of old messages.
const NAMESPACE = uuidNamespace('5f0c2a7e9b1d4c3aa8e6d1f4b2c7e903');

/** RFC 4122 version-5 UUID of `parts` as JSON (callers keep key order fixed). */
export const nameBasedId = (parts: unknown): string => nameUuid(NAMESPACE, JSON.stringify(parts));
