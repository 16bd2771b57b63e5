import { deferred, freshPostgres, type PostgresForTest, waitFor } from '@pcas/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, setUpSchema } from './index.ts';
import type { Db } from './types.ts';

/** A positive advisory-lock key no other test file uses. */
const randomLockKey = () => String(Math.floor(Math.random() * 2 ** 52) + 2 ** 40);

let server: PostgresForTest;
let db: Db;

beforeAll(async () => {
  server = await freshPostgres('pcas_sql');
  if (!server.url) throw new Error('these tests need a real PostgreSQL');
  db = await openDb({ url: server.url, poolSize: 4, applicationName: 'sql-test' });
});

afterAll(async () => {
  await db?.close();
  await server?.drop();
});

/** Terminates the backends of our application name that run `query` (e.g. LISTEN or advisory lock). */
async function terminate(match: string) {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(pg_terminate_backend(pid))::int8 AS n FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND query ILIKE $1`,
    [`%${match}%`],
  );
  return rows[0].n;
}

describe('openDb (PostgreSQL)', () => {
  it('returns rows and rowCount, with int8 parsed as numbers on this pool only', async () => {
    const r = await db.query<{ a: number; b: number[]; t: string }>(
      "SELECT 9007199254740991::int8 AS a, ARRAY[1, 2]::int8[] AS b, 'x'::text AS t",
    );
    expect(r).toEqual({ rows: [{ a: 9007199254740991, b: [1, 2], t: 'x' }], rowCount: 1 });
    await db.query('CREATE TABLE items (id int8 PRIMARY KEY, name text)');
    expect((await db.query('INSERT INTO items VALUES (1, $1), (2, $2)', ['a', 'b'])).rowCount).toBe(2);
    // The global pg default is untouched: another client still gets int8 as a string.
    const other = new pg.Client({ connectionString: server.url });
    await other.connect();
    const { rows } = await other.query('SELECT 5::int8 AS a');
    await other.end();
    expect(rows[0].a).toBe('5');
  });

  it('refuses int8 values a JS number cannot hold exactly', async () => {
    await expect(db.query('SELECT 9007199254740993::int8 AS a')).rejects.toThrow(/safe integer/);
  });

  it('commits a transaction and rolls it back on throw', async () => {
    await db.query('CREATE TABLE tx_items (id int PRIMARY KEY)');
    const result = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO tx_items VALUES (1)');
      return 'ok';
    });
    expect(result).toBe('ok');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO tx_items VALUES (2)');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const { rows } = await db.query<{ id: number }>('SELECT id FROM tx_items ORDER BY id');
    expect(rows).toEqual([{ id: 1 }]);
  });

  it('delivers notifications, stops after unlisten, and comes back after the LISTEN connection drops', async () => {
    const got: string[] = [];
    const stop = await db.listen('sql_test_channel', (p) => got.push(p));
    await db.query("SELECT pg_notify('sql_test_channel', 'one')");
    await waitFor(() => got.includes('one'));

    expect(await terminate('LISTEN')).toBe(1);
    // After reconnecting the listener wakes its callbacks (missed notifications are unknown) and listens again.
    await waitFor(() => got.includes(''));
    await db.query("SELECT pg_notify('sql_test_channel', 'two')");
    await waitFor(() => got.includes('two'));

    await stop();
    await db.query("SELECT pg_notify('sql_test_channel', 'three')");
    await new Promise((r) => setTimeout(r, 200));
    expect(got).not.toContain('three');
  });

  it('holds an advisory lock exclusively and signals when its connection is lost', async () => {
    // Keys of this run only: int test files run two at a time on one server, and advisory locks are server-wide.
    const [held, lostKey] = [randomLockKey(), randomLockKey()];
    const holding = deferred();
    const inside = deferred();
    const first = db.tryWithAdvisoryLock(held, async () => {
      inside.resolve();
      await holding.promise;
      return 'first';
    });
    await inside.promise;
    expect(await db.tryWithAdvisoryLock(held, async () => 'second')).toEqual({ acquired: false });
    holding.resolve();
    expect(await first).toEqual({ acquired: true, result: 'first' });
    expect(await db.tryWithAdvisoryLock(held, async () => 'third')).toEqual({ acquired: true, result: 'third' });

    const lostReason = await db
      .tryWithAdvisoryLock(lostKey, async (lost) => {
        // A bigint key is held as (classid, objid) = (high, low 32 bits), in this database.
        await db.query(
          `SELECT pg_terminate_backend(pid) FROM pg_locks
            WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND classid::int8 = $1 AND objid::int8 = $2`,
          [Math.floor(Number(lostKey) / 2 ** 32), Number(lostKey) % 2 ** 32],
        );
        // The abort may already have happened while our own query's answer was on its way.
        if (!lost.aborted) await new Promise<void>((resolve) => lost.addEventListener('abort', () => resolve()));
        return lost.aborted;
      })
      .then((r) => r.result);
    expect(lostReason).toBe(true);
    // The lock went with the connection: another session can take it once the terminated backend has exited
    // (pg_terminate_backend returns before it has, so the lock can still be held for a moment).
    await expect
      .poll(async () => (await db.tryWithAdvisoryLock(lostKey, async () => 1)).acquired, { timeout: 10_000 })
      .toBe(true);
  });
});

describe('setUpSchema', () => {
  it('lets several processes set up one schema at the same moment, each statement once', async () => {
    // Separate pools stand in for processes starting together; without the lock, CREATE ... IF NOT EXISTS
    // racing on the catalog fails with a unique violation.
    const owner = `setup_${process.pid}_${Date.now()}`;
    const statements = [
      `CREATE SCHEMA IF NOT EXISTS ${owner}`,
      `CREATE TABLE IF NOT EXISTS ${owner}.rows (id int PRIMARY KEY)`,
      `CREATE INDEX IF NOT EXISTS rows_id ON ${owner}.rows (id)`,
    ];
    const processes = await Promise.all(
      [1, 2, 3, 4].map(() => openDb({ url: server.url, poolSize: 1, applicationName: 'sql-test-setup' })),
    );
    try {
      const seeded: number[] = [];
      await Promise.all(
        processes.map((one, i) =>
          setUpSchema(one, owner, statements, async (tx) => {
            const { rowCount } = await tx.query(`INSERT INTO ${owner}.rows VALUES (1) ON CONFLICT DO NOTHING`);
            if (rowCount > 0) seeded.push(i);
          }),
        ),
      );
      expect(seeded).toHaveLength(1);
      const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${owner}.rows`);
      expect(rows[0].n).toBe(1);
    } finally {
      await Promise.all(processes.map((one) => one.close()));
      await db.query(`DROP SCHEMA IF EXISTS ${owner} CASCADE`);
    }
  });
});
