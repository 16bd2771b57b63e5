// The read-model schema's own logic: the per-vessel timestamp counts kept by a trigger, and filled from the rows
// already there when a deployment that had none gets them.

import { type Db, openDb } from '@pcas/sql';
import { freshPostgres, type PostgresForTest } from '@pcas/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { countedRows, timestampCounts } from '../testing/read-models.ts';
import { ensureSchema } from './schema.ts';

let pg: PostgresForTest;
let db: Db;

beforeAll(async () => {
  pg = await freshPostgres('pcas_projector_schema');
  db = await openDb(pg.url ? { url: pg.url } : { dataDir: 'memory://' });
  await ensureSchema(db);
});

afterAll(async () => {
  await db?.close();
  await pg?.drop();
});

const INSERT = `INSERT INTO portcall.timestamps (id, imo, vessel_name, time_type, state, time, created_at, version)
  SELECT id, imo, 'Vessel', 'Estimated', 'Arrival_Vessel_PortArea', now(), now(), id
    FROM unnest($1::bigint[], $2::bigint[]) AS r(id, imo)`;
const UPSERT = `${INSERT} ON CONFLICT (id) DO UPDATE SET vessel_name = 'Renamed'`;

it('counts the rows of each vessel: inserts add, upserts of existing rows do not', async () => {
  await db.query(INSERT, [
    [1, 2, 3],
    [9074729, 9074729, 9176187],
  ]);
  expect(await timestampCounts(db)).toEqual([
    { imo: 9074729, timestamps: 2 },
    { imo: 9176187, timestamps: 1 },
  ]);
  // Two rows exist already, one is new.
  await db.query(UPSERT, [
    [2, 3, 4],
    [9074729, 9176187, 9176187],
  ]);
  expect(await timestampCounts(db)).toEqual([
    { imo: 9074729, timestamps: 2 },
    { imo: 9176187, timestamps: 2 },
  ]);
  expect(await timestampCounts(db)).toEqual(await countedRows(db));
});

it('fills the counts from the rows already stored when the table is new', async () => {
  // A deployment from before the counts: neither the trigger nor the table.
  await db.query('DROP TRIGGER timestamps_counted ON portcall.timestamps');
  await db.query('DROP TABLE portcall.timestamp_counts');
  // Rows written while there was no counts table (and so no trigger to count them).
  await db.query(INSERT, [[10], [9321483]]);
  await ensureSchema(db);
  expect(await timestampCounts(db)).toEqual([
    { imo: 9074729, timestamps: 2 },
    { imo: 9176187, timestamps: 2 },
    { imo: 9321483, timestamps: 1 },
  ]);
});
