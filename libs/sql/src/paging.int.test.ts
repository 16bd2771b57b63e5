// pageWithTotal against real PostgreSQL: the rows and the total of every match in one statement, the total still
// right for a page past the end (a second statement there only), and the rows' shape free of the total.

import { type Db, openDb, type Queryable } from '@pcas/sql';
import { freshPostgres, type PostgresForTest } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageWithTotal } from './paging.ts';

let pg: PostgresForTest;
let db: Db;

beforeAll(async () => {
  pg = await freshPostgres('gw_paging');
  db = pg.url ? await openDb({ url: pg.url }) : await openDb({ dataDir: 'memory://' });
  await db.query('CREATE TABLE items (id int PRIMARY KEY, name text NOT NULL)');
  await db.query(`INSERT INTO items SELECT i, 'item ' || i FROM generate_series(1, 25) i`);
});

afterAll(async () => {
  await db?.close();
  await pg?.drop();
});

/** The db, recording every statement sent. */
function counting(): { db: Queryable; statements: string[] } {
  const statements: string[] = [];
  return {
    statements,
    db: {
      query(text, params) {
        statements.push(text);
        return db.query(text, params);
      },
    } as Queryable,
  };
}

const items = (limit: number, offset: number, where = '', params: unknown[] = []) => ({
  select: 'v.id, v.name',
  from: `FROM items v ${where}`,
  params,
  orderBy: 'v.id DESC',
  limit,
  offset,
});

describe('pageWithTotal', () => {
  it('answers a page and the total of every match in one statement, rows without the total', async () => {
    const { db: q, statements } = counting();
    const page = await pageWithTotal<{ id: number; name: string }>(
      q,
      items(3, 2, 'WHERE v.id % $1 = 0', [2]), // the even ids, 24 down to 2
    );
    expect(page).toEqual({
      rows: [
        { id: 20, name: 'item 20' },
        { id: 18, name: 'item 18' },
        { id: 16, name: 'item 16' },
      ],
      total: 12,
    });
    expect(Object.keys(page.rows[0])).toEqual(['id', 'name']);
    expect(statements).toHaveLength(1);
  });

  it('answers the last, partial page in one statement', async () => {
    const { db: q, statements } = counting();
    const page = await pageWithTotal<{ id: number }>(q, items(10, 20));
    expect(page.rows.map((r) => r.id)).toEqual([5, 4, 3, 2, 1]);
    expect(page.total).toBe(25);
    expect(statements).toHaveLength(1);
  });

  it('still answers the total for a page past the end, and for a limit of 0', async () => {
    const past = counting();
    expect(await pageWithTotal(past.db, items(10, 30))).toEqual({ rows: [], total: 25 });
    expect(past.statements).toHaveLength(2);
    expect(await pageWithTotal(db, items(10, 30, 'WHERE v.name LIKE $1', ['item 1%']))).toEqual({
      rows: [],
      total: 11,
    });
    expect(await pageWithTotal(db, items(0, 0))).toEqual({ rows: [], total: 25 });
  });

  it('answers an empty first page with a total of 0 in one statement', async () => {
    const { db: q, statements } = counting();
    expect(await pageWithTotal(q, items(10, 0, 'WHERE v.id > $1', [100]))).toEqual({ rows: [], total: 0 });
    expect(statements).toHaveLength(1);
  });
});
