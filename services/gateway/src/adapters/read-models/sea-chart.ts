// The sea chart's reads (docs/domain.md#sea-chart): GET /sea-chart/vessels from ingest's read model
// (ingest.sea_chart_positions, each row with its Feature) and the projector's ongoing port calls, and the
// fixed-vessel lists from ingest.fixed_vessels. Read-only.

import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { type Paginated, paginated, parseSort, searchClause } from '@pcas/http-kit';
import { VESSEL_TYPES } from '@pcas/s211';
import type { Queryable } from '@pcas/sql';
import { pgTimestampText } from './pg-text.ts';
import { rowsOrNone } from './port-calls.ts';

// Type names by vessel type id, as an SQL array (index = type id): the types are data of libs/s211, not tables.
const TYPE_NAMES = [...VESSEL_TYPES].sort((a, b) => a.id - b.id);
const typeNames: (string | null)[] = [];
for (const t of TYPE_NAMES) typeNames[t.id - 1] = t.name;

// The ongoing port calls as the activity timeline has them (not done, or done within two hours).
const ONGOING = `pc.shown AND (pc.status <> 'done' OR (pc.status = 'done' AND pc.atd >= now() - interval '2 hours'))`;

/**
 * One query: the Features (ingest keeps each row's finished GeoJSON Feature, services/ingest/src/adapters/
 * positions.ts) younger than the age limit, each kept when it is a fixed vessel's or
 * its vessel has an ongoing port call, joined into the answer here. Measured with 2,000 features: the rows cost
 * the server 2 ms of CPU where string_agg took 5 and making each Feature in the query 9.
 */
const VESSELS_SQL = (portCalls: boolean) => `
  SELECT l.feature FROM ingest.sea_chart_positions l
   WHERE l.location_timestamp >= now() - make_interval(mins => $1::int)
     AND l.feature IS NOT NULL
     AND (l.fixed
          ${portCalls ? `OR (l.imo IS NOT NULL AND EXISTS (SELECT 1 FROM portcall.port_calls pc WHERE pc.imo = l.imo AND ${ONGOING}))` : ''})
   ORDER BY l.id`;

const gzip = promisify(zlib.gzip);

/** GET /sea-chart/vessels' body: the JSON bytes, gzipped once (off the event loop) when first asked for. */
export class SeaChartVesselsBody {
  #gzip: Promise<Buffer> | undefined;
  constructor(readonly json: Buffer) {}
  gzipped(): Promise<Buffer> {
    // The fastest level: rebuilt as positions arrive, on cores the writers share. In the thread pool: some 700 kB
    // compressed on the event loop stalled every request of the process meanwhile.
    this.#gzip ??= gzip(this.json, { level: 1 });
    return this.#gzip;
  }
}

/**
 * GET /sea-chart/vessels' answers: `read` the body; `changed` when the next answer must show a change (a fixed
 * vessel changed through this process, ingest has answered); `fresh` resolves once the body served is one whose
 * query started after the call, readers meanwhile served the one before.
 */
export interface SeaChartVessels {
  read(): Promise<SeaChartVesselsBody>;
  changed(): void;
  fresh(): Promise<void>;
}

/**
 * GET /sea-chart/vessels. A body is served while its query started at most `reuseMs` (1 s) before the call and
 * after the last `changed`; a body older than half that is made again in the background, so readers seldom wait.
 * This process passes `sea-chart-vessels-changed` (at most once a second) to its sockets only once `fresh` has
 * resolved (entry-points/service.ts), so a map that reloads on the message gets the change without any reader
 * waiting for it; anything else (positions posted but not announced yet, the age limit) shows within `reuseMs`.
 * Not every position batch: AIS agents post several a second, and a fresh query for each kept the map's readers
 * waiting. Calls that must wait share one query, so 16 map views reading cost a query or two a second, not one per
 * view. (The original cached the answer for 60 s.)
 */
export function createSeaChartVessels(
  db: Queryable,
  maxAgeMinutes: number,
  options: { reuseMs?: number; now?: () => number } = {},
): SeaChartVessels {
  const reuseMs = options.reuseMs ?? 1000;
  const now = options.now ?? Date.now;
  let portCallsTable: boolean | undefined;
  let changedAt = Number.NEGATIVE_INFINITY;
  let current: { body: SeaChartVesselsBody; startedAt: number } | undefined;
  let running: { done: Promise<SeaChartVesselsBody>; startedAt: number } | undefined;

  const query = async (): Promise<SeaChartVesselsBody> => {
    // The projector creates its schema when it starts: until then only the fixed vessels are shown.
    if (!portCallsTable) {
      const { rows } = await db.query<{ ok: boolean }>("SELECT to_regclass('portcall.port_calls') IS NOT NULL AS ok");
      portCallsTable = rows[0].ok;
    }
    const rows = await rowsOrNone(db.query<{ feature: string }>(VESSELS_SQL(portCallsTable), [maxAgeMinutes]));
    const json = Buffer.from(`[${rows.map((r) => r.feature).join(',')}]`);
    // The same answer keeps its gzip. A new one is served once its gzip is made (browsers all ask for it): until
    // then the body before it is.
    if (current && json.equals(current.body.json)) return current.body;
    const body = new SeaChartVesselsBody(json);
    await body.gzipped();
    return body;
  };
  /** The query on its way, else a new one. */
  const refresh = () => {
    if (running) return running;
    const startedAt = now();
    const done = query().then(
      (body) => {
        if (!current || startedAt >= current.startedAt) current = { body, startedAt };
        running = undefined;
        return body;
      },
      (error) => {
        running = undefined;
        throw error;
      },
    );
    running = { done, startedAt };
    return running;
  };

  /** A body whose query started at or after `floor`: the current one, else the next query's. */
  const answer = async (floor: number): Promise<SeaChartVesselsBody> => {
    if (current && current.startedAt >= floor) {
      // A failure here shows to the next caller that waits for a query.
      if (now() - current.startedAt >= reuseMs / 2) refresh().done.catch(() => {});
      return current.body;
    }
    // At most two queries: one started before the floor is followed by one started after it.
    for (;;) {
      const pending = refresh();
      const body = await pending.done;
      if (pending.startedAt >= floor) return body;
    }
  };
  let readAt = Number.NEGATIVE_INFINITY;

  return {
    read() {
      readAt = now();
      return answer(Math.max(readAt - reuseMs, changedAt));
    },
    changed() {
      changedAt = now();
      // Someone is reading: start the next body now, so the next reader waits less (or not at all).
      if (readAt >= changedAt - reuseMs) answer(changedAt).catch(() => {});
    },
    async fresh() {
      await answer(now());
    },
  };
}

// ---- fixed vessels ----

const FIXED_COLUMNS = [
  'id',
  'imo',
  'mmsi',
  'vessel_type',
  'vessel_name',
  'created_at',
  'created_by',
  'modified_at',
  'modified_by',
];
const FIXED_SORTABLE: Record<string, string> = Object.fromEntries(FIXED_COLUMNS.map((c) => [c, `f.${c}`]));

/** A fixed vessel as the original served it, with `readable_type_name` (the type's name). */
const FIXED_ITEM = `json_build_object(
    'id', f.id, 'imo', f.imo, 'mmsi', f.mmsi, 'vessel_type', f.vessel_type, 'vessel_name', f.vessel_name,
    'readable_type_name', ($1::text[])[f.vessel_type],
    'created_at', ${pgTimestampText('f.created_at')}, 'created_by', f.created_by,
    'modified_at', ${pgTimestampText('f.modified_at')}, 'modified_by', f.modified_by)`;

export interface FixedVesselListQuery {
  limit: number;
  offset: number;
  sort?: string;
  search?: string;
}

/** GET /sea-chart/fixed-vessels: paginated, sorted (default vessel_name), searched on the name (`^` a prefix). */
export async function listFixedVessels(db: Queryable, query: FixedVesselListQuery): Promise<Paginated<unknown>> {
  const orderBy = parseSort(query.sort, FIXED_SORTABLE, 'vessel_name');
  const counted = searchClause(query.search, { columns: ['f.vessel_name'] });
  const search = searchClause(query.search, { columns: ['f.vessel_name'], offset: 1 });
  const params = [typeNames, ...(search?.params ?? [])];
  const n = params.length + 1;
  const [total, data] = await Promise.all([
    rowsOrNone(
      db.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM ingest.fixed_vessels f ${counted ? `WHERE ${counted.sql}` : ''}`,
        counted?.params ?? [],
      ),
    ),
    rowsOrNone(
      db.query<{ o: unknown }>(
        `SELECT ${FIXED_ITEM} AS o FROM ingest.fixed_vessels f ${search ? `WHERE ${search.sql}` : ''}
          ORDER BY ${orderBy}, f.id LIMIT $${n} OFFSET $${n + 1}`,
        [...params, query.limit, query.offset],
      ),
    ),
  ]);
  return paginated(
    data.map((r) => r.o),
    { start: query.offset, limit: query.limit, total: total[0]?.total ?? 0 },
  );
}

/** GET /sea-chart/fixed-vessel?id=: the vessel, or null when there is none (as the original's empty find). */
export async function fixedVesselById(db: Queryable, id: number): Promise<unknown | null> {
  const rows = await rowsOrNone(
    db.query<{ o: unknown }>(`SELECT ${FIXED_ITEM} AS o FROM ingest.fixed_vessels f WHERE f.id = $2`, [typeNames, id]),
  );
  return rows[0]?.o ?? null;
}
