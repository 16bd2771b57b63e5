// Push tokens of mobile devices: one row per (platform, installation_id) in gateway.push_tokens, each with its
// stream `pushtoken-<id>`. Written here, read by the notifier to reach a user's devices.

import { type Actor, type PushTokenRegistered, type PushTokenRemoved, pushTokenStream } from '@pcas/contracts';
import type { EventStore } from '@pcas/eventstore';
import type { Db, Queryable } from '@pcas/sql';
import type { PushTokenRegistration } from '../domain/push-tokens.ts';
import { lockStreamForDecision } from './decision-lock.ts';
import { metadataOf } from './users.ts';

export interface PushTokenRow {
  id: number;
  user_id: number;
  platform: string;
  installation_id: string;
  push_token: string;
}

const COLUMNS = 'id, user_id, platform, installation_id, push_token';

export async function pushTokensOfUser(db: Queryable, userId: number): Promise<PushTokenRow[]> {
  const { rows } = await db.query<PushTokenRow>(
    `SELECT ${COLUMNS} FROM gateway.push_tokens WHERE user_id = $1 ORDER BY id`,
    [userId],
  );
  return rows;
}

/**
 * Registers the device to `userId` (moving it from whoever had it), or with an empty token removes it.
 * Returns the row's id, as the original; 0 when an empty token named no registered device.
 */
export async function registerPushToken(
  db: Db,
  store: EventStore,
  userId: number,
  registration: PushTokenRegistration,
  actor: Actor,
): Promise<number> {
  const { platform, installation_id, push_token } = registration;
  return db.transaction(async (tx) => {
    // The device has no id before its first registration, so its natural key names the lock.
    await lockStreamForDecision(tx, `pushtoken-device:${JSON.stringify([platform, installation_id])}`);
    const { rows } = await tx.query<PushTokenRow>(
      `SELECT ${COLUMNS} FROM gateway.push_tokens WHERE platform = $1 AND installation_id = $2`,
      [platform, installation_id],
    );
    const existing = rows[0];
    if (push_token === '') {
      if (!existing) return 0;
      const removed: PushTokenRemoved = {
        id: existing.id,
        user_id: existing.user_id,
        platform,
        installation_id,
        reason: 'unregistered',
      };
      await store.append(
        pushTokenStream(existing.id),
        [{ type: 'PushTokenRemoved', data: removed, metadata: metadataOf(actor) }],
        { tx, expectedVersion: 'any' },
      );
      await tx.query('DELETE FROM gateway.push_tokens WHERE id = $1', [existing.id]);
      return existing.id;
    }
    if (existing && existing.user_id === userId && existing.push_token === push_token) return existing.id;
    const id =
      existing?.id ??
      (await tx.query<{ id: number }>(`SELECT nextval('gateway.push_token_ids')::int AS id`)).rows[0].id;
    const registered: PushTokenRegistered = {
      id,
      user_id: userId,
      platform,
      installation_id,
      push_token,
      previous_user_id: existing?.user_id ?? null,
    };
    await store.append(
      pushTokenStream(id),
      [{ type: 'PushTokenRegistered', data: registered, metadata: metadataOf(actor) }],
      { tx, expectedVersion: 'any' },
    );
    await tx.query(
      `INSERT INTO gateway.push_tokens (id, user_id, platform, installation_id, push_token)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET user_id = EXCLUDED.user_id, push_token = EXCLUDED.push_token, modified_at = now()`,
      [id, userId, platform, installation_id, push_token],
    );
    return id;
  });
}

/** POST /push-notification-tokens: deletes every device registered with one of these tokens. */
export async function removeStaleTokens(db: Db, store: EventStore, tokens: string[], actor: Actor): Promise<number> {
  if (tokens.length === 0) return 0;
  const { rows } = await db.query<PushTokenRow>(
    `SELECT ${COLUMNS} FROM gateway.push_tokens WHERE push_token = ANY($1::text[]) ORDER BY id`,
    [tokens],
  );
  let removed = 0;
  // One transaction per device, under the same lock as registration, so a device that re-registered with a
  // fresh token meanwhile is left alone.
  for (const row of rows) {
    const done = await db.transaction(async (tx) => {
      await lockStreamForDecision(tx, `pushtoken-device:${JSON.stringify([row.platform, row.installation_id])}`);
      const current = await tx.query<PushTokenRow>(`SELECT ${COLUMNS} FROM gateway.push_tokens WHERE id = $1`, [
        row.id,
      ]);
      if (current.rows[0]?.push_token !== row.push_token) return false;
      const event: PushTokenRemoved = {
        id: row.id,
        user_id: current.rows[0].user_id,
        platform: row.platform,
        installation_id: row.installation_id,
        reason: 'stale',
      };
      await store.append(
        pushTokenStream(row.id),
        [{ type: 'PushTokenRemoved', data: event, metadata: metadataOf(actor) }],
        { tx, expectedVersion: 'any' },
      );
      await tx.query('DELETE FROM gateway.push_tokens WHERE id = $1', [row.id]);
      return true;
    });
    if (done) removed++;
  }
  return removed;
}
