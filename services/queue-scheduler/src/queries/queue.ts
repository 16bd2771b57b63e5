// The JIT arrival queue's reads (docs/domain.md#queue), run by the gateway in its process
// (`@pcas/queue-scheduler/queries`): read-only queries on this service's read models (schema `queue`), shaped as the
// original's raw rows (times in PostgreSQL's text form at UTC). A nomination whose window has ended reads as
// `expired`, and a slot request past its time as `completed`, before the jobs that record them have run, so the
// answers never depend on the jobs' timing. Until this service has created its schema there is nothing to read.
//
// What the rows need of other areas is lent by their owners as SQL (`QueueLent`): the gateway's settings and
// users' names, the projector's port call the live ETA follows. The gateway composes them (createQueueQueries).

import { ApiError } from '@pcas/contracts';
import { type Paginated, paginated, parseSort, searchClause } from '@pcas/http-kit';
import { pageWithTotal, pgTimestampText, type Queryable } from '@pcas/sql';

export interface ListQuery {
  limit: number;
  offset: number;
  sort?: string;
  search?: string;
}

/** SQL the queue's rows take from other areas, written by their owners. */
export interface QueueLent {
  /** The gateway's interval setting `name` (its text an ISO 8601 duration), `fallback` when unset or empty. */
  intervalSetting(name: string, fallback: string): string;
  /** The name of the user whose id is the expression `id`: a join and the first and last name ('' when none). */
  userName(id: string): { join: string; first: string; last: string };
  /**
   * The projector's port call of the vessel whose IMO is the expression `imo` as the live ETA finds it, a subquery
   * of columns live_eta, ptd, vessel_nationality.
   */
  livePortCall(imo: string): string;
}

/** The statements' parts that read other areas, made once. */
interface Sql {
  rtaWindow: string;
  laytimeBuffer: string;
  nominationsFrom: string;
  slotStatus: string;
  slotsFrom: string;
  vesselPortCall: string;
}

function sqlOf(lent: QueueLent): Sql {
  const travel = lent.intervalSetting('queue_travel_duration_to_berth', 'PT30M');
  const rtaWindow = lent.intervalSetting('queue_rta_window_duration', 'PT30M');
  const laytimeBuffer = lent.intervalSetting('queue_laytime_buffer_duration', 'PT30M');
  const slotStatus = SLOT_STATUS(travel, rtaWindow, laytimeBuffer);
  return {
    rtaWindow,
    laytimeBuffer,
    nominationsFrom: NOMINATIONS_FROM(lent.userName('n.created_by')),
    slotStatus,
    slotsFrom: SLOTS_FROM(slotStatus),
    // The vessel's port call as the live ETA finds it: its first one not done, by current ETA.
    vesselPortCall: lent.livePortCall('v.imo'),
  };
}

/** The sortable fields that are text (the only ones `lower(field)` may sort by). */
const TEXT_COLUMNS = new Set([
  'code',
  'name',
  'company_name',
  'email',
  'vessel_name',
  'owner_first_name',
  'owner_last_name',
  'berth_name',
  'nomination_status',
  'readable_nomination_status',
  'berth_reservation_type',
  'readable_berth_reservation_type',
  'slot_reservation_status',
  'readable_slot_reservation_status',
]);

// ---- berths ----

const BERTH_ROW = `id, code, name, nominatable, ${pgTimestampText('created_at')} AS created_at, created_by,
  ${pgTimestampText('modified_at')} AS modified_at, modified_by`;

async function list<R extends object>(
  db: Queryable,
  from: string,
  select: string,
  query: ListQuery,
  sortable: Record<string, string>,
  fallbackSort: string,
  search: { columns: string[]; imoColumn?: string },
  where: { sql: string; params: unknown[] } = { sql: 'TRUE', params: [] },
): Promise<Paginated<R>> {
  for (const token of (query.sort ?? '').split(',')) {
    const lowered = /^\s*lower\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)/.exec(token);
    // lower() exists for text only; anything else would be a database error instead of the original's 400.
    if (lowered && !TEXT_COLUMNS.has(lowered[1])) throw ApiError.badRequest(`Invalid orderBy: ${token.trim()}`);
  }
  const orderBy = parseSort(query.sort, sortable, fallbackSort);
  const found = searchClause(query.search, { ...search, offset: where.params.length });
  const params = [...where.params, ...(found?.params ?? [])];
  const filter = `WHERE ${where.sql}${found ? ` AND ${found.sql}` : ''}`;
  const page = await pageWithTotal<R>(db, {
    select,
    from: `FROM ${from} ${filter}`,
    params,
    orderBy: `${orderBy}, v.id`,
    limit: query.limit,
    offset: query.offset,
  });
  return paginated(page.rows, { start: query.offset, limit: query.limit, total: page.total });
}

const columns = (names: string[], prefix = 'v.') => Object.fromEntries(names.map((c) => [c, `${prefix}${c}`]));

export function listBerths(db: Queryable, query: ListQuery) {
  return list(db, 'queue.berths v', BERTH_ROW, query, columns(['id', 'code', 'name', 'nominatable']), 'id', {
    columns: ['v.code', 'v.name'],
  });
}

export async function berthById(db: Queryable, id: number): Promise<unknown> {
  const rows = (await db.query(`SELECT ${BERTH_ROW} FROM queue.berths WHERE id = $1`, [id])).rows;
  return rows[0] ?? null;
}

/** GET /all-nominatable-berths: raw rows, by lower(name). */
export function nominatableBerths(db: Queryable): Promise<unknown[]> {
  return db
    .query(`SELECT ${BERTH_ROW} FROM queue.berths WHERE nominatable ORDER BY lower(name), id`)
    .then((found) => found.rows);
}

// ---- nominations ----

const NOMINATION_STATUS = `CASE WHEN n.nomination_status <> 'expired' AND n.window_end < now() THEN 'expired'
  ELSE n.nomination_status END`;
const NOMINATIONS_FROM = (owner: {
  join: string;
  first: string;
  last: string;
}) => `(SELECT n.*, ${NOMINATION_STATUS} AS status,
    ${owner.first} AS owner_first_name, ${owner.last} AS owner_last_name,
    coalesce((SELECT array_agg(b.name ORDER BY x.ord) FROM unnest(n.berth_ids) WITH ORDINALITY x(id, ord)
               JOIN queue.berths b ON b.id = x.id), '{}') AS berth_names
   FROM queue.nominations n ${owner.join}) v`;
const NOMINATION_ROW = `v.id, v.company_name, v.email, v.imo, v.vessel_name, v.status AS nomination_status,
  CASE v.status WHEN 'open' THEN 'Open' WHEN 'reserved' THEN 'Reserved' ELSE 'Expired' END AS readable_nomination_status,
  ${pgTimestampText('v.window_start')} AS window_start, ${pgTimestampText('v.window_end')} AS window_end,
  v.berth_ids, v.berth_names, v.owner_first_name, v.owner_last_name, ${pgTimestampText('v.created_at')} AS created_at,
  v.created_by, ${pgTimestampText('v.modified_at')} AS modified_at, v.modified_by`;
const NOMINATION_SORT = {
  ...columns([
    'id',
    'company_name',
    'email',
    'imo',
    'vessel_name',
    'window_start',
    'window_end',
    'owner_first_name',
    'owner_last_name',
  ]),
  nomination_status: 'v.status',
  readable_nomination_status: 'v.status',
};

/** GET /nominations (all) or /own-nominations (`owner`: the caller's only). */
function listNominations(sql: Sql, db: Queryable, query: ListQuery, owner?: number) {
  const where = owner === undefined ? undefined : { sql: 'v.created_by = $1', params: [owner] };
  return list(
    db,
    sql.nominationsFrom,
    NOMINATION_ROW,
    query,
    NOMINATION_SORT,
    'id',
    {
      columns: ['v.vessel_name'],
      imoColumn: 'v.imo',
    },
    where,
  );
}

/** GET /nomination-by-id or /own-nomination-by-id (`owner`: 403 for someone else's). */
async function nominationById(sql: Sql, db: Queryable, id: number, owner?: number): Promise<unknown> {
  const rows = (
    await db.query<{ created_by: number | null }>(
      `SELECT ${NOMINATION_ROW} FROM ${sql.nominationsFrom} WHERE v.id = $1`,
      [id],
    )
  ).rows;
  const row = rows[0];
  if (!row) throw ApiError.badRequest(`Cannot find nomination instance with given id: ${id}`);
  if (owner !== undefined && row.created_by !== owner) throw ApiError.forbidden('No permission for given nomination');
  return row;
}

// ---- berth reservations ----

const RESERVATIONS_FROM = `(SELECT r.*, s.vessel_name FROM queue.berth_reservations r
   LEFT JOIN queue.slot_reservations s ON s.id = r.slot_reservation_id) v`;
const RESERVATION_ROW = `v.id, v.berth_id, v.berth_reservation_type,
  CASE v.berth_reservation_type WHEN 'port_blocked' THEN 'Blocked by port' ELSE 'Reserved for vessel' END
    AS readable_berth_reservation_type,
  ${pgTimestampText('v.reservation_start')} AS reservation_start, ${pgTimestampText('v.reservation_end')} AS reservation_end,
  v.slot_reservation_id, v.vessel_name, ${pgTimestampText('v.created_at')} AS created_at, v.created_by,
  ${pgTimestampText('v.modified_at')} AS modified_at, v.modified_by`;

export function listBerthReservations(db: Queryable, berthId: number, query: ListQuery) {
  return list(
    db,
    RESERVATIONS_FROM,
    RESERVATION_ROW,
    query,
    {
      ...columns(['id', 'reservation_start', 'reservation_end', 'berth_reservation_type', 'vessel_name']),
      readable_berth_reservation_type: 'v.berth_reservation_type',
    },
    'reservation_start',
    { columns: ['v.vessel_name'] },
    { sql: 'v.berth_id = $1', params: [berthId] },
  );
}

export async function berthReservationById(db: Queryable, id: number): Promise<unknown> {
  const rows = (await db.query(`SELECT ${RESERVATION_ROW} FROM ${RESERVATIONS_FROM} WHERE v.id = $1`, [id])).rows;
  return rows[0] ?? null;
}

// ---- slot requests ----

const SLOT_STATUS = (
  travel: string,
  rtaWindow: string,
  laytimeBuffer: string,
) => `CASE WHEN ((s.slot_reservation_status IN ('requested', 'no_nomination', 'no_free_slot') AND s.eta < now())
      OR (s.slot_reservation_status IN ('offered', 'accepted', 'updated') AND s.rta_window_start < now()))
    AND now() > coalesce(s.rta_window_start, s.eta) + s.laytime + ${rtaWindow} + ${travel} + ${laytimeBuffer}
  THEN 'completed' ELSE s.slot_reservation_status END`;
const SLOTS_FROM = (slotStatus: string) => `(SELECT s.*, ${slotStatus} AS status, b.name AS berth_name,
    (SELECT min(o.reservation_start) FROM queue.berth_reservations me JOIN queue.berth_reservations o
        ON o.berth_id = me.berth_id AND o.reservation_start > me.reservation_start
      WHERE me.id = s.berth_reservation_id) AS next_start,
    (SELECT me.reservation_start FROM queue.berth_reservations me WHERE me.id = s.berth_reservation_id) AS berth_start
   FROM queue.slot_reservations s LEFT JOIN queue.berths b ON b.id = s.berth_id) v`;
const READABLE_SLOT_STATUS = `CASE v.status WHEN 'requested' THEN 'Requested' WHEN 'no_nomination' THEN 'No nomination found'
  WHEN 'no_free_slot' THEN 'No free slots' WHEN 'offered' THEN 'Offered' WHEN 'accepted' THEN 'Accepted'
  WHEN 'updated' THEN 'Updated by port' WHEN 'cancelled_by_vessel' THEN 'Cancelled by vessel'
  WHEN 'cancelled_by_port' THEN 'Cancelled by port' ELSE 'Completed' END`;
const hhmm = (expr: string) =>
  `lpad((floor(extract(epoch FROM ${expr}) / 3600))::int::text, 2, '0') || ':' || lpad((floor(extract(epoch FROM ${expr}) / 60)::int % 60)::text, 2, '0')`;
const isoInterval = (expr: string) =>
  `CASE WHEN ${expr} = interval '0' THEN 'PT0S' ELSE 'PT' ||
    CASE WHEN floor(extract(epoch FROM ${expr}) / 3600) > 0 THEN floor(extract(epoch FROM ${expr}) / 3600)::int || 'H' ELSE '' END ||
    CASE WHEN floor(extract(epoch FROM ${expr}) / 60)::int % 60 > 0 THEN (floor(extract(epoch FROM ${expr}) / 60)::int % 60) || 'M' ELSE '' END END`;
const SLOT_ROW = `v.id, v.nomination_id, v.berth_id, v.email, v.imo, v.vessel_name, v.loa, v.beam, v.draft,
  ${isoInterval('v.laytime')} AS laytime, ${pgTimestampText('v.eta')} AS eta,
  ${pgTimestampText('v.rta_window_start')} AS rta_window_start, ${pgTimestampText('v.rta_window_end')} AS rta_window_end,
  ${pgTimestampText('v.jit_eta')} AS jit_eta, v.status AS slot_reservation_status,
  ${READABLE_SLOT_STATUS} AS readable_slot_reservation_status, v.berth_name, v.port_call_id,
  ${pgTimestampText('v.jit_eta_discrepancy_time')} AS jit_eta_discrepancy_time, v.jit_eta_alert_state,
  ${pgTimestampText('v.created_at')} AS created_at, v.created_by, ${pgTimestampText('v.modified_at')} AS modified_at,
  v.modified_by`;
const SLOT_SORT = {
  ...columns([
    'id',
    'email',
    'imo',
    'vessel_name',
    'eta',
    'rta_window_start',
    'rta_window_end',
    'jit_eta',
    'laytime',
    'berth_name',
  ]),
  slot_reservation_status: 'v.status',
  readable_slot_reservation_status: 'v.status',
};

function listSlotRequests(sql: Sql, db: Queryable, query: ListQuery) {
  return list(db, sql.slotsFrom, SLOT_ROW, query, SLOT_SORT, 'id', { columns: ['v.vessel_name'] });
}

/**
 * GET /dashboard-slot-reservations: offered, accepted and updated ones by RTA window start, with the vessel's
 * live ETA and PTD from its port call (as the live-ETA side records them, when it does).
 */
function dashboardSlotRequests(sql: Sql, db: Queryable, query: ListQuery) {
  const row = `${SLOT_ROW}, pc.live_eta, pc.ptd, pc.vessel_nationality`;
  return list(
    db,
    `${sql.slotsFrom} LEFT JOIN LATERAL (${sql.vesselPortCall}) pc ON true`,
    row,
    query,
    SLOT_SORT,
    'rta_window_start',
    { columns: ['v.vessel_name'] },
    {
      sql: "v.status IN ('offered', 'accepted', 'updated')",
      params: [],
    },
  );
}

/**
 * What a JIT ETA form link's check reads of its slot request (domain/eta-form-links.ts): the status as the lists show
 * it (completed once due) and the id of the newest link mailed for it; null when there is no such request.
 */
async function slotRequestLinkState(
  sql: Sql,
  db: Queryable,
  id: number,
): Promise<{ status: string; newest_link_id: string | null } | null> {
  const rows = (
    await db.query<{ status: string; newest_link_id: string | null }>(
      `SELECT ${sql.slotStatus} AS status, m.link_id AS newest_link_id
         FROM queue.slot_reservations s LEFT JOIN queue.mail_slot_requests m ON m.id = s.id WHERE s.id = $1`,
      [id],
    )
  ).rows;
  return rows[0] ?? null;
}

/** GET /slot-reservation-by-id and the agent's: the row, laytime as `HH:MM` and the longest laytime the berth allows. */
async function slotRequestById(sql: Sql, db: Queryable, id: number): Promise<unknown> {
  const maxLaytime = `CASE WHEN v.next_start IS NULL THEN NULL ELSE ${hhmm(
    `greatest(v.next_start - v.berth_start - ${sql.rtaWindow} - ${sql.laytimeBuffer} - interval '1 minute', interval '0')`,
  )} END`;
  const rows = (
    await db.query(
      `SELECT ${SLOT_ROW.replace(`${isoInterval('v.laytime')} AS laytime`, `${hhmm('v.laytime')} AS laytime`)},
              ${maxLaytime} AS max_laytime
         FROM ${sql.slotsFrom} WHERE v.id = $1`,
      [id],
    )
  ).rows;
  return rows[0] ?? null;
}

/** The queue's reads, with what they read of other areas lent by their owners. */
export function createQueueQueries(lent: QueueLent) {
  const sql = sqlOf(lent);
  return {
    listBerths,
    berthById,
    nominatableBerths,
    listNominations: (db: Queryable, query: ListQuery, owner?: number) => listNominations(sql, db, query, owner),
    nominationById: (db: Queryable, id: number, owner?: number) => nominationById(sql, db, id, owner),
    listBerthReservations,
    berthReservationById,
    listSlotRequests: (db: Queryable, query: ListQuery) => listSlotRequests(sql, db, query),
    dashboardSlotRequests: (db: Queryable, query: ListQuery) => dashboardSlotRequests(sql, db, query),
    slotRequestLinkState: (db: Queryable, id: number) => slotRequestLinkState(sql, db, id),
    slotRequestById: (db: Queryable, id: number) => slotRequestById(sql, db, id),
  };
}

export type QueueQueries = ReturnType<typeof createQueueQueries>;
