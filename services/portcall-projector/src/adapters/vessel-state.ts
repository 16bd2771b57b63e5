// A vessel's port-call state as the read models keep it: the scalars in portcall.vessels, each port call in
// portcall.port_calls (`doc`), each timestamp in portcall.timestamps. Loading puts the fold's state back together
// exactly (the timestamp time and creation time in the fold's own form), so folding on from a loaded state gives
// what folding on in memory gives; writing stores what a fold changed. Callers hold the vessels' locks.

import { type Queryable, together } from '@pcas/sql';
import { isoMs, isoUtc, toMs } from '../domain/port-call-time.ts';
import {
  emptyVesselPortCalls,
  type PortCall,
  type VesselPortCalls,
  type VesselTimestamp,
} from '../domain/port-calls.ts';
import type { PortCallReadModel, TimestampPlacement, VesselWrites } from '../domain/read-model.ts';
import type { TimestampRow } from '../domain/timestamp-rows.ts';
import { booleanArray, numberArray, textArray } from './pg-arrays.ts';

export interface StoredVessel {
  state: VesselPortCalls;
  /** Changes with every write of the vessel's rows: a cached state is current while it is the same. */
  revision: string | null;
  /** Position in `vessel-<imo>` of the last event folded in (0: none). */
  streamPosition: number;
  /** ISO, as stored. */
  nextTimerAt: string | null;
  /** Whether the vessel has a row at all. */
  exists: boolean;
}

/** Takes the vessels' advisory locks (ascending IMO) until the transaction ends. */
export async function lockVessels(tx: Queryable, imos: readonly number[]): Promise<void> {
  if (imos.length > 0) await tx.query('SELECT portcall.lock_vessels($1::bigint[])', [imos]);
}

interface VesselRow {
  imo: number;
  revision: string;
  visible: boolean;
  version: number;
  stream_position: number;
  clock: string | null;
  next_seq: number;
  retired_port_call_ids: number[];
  next_timer_at: Date | null;
  vessel_type: number | null;
}

/** A stored timestamp row: the list row and what only the port-call fold reads (bigints are converted on load). */
type TimestampDbRow = TimestampRow & Pick<VesselTimestamp, 'source' | 'api_key_id' | 'hold'>;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** How much the vessel cache keeps (docs/operations.md#memory). */
export interface VesselCacheLimits {
  /** Vessels at most (default 1,000). */
  vessels?: number;
  /** Timestamps the kept states hold together at most (default 50,000). */
  timestamps?: number;
  /** A state not used for this long is let go (default 60 s): a vessel seldom heard from is loaded again. */
  idleMs?: number;
}

/**
 * States kept between batches by the process that wrote them, tagged with the revision they were written under.
 * A vessel's state holds all its timestamps and grows while its port call goes on, so the cache is bounded by
 * vessels, by the timestamps they hold together and by idle time; the least recently used go first. What it saves
 * is a load per batch under heavy traffic, where each vessel comes back within seconds; a vessel heard from less
 * often costs a load, and its memory is returned. Never mutated: the fold returns new states.
 */
export class VesselCache {
  private readonly entries = new Map<number, { revision: string; stored: StoredVessel; usedAt: number }>();
  private timestamps = 0;
  private readonly maxVessels: number;
  private readonly maxTimestamps: number;
  private readonly idleMs: number;

  constructor(
    limits: VesselCacheLimits = {},
    private readonly now: () => number = Date.now,
  ) {
    this.maxVessels = limits.vessels ?? 1_000;
    this.maxTimestamps = limits.timestamps ?? 50_000;
    this.idleMs = limits.idleMs ?? 60_000;
  }

  get(imo: number, revision: string): StoredVessel | undefined {
    const hit = this.entries.get(imo);
    if (!hit) return undefined;
    this.remove(imo);
    if (hit.revision !== revision || this.now() - hit.usedAt > this.idleMs) return undefined;
    this.add(hit.revision, hit.stored);
    return hit.stored;
  }

  set(stored: StoredVessel): void {
    this.remove(stored.state.imo);
    const fits = stored.state.timestamps.length <= this.maxTimestamps && this.maxVessels > 0;
    if (stored.revision !== null && fits) this.add(stored.revision, stored);
    const idleSince = this.now() - this.idleMs;
    for (const [imo, entry] of this.entries) {
      const over = this.entries.size > this.maxVessels || this.timestamps > this.maxTimestamps;
      if (!over && entry.usedAt >= idleSince) break;
      this.remove(imo);
    }
  }

  /** Timestamps held by the kept states (what their memory grows with). */
  get heldTimestamps(): number {
    return this.timestamps;
  }

  clear(): void {
    this.entries.clear();
    this.timestamps = 0;
  }

  private add(revision: string, stored: StoredVessel): void {
    this.entries.set(stored.state.imo, { revision, stored, usedAt: this.now() });
    this.timestamps += stored.state.timestamps.length;
  }

  private remove(imo: number): void {
    const entry = this.entries.get(imo);
    if (!entry) return;
    this.entries.delete(imo);
    this.timestamps -= entry.stored.state.timestamps.length;
  }
}

const emptyStored = (imo: number): StoredVessel => ({
  state: emptyVesselPortCalls(imo),
  revision: null,
  streamPosition: 0,
  nextTimerAt: null,
  exists: false,
});

const timestampOfRow = (r: TimestampDbRow): VesselTimestamp => ({
  id: Number(r.id),
  imo: Number(r.imo),
  vessel_name: r.vessel_name,
  time_type: r.time_type,
  state: r.state,
  time: r.time,
  time_ms: toMs(r.time),
  payload: r.payload,
  source: r.source,
  api_key_id: num(r.api_key_id),
  created_by: num(r.created_by),
  created_at: isoUtc(r.created_at.getTime()),
  port_call_id: num(r.port_call_id),
  is_trash: r.is_trash,
  hold: r.hold,
});

const rowOfDb = (r: TimestampDbRow): TimestampRow => ({
  id: Number(r.id),
  imo: Number(r.imo),
  vessel_name: r.vessel_name,
  time_type: r.time_type,
  state: r.state,
  time: r.time,
  payload: r.payload,
  port_call_id: num(r.port_call_id),
  is_trash: r.is_trash,
  weight: r.weight,
  created_by: num(r.created_by),
  created_at: r.created_at,
  modified_by: num(r.modified_by),
  modified_at: r.modified_at,
  version: Number(r.version),
});

// The time comes back in the fold's own form (whole seconds, `+00:00`).
const TIMESTAMP_SELECT = `SELECT id, imo, vessel_name, time_type, state,
    to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') AS time, payload, port_call_id, is_trash,
    weight, created_by, created_at, modified_by, modified_at, version, source, api_key_id, hold
  FROM portcall.timestamps`;

/**
 * The stored states of the vessels (an empty one for a vessel without a row), from the cache when it holds the
 * current revision. `withTimestamps: false` leaves the timestamps out (a rebuild replaces them all and needs only
 * the port calls for its change signals); such states are not cached.
 */
export async function loadVessels(
  tx: Queryable,
  imos: readonly number[],
  options: { withTimestamps?: boolean; cache?: VesselCache } = {},
): Promise<Map<number, StoredVessel>> {
  const out = new Map<number, StoredVessel>();
  for (const imo of imos) out.set(imo, emptyStored(imo));
  if (imos.length === 0) return out;
  const { rows: vessels } = await tx.query<VesselRow>(
    `SELECT imo, revision, visible, version, stream_position, clock, next_seq, retired_port_call_ids, next_timer_at,
            vessel_type
       FROM portcall.vessels WHERE imo = ANY($1::bigint[])`,
    [imos],
  );
  const missing: number[] = [];
  for (const v of vessels) {
    const imo = Number(v.imo);
    const cached = options.withTimestamps !== false ? options.cache?.get(imo, v.revision) : undefined;
    if (cached) {
      out.set(imo, cached);
      continue;
    }
    missing.push(imo);
    out.set(imo, {
      state: {
        imo,
        visible: v.visible,
        version: Number(v.version),
        clock: v.clock,
        timestamps: [],
        port_calls: [],
        next_seq: v.next_seq,
        retired_port_call_ids: v.retired_port_call_ids.map(Number),
        ...(v.vessel_type !== null && v.vessel_type !== 1 ? { vessel_type: v.vessel_type } : {}),
      },
      revision: v.revision,
      streamPosition: Number(v.stream_position),
      nextTimerAt: v.next_timer_at ? v.next_timer_at.toISOString() : null,
      exists: true,
    });
  }
  if (missing.length === 0) return out;
  const { rows: pcs } = await tx.query<{ imo: number; doc: PortCall }>(
    'SELECT imo, doc FROM portcall.port_calls WHERE imo = ANY($1::bigint[]) ORDER BY imo, seq',
    [missing],
  );
  for (const r of pcs) out.get(Number(r.imo))?.state.port_calls.push(r.doc);
  if (options.withTimestamps === false) return out;
  const { rows: ts } = await tx.query<TimestampDbRow>(
    `${TIMESTAMP_SELECT} WHERE imo = ANY($1::bigint[]) ORDER BY imo, id`,
    [missing],
  );
  for (const r of ts) out.get(Number(r.imo))?.state.timestamps.push(timestampOfRow(r));
  for (const imo of missing) options.cache?.set(out.get(imo)!);
  return out;
}

/** The timestamp list rows with these ids (what the row fold of timestamp-rows.ts continues from). */
export async function loadTimestampRows(tx: Queryable, ids: readonly number[]): Promise<Map<number, TimestampRow>> {
  if (ids.length === 0) return new Map();
  const { rows } = await tx.query<TimestampDbRow>(`${TIMESTAMP_SELECT} WHERE id = ANY($1::bigint[])`, [ids]);
  return new Map(rows.map((r) => [Number(r.id), rowOfDb(r)]));
}

/** Of these vessels, the ones without any stored row (vessel, port call or timestamp). */
export async function vesselsWithoutRows(tx: Queryable, imos: readonly number[]): Promise<Set<number>> {
  if (imos.length === 0) return new Set();
  const { rows } = await tx.query<{ imo: number }>(
    `SELECT i AS imo FROM unnest($1::bigint[]) AS i
      WHERE NOT EXISTS (SELECT 1 FROM portcall.vessels WHERE imo = i)
        AND NOT EXISTS (SELECT 1 FROM portcall.port_calls WHERE imo = i)
        AND NOT EXISTS (SELECT 1 FROM portcall.timestamps WHERE imo = i)`,
    [imos],
  );
  return new Set(rows.map((r) => Number(r.imo)));
}

/** The stored timelines and `shown` flags of the vessels' port calls (a rebuild signals only what changed). */
export async function loadStoredRows(
  tx: Queryable,
  imos: readonly number[],
): Promise<Map<number, { timeline: unknown; shown: boolean }>> {
  if (imos.length === 0) return new Map();
  const { rows } = await tx.query<{ id: number; timeline: unknown; shown: boolean }>(
    'SELECT id, timeline, shown FROM portcall.port_calls WHERE imo = ANY($1::bigint[])',
    [imos],
  );
  return new Map(rows.map((r) => [Number(r.id), { timeline: r.timeline, shown: r.shown }]));
}

/** What to write for one vessel after a fold. */
export interface VesselWrite {
  imo: number;
  after: VesselPortCalls;
  writes: VesselWrites;
  /**
   * Whole list rows to write (new timestamps, deletes, restores), by id, their placement from `writes`; the other
   * timestamps of `writes.timestamps` only have their placement updated.
   */
  rows: ReadonlyMap<number, TimestampRow>;
  /** The revision written (a fresh one per write). */
  revision: string;
  streamPosition: number;
  /** A rebuild: port calls of the vessel that are not in `after` go, whatever the diff says. */
  replace: boolean;
  /** No row of the vessel is stored (checked under its lock): its rows are inserted, with nothing to replace. */
  fresh?: boolean;
}

// The row's columns that copy a PortCall field of the same name (read from its `doc`), and the ones of its own.
const PORT_CALL_FIELDS = `id bigint, imo bigint, seq int, vessel_name text, status text, first_eta timestamptz,
  current_eta timestamptz, first_etd timestamptz, current_etd timestamptz, rta timestamptz, ata timestamptz,
  atd timestamptz, next_event_title text, next_event_ts timestamptz, from_port text, to_port text, next_port text,
  berth text, berth_name text, mmsi bigint, call_sign text, nationality text, loa real, beam real, draft real,
  net_weight real, gross_weight real, is_vis boolean, master_id text, master_start timestamptz,
  master_end timestamptz, master_manual boolean`;
const OWN_COLUMNS = 'shown boolean, doc jsonb, ship jsonb, timeline jsonb';
const namesOf = (columns: string) => columns.split(',').map((c) => c.trim().split(/\s+/)[0]);
const FIELD_NAMES = namesOf(PORT_CALL_FIELDS);
const PORT_CALL_NAMES = [...FIELD_NAMES, ...namesOf(OWN_COLUMNS)];

/**
 * A port call's row as sent: the field columns are taken from `doc` in SQL, so each field goes over the wire once
 * (the row was the projector's largest write).
 */
function portCallRow(rm: PortCallReadModel): Record<string, unknown> {
  return { shown: rm.shown, doc: rm.pc, ship: rm.ship, timeline: rm.timeline };
}

/** `ON CONFLICT (id)` replacing every column but the id (and what `extra` sets). */
const onConflictReplace = (names: readonly string[], extra = '') =>
  ` ON CONFLICT (id) DO UPDATE SET ${names
    .filter((n) => n !== 'id')
    .map((n) => `${n} = EXCLUDED.${n}`)
    .join(', ')}${extra}`;

// A vessel name the port call does not know is stored as ''.
const INSERT_PORT_CALLS = `
  INSERT INTO portcall.port_calls AS t (${PORT_CALL_NAMES.join(', ')})
  SELECT ${FIELD_NAMES.map((n) => (n === 'vessel_name' ? "COALESCE(d.vessel_name, '')" : `d.${n}`)).join(', ')},
         r.shown, r.doc, r.ship, r.timeline
    FROM jsonb_to_recordset($1::jsonb) AS r(${OWN_COLUMNS}),
         jsonb_to_record(r.doc) AS d(${PORT_CALL_FIELDS})`;
const UPSERT_PORT_CALLS = INSERT_PORT_CALLS + onConflictReplace(PORT_CALL_NAMES, ', updated_at = now()');

// Timestamp rows go column by column (pg-arrays.ts): a rebuild writes one per event. A placement is where the
// port-call fold put a row; the other columns are the row's own.
type Column = readonly [name: string, type: 'bigint' | 'int' | 'boolean' | 'text' | 'timestamptz' | 'jsonb'];
const PLACEMENT_COLUMNS = [
  ['id', 'bigint'],
  ['port_call_id', 'bigint'],
  ['is_trash', 'boolean'],
  ['weight', 'int'],
  ['source', 'text'],
  ['api_key_id', 'int'],
  ['hold', 'text'],
] as const satisfies readonly Column[];
const TIMESTAMP_COLUMNS = [
  ...PLACEMENT_COLUMNS,
  ['imo', 'bigint'],
  ['vessel_name', 'text'],
  ['time_type', 'text'],
  ['state', 'text'],
  ['time', 'timestamptz'],
  ['payload', 'jsonb'],
  ['created_by', 'int'],
  ['created_at', 'timestamptz'],
  ['modified_by', 'int'],
  ['modified_at', 'timestamptz'],
  ['version', 'bigint'],
] as const satisfies readonly Column[];
const TIMESTAMP_NAMES = TIMESTAMP_COLUMNS.map(([name]) => name);

/** `unnest($1::bigint[], $2::text[], ...)`: one array parameter per column. */
const unnestOf = (columns: readonly Column[]) =>
  `unnest(${columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')})`;

/** The array parameters of `columns`, each in the literal its type takes. */
function columnParams(columns: readonly Column[], values: Record<string, unknown[]>): string[] {
  return columns.map(([name, type]) => {
    const column = values[name];
    if (type === 'bigint' || type === 'int') return numberArray(column as (number | null)[]);
    if (type === 'boolean') return booleanArray(column as boolean[]);
    return textArray(column as (string | null)[]);
  });
}

const INSERT_TIMESTAMPS = `
  INSERT INTO portcall.timestamps AS t (${TIMESTAMP_NAMES.join(', ')})
  SELECT * FROM ${unnestOf(TIMESTAMP_COLUMNS)}`;
const UPSERT_TIMESTAMPS = INSERT_TIMESTAMPS + onConflictReplace(TIMESTAMP_NAMES);

const UPDATE_PLACEMENTS = `
  UPDATE portcall.timestamps AS t
     SET ${PLACEMENT_COLUMNS.filter(([name]) => name !== 'id')
       .map(([name]) => `${name} = r.${name}`)
       .join(', ')}
    FROM ${unnestOf(PLACEMENT_COLUMNS)} AS r(${PLACEMENT_COLUMNS.map(([name]) => name).join(', ')})
   WHERE t.id = r.id`;

const UPSERT_VESSELS = `
  INSERT INTO portcall.vessels AS v
    (imo, revision, visible, version, stream_position, clock, next_seq, retired_port_call_ids, next_timer_at,
     vessel_type, updated_at)
  SELECT imo, revision, visible, version, stream_position, clock, next_seq,
         ARRAY(SELECT jsonb_array_elements_text(retired))::bigint[], next_timer_at, vessel_type, now()
    FROM jsonb_to_recordset($1::jsonb) AS r(imo bigint, revision text, visible boolean, version bigint,
         stream_position bigint, clock text, next_seq int, retired jsonb, next_timer_at timestamptz, vessel_type int)
  ON CONFLICT (imo) DO UPDATE SET
    revision = EXCLUDED.revision, visible = EXCLUDED.visible, version = EXCLUDED.version, stream_position = EXCLUDED.stream_position,
    clock = EXCLUDED.clock, next_seq = EXCLUDED.next_seq, retired_port_call_ids = EXCLUDED.retired_port_call_ids,
    next_timer_at = EXCLUDED.next_timer_at, vessel_type = EXCLUDED.vessel_type, updated_at = now()`;

/** Rows per statement: keeps each JSON parameter to a few megabytes. */
const CHUNK = 5_000;

/** A statement of a write, kept to go with the others of the write (see runTogether). */
interface Statement {
  text: string;
  values: unknown[];
}

/** Each chunk of rows but the last is written now; the last is kept in `last`, to go with the write's others. */
async function inChunks(tx: Queryable, sql: string, rows: unknown[], last: Statement[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.length <= CHUNK ? rows : rows.slice(i, i + CHUNK);
    const statement = { text: sql, values: [JSON.stringify(chunk)] };
    if (i + CHUNK >= rows.length) last.push(statement);
    else await tx.query(statement.text, statement.values);
  }
}

/**
 * Runs a write's statements as one (libs/sql's together: all but the last as data-modifying WITH queries of the
 * last). They write different tables, or different rows of one (a timestamp's row is upserted or has its placement
 * updated, never both), and no foreign key or trigger reads across them, so one statement leaves what they would
 * one after the other; a live batch's write is one round trip instead of three or four.
 */
async function runTogether(tx: Queryable, statements: readonly Statement[]): Promise<void> {
  const last = statements.at(-1);
  if (!last) return;
  const statement = together(statements.slice(0, -1), last);
  await tx.query(statement.text, statement.values);
}

/** Rows per statement of the column-wise writes (a few megabytes of parameters). */
const ROWS_PER_STATEMENT = 20_000;

/**
 * The timestamp rows of the writes: whole rows (new, deleted, restored) upserted (inserted for a fresh vessel), the
 * others' placement updated. Full statements are written as they fill; the rest is kept in `last`.
 */
async function writeTimestamps(tx: Queryable, entries: readonly VesselWrite[], last: Statement[]): Promise<void> {
  // Each set of columns is made when a row needs it (a live batch usually fills one of the three).
  let upserts: TimestampColumns | undefined;
  let inserts: TimestampColumns | undefined;
  let placements: PlacementColumns | undefined;
  const flush = async (all: boolean) => {
    const due = all ? 1 : ROWS_PER_STATEMENT;
    const write = async (statement: Statement) => {
      if (all) last.push(statement);
      else await tx.query(statement.text, statement.values);
    };
    if (upserts && upserts.id.length >= due) {
      await write({ text: UPSERT_TIMESTAMPS, values: columnParams(TIMESTAMP_COLUMNS, upserts) });
      upserts = undefined;
    }
    if (inserts && inserts.id.length >= due) {
      await write({ text: INSERT_TIMESTAMPS, values: columnParams(TIMESTAMP_COLUMNS, inserts) });
      inserts = undefined;
    }
    if (placements && placements.id.length >= due) {
      await write({ text: UPDATE_PLACEMENTS, values: columnParams(PLACEMENT_COLUMNS, placements) });
      placements = undefined;
    }
  };
  for (const e of entries) {
    for (const p of e.writes.timestamps) {
      const row = e.rows.get(p.id);
      if (!row) {
        placements ??= newPlacementColumns();
        pushPlacement(placements, p);
      } else if (e.fresh) {
        inserts ??= newTimestampColumns();
        pushTimestamp(inserts, row, p);
      } else {
        upserts ??= newTimestampColumns();
        pushTimestamp(upserts, row, p);
      }
    }
    await flush(false);
  }
  await flush(true);
}

const newPlacementColumns = () => ({
  id: [] as number[],
  port_call_id: [] as (number | null)[],
  is_trash: [] as boolean[],
  weight: [] as number[],
  source: [] as string[],
  api_key_id: [] as (number | null)[],
  hold: [] as (string | null)[],
});
type PlacementColumns = ReturnType<typeof newPlacementColumns>;

function pushPlacement(c: PlacementColumns, p: TimestampPlacement): void {
  c.id.push(p.id);
  c.port_call_id.push(p.port_call_id);
  c.is_trash.push(p.is_trash);
  c.weight.push(p.weight);
  c.source.push(p.source);
  c.api_key_id.push(p.api_key_id);
  c.hold.push(p.hold);
}

// Written out rather than spread from newPlacementColumns: V8 builds a spread-then-extended literal of this size
// as a dictionary object, tens of microseconds each, with every push after it a slow property lookup.
const newTimestampColumns = () => ({
  id: [] as number[],
  port_call_id: [] as (number | null)[],
  is_trash: [] as boolean[],
  weight: [] as number[],
  source: [] as string[],
  api_key_id: [] as (number | null)[],
  hold: [] as (string | null)[],
  imo: [] as number[],
  vessel_name: [] as string[],
  time_type: [] as string[],
  state: [] as string[],
  time: [] as string[],
  payload: [] as string[],
  created_by: [] as (number | null)[],
  created_at: [] as string[],
  modified_by: [] as (number | null)[],
  modified_at: [] as string[],
  version: [] as number[],
});
type TimestampColumns = ReturnType<typeof newTimestampColumns>;

/** The list row where the port-call fold placed it (its own port_call_id, is_trash and weight give way). */
function pushTimestamp(c: TimestampColumns, row: TimestampRow, p: TimestampPlacement): void {
  pushPlacement(c, p);
  c.imo.push(row.imo);
  c.vessel_name.push(row.vessel_name);
  c.time_type.push(row.time_type);
  c.state.push(row.state);
  c.time.push(row.time);
  c.payload.push(JSON.stringify(row.payload));
  c.created_by.push(row.created_by);
  c.created_at.push(isoMs(row.created_at.getTime()));
  c.modified_by.push(row.modified_by);
  c.modified_at.push(isoMs(row.modified_at.getTime()));
  c.version.push(row.version);
}

/** Writes the vessels' changes: a handful of statements for any number of vessels. */
export async function writeVessels(tx: Queryable, entries: readonly VesselWrite[]): Promise<void> {
  if (entries.length === 0) return;
  const deleted = entries.flatMap((e) => e.writes.deleted_port_call_ids);
  if (deleted.length > 0) await tx.query('DELETE FROM portcall.port_calls WHERE id = ANY($1::bigint[])', [deleted]);
  const replaced = entries.filter((e) => e.replace && !e.fresh);
  if (replaced.length > 0) {
    await tx.query(`DELETE FROM portcall.port_calls WHERE imo = ANY($1::bigint[]) AND NOT (id = ANY($2::bigint[]))`, [
      replaced.map((e) => e.imo),
      replaced.flatMap((e) => e.after.port_calls.map((pc) => pc.id)),
    ]);
  }
  const portCalls = (fresh: boolean) =>
    entries.filter((e) => (e.fresh === true) === fresh).flatMap((e) => e.writes.port_calls);
  // The last statement of each kind goes in one with the others (the vessels' upsert last).
  const last: Statement[] = [];
  const upserts = portCalls(false);
  if (upserts.length > 0) await inChunks(tx, UPSERT_PORT_CALLS, upserts.map(portCallRow), last);
  const inserts = portCalls(true);
  if (inserts.length > 0) await inChunks(tx, INSERT_PORT_CALLS, inserts.map(portCallRow), last);
  await writeTimestamps(tx, entries, last);
  await inChunks(
    tx,
    UPSERT_VESSELS,
    entries.map((e) => ({
      imo: e.imo,
      revision: e.revision,
      visible: e.after.visible,
      version: e.after.version,
      stream_position: e.streamPosition,
      clock: e.after.clock,
      next_seq: e.after.next_seq,
      retired: e.after.retired_port_call_ids,
      next_timer_at: e.writes.next_timer_at,
      vessel_type: e.after.vessel_type ?? 1,
    })),
    last,
  );
  await runTogether(tx, last);
}
