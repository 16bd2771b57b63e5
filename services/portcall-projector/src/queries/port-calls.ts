// The port-call reads of this service's read model portcall.port_calls (docs/domain.md#the-activity-timeline,
// #the-ship-object, #exports-and-the-timesheet), run by the gateway in its process
// (`@pcas/portcall-projector/queries`): GET /ongoing-port-calls' statements (the gateway keeps their answer as
// ready bytes and names the timeline's creators), the port-call list, one port call and the export. The projector
// stores each port call's `ship` object and its timeline; until it created its schema there is nothing to read.

import { ApiError } from '@pcas/contracts';
import { type Paginated, paginated, parseSort, searchClause } from '@pcas/http-kit';
import { equalities, pageWithTotal, type Queryable, whereAll } from '@pcas/sql';
import { ongoing } from './ongoing.ts';

// ---- GET /ongoing-port-calls ----

// The activity timeline's port calls, by the ongoing rule (ongoing.ts), in the timeline's order.
const ONGOING = ongoing('p');
const ONGOING_ORDER = 'p.next_event_ts NULLS FIRST, p.current_eta, p.id';

// Changes whenever the set changes or any row of it is rewritten: every write of a row gives it a new xmin, in
// whatever order transactions commit (a max(updated_at) would miss an older transaction committing later).
const FINGERPRINT = (rows: string) =>
  `count(*) ${rows} || ':' || coalesce(sum(p.id) ${rows}, 0) || ':' || coalesce(sum(p.xmin::text::bigint) ${rows}, 0)`;

/**
 * The ongoing port calls, in the timeline's order: each one's `ship` (as text, the database's rendering) and
 * `timeline`, and on every row the set's `fingerprint`.
 */
export const ONGOING_PORT_CALLS_SQL = `SELECT p.ship::text AS ship, p.timeline, ${FINGERPRINT('OVER ()')} AS fingerprint
           FROM portcall.port_calls p WHERE ${ONGOING} ORDER BY ${ONGOING_ORDER}`;

/** A scalar subquery: the ongoing set's fingerprint alone, as ONGOING_PORT_CALLS_SQL gives it ('0:0:0' for none). */
export const ONGOING_FINGERPRINT_SQL = `SELECT ${FINGERPRINT('')} FROM portcall.port_calls p WHERE ${ONGOING}`;

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
  return portCallPage(db, 'p.ship', filter, search?.params ?? [], { ...query, orderBy });
}

/** A page of one value (`value`, of `p`) per port call, in `orderBy` then id order, with the list's total. */
async function portCallPage(
  db: Queryable,
  value: string,
  where: string,
  params: unknown[],
  page: { offset: number; limit: number; orderBy: string },
): Promise<Paginated<unknown>> {
  const found = await pageWithTotal<{ value: unknown }>(db, {
    select: `${value} AS value`,
    from: `FROM portcall.port_calls p ${where}`,
    params,
    orderBy: `${page.orderBy}, p.id`,
    limit: page.limit,
    offset: page.offset,
  });
  return paginated(
    found.rows.map((r) => r.value),
    { start: page.offset, limit: page.limit, total: found.total },
  );
}

// ---- GET /port-call, GET /port-call-csv ----

/** A port call's ship object and its timeline (`T`: the timeline's type as the reader knows it). */
export interface PortCallView<T = unknown> {
  ship: { id: number; imo: number; vessel_name: string; [field: string]: unknown };
  timeline: T;
}

/** The port call's ship object and its timeline (sources not named yet); undefined when there is no such port call. */
export async function portCallById<T>(db: Queryable, id: number): Promise<PortCallView<T> | undefined> {
  const rows = (
    await db.query<PortCallView<T>>('SELECT p.ship, p.timeline FROM portcall.port_calls p WHERE p.id = $1', [id])
  ).rows;
  return rows[0];
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
  const params: unknown[] = [];
  const where = whereAll(equalities({ 'p.id': filter.id, 'p.imo': filter.imo }, params));
  return portCallPage(db, `p.doc - 'seq' - 'payload_key_weights'`, where, params, { ...page, orderBy });
}
