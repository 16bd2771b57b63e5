// GET /notifications and the decision lists, run by the gateway in its process (`@pcas/notifier/queries`):
// read-only queries on this service's read models (docs/domain.md#notifications-and-decisions). The objects are
// built by the SQL functions notifier.notification_object and notifier.decision_object (adapters/schema.ts), which
// the real-time messages use too: one definition of the shape. Until this service has created its schema (a
// gateway started first) there is nothing to read.

import { ApiError } from '@pcas/contracts';
import { type Paginated, paginated, parseSort } from '@pcas/http-kit';
import { pageWithTotal, type Queryable } from '@pcas/sql';

/** The original always answers the newest 100 roots, whatever limit the path names. */
export const NOTIFICATION_LIST_SIZE = 100;

export async function listNotifications(db: Queryable): Promise<unknown[]> {
  const rows = (
    await db.query<{ o: unknown }>(
      `SELECT notifier.notification_object(id) AS o FROM notifier.notifications
        WHERE parent_notification_id IS NULL ORDER BY created_at DESC, id DESC LIMIT $1`,
      [NOTIFICATION_LIST_SIZE],
    )
  ).rows;
  return rows.map((r) => r.o);
}

export const DECISION_STATUSES = ['open', 'closed'] as const;

const DECISION_SORT = [
  'id',
  'type',
  'status',
  'notification_id',
  'port_call_master_id',
  'created_at',
  'created_by',
  'modified_at',
  'modified_by',
] as const;

export interface DecisionListQuery {
  status?: string;
  notification_id?: number;
  port_call_master_id?: string;
  limit: number;
  offset: number;
  sort?: string;
}

export async function listDecisions(db: Queryable, query: DecisionListQuery): Promise<Paginated<unknown>> {
  const orderBy = parseSort(query.sort, DECISION_SORT, 'id');
  const where: string[] = [];
  const params: unknown[] = [];
  if (query.status !== undefined && query.status !== '') {
    if (!(DECISION_STATUSES as readonly string[]).includes(query.status)) {
      throw ApiError.badRequest(`Invalid decision status: ${query.status}`);
    }
    params.push(query.status);
    where.push(`status = $${params.length}`);
  }
  if (query.notification_id !== undefined) {
    params.push(query.notification_id);
    where.push(`notification_id = $${params.length}`);
  }
  if (query.port_call_master_id !== undefined && query.port_call_master_id !== '') {
    params.push(query.port_call_master_id);
    where.push(`port_call_master_id = $${params.length}`);
  }
  const filter = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const page = await pageWithTotal<{ o: unknown }>(db, {
    select: 'notifier.decision_object(id) AS o',
    from: `FROM notifier.decisions ${filter}`,
    params,
    orderBy: `${orderBy}, id`,
    limit: query.limit,
    offset: query.offset,
  });
  return paginated(
    page.rows.map((r) => r.o),
    { start: query.offset, limit: query.limit, total: page.total },
  );
}

/** GET /decision-by-id; an unknown id is refused as the decision commands refuse it. */
export async function decisionById(db: Queryable, id: number): Promise<unknown> {
  const rows = (
    await db.query<{ o: unknown }>('SELECT notifier.decision_object(id) AS o FROM notifier.decisions WHERE id = $1', [
      id,
    ])
  ).rows;
  if (!rows[0]?.o) throw ApiError.badRequest(`Invalid decision ID: ${id}`);
  return rows[0].o;
}
