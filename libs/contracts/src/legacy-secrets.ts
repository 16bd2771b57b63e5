// Gateway events written by earlier versions carried secrets in their data. The gateway moves them to its
// credentials table and removes them from the stored events at its start (services/gateway/src/adapters/schema.ts);
// the relay publishes every event through upcastEvent, so one it reaches before that (a relay of another fleet
// process starting first, a relay re-run from position 0) goes out without them too.

import type { RecordedEvent } from '@pcas/eventstore';

/** Event type → the fields of its data that held a secret in logs written by earlier versions. */
export const LEGACY_EVENT_SECRETS: Readonly<Record<string, readonly string[]>> = {
  UserCreated: ['password_hash'],
  ApiKeyCreated: ['key'],
  RegistrationCodeCreated: ['code'],
};

/** The event as today's contracts describe it: an earlier version's secret fields dropped. */
export function upcastEvent(event: RecordedEvent): RecordedEvent {
  const fields = LEGACY_EVENT_SECRETS[event.type];
  const data = event.data as Record<string, unknown> | null;
  if (!fields || typeof data !== 'object' || data === null || !fields.some((f) => Object.hasOwn(data, f))) {
    return event;
  }
  const kept = Object.fromEntries(Object.entries(data).filter(([field]) => !fields.includes(field)));
  return { ...event, data: kept };
}
