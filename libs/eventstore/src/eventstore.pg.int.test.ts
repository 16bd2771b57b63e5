import { randomUUID } from 'node:crypto';
import { type Db, openDb } from '@pcas/sql';
import { freshPostgres } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStoreContract } from './contract.ts';
import { createEventStore } from './store.ts';
import type { EventStore, RecordedEvent } from './types.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

eventStoreContract('PostgreSQL', async () => {
  const server = await freshPostgres('pcas_es');
  if (!server.url) throw new Error('the PostgreSQL contract run needs a real PostgreSQL');
  const db = await openDb({ url: server.url, poolSize: 8 });
  return {
    db,
    dispose: async () => {
      await db.close();
      await server.drop();
    },
  };
});

/** A fresh database with an initialised store for the suite (set up before its tests, dropped after them). */
function storeOnRealPostgres(name: string, poolSize: number): { readonly db: Db; readonly store: EventStore } {
  let server: Awaited<ReturnType<typeof freshPostgres>> | undefined;
  let opened: { db: Db; store: EventStore } | undefined;
  beforeAll(async () => {
    server = await freshPostgres(name);
    if (!server.url) throw new Error('needs a real PostgreSQL');
    const db = await openDb({ url: server.url, poolSize });
    const store = createEventStore(db);
    await store.init();
    opened = { db, store };
  });
  afterAll(async () => {
    await opened?.db.close();
    await server?.drop();
  });
  const get = () => {
    if (!opened) throw new Error('the store is opened in beforeAll');
    return opened;
  };
  return {
    get db() {
      return get().db;
    },
    get store() {
      return get().store;
    },
  };
}

// A one-event append reads the stream's version in a statement whose snapshot predates the stream's lock; when
// another appender held the lock, what it wrote must still come first, and the waiting append must land after it.
describe('one-event appends waiting for a stream lock (PostgreSQL)', () => {
  const opened = storeOnRealPostgres('pcas_es_lock', 8);

  it('land after the holder, keep their expected versions and idempotency, in commit order', async () => {
    const { db, store } = opened;
    const stream = 'vessel-9074729';
    const first = randomUUID();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = db.transaction(async (tx) => {
      await store.append(stream, [{ id: first, type: 'A', data: { n: 1 } }], { tx });
      locked();
      await held;
    });
    await holding;

    const settled: string[] = [];
    const waiting = [
      store.append(stream, [{ type: 'B', data: { n: 2 } }]).then((r) => {
        settled.push('any');
        return r;
      }),
      store.append(stream, [{ type: 'C', data: { n: 3 } }], { expectedVersion: 'stream_exists' }),
      store.append(stream, [{ id: first, type: 'A', data: { n: 1 } }]),
    ];
    await sleep(300);
    expect(settled).toEqual([]);
    release();
    await holder;
    const [any, exists, retry] = await Promise.all(waiting);

    expect(retry.events[0]).toMatchObject({ id: first, streamPosition: 1, duplicate: true });
    expect([any.events[0].streamPosition, exists.events[0].streamPosition].sort()).toEqual([2, 3]);
    const stored = await store.readStream(stream);
    expect(stored.map((e) => e.streamPosition)).toEqual([1, 2, 3]);
    expect(stored.map((e) => e.type).slice(0, 1)).toEqual(['A']);
    // Commit order follows stream order. A transaction open anywhere on the server (another test file's) holds
    // reads back for a moment: read until all three have come.
    let all: RecordedEvent[] = [];
    for (const until = Date.now() + 10_000; all.length < 3 && Date.now() < until; await sleep(20)) {
      all = (await store.readAll(null, 100)).events.filter((e) => e.streamId === stream);
    }
    expect(all.map((e) => e.streamPosition)).toEqual([1, 2, 3]);
    await expect(store.append(stream, [{ type: 'D', data: {} }], { expectedVersion: 2 })).rejects.toMatchObject({
      name: 'WrongExpectedVersionError',
    });
    expect((await store.readStream(stream)).length).toBe(3);
  });
});

// The functions run generic plans, which size a stream by the average one. A long stream among many short ones
// (the port-call change signals among the vessels) must still be probed by event id, never read whole.
describe('appends to a long stream among many short ones (PostgreSQL)', () => {
  const opened = storeOnRealPostgres('pcas_es_skew', 2);

  beforeAll(async () => {
    const { db } = opened;
    await db.query(
      `INSERT INTO eventstore.events (stream_id, stream_position, event_id, event_type, data)
       SELECT 'vessel-' || g, 1, gen_random_uuid(), 'TimestampReceived', '{}'::jsonb FROM generate_series(1, 5000) g
       UNION ALL
       SELECT 'signals', g, gen_random_uuid(), 'Changed', '{}'::jsonb FROM generate_series(1, 5000) g`,
    );
    await db.query('ANALYZE eventstore.events');
  });

  it('reads a handful of rows, not the stream, to find ids stored before', async () => {
    const { db, store } = opened;
    const events = Array.from({ length: 20 }, (_, n) => ({ id: randomUUID(), type: 'Changed', data: { n } }));
    const fetched = await db.transaction(async (tx) => {
      await store.append('signals', events, { tx });
      // A retry of part of it, with one new event: the stored ones are looked up and answered.
      const retry = await store.append('signals', [...events.slice(0, 3), { type: 'Changed', data: { n: 20 } }], {
        tx,
      });
      expect(retry.events.map((e) => e.duplicate)).toEqual([true, true, true, false]);
      expect(retry.events.map((e) => e.streamPosition)).toEqual([5001, 5002, 5003, 5021]);
      const many = await store.appendMany(
        [
          { streamId: 'signals', events: [events[4], { type: 'Changed', data: { n: 21 } }] },
          { streamId: 'vessel-7', events: [{ type: 'TimestampReceived', data: {} }] },
        ],
        { tx },
      );
      expect(many.map((r) => r.events.map((e) => e.duplicate))).toEqual([[true, false], [false]]);
      // This transaction's own counters: rows read by table scans and fetched through the indexes.
      const { rows } = await tx.query<{ fetched: string }>(
        `SELECT seq_tup_read + idx_tup_fetch AS fetched FROM pg_stat_xact_user_tables
          WHERE schemaname = 'eventstore' AND relname = 'events'`,
      );
      return Number(rows[0].fetched);
    });
    // About one per lookup; reading the stream would be over 5,000.
    expect(fetched).toBeLessThan(200);
  });
});
