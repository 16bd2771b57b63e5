// The VIS lists (docs/domain.md#vis-and-other-ports), run by the gateway in its process (`@pcas/vis-bridge/queries`):
// read-only queries on this service's read models (schema `vis`, adapters/schema.ts), paged and sorted as the
// original's lists. Rows come out in the original's raw-model shape (times as PostgreSQL's text at UTC) plus the
// names and parsed fields its services added. Until this service has created its schema there is nothing to read.

import { ApiError } from '@pcas/contracts';
import { type Paginated, paginated, parseSort, searchClause } from '@pcas/http-kit';
import { equalities, pageWithTotal, pgTimestampText, type Queryable } from '@pcas/sql';

export interface ListQuery {
  offset: number;
  limit: number;
  sort?: string;
}

interface Spec {
  /** `FROM …` with the table aliased `t`. */
  from: string;
  /** The item's columns (SQL select list). */
  select: string;
  /** API field → SQL expression, for sort. */
  sortable: Record<string, string>;
  defaultSort: string;
  /** The text fields, which may be sorted by lower(field). */
  text: string[];
}

async function list(
  db: Queryable,
  spec: Spec,
  query: ListQuery,
  where: string[],
  params: unknown[],
): Promise<Paginated<Record<string, unknown>>> {
  for (const token of (query.sort ?? '').split(',')) {
    const lowered = /^\s*lower\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)/.exec(token);
    // lower() exists for text only; anything else would be a database error instead of the original's 400.
    if (lowered && !spec.text.includes(lowered[1])) throw ApiError.badRequest(`Invalid orderBy: ${token.trim()}`);
  }
  const orderBy = parseSort(query.sort, spec.sortable, spec.defaultSort);
  const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const page = await pageWithTotal<Record<string, unknown>>(db, {
    select: spec.select,
    from: `${spec.from} ${filter}`,
    params,
    orderBy: `${orderBy}, t.id`,
    limit: query.limit,
    offset: query.offset,
  });
  return paginated(page.rows, { start: query.offset, limit: query.limit, total: page.total });
}

const AUDIT = `${pgTimestampText('t.created_at')} AS created_at, t.created_by,
  ${pgTimestampText('t.modified_at')} AS modified_at, t.modified_by`;
const columns = (names: string[]): Record<string, string> => Object.fromEntries(names.map((c) => [c, `t.${c}`]));
const AUDIT_SORT = ['created_at', 'created_by', 'modified_at', 'modified_by'];

/** Adds `column = $n` for each given filter. */
/** `t.<column> = $n` for each filter given; an empty text filters nothing, as in the original's lists. */
function equals(filters: Record<string, string | number | undefined>): { where: string[]; params: unknown[] } {
  const params: unknown[] = [];
  const given = Object.entries(filters).map(([column, value]) => [`t.${column}`, value === '' ? undefined : value]);
  return { where: equalities(Object.fromEntries(given), params), params };
}

const NAME_OF = (column: string) => `(SELECT v.vessel_name FROM vis.vessels v WHERE v.service_id = t.${column})`;

// ---- GET /vis-vessels ----

const VESSELS: Spec = {
  from: 'FROM vis.vessels t',
  select: `t.id, t.imo, t.vessel_name, t.service_id, t.service_url, ${AUDIT}`,
  sortable: columns(['id', 'imo', 'vessel_name', 'service_id', 'service_url', ...AUDIT_SORT]),
  defaultSort: 'id',
  text: ['vessel_name', 'service_id', 'service_url'],
};

export function listVisVessels(
  db: Queryable,
  query: ListQuery & { imo?: number; vessel_name?: string; service_id?: string },
) {
  const { where, params } = equals({ imo: query.imo, vessel_name: query.vessel_name, service_id: query.service_id });
  return list(db, VESSELS, query, where, params);
}

// ---- GET /vis-text-messages ----

const MESSAGE_COLUMNS = ['id', 'time', 'from_service_id', 'to_service_id', 'message_id', 'message_type', 'ack'];

const TEXT_MESSAGES: Spec = {
  from: 'FROM vis.messages t',
  select: `t.id, ${pgTimestampText('t.time')} AS time, t.from_service_id, t.to_service_id, t.message_id,
    t.message_type, t.payload, t.ack, t.operational_ack, ${AUDIT},
    ${NAME_OF('from_service_id')} AS from_name, ${NAME_OF('to_service_id')} AS to_name,
    t.author, t.subject, t.body`,
  sortable: columns([...MESSAGE_COLUMNS, 'operational_ack', 'author', 'subject', ...AUDIT_SORT]),
  defaultSort: 'time',
  text: ['from_service_id', 'to_service_id', 'message_id', 'author', 'subject'],
};

/** A list of what went between two services (text messages, voyage plans), filtered by sender and receiver. */
const betweenServices =
  (spec: Spec) => (db: Queryable, query: ListQuery & { from_service_id?: string; to_service_id?: string }) => {
    const { where, params } = equals({ from_service_id: query.from_service_id, to_service_id: query.to_service_id });
    return list(db, spec, query, where, params);
  };

export const listVisTextMessages = betweenServices(TEXT_MESSAGES);

// ---- GET /vis-voyage-plans ----

const VOYAGE_PLANS: Spec = {
  from: 'FROM vis.voyage_plans t',
  select: `t.id, ${pgTimestampText('t.time')} AS time, t.from_service_id, t.to_service_id, t.message_id,
    t.message_type, t.rtz_state_id AS rtz_state, t.rtz_parse_results, t.ack, t.operational_ack, ${AUDIT},
    ${NAME_OF('from_service_id')} AS from_name, ${NAME_OF('to_service_id')} AS to_name,
    t.rtz_state AS rtz_state_name, t.rtz_parse_results->>'eta' AS eta, t.rtz_parse_results->>'route_name' AS route_name,
    t.payload->'stmMessage'->>'message' AS rtz, t.payload->>'rta' AS rta, t.payload->>'eta_min' AS eta_min,
    t.payload->>'eta_max' AS eta_max`,
  sortable: {
    ...columns([...MESSAGE_COLUMNS, 'operational_ack', ...AUDIT_SORT]),
    rtz_state: 't.rtz_state_id',
    rtz_state_name: 't.rtz_state',
  },
  defaultSort: 'time',
  text: ['from_service_id', 'to_service_id', 'message_id', 'rtz_state_name'],
};

export const listVisVoyagePlans = betweenServices(VOYAGE_PLANS);

// ---- GET /vis-notifications ----

const NOTIFICATIONS: Spec = {
  from: 'FROM vis.notifications t',
  select: `t.id, ${pgTimestampText('t.time')} AS time, t.from_service_id, t.message_id, t.message_type,
    t.notification_type, t.subject, t.payload, ${AUDIT}, ${NAME_OF('from_service_id')} AS from_name`,
  sortable: columns([
    'id',
    'time',
    'from_service_id',
    'message_id',
    'message_type',
    'notification_type',
    'subject',
    ...AUDIT_SORT,
  ]),
  defaultSort: 'time',
  text: ['from_service_id', 'message_id', 'message_type', 'notification_type', 'subject'],
};

/** The from_service_id filter is applied (the original ignored it). */
export function listVisNotifications(db: Queryable, query: ListQuery & { from_service_id?: string }) {
  const { where, params } = equals({ from_service_id: query.from_service_id });
  return list(db, NOTIFICATIONS, query, where, params);
}

// ---- GET /inbound-vessels, GET /ports ----

const INBOUND: Spec = {
  from: 'FROM vis.inbound_vessels t',
  select: `t.id, ${pgTimestampText('t.time')} AS time, t.imo, t.vessel_name, t.from_service_id, t.from_service_name,
    ${AUDIT}`,
  sortable: columns(['id', 'time', 'imo', 'vessel_name', 'from_service_id', 'from_service_name', ...AUDIT_SORT]),
  defaultSort: 'id',
  text: ['vessel_name', 'from_service_id', 'from_service_name'],
};

/** The original's search: ≥7 digits an IMO, `^x` a name prefix, else part of the name. */
export function listInboundVessels(db: Queryable, query: ListQuery & { search?: string }) {
  const search = searchClause(query.search, { columns: ['t.vessel_name'], imoColumn: 't.imo' });
  return list(db, INBOUND, query, search ? [search.sql] : [], search?.params ?? []);
}

const PORTS: Spec = {
  from: 'FROM vis.ports t',
  select: `t.id, t.name, t.service_id, t.whitelist_in, t.whitelist_out, t.locodes, ${AUDIT}`,
  sortable: columns(['id', 'name', 'service_id', 'whitelist_in', 'whitelist_out', ...AUDIT_SORT]),
  defaultSort: 'id',
  text: ['name', 'service_id'],
};

export function listPorts(db: Queryable, query: ListQuery & { search?: string }) {
  const search = searchClause(query.search, { columns: ['t.name', 't.service_id'], caretPrefix: false });
  return list(db, PORTS, query, search ? [search.sql] : [], search?.params ?? []);
}
