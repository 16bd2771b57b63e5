// The array literals of the bulk writes, read back by PostgreSQL (or PGlite): every value arrives as it was sent.

import { type Db, openDb } from '@pcas/sql';
import { freshPostgres, type PostgresForTest } from '@pcas/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { booleanArray, numberArray, textArray } from './pg-arrays.ts';

let pg: PostgresForTest;
let db: Db;

beforeAll(async () => {
  pg = await freshPostgres('pcas_pg_arrays');
  db = await openDb(pg.url ? { url: pg.url } : { dataDir: 'memory://' });
});

afterAll(async () => {
  await db?.close();
  await pg?.drop();
});

it('round-trips text, numbers, booleans, nulls and JSON', async () => {
  const texts = ['', 'NULL', 'null', ' spaced ', 'a,b', '{x}', 'quote " and \\ backslash', 'ÄÖ ✓ 日本', '\n\t', null];
  const numbers = [0, -1, 9_000_000_123, 1.5, null, Number.NaN, '42'];
  const booleans = [true, false, null];
  const payloads = [{ source: 'a"b', note: 'c\\d', list: [1, null] }, {}];
  const { rows } = await db.query<{ t: (string | null)[]; n: (number | null)[]; b: (boolean | null)[]; j: unknown[] }>(
    'SELECT $1::text[] AS t, $2::float8[] AS n, $3::boolean[] AS b, $4::jsonb[] AS j',
    [textArray(texts), numberArray(numbers), booleanArray(booleans), textArray(payloads.map((p) => JSON.stringify(p)))],
  );
  expect(rows[0].t).toEqual(texts);
  // Non-finite numbers are NULL (as JSON writes them); a string is left to the column type's parser.
  expect(rows[0].n).toEqual([0, -1, 9_000_000_123, 1.5, null, null, 42]);
  expect(rows[0].b).toEqual(booleans);
  const json = rows[0].j.map((v) => (typeof v === 'string' ? JSON.parse(v) : v));
  expect(json).toEqual(payloads);
});
