// A management list (users, registration codes) as its read model runs it: the rows a management level sees
// (level own: only those `createdBy` created), searched, one page and the total.

import { searchClause } from '@pcas/http-kit';
import { pageWithTotal, type Queryable } from '@pcas/sql';

export interface ManagedListQuery {
  limit: number;
  offset: number;
  orderBy: string;
  search: string;
  /** Level own: only the rows this user created. */
  createdBy: number | null;
}

export interface ManagedTable {
  select: string;
  /** The FROM clause, joins included. */
  from: string;
  /** Conditions every row of the list meets. */
  conditions?: readonly string[];
  /** The column naming the row's creator. */
  createdBy: string;
  /** The columns `search` looks in. */
  searched: string[];
}

export function managedPage<Row extends object>(
  db: Queryable,
  table: ManagedTable,
  query: ManagedListQuery,
): Promise<{ rows: Row[]; total: number }> {
  const conditions = [...(table.conditions ?? [])];
  const params: unknown[] = [];
  if (query.createdBy !== null) {
    params.push(query.createdBy);
    conditions.push(`${table.createdBy} = $${params.length}`);
  }
  const search = searchClause(query.search, { columns: table.searched, caretPrefix: false, offset: params.length });
  if (search) {
    params.push(...search.params);
    conditions.push(search.sql);
  }
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  return pageWithTotal<Row>(db, {
    select: table.select,
    from: `${table.from} ${where}`,
    params,
    orderBy: query.orderBy,
    limit: query.limit,
    offset: query.offset,
  });
}
