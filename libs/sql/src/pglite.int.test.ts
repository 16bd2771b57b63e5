import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from './index.ts';
import type { Db } from './types.ts';

let db: Db;

beforeAll(async () => {
  db = await openDb({ dataDir: 'memory://' });
});

afterAll(async () => {
  await db?.close();
});

describe('openDb (PGlite)', () => {
  it('returns rows and rowCount with int8 as numbers', async () => {
    expect(db.kind).toBe('pglite');
    const r = await db.query<{ a: number; b: number[] }>('SELECT 42::int8 AS a, ARRAY[1, 2]::int8[] AS b');
    expect(r).toEqual({ rows: [{ a: 42, b: [1, 2] }], rowCount: 1 });
    await db.query('CREATE TABLE items (id int PRIMARY KEY)');
    expect((await db.query('INSERT INTO items VALUES (1), (2)')).rowCount).toBe(2);
    expect((await db.query('UPDATE items SET id = id WHERE id > 5')).rowCount).toBe(0);
  });

  it('makes other callers wait while a transaction is open, so their work is not rolled back with it', async () => {
    await db.query('CREATE TABLE serial_items (id int PRIMARY KEY)');
    let opened!: () => void;
    const isOpen = new Promise<void>((r) => {
      opened = r;
    });
    const inTx = db.transaction(async (tx) => {
      await tx.query('INSERT INTO serial_items VALUES (1)');
      opened();
      await new Promise((r) => setTimeout(r, 50));
      throw new Error('rollback');
    });
    // Another caller (its own async context) starts while the transaction is open: it must run after it.
    await isOpen;
    const outside = db.query('INSERT INTO serial_items VALUES (2)');
    await expect(inTx).rejects.toThrow('rollback');
    await outside;
    const { rows } = await db.query<{ id: number }>('SELECT id FROM serial_items ORDER BY id');
    expect(rows).toEqual([{ id: 2 }]);
  });

  it('fails fast instead of deadlocking when db is used inside its own transaction callback', async () => {
    await expect(db.transaction(async () => db.query('SELECT 1'))).rejects.toThrow(/inside a transaction/);
    // The database is still usable afterwards.
    expect((await db.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('delivers notifications in-process', async () => {
    const got: string[] = [];
    // A second listener on the same channel stays subscribed: once it has 'again', the stopped one would have too.
    const barrier: string[] = [];
    const stopBarrier = await db.listen('pglite_channel', (p) => barrier.push(p));
    const stop = await db.listen('pglite_channel', (p) => got.push(p));
    await db.transaction(async (tx) => {
      await tx.query("SELECT pg_notify('pglite_channel', 'hello')");
    });
    await expect.poll(() => got, { timeout: 10_000 }).toEqual(['hello']);
    await stop();
    await db.query("SELECT pg_notify('pglite_channel', 'again')");
    await expect.poll(() => barrier, { timeout: 10_000 }).toEqual(['hello', 'again']);
    expect(got).toEqual(['hello']);
    await stopBarrier();
  });

  it('excludes a second holder of the same advisory lock within the process', async () => {
    const outer = await db.tryWithAdvisoryLock('7', async () => {
      const inner = await db.tryWithAdvisoryLock('7', async () => 'inner');
      return inner.acquired;
    });
    expect(outer).toEqual({ acquired: true, result: false });
    expect(await db.tryWithAdvisoryLock('7', async () => 'again')).toEqual({ acquired: true, result: 'again' });
  });

  it('keeps data in a file dataDir across reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pcas-pglite-'));
    try {
      const first = await openDb({ dataDir: join(dir, 'nested', 'pg') });
      await first.query('CREATE TABLE kept (v text)');
      await first.query("INSERT INTO kept VALUES ('still here')");
      await first.close();
      const second = await openDb({ dataDir: join(dir, 'nested', 'pg') });
      expect((await second.query('SELECT v FROM kept')).rows).toEqual([{ v: 'still here' }]);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
