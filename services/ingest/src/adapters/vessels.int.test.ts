// The vessels table's writes against a real database: a vessel's row written and the sea chart's lock taken in
// one statement, then its Features refreshed.

import { type Db, openDb, type Queryable } from '@pcas/sql';
import { freshPostgres, type PostgresForTest } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEA_CHART_LOCK_KEY } from './positions.ts';
import { ensureSchema } from './schema.ts';
import { saveNewVessels, saveVessel } from './vessels.ts';

let pg: PostgresForTest;
let db: Db;
let other: Db;

beforeAll(async () => {
  pg = await freshPostgres('pcas_ingest_vessels');
  db = await openDb(pg.url ? { url: pg.url, applicationName: 'ingest-vessels-test' } : { dataDir: 'memory://' });
  other = pg.url ? await openDb({ url: pg.url, applicationName: 'ingest-vessels-test-other' }) : db;
  await ensureSchema(db);
});

afterAll(async () => {
  if (other !== db) await other?.close();
  await db?.close();
  await pg?.drop();
});

const rowsOf = async (imos: number[]) =>
  (
    await db.query<{ imo: string; vessel_name: string; created_by: number; modified_by: number }>(
      'SELECT imo, vessel_name, created_by, modified_by FROM ingest.vessels WHERE imo = ANY($1) ORDER BY imo',
      [imos],
    )
  ).rows.map((r) => [Number(r.imo), r.vessel_name, r.created_by, r.modified_by]);

/** Whether another session could take the sea chart's lock now (it lets go of it at once). */
async function seaChartFree(): Promise<boolean> {
  const { rows } = await other.query<{ free: boolean }>(`SELECT pg_try_advisory_lock(${SEA_CHART_LOCK_KEY}) AS free`);
  if (rows[0]!.free) await other.query(`SELECT pg_advisory_unlock(${SEA_CHART_LOCK_KEY})`);
  return rows[0]!.free;
}

/** Runs fn in a transaction, counting its statements and whether the sea chart was locked when it ended. */
async function inTransaction(fn: (tx: Queryable) => Promise<void>) {
  let statements = 0;
  let lockedAtEnd = false;
  await db.transaction(async (tx) => {
    await fn({
      query: (text, params) => {
        statements++;
        return tx.query(text, params);
      },
    });
    lockedAtEnd = !(await seaChartFree());
  });
  return { statements, lockedAtEnd };
}

describe('vessel rows', () => {
  it('saveNewVessels: the rows and the lock in one statement, then the refresh; the lock held to the end', async () => {
    expect(await seaChartFree()).toBe(true);
    const written = await inTransaction((tx) =>
      saveNewVessels(tx, [
        { vessel: { imo: 9310006, vessel_name: 'One' }, userId: 7 },
        { vessel: { imo: 9310018, vessel_name: 'Two' }, userId: null },
      ]),
    );
    // Another session can take it only when the transaction is over (skipped on PGlite: one session).
    if (other !== db) expect(written).toEqual({ statements: 2, lockedAtEnd: true });
    else expect(written.statements).toBe(2);
    expect(await seaChartFree()).toBe(true);
    expect(await rowsOf([9310006, 9310018])).toEqual([
      [9310006, 'One', 7, 7],
      [9310018, 'Two', null, null],
    ]);
  });

  it('saveVessel: registers, then renames with who did it, in two statements each', async () => {
    const registered = await inTransaction((tx) => saveVessel(tx, { imo: 9310020, vessel_name: 'Three' }, 5));
    const renamed = await inTransaction((tx) => saveVessel(tx, { imo: 9310020, vessel_name: 'Three B' }, 6));
    for (const written of [registered, renamed]) {
      if (other !== db) expect(written).toEqual({ statements: 2, lockedAtEnd: true });
      else expect(written.statements).toBe(2);
    }
    expect(await rowsOf([9310020])).toEqual([[9310020, 'Three B', 5, 6]]);
  });
});
