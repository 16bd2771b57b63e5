// A page of a list and the list's total in one statement (one round trip per page, not a count and then the rows):
// the count rides along with every row as an uncorrelated subquery, which PostgreSQL runs once (an InitPlan) with
// the plan a count alone would have, in the same snapshot as the rows. Only a page with no rows has none to carry
// it: past the end (offset > 0, or a limit of 0) a second statement counts; a first page with no rows is a total of 0.

import type { Queryable } from './types.ts';

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

export async function pageWithTotal<R extends object>(
  db: Queryable,
  page: PageQuery,
): Promise<{ rows: R[]; total: number }> {
  const count = `SELECT count(*)::int AS total ${page.from}`;
  const n = page.params.length + 1;
  const { rows: found } = await db.query<R & { page_total: number }>(
    `SELECT ${page.select}, (${count}) AS page_total ${page.from}
      ORDER BY ${page.orderBy} LIMIT $${n} OFFSET $${n + 1}`,
    [...page.params, page.limit, page.offset],
  );
  if (found.length > 0) {
    return { rows: found.map(({ page_total: _, ...row }) => row as R), total: found[0].page_total };
  }
  if (page.offset <= 0 && page.limit > 0) return { rows: [], total: 0 };
  const counted = (await db.query<{ total: number }>(count, page.params)).rows;
  return { rows: [], total: counted[0]?.total ?? 0 };
}
