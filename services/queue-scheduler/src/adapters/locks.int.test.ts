// The berth lock's key made in SQL (berthLockKeySql, taken by loadSlotRequestForChange) is the one lockBerths takes
// (advisoryLockKey), on PostgreSQL and on PGlite (embedded mode): otherwise the two would not take turns.

import { type Db, openDb } from '@pcas/sql';
import { freshPostgres, type PostgresForTest } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { berthLockKey, berthLockKeySql } from './locks.ts';
import { lockBerths } from './streams.ts';

const BERTHS = [1, 7, 42, 65_536, 2_147_483_647];
let pg: PostgresForTest;
const dbs: Array<[string, Db]> = [];

beforeAll(async () => {
  pg = await freshPostgres('queue_locks');
  if (pg.url) dbs.push(['PostgreSQL', await openDb({ url: pg.url })]);
  dbs.push(['PGlite', await openDb({ dataDir: 'memory://' })]);
}, 60_000);

afterAll(async () => {
  for (const [, db] of dbs) await db.close();
  await pg?.drop();
});

describe('the berth lock', () => {
  it('has the same key in SQL as from advisoryLockKey, and none without a berth', async () => {
    for (const [, db] of dbs) {
      const { rows } = await db.query<{ key: string | null }>(
        `SELECT ${berthLockKeySql('id')}::text AS key FROM unnest($1::int[]) WITH ORDINALITY AS u(id, n) ORDER BY n`,
        [[...BERTHS, null]],
      );
      expect(rows.map((row) => row.key)).toEqual([...BERTHS.map(berthLockKey), null]);
    }
  });

  it('is what lockBerths holds: one lock per distinct berth', async () => {
    const [, db] = dbs[0]!;
    const held = await db.transaction(async (tx) => {
      await lockBerths(tx, [42, 7, 42]);
      const { rows } = await tx.query<{ key: string }>(
        `SELECT ((classid::bigint << 32) | objid::bigint)::text AS key FROM pg_locks
          WHERE locktype = 'advisory' AND objsubid = 1 AND pid = pg_backend_pid()`,
      );
      return rows.map((row) => row.key).sort();
    });
    expect(held).toEqual([berthLockKey(7), berthLockKey(42)].sort());
  });
});
