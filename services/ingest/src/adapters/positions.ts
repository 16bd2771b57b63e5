// Vessel positions, owned by ingest (docs/domain.md#sea-chart): each accepted position an event on its vessel's
// stream (position-imo-<imo> / position-mmsi-<mmsi>), and the read model ingest.sea_chart_positions, one row per
// vessel holding its newest position and its finished GeoJSON Feature, written in the append's transaction. A
// batch is one multi-stream append and one bulk upsert (no round trip per item): AIS agents post hundreds of
// positions a few times a second.

import {
  POSITION_SIGNAL_STREAM_PREFIX,
  POSITION_STREAM_PREFIX,
  SEA_CHART_CHANGES_STREAM,
  type VesselPositionRecorded,
  type VesselPositionsCompacted,
} from '@pcas/contracts';
import type { EventMetadata, EventStore, StreamAppend } from '@pcas/eventstore';
import { VESSEL_TYPES, vesselMarkerClass } from '@pcas/s211';
import { advisoryLockKey, type Db, type Queryable } from '@pcas/sql';
import { newestPerVessel, type PositionEvent, type PositionLookups, positionsSignal } from '../domain/positions.ts';

/**
 * ingest.sea_chart_positions: the newest position of each vessel, keyed by its stream. `id` is the GeoJSON
 * feature's `properties.id`: the IMO, or the MMSI for a vessel known by MMSI only (stable, never a sequence, which
 * an upsert per position would run through). `feature` is the row's GeoJSON Feature as GET /sea-chart/vessels
 * serves it and `fixed` whether it is a fixed vessel's, kept in step with the fixed vessels and the vessels' names
 * and types (refreshSeaChartFeatures), so the gateway only filters by age and port call and concatenates.
 */
export const POSITIONS_DDL = [
  // No index but the key: a new position then updates its row in place (a HOT update, no index entry), with half
  // of each page left free for that. The gateway reads every row anyway (one per vessel seen, a few thousand).
  `CREATE TABLE IF NOT EXISTS ingest.sea_chart_positions (
     vessel_key text PRIMARY KEY,
     id bigint NOT NULL,
     imo bigint,
     mmsi bigint,
     vessel_name text NOT NULL DEFAULT '',
     latitude double precision NOT NULL,
     longitude double precision NOT NULL,
     heading_degrees double precision,
     speed_knots double precision,
     course_over_ground_degrees double precision,
     location_timestamp timestamptz NOT NULL,
     updated_at timestamptz NOT NULL DEFAULT now(),
     fixed boolean NOT NULL DEFAULT false,
     feature text
   ) WITH (fillfactor = 50)`,
  // A table made before the Feature was kept gets its columns (fillMissingFeatures fills them in), loses the
  // location time index and leaves pages half free, once.
  `DO $$ BEGIN
     IF NOT EXISTS (SELECT 1 FROM information_schema.columns
                     WHERE table_schema = 'ingest' AND table_name = 'sea_chart_positions' AND column_name = 'feature') THEN
       ALTER TABLE ingest.sea_chart_positions ADD COLUMN fixed boolean NOT NULL DEFAULT false,
         ADD COLUMN feature text, SET (fillfactor = 50);
       DROP INDEX IF EXISTS ingest.sea_chart_positions_time;
     END IF;
   END $$`,
];

/** After the DDL: the Feature of rows that have none yet (written before it was kept). */
export async function fillMissingFeatures(db: Queryable): Promise<void> {
  await db.query(refreshSql('l.feature IS NULL'));
}

// ---- the Feature ----

// Type names and marker classes by vessel type id (index = id, from 1), as SQL arrays of JSON string literals
// pasted into the Feature as they are: the types are data of libs/s211, not tables.
const sqlText = (value: string | null) => (value === null ? 'NULL' : `'${value.replaceAll("'", "''")}'`);
const typesById = [...VESSEL_TYPES].sort((a, b) => a.id - b.id);
const TYPE_COUNT = typesById.at(-1)?.id ?? 0;
const typeArray = (pick: (id: number) => string | undefined) =>
  `(ARRAY[${Array.from({ length: TYPE_COUNT }, (_, i) => {
    const value = pick(i + 1);
    return sqlText(value === undefined ? null : JSON.stringify(value));
  }).join(',')}]::text[])`;
const TYPE_NAMES = typeArray((id) => typesById.find((t) => t.id === id)?.name);
const MARKER_CLASSES = typeArray((id) => (typesById.some((t) => t.id === id) ? vesselMarkerClass(id) : undefined));

/**
 * The row's `fixed` and `feature` from its position columns (`l`), its fixed vessel (by IMO, else, for a vessel
 * known by MMSI only, by MMSI) and its vessel: `FROM <l> LEFT JOIN …` as the caller names `l`. The name is the
 * fixed vessel's, else the vessel's, else the position's; the marker type the fixed vessel's unless that is
 * "Unknown", else the vessel's (as the original). Location times are whole seconds (the decision drops fractions),
 * so the timestamp's text form is the ISO one with a `T`. Text made by concatenation: measured with 2,000
 * features, a fraction of json_agg with to_char.
 */
const FEATURE_COLUMNS = `(fi.id IS NOT NULL OR fm.id IS NOT NULL) AS fixed,
    '{"type":"Feature","geometry":{"type":"Point","coordinates":[' || l.longitude || ',' || l.latitude ||
    ']},"properties":{"name":' || to_json(coalesce(fi.vessel_name, fm.vessel_name, nullif(v.vessel_name, ''),
      l.vessel_name))::text ||
    ',"mmsi":' || coalesce(l.mmsi::text, 'null') || ',"imo":' || coalesce(l.imo::text, 'null') ||
    ',"latitude":' || l.latitude || ',"longitude":' || l.longitude ||
    ',"speed_knots":' || coalesce(l.speed_knots::text, 'null') ||
    ',"marker_class":' || ${MARKER_CLASSES}[t.type_id] ||
    ',"heading_degrees":' || coalesce(l.heading_degrees::text, 'null') ||
    ',"course_over_ground_degrees":' || coalesce(l.course_over_ground_degrees::text, 'null') ||
    ',"location_timestamp":"' || replace((l.location_timestamp AT TIME ZONE 'UTC')::text, ' ', 'T') || '+00:00"' ||
    ',"id":' || l.id || ',"vessel_type_name":' || ${TYPE_NAMES}[t.type_id] || '}}' AS feature`;
// Each a lookup by key per row (LIMIT keeps the planner from turning it into a join): a prepared statement's
// generic plan, guessing at the batch's size, once scanned the fixed vessels for every row (40 ms a batch).
const FEATURE_JOINS = `
    LEFT JOIN LATERAL (SELECT f.id, f.vessel_name, f.vessel_type FROM ingest.fixed_vessels f
                        WHERE f.imo = l.imo LIMIT 1) fi ON true
    LEFT JOIN LATERAL (SELECT f.id, f.vessel_name, f.vessel_type FROM ingest.fixed_vessels f
                        WHERE f.mmsi = l.mmsi AND f.imo IS NULL LIMIT 1) fm ON true
    LEFT JOIN LATERAL (SELECT x.vessel_name, x.vessel_type FROM ingest.vessels x WHERE x.imo = l.imo LIMIT 1) v ON true
    CROSS JOIN LATERAL (SELECT CASE
        WHEN coalesce(fi.vessel_type, fm.vessel_type, 1) <> 1 THEN coalesce(fi.vessel_type, fm.vessel_type)
        WHEN v.vessel_type BETWEEN 1 AND ${TYPE_COUNT} THEN v.vessel_type
        ELSE 1 END AS type_id) t`;

const refreshSql = (where: string) => `
  UPDATE ingest.sea_chart_positions AS p SET (fixed, feature) = (n.fixed, n.feature)
    FROM (SELECT l.vessel_key, ${FEATURE_COLUMNS}
            FROM ingest.sea_chart_positions l ${FEATURE_JOINS}
           WHERE ${where}) n
   WHERE p.vessel_key = n.vessel_key`;

/**
 * Positions take this lock shared, a change of what a Feature shows (fixed vessels, a vessel's name or type) takes
 * it exclusively (lockFixedVessels too): the upsert's read of fixed vessels and vessels then never misses a change
 * that commits meanwhile, and the change's refresh sees every position committed before it. An SQL literal: the
 * statements that take it do other work too.
 */
export const SEA_CHART_LOCK_KEY = `'${advisoryLockKey('ingest', 'sea-chart')}'::bigint`;

/** Takes the sea chart's lock exclusively until the transaction ends: before refreshSeaChartFeatures. */
export async function lockSeaChart(tx: Queryable): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(${SEA_CHART_LOCK_KEY})`);
}

/**
 * In the transaction of a change to fixed vessels or vessels, after its rows are written and with lockSeaChart
 * held: the Feature of every row of these IMOs or MMSIs made again.
 */
export async function refreshSeaChartFeatures(
  tx: Queryable,
  ids: { imos: readonly (number | null)[]; mmsis: readonly (number | null)[] },
): Promise<void> {
  const imos = ids.imos.filter((n): n is number => n !== null);
  const mmsis = ids.mmsis.filter((n): n is number => n !== null);
  if (imos.length === 0 && mmsis.length === 0) return;
  await tx.query(refreshSql('l.imo = ANY($1::bigint[]) OR l.mmsi = ANY($2::bigint[])'), [imos, mmsis]);
}

// What the batch's checks look up, in the statement that takes the sea chart's lock (shared): known vessels by
// IMO and fixed vessels by IMO or MMSI (the vessels of ongoing port calls are the projector's, asked of it before:
// ongoing-port-calls.ts). Its snapshot may predate the lock: the checks only need what was committed when the batch
// arrived, and the upsert, a later statement, reads the fixed vessels again after it.
const LOOKUPS_SQL = `
  SELECT pg_advisory_xact_lock_shared(${SEA_CHART_LOCK_KEY})::text AS locked,
         (SELECT coalesce(json_agg(json_build_array(v.imo, v.vessel_name)), '[]')
            FROM ingest.vessels v WHERE v.imo = ANY($1::bigint[])) AS vessels,
         (SELECT coalesce(json_agg(json_build_array(f.imo, f.mmsi, f.vessel_name)), '[]')
            FROM ingest.fixed_vessels f WHERE f.imo = ANY($1::bigint[]) OR f.mmsi = ANY($2::bigint[])) AS fixed`;

interface LookupRow {
  vessels: [number, string][];
  fixed: [number | null, number | null, string][];
}

/** Takes the sea chart's lock (shared) and reads what the batch's checks look up: one statement. */
async function lockAndLookUp(
  tx: Queryable,
  ids: { imos: number[]; mmsis: number[] },
  ongoingByMmsi: ReadonlyMap<number, number>,
): Promise<PositionLookups> {
  const row = (await tx.query<LookupRow>(LOOKUPS_SQL, [ids.imos, ids.mmsis])).rows[0];
  const fixedByMmsi = new Map<number, { imo: number | null; vessel_name: string }>();
  const fixedByImo = new Map<number, string>();
  for (const [imo, mmsi, name] of row.fixed) {
    if (mmsi !== null) fixedByMmsi.set(Number(mmsi), { imo: imo === null ? null : Number(imo), vessel_name: name });
    if (imo !== null) fixedByImo.set(Number(imo), name);
  }
  return {
    vessels: new Map(row.vessels.map(([imo, name]) => [Number(imo), name])),
    fixedByMmsi,
    fixedByImo,
    ongoingByMmsi,
  };
}

// One statement for the batch, with each row's Feature. Newest wins: a row changes only for a later location time,
// so batches arriving out of order, concurrently (each vessel's stream lock, taken by the append, orders them) or
// again change nothing twice. A position without MMSI keeps the one the row had.
const UPSERT_SQL = `
  INSERT INTO ingest.sea_chart_positions AS p (vessel_key, id, imo, mmsi, vessel_name, latitude, longitude,
    heading_degrees, speed_knots, course_over_ground_degrees, location_timestamp, fixed, feature)
  SELECT l.*, ${FEATURE_COLUMNS}
    FROM (SELECT i.vessel_key, i.id, i.imo, coalesce(i.mmsi, o.mmsi) AS mmsi, i.vessel_name, i.latitude, i.longitude,
                 i.heading_degrees, i.speed_knots, i.course_over_ground_degrees, i.location_timestamp
            FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[], $6::float8[], $7::float8[],
                   $8::float8[], $9::float8[], $10::float8[], $11::timestamptz[])
                   AS i (vessel_key, id, imo, mmsi, vessel_name, latitude, longitude, heading_degrees, speed_knots,
                         course_over_ground_degrees, location_timestamp)
            LEFT JOIN LATERAL (SELECT x.mmsi FROM ingest.sea_chart_positions x
                                WHERE x.vessel_key = i.vessel_key LIMIT 1) o ON true) l
    ${FEATURE_JOINS}
   WHERE true
  ON CONFLICT (vessel_key) DO UPDATE SET
    imo = excluded.imo, mmsi = excluded.mmsi, vessel_name = excluded.vessel_name,
    latitude = excluded.latitude, longitude = excluded.longitude, heading_degrees = excluded.heading_degrees,
    speed_knots = excluded.speed_knots, course_over_ground_degrees = excluded.course_over_ground_degrees,
    location_timestamp = excluded.location_timestamp, updated_at = now(), fixed = excluded.fixed,
    feature = excluded.feature
  WHERE excluded.location_timestamp > p.location_timestamp`;

async function upsertPositions(tx: Queryable, events: readonly PositionEvent[]): Promise<void> {
  const column = <T>(pick: (d: VesselPositionRecorded) => T) => events.map((e) => pick(e.data));
  await tx.query(UPSERT_SQL, [
    events.map((e) => e.streamId),
    column((d) => d.imo ?? d.mmsi),
    column((d) => d.imo),
    column((d) => d.mmsi),
    column((d) => d.vessel_name),
    column((d) => d.latitude),
    column((d) => d.longitude),
    column((d) => d.heading_degrees),
    column((d) => d.speed_knots),
    column((d) => d.course_over_ground_degrees),
    column((d) => d.location_timestamp),
  ]);
}

/**
 * A batch in one transaction (`ongoingByMmsi` asked of the projector before it): the lock (shared) with the checks'
 * lookups, the decision on them, then the accepted
 * positions appended (one multi-stream append, with the batch's signal on its seachart-batches-<n> stream) and the rows of the
 * new ones upserted. Five round trips whatever the batch's size. `fresh`: how many were new (the rest were stored
 * before).
 */
export async function recordPositions<D extends { events: readonly PositionEvent[] }>(
  db: Db,
  store: EventStore,
  ids: { imos: number[]; mmsis: number[] },
  ongoingByMmsi: ReadonlyMap<number, number>,
  decide: (lookups: PositionLookups) => D,
  metadata: EventMetadata,
): Promise<D & { fresh: number }> {
  return db.transaction(async (tx) => {
    const decision = decide(await lockAndLookUp(tx, ids, ongoingByMmsi));
    const { events } = decision;
    if (events.length === 0) return { ...decision, fresh: 0 };
    const entries: StreamAppend[] = events.map((e) => ({
      streamId: e.streamId,
      events: [{ id: e.id, type: e.type, data: e.data, metadata }],
    }));
    const { streamId, ...signal } = positionsSignal(events);
    entries.push({ streamId, events: [{ ...signal, metadata }] });
    const results = await store.appendMany(entries, { tx });
    const fresh = events.filter((_, i) => !results[i].events[0]?.duplicate);
    if (fresh.length > 0) await upsertPositions(tx, newestPerVessel(fresh));
    return { ...decision, fresh: fresh.length };
  });
}

// ---- retention ----

/** Most events one compaction transaction removes: transactions stay short (an open one holds every log reader). */
export const COMPACTION_CHUNK = 5000;

/**
 * Removes position events recorded before `before`, except each stream's newest (the read model's row stays
 * rebuildable and a stream's version never goes back), a chunk per transaction, and records what it removed as
 * VesselPositionsCompacted on seachart-changes; the batch signals older than `before` go too (each signal
 * stream's newest stays, as a position stream's). Returns the count.
 */
export async function compactPositions(
  db: Db,
  store: EventStore,
  before: Date,
  chunk = COMPACTION_CHUNK,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      `WITH doomed AS (
         SELECT e.stream_id, e.stream_position FROM eventstore.events e
          WHERE (e.stream_id LIKE $1 OR e.stream_id LIKE $2)
            AND e.created < $3
            AND e.stream_position < (SELECT max(l.stream_position) FROM eventstore.events l WHERE l.stream_id = e.stream_id)
          LIMIT $4)
       DELETE FROM eventstore.events e USING doomed d
        WHERE e.stream_id = d.stream_id AND e.stream_position = d.stream_position
       RETURNING 1 AS n`,
      [`${POSITION_STREAM_PREFIX}%`, `${POSITION_SIGNAL_STREAM_PREFIX}%`, before, chunk],
    );
    removed += rows.length;
    if (rows.length < chunk) break;
  }
  if (removed > 0) {
    const data: VesselPositionsCompacted = { before: before.toISOString(), removed };
    await store.append(SEA_CHART_CHANGES_STREAM, [{ type: 'VesselPositionsCompacted', data }]);
  }
  return removed;
}
