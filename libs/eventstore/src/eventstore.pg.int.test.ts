import { randomUUID } from 'node:crypto';
import { createLogger } from '@pcas/observability';
import { type Db, openDb } from '@pcas/sql';
import { deferred, freshPostgres, holdWritingTransaction } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStoreContract } from './contract.ts';
import { createHorizonWatch } from './horizon.ts';
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
function storeOnRealPostgres(
  name: string,
  poolSize: number,
): { readonly db: Db; readonly store: EventStore; readonly url: string } {
  let server: Awaited<ReturnType<typeof freshPostgres>> | undefined;
  let opened: { db: Db; store: EventStore; url: string } | undefined;
  beforeAll(async () => {
    server = await freshPostgres(name);
    if (!server.url) throw new Error('needs a real PostgreSQL');
    const db = await openDb({ url: server.url, poolSize });
    const store = createEventStore(db);
    await store.init();
    opened = { db, store, url: server.url };
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
    get url() {
      return get().url;
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
    const held = deferred();
    const holding = deferred();
    const holder = db.transaction(async (tx) => {
      await store.append(stream, [{ id: first, type: 'A', data: { n: 1 } }], { tx });
      holding.resolve();
      await held.promise;
    });
    await holding.promise;

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
    held.resolve();
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

/** Subscribes from the start and gathers what reaches it of `streamId`. */
function gather(store: EventStore, streamId: string) {
  const got: RecordedEvent[] = [];
  const subscription = store.subscribe(
    `gather-${randomUUID()}`,
    async (events) => void got.push(...events.filter((e) => e.streamId === streamId)),
    { pollIntervalMs: 100 },
  );
  return { got, subscription };
}

// Commit-order reads wait for transactions that could still append to our log, and only for those: one open in
// another database of the same server (another application, a migration, a batch import) holds nothing back.
describe('the commit-order horizon (PostgreSQL)', () => {
  const opened = storeOnRealPostgres('pcas_es_horizon', 4);
  let other: Awaited<ReturnType<typeof freshPostgres>>;
  beforeAll(async () => {
    other = await freshPostgres('pcas_es_elsewhere');
  });
  afterAll(async () => {
    await other?.drop();
  });

  it('is not held back by a writing transaction in another database of the server', async () => {
    const { store } = opened;
    const elsewhere = await holdWritingTransaction(other.url!, 'other-application');
    const stream = `vessel-${randomUUID()}`;
    const { got, subscription } = gather(store, stream);
    try {
      await store.append(stream, [{ type: 'A', data: 1 }]);
      await store.append(stream, [{ type: 'B', data: 2 }]);
      // Seen while the other database's transaction is still open (it stays open until the end of the test: the
      // old horizon, the server-wide snapshot xmin, showed nothing until it ended).
      await expect.poll(() => got.map((e) => e.type), { timeout: 5_000 }).toEqual(['A', 'B']);
    } finally {
      await subscription.stop();
      await elsewhere.end();
    }
  });

  it('waits for a writer of our database, names it past the threshold, and goes on as soon as it ends', async () => {
    const { db, store } = opened;
    const warnings: { pid: number | null }[] = [];
    const log = createLogger('horizon-test');
    log.warn = ((holder: { pid: number | null }) => void warnings.push(holder)) as typeof log.warn;
    const watch = createHorizonWatch(db, { thresholdMs: 0, log });
    const before = await store.readAll(null, 1_000_000);
    const ours = await holdWritingTransaction(opened.url, 'held-writer');
    const stream = `vessel-${randomUUID()}`;
    const { got, subscription } = gather(store, stream);
    try {
      await store.append(stream, [{ type: 'A', data: 1 }]);
      const holders = (await watch.check()).filter((h) => h.pid === ours.pid);
      expect(holders).toEqual([{ pid: ours.pid, application_name: 'held-writer', age_seconds: expect.any(Number) }]);
      await watch.check();
      expect(warnings.filter((w) => w.pid === ours.pid)).toHaveLength(1); // logged once
      // Held back: nothing after the writer's transaction began is readable.
      const during = await store.readAll(before.checkpoint, 1_000);
      expect(during.events.filter((e) => e.streamId === stream)).toEqual([]);
      expect(got).toEqual([]);
      await ours.end();
      await expect.poll(() => got.map((e) => e.type), { timeout: 5_000 }).toEqual(['A']);
      expect((await watch.check()).filter((h) => h.pid === ours.pid)).toEqual([]);
    } finally {
      await subscription.stop();
      await ours.end();
    }
  });

  it('names a writer only once it has held on for longer than the threshold', async () => {
    const { db } = opened;
    let now = 1_000_000;
    const watch = createHorizonWatch(db, { thresholdMs: 10_000, log: createLogger('horizon-test'), now: () => now });
    const ours = await holdWritingTransaction(opened.url, 'brief-writer');
    try {
      expect(await watch.check()).toEqual([]);
      now += 60_000;
      // Its age comes from the server's xact_start (our role sees it), not from our clock: still seconds old.
      expect(await watch.check()).toEqual([]);
    } finally {
      await ours.end();
    }
  });
});
