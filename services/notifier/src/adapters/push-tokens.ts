// Push tokens of mobile devices, owned by the notifier (docs/architecture.md#services): one row per (platform,
// installation_id) in notifier.push_tokens, each with its stream `pushtoken-<id>`, written in the transaction of
// the append. The token is a secret (whoever has it can push to the device): it is in the row only, never in an
// event, which the relay publishes. The pushes read it to reach a user's devices; a token Expo no longer accepts is removed here too.

import { createHash } from 'node:crypto';
import { type PushTokenRegistered, type PushTokenRemoved, pushTokenStream } from '@pcas/contracts';
import type { EventMetadata, EventStore } from '@pcas/eventstore';
import { type Db, lockForTransaction, type Queryable } from '@pcas/sql';
import { deviceChange, type PushTokenRegistration } from '../domain/push-tokens.ts';

export const PUSH_TOKENS_DDL = [
  'CREATE SEQUENCE IF NOT EXISTS notifier.push_token_ids',
  `CREATE TABLE IF NOT EXISTS notifier.push_tokens (
     id integer PRIMARY KEY,
     user_id integer NOT NULL,
     platform text NOT NULL,
     installation_id text NOT NULL,
     push_token text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     modified_at timestamptz NOT NULL DEFAULT now(),
     UNIQUE (platform, installation_id)
   )`,
  'CREATE INDEX IF NOT EXISTS push_tokens_user_id ON notifier.push_tokens (user_id)',
  'CREATE INDEX IF NOT EXISTS push_tokens_push_token ON notifier.push_tokens (push_token)',
  // Earlier versions kept the tokens in the gateway (same rows, same `pushtoken-<id>` streams): they move here
  // once, the id sequence goes on after theirs, and the gateway's copy is dropped so it cannot come back.
  `DO $adopt$ BEGIN
     IF to_regclass('gateway.push_tokens') IS NOT NULL THEN
       INSERT INTO notifier.push_tokens (id, user_id, platform, installation_id, push_token, created_at, modified_at)
         SELECT id, user_id, platform, installation_id, push_token, created_at, modified_at FROM gateway.push_tokens
         ON CONFLICT DO NOTHING;
       PERFORM setval('notifier.push_token_ids', greatest(
         (SELECT coalesce(max(id), 0) FROM notifier.push_tokens),
         (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM gateway.push_token_ids),
         1));
       DROP TABLE gateway.push_tokens;
       DROP SEQUENCE IF EXISTS gateway.push_token_ids;
     END IF;
   END $adopt$`,
  // Earlier versions also wrote the token into PushTokenRegistered's data: removed from the stored events once (the
  // one rewrite of the log, as the gateway's for its secrets: docs/architecture.md#services), marked done so that
  // later starts do not scan the log again. The relay publishes old events without it meanwhile (upcastEvent).
  'CREATE TABLE IF NOT EXISTS notifier.migrations (name text PRIMARY KEY, done_at timestamptz NOT NULL DEFAULT now())',
  `DO $tokens$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM notifier.migrations WHERE name = 'push-tokens-out-of-the-log') THEN
       IF to_regclass('eventstore.events') IS NOT NULL THEN
         UPDATE eventstore.events SET data = data - 'push_token'
          WHERE event_type = 'PushTokenRegistered' AND data ? 'push_token';
       END IF;
       INSERT INTO notifier.migrations (name) VALUES ('push-tokens-out-of-the-log');
     END IF;
   END $tokens$`,
];

export interface PushTokenRow {
  id: number;
  user_id: number;
  platform: string;
  installation_id: string;
  push_token: string;
}

const COLUMNS = 'id, user_id, platform, installation_id, push_token';

// A device has no id before its first registration, so its natural key names the lock; it assigns no
// transaction id, so the append still comes before the transaction's first write (libs/eventstore).
async function lockDevice(tx: Queryable, platform: string, installationId: string): Promise<void> {
  await lockForTransaction(tx, 'notifier-push-device', JSON.stringify([platform, installationId]));
}

/**
 * Registers the device to `userId` (moving it from another user only with its current token), or with an empty
 * token removes the user's own device (domain/push-tokens.ts deviceChange). Returns the row's id, as the
 * original; 0 when an empty token named no device of the user's.
 */
export async function registerPushToken(
  db: Db,
  store: EventStore,
  userId: number,
  registration: PushTokenRegistration,
  metadata: EventMetadata,
): Promise<number> {
  const { platform, installation_id, push_token } = registration;
  return db.transaction(async (tx) => {
    await lockDevice(tx, platform, installation_id);
    const { rows } = await tx.query<PushTokenRow>(
      `SELECT ${COLUMNS} FROM notifier.push_tokens WHERE platform = $1 AND installation_id = $2`,
      [platform, installation_id],
    );
    const existing = rows[0];
    const change = deviceChange(existing, userId, registration);
    if (change === 'nothing') return 0;
    if (change === 'keep') return existing.id;
    if (change === 'remove') {
      await removeRow(tx, store, existing, 'unregistered', metadata);
      return existing.id;
    }
    const id =
      existing?.id ??
      (await tx.query<{ id: number }>(`SELECT nextval('notifier.push_token_ids')::int AS id`)).rows[0].id;
    const registered: PushTokenRegistered = {
      id,
      user_id: userId,
      platform,
      installation_id,
      previous_user_id: existing?.user_id ?? null,
    };
    await store.append(pushTokenStream(id), [{ type: 'PushTokenRegistered', data: registered, metadata }], {
      tx,
      expectedVersion: 'any',
    });
    await tx.query(
      `INSERT INTO notifier.push_tokens (id, user_id, platform, installation_id, push_token)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET user_id = EXCLUDED.user_id, push_token = EXCLUDED.push_token, modified_at = now()`,
      [id, userId, platform, installation_id, push_token],
    );
    return id;
  });
}

async function removeRow(
  tx: Queryable,
  store: EventStore,
  row: PushTokenRow,
  reason: PushTokenRemoved['reason'],
  metadata: EventMetadata,
): Promise<void> {
  const removed: PushTokenRemoved = {
    id: row.id,
    user_id: row.user_id,
    platform: row.platform,
    installation_id: row.installation_id,
    reason,
  };
  await store.append(pushTokenStream(row.id), [{ type: 'PushTokenRemoved', data: removed, metadata }], {
    tx,
    expectedVersion: 'any',
  });
  await tx.query('DELETE FROM notifier.push_tokens WHERE id = $1', [row.id]);
}

/**
 * Removes the devices registered with one of these tokens (reported stale by a push service). Returns how many
 * were removed.
 */
export async function removeStaleTokens(
  db: Db,
  store: EventStore,
  tokens: readonly string[],
  metadata: EventMetadata,
): Promise<number> {
  if (tokens.length === 0) return 0;
  const { rows } = await db.query<PushTokenRow>(
    `SELECT ${COLUMNS} FROM notifier.push_tokens WHERE push_token = ANY($1::text[]) ORDER BY id`,
    [tokens],
  );
  return removeUnchanged(db, store, rows, metadata);
}

/**
 * A short digest of a token: what a push job keeps instead of the token itself (jobs sit in Redis), enough to tell
 * whether a device still has the token a message went to.
 */
export const tokenDigest = (token: string): string =>
  createHash('sha256').update(token).digest('base64url').slice(0, 16);

/** The devices' current tokens, by id (removed devices are absent). */
export async function tokensByIds(db: Queryable, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ id: number; push_token: string }>(
    'SELECT id, push_token FROM notifier.push_tokens WHERE id = ANY($1::int[])',
    [ids],
  );
  return new Map(rows.map((r) => [Number(r.id), r.push_token]));
}

/**
 * Removes devices Expo answered DeviceNotRegistered for, each only if it still has the token the message went to
 * (`digest`), as stale: an event on the device's stream, by no user. Returns how many were removed.
 */
export async function removeUnregisteredDevices(
  db: Db,
  store: EventStore,
  devices: readonly { id: number; digest: string }[],
): Promise<number> {
  if (devices.length === 0) return 0;
  const { rows } = await db.query<PushTokenRow>(
    `SELECT ${COLUMNS} FROM notifier.push_tokens WHERE id = ANY($1::int[])`,
    [devices.map((d) => d.id)],
  );
  const sentTo = new Map(devices.map((d) => [d.id, d.digest]));
  const unchanged = rows.filter((r) => sentTo.get(Number(r.id)) === tokenDigest(r.push_token));
  return removeUnchanged(db, store, unchanged, { user_id: null, api_key_id: null });
}

// One transaction per device, under the same lock as registration, so a device that re-registered with a fresh
// token meanwhile is left alone.
async function removeUnchanged(
  db: Db,
  store: EventStore,
  rows: readonly PushTokenRow[],
  metadata: EventMetadata,
): Promise<number> {
  let removed = 0;
  for (const row of rows) {
    const done = await db.transaction(async (tx) => {
      await lockDevice(tx, row.platform, row.installation_id);
      const current = await tx.query<PushTokenRow>(`SELECT ${COLUMNS} FROM notifier.push_tokens WHERE id = $1`, [
        row.id,
      ]);
      if (current.rows[0]?.push_token !== row.push_token) return false;
      await removeRow(tx, store, current.rows[0], 'stale', metadata);
      return true;
    });
    if (done) removed++;
  }
  return removed;
}
