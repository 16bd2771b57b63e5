// The pinned-vessels read model (schema in schema.ts): `notifier.pinned_vessels` holds each user's IMOs in their
// order, `notifier.pin_versions` the version of the user's pins stream the rows stand for. Both are written in
// the transaction of the append, so a command decides against them rather than reading the stream back.

import type { PinnedVesselsSet } from '@pcas/contracts';
import type { Queryable } from '@pcas/sql';

export const PINS_DDL = [
  `CREATE TABLE IF NOT EXISTS notifier.pinned_vessels (
     user_id bigint NOT NULL,
     imo bigint NOT NULL,
     position int NOT NULL,
     PRIMARY KEY (user_id, imo)
   )`,
  // Who pinned this IMO (the pushes of a vessel's news go to them).
  'CREATE INDEX IF NOT EXISTS pinned_vessels_imo ON notifier.pinned_vessels (imo)',
  'CREATE TABLE IF NOT EXISTS notifier.pin_versions (user_id bigint PRIMARY KEY, version bigint NOT NULL)',
];

/**
 * The user's pins and the stream version they stand for (0: never set), the version row locked until the
 * transaction ends so the user's concurrent changes take turns (the expected version still guards the stream).
 */
export async function loadPins(tx: Queryable, userId: number): Promise<{ state: number[]; version: number }> {
  const { rows } = await tx.query<{ version: string | null; imos: string[] | null }>(
    `SELECT (SELECT version FROM notifier.pin_versions WHERE user_id = $1 FOR UPDATE) AS version,
            (SELECT array_agg(imo ORDER BY position) FROM notifier.pinned_vessels WHERE user_id = $1) AS imos`,
    [userId],
  );
  return { state: (rows[0].imos ?? []).map(Number), version: Number(rows[0].version ?? 0) };
}

/** Replaces the user's rows with the event's list and records the stream version it brought them to. */
export async function savePins(tx: Queryable, event: PinnedVesselsSet, version: number): Promise<void> {
  await tx.query('DELETE FROM notifier.pinned_vessels WHERE user_id = $1', [event.user_id]);
  if (event.imos.length > 0) {
    await tx.query(
      `INSERT INTO notifier.pinned_vessels (user_id, imo, position)
         SELECT $1, imo, position::int - 1 FROM unnest($2::bigint[]) WITH ORDINALITY AS t(imo, position)`,
      [event.user_id, event.imos],
    );
  }
  await tx.query(
    `INSERT INTO notifier.pin_versions (user_id, version) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET version = excluded.version`,
    [event.user_id, version],
  );
}
