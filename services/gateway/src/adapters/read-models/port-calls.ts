// Read-only queries on the portcall-projector's read models (schema `portcall`, documented in
// services/portcall-projector/src/adapters/schema.ts) for the port-call routes (docs/domain.md#port-calls). The
// projector stores each port call's `ship` object and its timeline;
// the gateway only names the creators of the timeline's slots (it owns users and API keys).

import { createBatcher } from '@pcas/batching';
import { ApiError } from '@pcas/contracts';
import { type Paginated, paginated, parseSort, searchClause } from '@pcas/http-kit';
import type { Queryable } from '@pcas/sql';
import { type Creator, creatorIds, creatorName, type Timeline, withSources } from '../../domain/port-calls.ts';
import { pageWithTotal } from '../paging.ts';
import { type GzipHead, gzipHead, gzipWithTail } from './gzip-splice.ts';

/** The projector creates its schema when it starts; until then (a gateway started first) there is nothing. */
const UNDEFINED_TABLE = '42P01';
export async function rowsOrNone<R>(query: Promise<{ rows: R[] }>): Promise<R[]> {
  try {
    return (await query).rows;
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === UNDEFINED_TABLE) return [];
    throw error;
  }
}

// ---- who created the timeline's slots ----

/** One row per user id, in id order; `api_key_name` when a data source's key is bound to the user. */
const CREATORS_SQL = `
  SELECT coalesce(json_agg(json_build_array(u.id, u.first_name, u.last_name, u.email,
           (SELECT k.name FROM gateway.api_keys k WHERE k.bound_user_id = u.id ORDER BY k.id LIMIT 1))
         ORDER BY u.id)::text, '[]')
    FROM gateway.users u WHERE u.id = ANY($1::int[])`;

function namesOf(creatorsJson: string): Map<number, string> {
  const rows = JSON.parse(creatorsJson) as [number, string, string, string, string | null][];
  return new Map(
    rows.map(([id, first_name, last_name, email, api_key_name]) => [
      id,
      creatorName({ id, first_name, last_name, email, api_key_name } satisfies Creator),
    ]),
  );
}

async function creators(db: Queryable, ids: readonly number[]): Promise<{ json: string; names: Map<number, string> }> {
  if (ids.length === 0) return { json: '[]', names: new Map() };
  const { rows } = await db.query<{ creators: string }>(`SELECT (${CREATORS_SQL}) AS creators`, [[...ids]]);
  return { json: rows[0].creators, names: namesOf(rows[0].creators) };
}

/** Timelines with every filled slot's `source` set (one query for all of them). */
export async function namedTimelines(db: Queryable, timelines: readonly Timeline[]): Promise<Timeline[]> {
  const { names } = await creators(db, creatorIds(timelines));
  return timelines.map((t) => withSources(t, names));
}

// ---- GET /ongoing-port-calls ----

// The activity timeline's port calls (docs/domain.md#the-activity-timeline): shown (vessel visible, to_port empty
// or visible), and not done or done with its ATD in the last two hours. Written so each half can use its partial
// index.
const ONGOING = `p.shown AND (p.status <> 'done' OR (p.status = 'done' AND p.atd >= now() - interval '2 hours'))`;
const ONGOING_ORDER = 'p.next_event_ts NULLS FIRST, p.current_eta, p.id';

// Changes whenever the set changes or any row of it is rewritten: every write of a row gives it a new xmin, in
// whatever order transactions commit (a max(updated_at) would miss an older transaction committing later).
const FINGERPRINT = (rows: string) =>
  `count(*) ${rows} || ':' || coalesce(sum(p.id) ${rows}, 0) || ':' || coalesce(sum(p.xmin::text::bigint) ${rows}, 0)`;

interface OngoingSnapshot {
  fingerprint: string;
  /** The creators' rows the names were made from, as the check query renders them. */
  creatorsJson: string;
  creatorIds: number[];
  body: OngoingBody;
}

/**
 * GET /ongoing-port-calls' document up to its per-caller end: `{"portcalls":[…]` as UTF-8 JSON, encoded (and
 * gzipped, the first time a caller accepts gzip) once per snapshot rather than once per request.
 */
export class OngoingBody {
  #gzip: GzipHead | undefined;
  // A caller without pins (most) gets the document made once per snapshot; a caller with pins, the shared head
  // and a tail of a few dozen bytes.
  #unpinnedJson: Buffer | undefined;
  #unpinnedGzip: Buffer | undefined;
  constructor(readonly head: Buffer) {}
  /** The whole document: the head and the caller's pinned vessels (`,"pinned_vessels":[…]}`). */
  json(pinned: readonly number[]): Buffer {
    if (pinned.length > 0) return Buffer.concat([this.head, tailOf(pinned)]);
    this.#unpinnedJson ??= Buffer.concat([this.head, tailOf(pinned)]);
    return this.#unpinnedJson;
  }
  gzipped(pinned: readonly number[]): Buffer {
    this.#gzip ??= gzipHead(this.head);
    if (pinned.length > 0) return gzipWithTail(this.#gzip, tailOf(pinned));
    this.#unpinnedGzip ??= gzipWithTail(this.#gzip, tailOf(pinned));
    return this.#unpinnedGzip;
  }
}

const tailOf = (pinned: readonly number[]): Buffer => Buffer.from(`,"pinned_vessels":${JSON.stringify(pinned)}}`);

// ---- the callers' pinned vessels (the notifier's read model, notifier.pinned_vessels) ----

/** `[[user_id, imo], …]` of the users in `param`, each user's in its order, as one JSON text. */
const PINS_SQL = (param: string) =>
  `SELECT coalesce(json_agg(json_build_array(v.user_id, v.imo) ORDER BY v.user_id, v.position)::text, '[]')
     FROM notifier.pinned_vessels v WHERE v.user_id = ANY(${param}::bigint[])`;
const PINS_TABLE = `to_regclass('notifier.pinned_vessels') IS NOT NULL`;

function pinsByUser(json: string): Map<number, number[]> {
  const byUser = new Map<number, number[]>();
  for (const [userId, imo] of JSON.parse(json) as [number, number][]) {
    const list = byUser.get(userId) ?? [];
    list.push(imo);
    byUser.set(userId, list);
  }
  return byUser;
}

/** The pinned IMOs of these users (numbers, as the timeline's `ship.imo`); none before the notifier started. */
export async function pinsOf(db: Queryable, userIds: readonly number[]): Promise<Map<number, number[]>> {
  if (userIds.length === 0) return new Map();
  const rows = await rowsOrNone(db.query<{ pins: string }>(`SELECT (${PINS_SQL('$1')}) AS pins`, [[...userIds]]));
  return pinsByUser(rows[0]?.pins ?? '[]');
}

export interface Ongoing {
  body: OngoingBody;
  /** The caller's pinned IMOs, in order. */
  pinned: number[];
}

/**
 * GET /ongoing-port-calls' document and each caller's pinned vessels. Each call is answered from a check of the
 * read models made after the call arrived (one small query: the set's fingerprint, the names of the slots'
 * creators, and the pins of the batch's callers); the document is rebuilt only when the first two changed, so
 * the answer is never stale (a PUT /pinned-vessel-ids shows on the next call) and the usual call serialises
 * nothing. Calls arriving while a check runs share the next one. (The original cached the list in Redis,
 * invalidated on every port-call save, and each user's pins under a key of their own.)
 */
export function createOngoingPortCalls(db: Queryable): (userId: number | null) => Promise<Ongoing> {
  let snapshot: OngoingSnapshot | null = null;
  // Until the notifier created its table (it may start after the gateway), the check asks whether it exists.
  let pinsTable = false;

  async function build(): Promise<OngoingSnapshot> {
    const rows = await rowsOrNone(
      db.query<{ ship: string; timeline: Timeline; fingerprint: string }>(
        `SELECT p.ship::text AS ship, p.timeline, ${FINGERPRINT('OVER ()')} AS fingerprint
           FROM portcall.port_calls p WHERE ${ONGOING} ORDER BY ${ONGOING_ORDER}`,
      ),
    );
    const timelines = rows.map((r) => r.timeline);
    const ids = creatorIds(timelines);
    const { json, names } = await creators(db, ids);
    // The ship objects go out as the database rendered them; only the timelines need their sources named.
    const entries = rows.map(
      (r, i) => `{"ship":${r.ship},"portcalls":[${JSON.stringify(withSources(timelines[i], names))}]}`,
    );
    return {
      fingerprint: rows[0]?.fingerprint ?? '0:0:0',
      creatorsJson: json,
      creatorIds: ids,
      body: new OngoingBody(Buffer.from(`{"portcalls":[${entries.join(',')}]`)),
    };
  }

  async function current(userIds: number[]): Promise<{ body: OngoingBody; pins: Map<number, number[]> }> {
    const cached = snapshot;
    if (cached) {
      const withPins = pinsTable && userIds.length > 0;
      const check = await rowsOrNone(
        db.query<{ fingerprint: string; creators: string; pins?: string; pins_table?: boolean }>(
          `SELECT (SELECT ${FINGERPRINT('')} FROM portcall.port_calls p WHERE ${ONGOING}) AS fingerprint,
                  (${CREATORS_SQL}) AS creators,
                  ${withPins ? `(${PINS_SQL('$2')}) AS pins` : `${PINS_TABLE} AS pins_table`}`,
          withPins ? [cached.creatorIds, userIds] : [cached.creatorIds],
        ),
      );
      const now = check[0];
      if (now && now.fingerprint === cached.fingerprint && now.creators === cached.creatorsJson) {
        if (withPins) return { body: cached.body, pins: pinsByUser(now.pins ?? '[]') };
        pinsTable = now.pins_table === true;
        // The table appeared since the last check: this batch's pins are read on their own, once.
        return { body: cached.body, pins: pinsTable ? await pinsOf(db, userIds) : new Map() };
      }
    }
    snapshot = await build();
    return { body: snapshot.body, pins: await pinsOf(db, userIds) };
  }

  // One check at a time; a batch only starts after its calls arrived, so each sees what was committed before it.
  const shared = createBatcher<number | null, Ongoing>(
    async (calls) => {
      const userIds = [...new Set(calls.filter((id): id is number => id !== null))];
      const { body, pins } = await current(userIds);
      return calls.map((id) => ({ ok: true, value: { body, pinned: (id !== null && pins.get(id)) || [] } }));
    },
    { maxItems: 10_000, maxInFlight: 1 },
  );
  return shared;
}

// ---- GET /port-calls ----

const TEXT_COLUMNS = [
  'vessel_name',
  'status',
  'next_event_title',
  'from_port',
  'to_port',
  'next_port',
  'berth',
  'berth_name',
  'call_sign',
  'nationality',
  'master_id',
] as const;
const OTHER_COLUMNS = [
  'id',
  'imo',
  'first_eta',
  'current_eta',
  'first_etd',
  'current_etd',
  'rta',
  'ata',
  'atd',
  'next_event_ts',
  'mmsi',
  'loa',
  'beam',
  'draft',
  'net_weight',
  'gross_weight',
  'is_vis',
  'master_start',
  'master_end',
  'master_manual',
] as const;
/** The port call's typed columns (times as timestamptz, so they sort in time order). */
const SORTABLE: Record<string, string> = Object.fromEntries(
  [...TEXT_COLUMNS, ...OTHER_COLUMNS].map((c) => [c, `p.${c}`]),
);
const LOWER_OK = new Set<string>(TEXT_COLUMNS);

/** The original's sort syntax (docs/domain.md#lists) over the port call's columns; lower() only of text columns. */
export function portCallOrderBy(sort: string | undefined, fallback: string): string {
  for (const token of (sort ?? '').split(',')) {
    const lowered = /^\s*lower\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)/.exec(token);
    if (lowered && !LOWER_OK.has(lowered[1])) throw ApiError.badRequest(`Invalid orderBy: ${token.trim()}`);
  }
  return parseSort(sort, SORTABLE, fallback);
}

export interface PortCallListQuery {
  offset: number;
  limit: number;
  sort?: string;
  search?: string;
}

/** GET /port-calls: paginated ship objects; search by IMO (7+ digits), `^prefix` or part of the name. */
export async function listPortCalls(db: Queryable, query: PortCallListQuery): Promise<Paginated<unknown>> {
  const orderBy = portCallOrderBy(query.sort, 'next_event_ts');
  const search = searchClause(query.search, { columns: ['p.vessel_name'], imoColumn: 'p.imo' });
  const filter = search ? `WHERE ${search.sql}` : '';
  const params = search?.params ?? [];
  const page = await pageWithTotal<{ ship: unknown }>(
    db,
    {
      select: 'p.ship',
      from: `FROM portcall.port_calls p ${filter}`,
      params,
      orderBy: `${orderBy}, p.id`,
      limit: query.limit,
      offset: query.offset,
    },
    rowsOrNone,
  );
  return paginated(
    page.rows.map((r) => r.ship),
    { start: query.offset, limit: query.limit, total: page.total },
  );
}

// ---- GET /port-call, GET /port-call-csv ----

export interface PortCallView {
  ship: { id: number; imo: number; vessel_name: string; [field: string]: unknown };
  timeline: Timeline;
}

/** The port call's ship object and its timeline with named sources; undefined when there is no such port call. */
export async function portCallById(db: Queryable, id: number): Promise<PortCallView | undefined> {
  const rows = await rowsOrNone(
    db.query<PortCallView>('SELECT p.ship, p.timeline FROM portcall.port_calls p WHERE p.id = $1', [id]),
  );
  if (!rows[0]) return undefined;
  const [timeline] = await namedTimelines(db, [rows[0].timeline]);
  return { ship: rows[0].ship, timeline };
}

// ---- GET /export/port-calls ----

export interface PortCallExportFilter {
  id?: number;
  imo?: number;
}

/**
 * GET /export/port-calls (broken in the original): the port-call records (times ISO 8601 UTC), paginated.
 * The projector's bookkeeping (its creation order, the remembered payload-key weights) is left out.
 */
export async function exportPortCalls(
  db: Queryable,
  filter: PortCallExportFilter,
  page: { offset: number; limit: number; sort?: string },
): Promise<Paginated<unknown>> {
  const orderBy = portCallOrderBy(page.sort, 'id');
  const conditions: string[] = [];
  const params: unknown[] = [];
  if (filter.id !== undefined) {
    params.push(filter.id);
    conditions.push(`p.id = $${params.length}`);
  }
  if (filter.imo !== undefined) {
    params.push(filter.imo);
    conditions.push(`p.imo = $${params.length}`);
  }
  const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const found = await pageWithTotal<{ doc: unknown }>(
    db,
    {
      select: `p.doc - 'seq' - 'payload_key_weights' AS doc`,
      from: `FROM portcall.port_calls p ${where}`,
      params,
      orderBy: `${orderBy}, p.id`,
      limit: page.limit,
      offset: page.offset,
    },
    rowsOrNone,
  );
  return paginated(
    found.rows.map((r) => r.doc),
    { start: page.offset, limit: page.limit, total: found.total },
  );
}
