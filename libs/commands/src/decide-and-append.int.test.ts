// The kit's loop against the real event store: PGlite for the plain loop, PostgreSQL for the transactional one
// (its racing writer needs a second connection). The race is real: a writer appends to the stream between the
// command's load and its append, so the append's expected version is stale and the store refuses it.

import { randomUUID } from 'node:crypto';
import { ApiError } from '@pcas/contracts';
import { createEventStore, type EventStore, type RecordedEvent } from '@pcas/eventstore';
import { type Db, openDb, type Queryable } from '@pcas/sql';
import { freshPostgres } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DecidedEvent,
  decideAndAppend,
  decideAndAppendInTransaction,
  type Loaded,
  type StreamCommand,
} from './decide-and-append.ts';

interface Counted extends DecidedEvent {
  type: 'Counted';
  data: { seen: number };
}

/** The state is the number of events; each decision records the version it was taken on. */
const count = (events: RecordedEvent[]): Loaded<number> => ({
  state: events.length,
  version: events.at(-1)?.streamPosition ?? 0,
});
const decideCount = (_state: number, version: number): Counted[] => [{ type: 'Counted', data: { seen: version } }];
const metadata = { user_id: 7, api_key_id: null, correlation_id: 'corr-kit' };

async function statusOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

function interloper(store: EventStore, streamId: string) {
  return () => store.append(streamId, [{ type: 'Interloped', data: {} }]);
}

describe('decideAndAppend (PGlite)', () => {
  let db: Db;
  let store: EventStore;
  beforeAll(async () => {
    db = await openDb({ dataDir: 'memory://' });
    store = createEventStore(db);
    await store.init();
  });
  afterAll(() => db.close());

  const command = (streamId: string, beforeAppend?: () => Promise<unknown>): StreamCommand<number, Counted, void> => ({
    streamId,
    metadata,
    async load() {
      const loaded = count(await store.readStream(streamId));
      await beforeAppend?.();
      return loaded;
    },
    decide: decideCount,
  });

  it('appends what was decided, with the metadata, at the version it was decided on', async () => {
    const streamId = `kit-${randomUUID()}`;
    const first = await decideAndAppend(store, command(streamId));
    const second = await decideAndAppend(store, command(streamId));
    expect([first.version, second.version]).toEqual([0, 1]);
    expect(second.appended?.nextExpectedVersion).toBe(2);
    const stored = await store.readStream(streamId);
    expect(stored.map((e) => e.data)).toEqual([{ seen: 0 }, { seen: 1 }]);
    expect(stored[1].metadata).toMatchObject(metadata);
  });

  it('appends nothing when nothing was decided', async () => {
    const streamId = `kit-${randomUUID()}`;
    const decided = await decideAndAppend(store, { ...command(streamId), decide: () => [] });
    expect(decided).toEqual({ events: [], version: 0, appended: undefined });
    expect(await store.readStream(streamId)).toEqual([]);
  });

  it('decides again on the new state when another writer got in between', async () => {
    const streamId = `kit-${randomUUID()}`;
    await store.append(streamId, [{ type: 'Interloped', data: {} }]);
    let loads = 0;
    const once = interloper(store, streamId);
    const decided = await decideAndAppend(
      store,
      command(streamId, () => (++loads === 1 ? once() : Promise.resolve())),
    );
    expect(loads).toBe(2);
    expect(decided.version).toBe(2);
    expect((await store.readStream(streamId)).map((e) => [e.type, e.data])).toEqual([
      ['Interloped', {}],
      ['Interloped', {}],
      ['Counted', { seen: 2 }],
    ]);
  });

  it('gives up after the last attempt with a 503 and stores nothing of its own', async () => {
    const streamId = `kit-${randomUUID()}`;
    let loads = 0;
    const always = interloper(store, streamId);
    const error = await statusOf(
      decideAndAppend(
        store,
        command(streamId, () => {
          loads++;
          return always();
        }),
        { attempts: 3, busyMessage: 'Counter is being updated concurrently; retry' },
      ),
    );
    expect([error.status, error.message]).toEqual([503, 'Counter is being updated concurrently; retry']);
    expect(loads).toBe(3);
    expect((await store.readStream(streamId)).map((e) => e.type)).toEqual(['Interloped', 'Interloped', 'Interloped']);
  });

  it('does not retry what is not a version conflict', async () => {
    const streamId = `kit-${randomUUID()}`;
    let loads = 0;
    const error = await statusOf(
      decideAndAppend(store, {
        ...command(streamId, async () => {
          loads++;
        }),
        decide: () => {
          throw ApiError.badRequest('No such counter');
        },
      }),
    );
    expect([error.status, error.message, loads]).toEqual([400, 'No such counter', 1]);
  });
});

describe('decideAndAppendInTransaction (PostgreSQL)', () => {
  let server: Awaited<ReturnType<typeof freshPostgres>> | undefined;
  let db: Db;
  let store: EventStore;
  beforeAll(async () => {
    server = await freshPostgres('pcas_commands');
    if (!server.url) throw new Error('the transactional race needs a real PostgreSQL (a second connection)');
    db = await openDb({ url: server.url, poolSize: 4 });
    store = createEventStore(db);
    await store.init();
    await db.query('CREATE TABLE counted (stream_id text, seen int)');
  });
  afterAll(async () => {
    await db?.close();
    await server?.drop();
  });

  const rows = async (streamId: string) =>
    (await db.query<{ seen: number }>('SELECT seen FROM counted WHERE stream_id = $1', [streamId])).rows;
  const project = (streamId: string) => async (tx: Queryable, events: readonly Counted[]) => {
    for (const e of events) await tx.query('INSERT INTO counted VALUES ($1, $2)', [streamId, e.data.seen]);
  };

  it('decides again after a writer on another connection got in between; its rows commit with the events', async () => {
    const streamId = `kit-${randomUUID()}`;
    let loads = 0;
    const once = interloper(store, streamId);
    const decided = await decideAndAppendInTransaction(db, store, {
      streamId,
      metadata,
      async load(tx) {
        const loaded = count(await store.readStream(streamId, { tx }));
        if (++loads === 1) await once();
        return loaded;
      },
      decide: decideCount,
      project: project(streamId),
    });
    expect([loads, decided.version]).toEqual([2, 1]);
    expect((await store.readStream(streamId)).map((e) => e.type)).toEqual(['Interloped', 'Counted']);
    expect(await rows(streamId)).toEqual([{ seen: 1 }]);
  });

  it('gives up after the last attempt with a 503', async () => {
    const streamId = `kit-${randomUUID()}`;
    const always = interloper(store, streamId);
    const error = await statusOf(
      decideAndAppendInTransaction(
        db,
        store,
        {
          streamId,
          metadata,
          async load(tx) {
            const loaded = count(await store.readStream(streamId, { tx }));
            await always();
            return loaded;
          },
          decide: decideCount,
          project: project(streamId),
        },
        { attempts: 2 },
      ),
    );
    expect([error.status, error.message]).toEqual([503, `Stream ${streamId} is being updated concurrently; retry`]);
    expect((await store.readStream(streamId)).map((e) => e.type)).toEqual(['Interloped', 'Interloped']);
    expect(await rows(streamId)).toEqual([]);
  });

  it('stores neither the events nor the rows when the projection fails', async () => {
    const streamId = `kit-${randomUUID()}`;
    await expect(
      decideAndAppendInTransaction(db, store, {
        streamId,
        metadata,
        load: async (tx) => count(await store.readStream(streamId, { tx })),
        decide: decideCount,
        async project(tx, events) {
          await project(streamId)(tx, events);
          throw new Error('disk full');
        },
      }),
    ).rejects.toThrow('disk full');
    expect(await store.readStream(streamId)).toEqual([]);
    expect(await rows(streamId)).toEqual([]);
  });
});
