import { randomUUID } from 'node:crypto';
import { type Db, openDb } from '@pcas/sql';
import { freshPostgres } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStoreContract } from './contract.ts';
import { createEventStore } from './store.ts';
import type { EventStore } from './types.ts';

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

// A one-event append reads the stream's version in a statement whose snapshot predates the stream's lock; when
// another appender held the lock, what it wrote must still come first, and the waiting append must land after it.
describe('one-event appends waiting for a stream lock (PostgreSQL)', () => {
  let server: Awaited<ReturnType<typeof freshPostgres>>;
  let db: Db;
  let store: EventStore;

  beforeAll(async () => {
    server = await freshPostgres('pcas_es_lock');
    if (!server.url) throw new Error('needs a real PostgreSQL');
    db = await openDb({ url: server.url, poolSize: 8 });
    store = createEventStore(db);
    await store.init();
  });
  afterAll(async () => {
    await db.close();
    await server.drop();
  });

  it('land after the holder, keep their expected versions and idempotency, in commit order', async () => {
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
    // Commit order follows stream order.
    const all = (await store.readAll(null, 100)).events.filter((e) => e.streamId === stream);
    expect(all.map((e) => e.streamPosition)).toEqual([1, 2, 3]);
    await expect(store.append(stream, [{ type: 'D', data: {} }], { expectedVersion: 2 })).rejects.toMatchObject({
      name: 'WrongExpectedVersionError',
    });
    expect((await store.readStream(stream)).length).toBe(3);
  });
});
