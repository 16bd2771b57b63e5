// The `ingest.vessels` table: written in the same transaction as the vessel's events, read by IMO-0 lookups and
// by the gateway (GET /vessels). A vessel's name and type are also on its sea chart Feature, made again with them.

import { lockForTransaction, type Queryable } from '@pcas/sql';
import { fakeImo } from '../domain/imo.ts';
import type { Vessel } from '../domain/vessel.ts';
import { lockSeaChart, refreshSeaChartFeatures, SEA_CHART_LOCK_KEY } from './positions.ts';

/** The first vessel whose name matches case-insensitively (oldest first, as the original's lookup). */
export async function findVesselByName(q: Queryable, name: string): Promise<Vessel | undefined> {
  const { rows } = await q.query<Vessel>(
    'SELECT imo, vessel_name FROM ingest.vessels WHERE lower(vessel_name) = lower($1) ORDER BY id LIMIT 1',
    [name],
  );
  return rows[0];
}
/**
 * Serialises IMO-0 registrations of one name until the transaction ends, so two posts of a new unnamed vessel
 * cannot both create it. Names found alike case-insensitively (findVesselByName) share the lock.
 */
export async function lockVesselName(tx: Queryable, name: string): Promise<void> {
  await lockForTransaction(tx, 'ingest-vessel-name', name.toLowerCase());
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

const UPSERT_SET = `ON CONFLICT (imo) DO UPDATE
       SET vessel_name = EXCLUDED.vessel_name, modified_at = now(), modified_by = EXCLUDED.modified_by`;

/**
 * Vessel rows written, then the sea chart's lock taken (lockSeaChart), in one statement: the lock is taken once
 * the count has read every written row, so after them as with two statements, one round trip fewer. The refresh
 * still follows as a statement of its own, whose snapshot is taken after the lock.
 */
const upsertThenLockSeaChart = (rows: string) => `WITH written AS (
    INSERT INTO ingest.vessels (imo, vessel_name, created_by, modified_by)
    ${rows}
    ${UPSERT_SET}
    RETURNING 1)
  SELECT pg_advisory_xact_lock(${SEA_CHART_LOCK_KEY}) FROM (SELECT count(*) FROM written) w`;

const SAVE_VESSEL_SQL = upsertThenLockSeaChart('VALUES ($1, $2, $3, $3)');
const SAVE_NEW_VESSELS_SQL = upsertThenLockSeaChart(`SELECT v.imo, v.vessel_name, v.user_id, v.user_id
      FROM unnest($1::bigint[], $2::text[], $3::int[]) AS v(imo, vessel_name, user_id)`);

/** Registers or renames the vessel row (the stream's expected version guards against concurrent writers). */
export async function saveVessel(tx: Queryable, vessel: Vessel, userId: number | null): Promise<void> {
  await tx.query(SAVE_VESSEL_SQL, [vessel.imo, vessel.vessel_name, userId]);
  await refreshSeaChartFeatures(tx, { imos: [vessel.imo], mmsis: [] });
}

/**
 * Registers several vessels new here at once (their streams appended in the same transaction): one insert of the
 * rows, one lock and one refresh of the sea chart, instead of three statements per vessel.
 */
export async function saveNewVessels(
  tx: Queryable,
  vessels: readonly { vessel: Vessel; userId: number | null }[],
): Promise<void> {
  if (vessels.length === 0) return;
  await tx.query(SAVE_NEW_VESSELS_SQL, [
    vessels.map((v) => v.vessel.imo),
    vessels.map((v) => v.vessel.vessel_name),
    vessels.map((v) => v.userId),
  ]);
  await refreshSeaChartFeatures(tx, { imos: vessels.map((v) => v.vessel.imo), mmsis: [] });
}

/** Of these IMOs, those with a row here (a vessel registered: its row is written with its first events). */
export async function knownImos(q: Queryable, imos: readonly number[]): Promise<Set<number>> {
  const { rows } = await q.query<{ imo: string | number }>(
    'SELECT imo FROM ingest.vessels WHERE imo = ANY($1::bigint[])',
    [imos],
  );
  return new Set(rows.map((r) => Number(r.imo)));
}

/** A vessel's row by its row id (PUT /vessel) or its IMO (a data source): its IMO and type. */
export async function findVesselType(
  q: Queryable,
  key: { id: number } | { imo: number },
): Promise<{ imo: number; vessel_type: number } | undefined> {
  const [column, value] = 'id' in key ? ['id', key.id] : ['imo', key.imo];
  const { rows } = await q.query<{ imo: string | number; vessel_type: number }>(
    `SELECT imo, vessel_type FROM ingest.vessels WHERE ${column} = $1`,
    [value],
  );
  return rows[0] && { imo: Number(rows[0].imo), vessel_type: rows[0].vessel_type };
}

/**
 * Serialises type changes of one vessel until the transaction ends (an advisory lock: it writes nothing, so the
 * event store's append still takes the stream's lock before this transaction's first write).
 */
export async function lockVesselType(tx: Queryable, imo: number): Promise<void> {
  await lockForTransaction(tx, 'ingest-vessel-type', String(imo));
}

export async function saveVesselType(
  tx: Queryable,
  imo: number,
  vesselType: number,
  userId: number | null,
): Promise<void> {
  await tx.query('UPDATE ingest.vessels SET vessel_type = $2, modified_at = now(), modified_by = $3 WHERE imo = $1', [
    imo,
    vesselType,
    userId,
  ]);
  await lockSeaChart(tx);
  await refreshSeaChartFeatures(tx, { imos: [imo], mmsis: [] });
}
