// Vessel positions, owned by ingest (docs/domain.md#sea-chart): each accepted position an event on its vessel's
// stream (position-imo-<imo> / position-mmsi-<mmsi>), and the read model ingest.sea_chart_positions, one row per
// vessel holding its newest position, written in the append's transaction. A batch is one multi-stream append and
// one bulk upsert (no round trip per item): AIS agents post hundreds of positions a few times a second.

import {
  POSITION_STREAM_PREFIX,
  SEA_CHART_CHANGES_STREAM,
  type VesselPositionRecorded,
  type VesselPositionsCompacted,
} from '@pcas/contracts';
import type { EventMetadata, EventStore, StreamAppend } from '@pcas/eventstore';
import type { Db, Queryable } from '@pcas/sql';
import { newestPerVessel, type PositionEvent, type PositionLookups, positionsSignal } from '../domain/positions.ts';

/**
 * ingest.sea_chart_positions: the newest position of each vessel, keyed by its stream. `id` is the GeoJSON
 * feature's `properties.id`: the IMO, or the MMSI for a vessel known by MMSI only (stable, never a sequence, which
 * an upsert per position would run through). GET /sea-chart/vessels (the gateway) reads it by location time.
 */
export const POSITIONS_DDL = [
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
     updated_at timestamptz NOT NULL DEFAULT now()
   )`,
  'CREATE INDEX IF NOT EXISTS sea_chart_positions_time ON ingest.sea_chart_positions (location_timestamp)',
];

// The ongoing port calls as the activity timeline has them (the projector's read model, read-only).
const ONGOING = `p.shown AND (p.status <> 'done' OR (p.status = 'done' AND p.atd >= now() - interval '2 hours'))`;

const LOOKUPS_SQL = `
  SELECT (SELECT coalesce(json_agg(json_build_array(v.imo, v.vessel_name)), '[]')
            FROM ingest.vessels v WHERE v.imo = ANY($1::bigint[])) AS vessels,
         (SELECT coalesce(json_agg(json_build_array(f.imo, f.mmsi, f.vessel_name)), '[]')
            FROM ingest.fixed_vessels f WHERE f.imo = ANY($1::bigint[]) OR f.mmsi = ANY($2::bigint[])) AS fixed`;

const ONGOING_SQL = `SELECT DISTINCT ON (p.mmsi) p.mmsi, p.imo FROM portcall.port_calls p
  WHERE p.mmsi = ANY($1::bigint[]) AND ${ONGOING} ORDER BY p.mmsi, p.id DESC`;

/** What the batch's checks look up: two queries, whatever its size. */
export async function readPositionLookups(
  db: Queryable,
  ids: { imos: number[]; mmsis: number[] },
): Promise<PositionLookups> {
  const { rows } = await db.query<{ vessels: [number, string][]; fixed: [number | null, number | null, string][] }>(
    LOOKUPS_SQL,
    [ids.imos, ids.mmsis],
  );
  const fixedByMmsi = new Map<number, { imo: number | null; vessel_name: string }>();
  const fixedByImo = new Map<number, string>();
  for (const [imo, mmsi, name] of rows[0].fixed) {
    if (mmsi !== null) fixedByMmsi.set(Number(mmsi), { imo: imo === null ? null : Number(imo), vessel_name: name });
    if (imo !== null) fixedByImo.set(Number(imo), name);
  }
  const ongoingByMmsi = new Map<number, number>();
  if (ids.mmsis.length > 0) {
    try {
      const ongoing = await db.query<{ mmsi: string; imo: string }>(ONGOING_SQL, [ids.mmsis]);
      for (const r of ongoing.rows) ongoingByMmsi.set(Number(r.mmsi), Number(r.imo));
    } catch (error) {
      // The projector creates its schema when it starts; until then there are no port calls.
      if ((error as { code?: string }).code !== '42P01') throw error;
    }
  }
  return {
    vessels: new Map(rows[0].vessels.map(([imo, name]) => [Number(imo), name])),
    fixedByMmsi,
    fixedByImo,
    ongoingByMmsi,
  };
}

// One statement for the batch. Newest wins: a row changes only for a later location time, so batches arriving out
// of order, concurrently (each vessel's stream lock, taken by the append, orders them) or again change nothing
// twice.
const UPSERT_SQL = `
  INSERT INTO ingest.sea_chart_positions AS p (vessel_key, id, imo, mmsi, vessel_name, latitude, longitude,
    heading_degrees, speed_knots, course_over_ground_degrees, location_timestamp)
  SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[], $6::float8[], $7::float8[],
    $8::float8[], $9::float8[], $10::float8[], $11::timestamptz[])
  ON CONFLICT (vessel_key) DO UPDATE SET
    imo = excluded.imo, mmsi = coalesce(excluded.mmsi, p.mmsi), vessel_name = excluded.vessel_name,
    latitude = excluded.latitude, longitude = excluded.longitude, heading_degrees = excluded.heading_degrees,
    speed_knots = excluded.speed_knots, course_over_ground_degrees = excluded.course_over_ground_degrees,
    location_timestamp = excluded.location_timestamp, updated_at = now()
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
 * Appends the batch's positions (one multi-stream append, with the batch's signal on seachart-changes) and
 * upserts the rows of the new ones, in one transaction. Returns how many were new (the rest were stored before).
 */
export async function recordPositions(
  db: Db,
  store: EventStore,
  events: readonly PositionEvent[],
  metadata: EventMetadata,
): Promise<number> {
  if (events.length === 0) return 0;
  const entries: StreamAppend[] = events.map((e) => ({
    streamId: e.streamId,
    events: [{ id: e.id, type: e.type, data: e.data, metadata }],
  }));
  entries.push({ streamId: SEA_CHART_CHANGES_STREAM, events: [{ ...positionsSignal(events), metadata }] });
  return db.transaction(async (tx) => {
    const results = await store.appendMany(entries, { tx });
    const fresh = events.filter((_, i) => !results[i].events[0]?.duplicate);
    if (fresh.length > 0) await upsertPositions(tx, newestPerVessel(fresh));
    return fresh.length;
  });
}

// ---- retention ----

/** Most events one compaction transaction removes: transactions stay short (an open one holds every log reader). */
export const COMPACTION_CHUNK = 5000;

/**
 * Removes position events recorded before `before`, except each stream's newest (the read model's row stays
 * rebuildable and a stream's version never goes back), a chunk per transaction, and records what it removed as
 * VesselPositionsCompacted on seachart-changes; the batch signals older than `before` go too. Returns the count.
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
          WHERE (e.stream_id LIKE $1 OR (e.stream_id = $2 AND e.event_type = 'VesselPositionsRecorded'))
            AND e.created < $3
            AND e.stream_position < (SELECT max(l.stream_position) FROM eventstore.events l WHERE l.stream_id = e.stream_id)
          LIMIT $4)
       DELETE FROM eventstore.events e USING doomed d
        WHERE e.stream_id = d.stream_id AND e.stream_position = d.stream_position
       RETURNING 1 AS n`,
      [`${POSITION_STREAM_PREFIX}%`, SEA_CHART_CHANGES_STREAM, before, chunk],
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
