// decideOnce on a real PostgreSQL: a request delivered again (after its first delivery committed, or while that one
// is still deciding on another connection) decides nothing and answers the first delivery's reply.

import { RPC_ID_HEADER } from '@pcas/messaging';
import { type Db, openDb } from '@pcas/sql';
import { freshPostgres } from '@pcas/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { decidedCommandsTableSql, decideOnce } from './decide-once.ts';

describe('decideOnce (PostgreSQL)', () => {
  let server: Awaited<ReturnType<typeof freshPostgres>> | undefined;
  let db: Db;
  beforeAll(async () => {
    server = await freshPostgres('pcas_decide_once');
    if (!server.url) throw new Error('concurrent deliveries need a real PostgreSQL (two connections)');
    db = await openDb({ url: server.url, poolSize: 4 });
    await db.query('CREATE SCHEMA svc');
    await db.query(decidedCommandsTableSql('svc'));
    await db.query('CREATE TABLE svc.created (id serial PRIMARY KEY, name text)');
  });
  afterAll(async () => {
    await db?.close();
    await server?.drop();
  });
  beforeEach(async () => {
    await db.query('TRUNCATE svc.created, svc.decided_commands');
  });

  /** A create command: a new row with a new id from a sequence, answered with that id. */
  const create = (headers: Record<string, unknown>, name: string, pause?: Promise<void>, deciding?: () => void) =>
    db.transaction((tx) =>
      decideOnce(tx, 'svc', headers, async () => {
        const { rows } = await tx.query<{ id: number }>('INSERT INTO svc.created (name) VALUES ($1) RETURNING id', [
          name,
        ]);
        deciding?.();
        await pause;
        return { id: rows[0].id };
      }),
    );
  const created = async () => (await db.query<{ name: string }>('SELECT name FROM svc.created ORDER BY id')).rows;

  it('decides a request once and answers a redelivery with the first reply', async () => {
    const headers = { [RPC_ID_HEADER]: 'request-1' };
    const first = await create(headers, 'Nomination of Bench Vessel');
    const again = await create(headers, 'Nomination of Bench Vessel');
    expect(again).toEqual(first);
    expect(await created()).toEqual([{ name: 'Nomination of Bench Vessel' }]);
    // Another request is another decision.
    const other = await create({ [RPC_ID_HEADER]: 'request-2' }, 'Slot request of Bench Vessel');
    expect(other.id).not.toBe(first.id);
    expect(await created()).toHaveLength(2);
  });

  it('a delivery arriving while the first still decides waits for it and answers its reply', async () => {
    const headers = { [RPC_ID_HEADER]: 'request-racing' };
    let release = () => {};
    const pause = new Promise<void>((resolve) => {
      release = resolve;
    });
    let deciding = () => {};
    const firstDeciding = new Promise<void>((resolve) => {
      deciding = resolve;
    });
    const first = create(headers, 'first delivery', pause, deciding);
    // The first has claimed the request (its row is written, not committed) ...
    await firstDeciding;
    const second = create(headers, 'second delivery');
    // ... and the second waits on that row's lock before the first goes on.
    const waitingOnALock = async () =>
      (
        await db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )
      ).rows[0].n;
    await expect.poll(waitingOnALock, { timeout: 20_000 }).toBe(1);
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(b).toEqual(a);
    expect(await created()).toEqual([{ name: 'first delivery' }]);
  });

  it('a decision that failed leaves nothing recorded, so the next delivery decides', async () => {
    const headers = { [RPC_ID_HEADER]: 'request-failing' };
    await expect(
      db.transaction((tx) =>
        decideOnce(tx, 'svc', headers, async () => {
          await tx.query("INSERT INTO svc.created (name) VALUES ('rolled back')");
          throw new Error('the berth moved on');
        }),
      ),
    ).rejects.toThrow('the berth moved on');
    await create(headers, 'decided on redelivery');
    expect(await created()).toEqual([{ name: 'decided on redelivery' }]);
  });

  it('a direct call without an RPC id is decided every time', async () => {
    await create({}, 'one');
    await create({}, 'two');
    expect(await created()).toHaveLength(2);
  });
});
