// GET /timestamps and GET /export/timestamps, run by the gateway in its process (`@pcas/portcall-projector/queries`):
// read-only queries on this service's portcall.timestamps, shaped as the original's TimestampPrettyModel: payload
// as JSON text, is_trash 't'/'f', times in PostgreSQL's text form (docs/domain.md#original-behaviours-we-keep).

import { ApiError } from '@pcas/contracts';
import { type Paginated, paginated, parseSort } from '@pcas/http-kit';
import { STATES, TIME_TYPES } from '@pcas/s211';
import { pgTimestampText, type Queryable } from '@pcas/sql';

export interface TimestampListRow {
  id: number;
  port_call_id: number | null;
  imo: number;
  vessel_name: string;
  time_type_id: number | null;
  state_id: number | null;
  /** PostgreSQL text format at UTC, e.g. `2020-02-23 20:15:00+00`. */
  time: string;
  /** JSON text as stored: the admin UI runs JSON.parse on it. */
  payload: string;
  /** Postgres text booleans, as the original's raw model serialises is_trash. */
  is_trash: 't' | 'f';
  weight: number;
  created_by: number | null;
  created_at: string;
  modified_by: number | null;
  modified_at: string | null;
  time_type: string;
  state: string;
}

/** Validated filters; all optional, AND-ed. Dates are ISO 8601 with an offset (checked by the route). */
export interface TimestampFilter {
  id?: number;
  imo?: number;
  port_call_id?: number;
  /** Only timestamps in no port call (GET /non-port-call-timestamps). */
  without_port_call?: boolean;
  start_date_time?: string;
  end_date_time?: string;
}

export interface ListPage {
  offset: number;
  limit: number;
  sort?: string;
}

// Catalogue names placed at index id-1, so array_position() yields the original's ids inside SQL (and the id
// columns can be sorted on like the stored ones they were in the original).
const byId = (items: readonly { id: number; name: string }[]): (string | null)[] => {
  const out: (string | null)[] = [];
  for (const item of items) out[item.id - 1] = item.name;
  return Array.from(out, (name) => name ?? null);
};
/**
 * A constant text[] written into the statement: prepared once per connection, instead of two arrays of a few
 * hundred names bound and parsed on every listing. The names are the catalogue's own identifiers.
 */
function textArrayLiteral(names: readonly (string | null)[]): string {
  for (const name of names) {
    if (name !== null && !/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`unexpected catalogue name: ${name}`);
  }
  return `'{${names.map((name) => name ?? 'NULL').join(',')}}'::text[]`;
}
const TIME_TYPE_NAMES_BY_ID = textArrayLiteral(byId(TIME_TYPES));
const STATE_NAMES_BY_ID = textArrayLiteral(byId(STATES));

const COLUMNS = [
  'id',
  'port_call_id',
  'imo',
  'vessel_name',
  'time_type_id',
  'state_id',
  'time',
  'payload',
  'is_trash',
  'weight',
  'created_by',
  'created_at',
  'modified_by',
  'modified_at',
  'time_type',
  'state',
] as const;

// Sorting is on the underlying values (timestamptz, jsonb, boolean), qualified so the formatted output
// columns of the same names are never what ORDER BY picks.
const SORTABLE: Record<string, string> = Object.fromEntries(COLUMNS.map((c) => [c, `r.${c}`]));
// lower() exists for text only; anything else would be a database error instead of the original's 400.
const LOWER_OK = new Set(['vessel_name', 'time_type', 'state']);

export function timestampOrderBy(sort: string | undefined): string {
  for (const token of (sort ?? '').split(',')) {
    const lowered = /^\s*lower\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)/.exec(token);
    if (lowered && !LOWER_OK.has(lowered[1])) throw ApiError.badRequest(`Invalid orderBy: ${token.trim()}`);
  }
  return parseSort(sort, SORTABLE, 'time');
}

function where(filter: TimestampFilter, firstParam: number): { sql: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (condition: string, value: unknown) => {
    params.push(value);
    conditions.push(condition.replace('?', `$${firstParam + params.length - 1}`));
  };
  if (filter.id !== undefined) add('t.id = ?', filter.id);
  if (filter.imo !== undefined) add('t.imo = ?', filter.imo);
  if (filter.port_call_id !== undefined) add('t.port_call_id = ?', filter.port_call_id);
  if (filter.without_port_call) conditions.push('t.port_call_id IS NULL');
  if (filter.start_date_time !== undefined) add('t.time >= ?::timestamptz', filter.start_date_time);
  if (filter.end_date_time !== undefined) add('t.time <= ?::timestamptz', filter.end_date_time);
  return { sql: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

/**
 * The total of a listing: unfiltered or by IMO alone from the projector's per-vessel counts (a sum over vessels,
 * not a count over every row), else a count of the matching rows.
 */
function totalQuery(filter: TimestampFilter): { sql: string; params: unknown[] } {
  const given = Object.entries(filter).filter(([, v]) => v !== undefined && v !== false);
  if (given.length === 0) {
    return { sql: 'SELECT COALESCE(sum(timestamps), 0)::int AS total FROM portcall.timestamp_counts', params: [] };
  }
  if (given.length === 1 && filter.imo !== undefined) {
    return {
      sql: 'SELECT COALESCE(sum(timestamps), 0)::int AS total FROM portcall.timestamp_counts WHERE imo = $1',
      params: [filter.imo],
    };
  }
  const count = where(filter, 1);
  return { sql: `SELECT count(*)::int AS total FROM portcall.timestamps t ${count.sql}`, params: count.params };
}

export async function listTimestamps(
  db: Queryable,
  filter: TimestampFilter,
  page: ListPage,
): Promise<Paginated<TimestampListRow>> {
  const orderBy = timestampOrderBy(page.sort);
  const count = totalQuery(filter);
  const rows = where(filter, 1);
  const n = 1 + rows.params.length;
  const [total, data] = await Promise.all([
    db.query<{ total: number }>(count.sql, count.params),
    db.query<TimestampListRow>(
      `SELECT r.id, r.port_call_id, r.imo, r.vessel_name, r.time_type_id, r.state_id,
              ${pgTimestampText('r.time')} AS time,
              r.payload::text AS payload,
              CASE WHEN r.is_trash THEN 't' ELSE 'f' END AS is_trash,
              r.weight, r.created_by, ${pgTimestampText('r.created_at')} AS created_at,
              r.modified_by, ${pgTimestampText('r.modified_at')} AS modified_at,
              r.time_type, r.state
         FROM (SELECT t.*, array_position(${TIME_TYPE_NAMES_BY_ID}, t.time_type) AS time_type_id,
                      array_position(${STATE_NAMES_BY_ID}, t.state) AS state_id
                 FROM portcall.timestamps t ${rows.sql}) r
        ORDER BY ${orderBy}, r.id
        LIMIT $${n} OFFSET $${n + 1}`,
      [...rows.params, page.limit, page.offset],
    ),
  ]);
  return paginated(data.rows, { start: page.offset, limit: page.limit, total: total.rows[0].total });
}

/**
 * The page with each row's `created_by_name` added (who created it in words: a data source's API key name, else the
 * user's name, as the timesheet names them; null when not known). The names are the gateway's (users and API keys),
 * looked up by the caller; every other field stays as the original had it.
 */
export async function withCreatorNames(
  page: Paginated<TimestampListRow>,
  namesOf: (ids: number[]) => Promise<ReadonlyMap<number, string>>,
): Promise<Paginated<TimestampListRow & { created_by_name: string | null }>> {
  const ids = [...new Set(page.data.map((row) => row.created_by).filter((id): id is number => id !== null))];
  const names = ids.length > 0 ? await namesOf(ids) : new Map<number, string>();
  return {
    ...page,
    data: page.data.map((row) => ({
      ...row,
      created_by_name: row.created_by === null ? null : (names.get(Number(row.created_by)) ?? null),
    })),
  };
}
