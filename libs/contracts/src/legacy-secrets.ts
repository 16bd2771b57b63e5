// Events written by earlier versions carried secrets in their data: the gateway's (passwords, API keys, codes)
// and the notifier's (a mobile device's push token). Each owner keeps the secret in a table of its own and removes
// it from its stored events once, at its start (services/gateway/src/adapters/schema.ts,
// services/notifier/src/adapters/push-tokens.ts); the relay publishes every event through upcastEvent, so one it
// reaches before that (a relay of another fleet process starting first, a relay re-run from position 0) goes out
// without them too.

import type { RecordedEvent } from '@pcas/eventstore';

/** The gateway's event types → the fields of their data that held a secret in logs written by earlier versions. */
export const GATEWAY_LEGACY_EVENT_SECRETS: Readonly<Record<string, readonly string[]>> = {
  UserCreated: ['password_hash'],
  ApiKeyCreated: ['key'],
  RegistrationCodeCreated: ['code'],
};

/** The notifier's: a device's push token (an address anyone could push to) is kept in notifier.push_tokens only. */
export const NOTIFIER_LEGACY_EVENT_SECRETS: Readonly<Record<string, readonly string[]>> = {
  PushTokenRegistered: ['push_token'],
};

/** Every event type → the fields of its data that held a secret in logs written by earlier versions. */
export const LEGACY_EVENT_SECRETS: Readonly<Record<string, readonly string[]>> = {
  ...GATEWAY_LEGACY_EVENT_SECRETS,
  ...NOTIFIER_LEGACY_EVENT_SECRETS,
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
