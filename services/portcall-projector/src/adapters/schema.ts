// The port-call context's read models live in schema `portcall`. Created at start-up by every instance. The
// portcall-projector is their only writer; the gateway reads them (read-only). All of it can be dropped and
// rebuilt from the event log (`pnpm rebuild:portcalls`).
//
// portcall.timestamps: one row per timestamp (id = global position of its TimestampReceived event), never
//   deleted. GET /timestamps, /export/timestamps, /port-call-timestamps (WHERE port_call_id = $1),
//   /non-port-call-timestamps (WHERE imo = $1 AND port_call_id IS NULL). `port_call_id`, `is_trash` and
//   `weight` follow the port-call rules: `weight` is the effective weight under the priorities in force when the
//   row was last written (999 for people); `hold` says why automatic attachment leaves it alone ('deleted' by
//   DELETE /timestamps, 'unset' by POST /unset-port-call-id). `source`/`api_key_id` say who posted it.
//
// portcall.port_calls: one row per port call (id = the id of the timestamp that opened it, unique across
//   vessels). `doc` is the whole PortCall (domain/port-call-types.ts); the typed columns copy its fields for
//   filtering and sorting (times as timestamptz, so `sort=next_event_ts` orders by time). `ship` is the
//   ship object as far as the port call knows it (ports as codes, no vessel type, no VIS details: the reader
//   fills those in), `timeline` the timeline `{id:1, events:[…]}` with every filled slot's `source` left ""
//   (the reader names the creator from its `created_by`). `shown`: the vessel is visible and `to_port` is empty
//   or in VISIBLE_UNLOCODES.
//   - GET /ongoing-port-calls: `WHERE shown AND (status <> 'done' OR atd >= now() - interval '2 hours')
//     ORDER BY next_event_ts NULLS FIRST, current_eta, id` (domain/ship.ts compareOngoing), ship + timeline.
//   - GET /port-calls: any typed column sorts (`next_event_ts` by default); search on `imo` (7+
//     digits, exact) or `lower(vessel_name)` (`^prefix` / substring). GET /port-call?id=: by id, `ship` and
//     the timeline's slots. GET /export/port-calls: `doc` rows.
//
// portcall.vessels: the fold's state per vessel besides its timestamps and port calls (`version` = global
//   position of the last event folded in, `stream_position` its place in `vessel-<imo>`), `visible` (POST
//   /vessel-visibility) and `next_timer_at` (the next clock rule: departed → done after 180 min, force-depart
//   after 30 days). `revision` changes with every write of the vessel's rows (the projector caches states).
//
// portcall.timestamp_counts: rows of portcall.timestamps per IMO (kept by a trigger), for the list totals.
//
// portcall.timestamp_weights, portcall.payload_key_weights: the priorities as the projection applies them,
//   from the priorities-* streams; portcall.priority_versions: the last event of each stream applied.

import { type Db, setUpSchema } from '@pcas/sql';

/** The first key of every per-vessel advisory lock (the two-key space never meets the event store's one-key locks). */
export const VESSEL_LOCK_CLASS = 0x70637332; // 'pcs2'

const DDL = [
  'CREATE SCHEMA IF NOT EXISTS portcall',
  `CREATE TABLE IF NOT EXISTS portcall.timestamps (
    id bigint PRIMARY KEY,
    imo bigint NOT NULL,
    vessel_name text NOT NULL,
    time_type text NOT NULL,
    state text NOT NULL,
    time timestamptz NOT NULL,
    payload jsonb NOT NULL DEFAULT '{}'::jsonb,
    port_call_id bigint NULL,
    is_trash boolean NOT NULL DEFAULT false,
    weight int NOT NULL DEFAULT 0,
    created_by int NULL,
    created_at timestamptz NOT NULL,
    modified_by int NULL,
    modified_at timestamptz NULL,
    version bigint NOT NULL
  )`,
  "ALTER TABLE portcall.timestamps ADD COLUMN IF NOT EXISTS source text NOT NULL DEFAULT 'api_key'",
  'ALTER TABLE portcall.timestamps ADD COLUMN IF NOT EXISTS api_key_id int NULL',
  'ALTER TABLE portcall.timestamps ADD COLUMN IF NOT EXISTS hold text NULL',
  // The list filters: per vessel by time (admin vessel view; also how the projection loads a vessel, and the
  // orphans of an IMO), by time range, per port call.
  'CREATE INDEX IF NOT EXISTS timestamps_imo_time_idx ON portcall.timestamps (imo, time)',
  'CREATE INDEX IF NOT EXISTS timestamps_time_idx ON portcall.timestamps (time)',
  'CREATE INDEX IF NOT EXISTS timestamps_port_call_id_idx ON portcall.timestamps (port_call_id)',
  // How many rows each vessel has, kept by a trigger in the writing transaction (exact, never stale): the total
  // of GET /timestamps unfiltered or by IMO is then a sum over vessels, not a count over every row (a million
  // rows: tens of milliseconds per page). Created with the counts of the rows already there.
  `DO $counts$ BEGIN
     IF to_regclass('portcall.timestamp_counts') IS NULL THEN
       CREATE TABLE portcall.timestamp_counts (imo bigint PRIMARY KEY, timestamps bigint NOT NULL);
       INSERT INTO portcall.timestamp_counts SELECT imo, count(*) FROM portcall.timestamps GROUP BY imo;
     END IF;
   END $counts$`,
  // Rows are never deleted, and an upsert that updates is no new row (only inserted rows are in `inserted`).
  // Writers hold the vessels' locks, so two transactions never add to one vessel's count at once.
  `CREATE OR REPLACE FUNCTION portcall.count_inserted_timestamps() RETURNS trigger
   LANGUAGE plpgsql AS $fn$
   BEGIN
     INSERT INTO portcall.timestamp_counts AS c (imo, timestamps)
       SELECT imo, count(*) FROM inserted GROUP BY imo
     ON CONFLICT (imo) DO UPDATE SET timestamps = c.timestamps + EXCLUDED.timestamps;
     RETURN NULL;
   END
   $fn$`,
  `CREATE OR REPLACE TRIGGER timestamps_counted AFTER INSERT ON portcall.timestamps
     REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION portcall.count_inserted_timestamps()`,
  `CREATE TABLE IF NOT EXISTS portcall.port_calls (
    id bigint PRIMARY KEY,
    imo bigint NOT NULL,
    seq int NOT NULL,
    vessel_name text NOT NULL DEFAULT '',
    status text NOT NULL,
    first_eta timestamptz NULL,
    current_eta timestamptz NULL,
    first_etd timestamptz NULL,
    current_etd timestamptz NULL,
    rta timestamptz NULL,
    ata timestamptz NULL,
    atd timestamptz NULL,
    next_event_title text NULL,
    next_event_ts timestamptz NULL,
    from_port text NULL,
    to_port text NULL,
    next_port text NULL,
    berth text NULL,
    berth_name text NULL,
    mmsi bigint NULL,
    call_sign text NULL,
    nationality text NULL,
    loa real NULL,
    beam real NULL,
    draft real NULL,
    net_weight real NULL,
    gross_weight real NULL,
    is_vis boolean NOT NULL DEFAULT false,
    master_id text NULL,
    master_start timestamptz NULL,
    master_end timestamptz NULL,
    master_manual boolean NOT NULL DEFAULT false,
    shown boolean NOT NULL,
    doc jsonb NOT NULL,
    ship jsonb NOT NULL,
    timeline jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  // Each row's documents (about 4 kB) are compressed when written: lz4 costs a fraction of the default pglz (a
  // rebuild writes every port call). Servers built without lz4 keep the default.
  `DO $lz4$ BEGIN
     IF EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'portcall.port_calls'::regclass
                  AND attname IN ('doc', 'ship', 'timeline') AND attcompression <> 'l') THEN
       ALTER TABLE portcall.port_calls ALTER COLUMN doc SET COMPRESSION lz4, ALTER COLUMN ship SET COMPRESSION lz4,
         ALTER COLUMN timeline SET COMPRESSION lz4;
     END IF;
   EXCEPTION WHEN feature_not_supported THEN NULL;
   END $lz4$`,
  'CREATE INDEX IF NOT EXISTS port_calls_imo_idx ON portcall.port_calls (imo, seq)',
  // GET /port-calls' default order, and the activity timeline (not done, or done recently).
  'CREATE INDEX IF NOT EXISTS port_calls_next_event_idx ON portcall.port_calls (next_event_ts, id)',
  `CREATE INDEX IF NOT EXISTS port_calls_ongoing_idx ON portcall.port_calls (next_event_ts, current_eta, id)
     WHERE shown AND status <> 'done'`,
  "CREATE INDEX IF NOT EXISTS port_calls_done_atd_idx ON portcall.port_calls (atd) WHERE status = 'done'",
  'CREATE INDEX IF NOT EXISTS port_calls_name_idx ON portcall.port_calls (lower(vessel_name) text_pattern_ops)',
  `CREATE TABLE IF NOT EXISTS portcall.vessels (
    imo bigint PRIMARY KEY,
    revision text NOT NULL,
    visible boolean NOT NULL DEFAULT true,
    version bigint NOT NULL,
    stream_position bigint NOT NULL,
    clock text NULL,
    next_seq int NOT NULL,
    retired_port_call_ids bigint[] NOT NULL DEFAULT '{}',
    next_timer_at timestamptz NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  'CREATE INDEX IF NOT EXISTS vessels_next_timer_idx ON portcall.vessels (next_timer_at) WHERE next_timer_at IS NOT NULL',
  // The vessel's type (VesselTypeSet), part of the fold's state: the ship objects name it.
  'ALTER TABLE portcall.vessels ADD COLUMN IF NOT EXISTS vessel_type int NOT NULL DEFAULT 1',
  `CREATE TABLE IF NOT EXISTS portcall.timestamp_weights (
    time_type text NOT NULL,
    state text NOT NULL,
    api_key_id int NOT NULL,
    weight int NOT NULL,
    PRIMARY KEY (time_type, state, api_key_id)
  )`,
  `CREATE TABLE IF NOT EXISTS portcall.payload_key_weights (
    payload_key text NOT NULL,
    api_key_id int NOT NULL,
    weight int NOT NULL,
    PRIMARY KEY (payload_key, api_key_id)
  )`,
  `CREATE TABLE IF NOT EXISTS portcall.priority_versions (
    stream_id text PRIMARY KEY,
    version bigint NOT NULL
  )`,
  // Per-vessel locks in one global order (ascending IMO), so writers of several vessels never deadlock.
  `CREATE OR REPLACE FUNCTION portcall.lock_vessels(p_imos bigint[]) RETURNS void
   LANGUAGE plpgsql AS $fn$
   DECLARE v bigint;
   BEGIN
     FOR v IN SELECT DISTINCT x FROM unnest(p_imos) AS x ORDER BY x LOOP
       PERFORM pg_advisory_xact_lock(${VESSEL_LOCK_CLASS}, (v % 2147483647)::int);
     END LOOP;
   END
   $fn$`,
];

export async function ensureSchema(db: Db): Promise<void> {
  await setUpSchema(db, 'portcall', DDL);
}
