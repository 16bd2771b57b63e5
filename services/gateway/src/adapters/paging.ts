// A page of a list and the list's total in one statement (one round trip per page, not a count and then the rows):
// the count rides along with every row as an uncorrelated subquery, which PostgreSQL runs once (an InitPlan) with
// the plan a count alone would have, in the same snapshot as the rows. Only a page with no rows has none to carry
// it: past the end (offset > 0, or a limit of 0) a second statement counts; a first page with no rows is a total of 0.

import type { Queryable } from '@pcas/sql';

export interface PageQuery {
  /** The row's columns. */
  select: string;
  /** `FROM ... [WHERE ...]`, using `$1`.. of `params` only. */
  from: string;
  params: unknown[];
  orderBy: string;
  limit: number;
  offset: number;
}

type RowsOf = <T>(query: Promise<{ rows: T[] }>) => Promise<T[]>;
const allRows: RowsOf = async (query) => (await query).rows;

// Each statement's text is built once per shape and the same string handed out after: the driver looks its prepared
// statement up by the text, and a string seen before has its hash and compares by identity, where a freshly built
// one of several kilobytes is flattened, hashed and compared in full on every request. Bounded, like the driver's
// prepared statements; past the bound a text is built as before.
const MAX_STATEMENTS = 512;
let statementCount = 0;
const statements = new Map<string, Map<string, Map<string, { page: string; count: string }>>>();

export function pageStatements(page: Omit<PageQuery, 'limit' | 'offset'>): { page: string; count: string } {
  const n = page.params.length + 1;
  const key = `${n} ${page.orderBy}`;
  const bySelect = statements.get(page.select);
  const byFrom = bySelect?.get(page.from);
  const known = byFrom?.get(key);
  if (known) return known;
  const count = `SELECT count(*)::int AS total ${page.from}`;
  const built = {
    page: `SELECT ${page.select}, (${count}) AS page_total ${page.from}
        ORDER BY ${page.orderBy} LIMIT $${n} OFFSET $${n + 1}`,
    count,
  };
  if (statementCount < MAX_STATEMENTS) {
    statementCount++;
    const froms = bySelect ?? new Map<string, Map<string, { page: string; count: string }>>();
    if (!bySelect) statements.set(page.select, froms);
    const keys = byFrom ?? new Map<string, { page: string; count: string }>();
    if (!byFrom) froms.set(page.from, keys);
    keys.set(key, built);
  }
  return built;
}

export async function pageWithTotal<R extends object>(
  db: Queryable,
  page: PageQuery,
  /** How a statement's rows are taken (e.g. none while the table is not there yet). */
  rowsOf: RowsOf = allRows,
): Promise<{ rows: R[]; total: number }> {
  const text = pageStatements(page);
  const found = await rowsOf(
    db.query<R & { page_total: number }>(text.page, [...page.params, page.limit, page.offset]),
  );
  if (found.length > 0) {
    return { rows: found.map(({ page_total: _, ...row }) => row as R), total: found[0].page_total };
  }
  if (page.offset <= 0 && page.limit > 0) return { rows: [], total: 0 };
  const counted = await rowsOf(db.query<{ total: number }>(text.count, page.params));
  return { rows: [], total: counted[0]?.total ?? 0 };
}
