// gateway.settings: seeded by the schema, changed by PUT /settings/:name/:value. Every change is an event on
// `setting-<name>` with the row (value, modified_by) written in the same transaction. The module check reuses a
// switch read for at most a second per gateway process (entry-points/caller-cache.ts, docs/domain.md#sessions):
// a module switched off is off at once in the process that switched it, and within a second in the others.

import { type Actor, type SettingChanged, settingStream } from '@pcas/contracts';
import type { EventStore } from '@pcas/eventstore';
import type { Db, Queryable } from '@pcas/sql';
import { lockStreamForDecision } from './decision-lock.ts';
import { metadataOf } from './users.ts';

export interface SettingRow {
  id: number;
  name: string;
  value: string;
  modified_by: number | null;
}

export async function readSettings(db: Queryable, names: readonly string[]): Promise<Record<string, string>> {
  const { rows } = await db.query<{ name: string; value: string }>(
    'SELECT name, value FROM gateway.settings WHERE name = ANY($1::text[])',
    [names],
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.value]));
}

export async function listSettings(db: Queryable): Promise<SettingRow[]> {
  const { rows } = await db.query<SettingRow>('SELECT id, name, value, modified_by FROM gateway.settings ORDER BY id');
  return rows;
}

/** The setting with its last modifier (codeless registration's "activator"), or null when unknown. */
export async function getSetting(db: Queryable, name: string): Promise<SettingRow | null> {
  const { rows } = await db.query<SettingRow>(
    'SELECT id, name, value, modified_by FROM gateway.settings WHERE name = $1',
    [name],
  );
  return rows[0] ?? null;
}

/**
 * Stores a value already checked by the domain rules. Recorded even when the value stays the same: the
 * actor becomes the setting's modifier, which decides who activated codeless registration
 * (docs/domain.md#registration).
 */
export async function changeSetting(db: Db, store: EventStore, name: string, value: string, actor: Actor) {
  const stream = settingStream(name);
  return db.transaction(async (tx) => {
    await lockStreamForDecision(tx, stream);
    const current = await getSetting(tx, name);
    if (!current) return null;
    const event: SettingChanged = { name, value, previous_value: current.value };
    await store.append(stream, [{ type: 'SettingChanged', data: event, metadata: metadataOf(actor) }], {
      tx,
      expectedVersion: 'any',
    });
    await tx.query('UPDATE gateway.settings SET value = $2, modified_at = now(), modified_by = $3 WHERE name = $1', [
      name,
      value,
      actor.user_id,
    ]);
    return { ...current, value, modified_by: actor.user_id };
  });
}
