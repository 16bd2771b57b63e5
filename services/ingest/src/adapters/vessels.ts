// The `ingest.vessels` table: written in the same transaction as the vessel's events, read by IMO-0 lookups and
// by the gateway (GET /vessels).

import type { Queryable } from '@pcas/sql';
import { fakeImo } from '../domain/imo.ts';
import type { Vessel } from '../domain/vessel.ts';

/** The first vessel whose name matches case-insensitively (oldest first, as the original's lookup). */
export async function findVesselByName(q: Queryable, name: string): Promise<Vessel | undefined> {
  const { rows } = await q.query<Vessel>(
    'SELECT imo, vessel_name FROM ingest.vessels WHERE lower(vessel_name) = lower($1) ORDER BY id LIMIT 1',
    [name],
  );
  return rows[0];
}

export async function findVesselByImo(q: Queryable, imo: number): Promise<Vessel | undefined> {
  const { rows } = await q.query<Vessel>('SELECT imo, vessel_name FROM ingest.vessels WHERE imo = $1', [imo]);
  return rows[0];
}

/**
 * Serialises IMO-0 registrations of one name until the transaction ends, so two posts of a new unnamed vessel
 * cannot both create it.
 */
export async function lockVesselName(tx: Queryable, name: string): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext('ingest.vessel-name:' || lower($1)))", [name]);
}

/** Inserts a vessel under a fake IMO (100000000 + its row id) and returns that IMO. */
export async function insertFakeImoVessel(tx: Queryable, name: string, userId: number | null): Promise<number> {
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO ingest.vessels (id, imo, vessel_name, created_by, modified_by)
     SELECT n.id, $1::bigint + n.id, $2, $3, $3
       FROM (SELECT nextval(pg_get_serial_sequence('ingest.vessels', 'id'))::int AS id) n
     RETURNING id`,
    [fakeImo(0), name, userId],
  );
  return fakeImo(rows[0].id);
}

/** Registers or renames the vessel row (the stream's expected version guards against concurrent writers). */
export async function saveVessel(tx: Queryable, vessel: Vessel, userId: number | null): Promise<void> {
  await tx.query(
    `INSERT INTO ingest.vessels (imo, vessel_name, created_by, modified_by) VALUES ($1, $2, $3, $3)
     ON CONFLICT (imo) DO UPDATE SET vessel_name = EXCLUDED.vessel_name, modified_at = now(), modified_by = EXCLUDED.modified_by`,
    [vessel.imo, vessel.vessel_name, userId],
  );
}
