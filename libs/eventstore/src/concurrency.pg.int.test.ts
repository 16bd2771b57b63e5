// Concurrency on real PostgreSQL (PGlite has one connection and cannot commit out of order): 16 writers (half of
// them appending two streams at once with appendMany), two subscribers, and one transaction held open for seconds
// in the middle. Sequence values commit out of order here; the subscribers must still see every event exactly
// once, streams in order, and every writer must get back the positions its events were stored at. Two runs: each
// writer on a store and connection of its own, and all 16 sharing one store, whose group commit then gathers
// their concurrent appends into shared transactions (the run checks it did).

import { type Db, openDb, type Queryable } from '@pcas/sql';
import { freshPostgres, type PostgresForTest } from '@pcas/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { compareCheckpoints } from './plan.ts';
import { createEventStore } from './store.ts';
import type { AppendResult, EventStore, RecordedEvent, Subscription } from './types.ts';

const WRITERS = 16;
const EVENTS = 20_000;
const STREAMS = 500;
const HOLD_MS = 3_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Delivery {
  event: RecordedEvent;
  at: number;
}

interface Returned {
  streamId: string;
  id: string;
  streamPosition: number;
  globalPosition: number;
}

/** eventstore.append_many calls seen on a Db: group commit's batches and the writers' own appendMany. */
interface AppendManyCalls {
  calls: number;
  events: number;
}

/** The Db with its eventstore.append_many calls counted, to see group commit at work from outside the store. */
function countingAppendMany(db: Db): { db: Db; seen: AppendManyCalls } {
  const seen = { calls: 0, events: 0 };
  const counting = (q: Queryable): Queryable => ({
    query<R>(text: string, params?: unknown[]) {
      if (text.includes('eventstore.append_many(')) {
        seen.calls++;
        seen.events += (params?.[0] as unknown[] | undefined)?.length ?? 0;
      }
      return q.query<R>(text, params);
    },
  });
  const counted: Db = {
    ...db,
    ...counting(db),
    transaction: (fn) => db.transaction((tx) => fn(counting(tx))),
  };
  return { db: counted, seen };
}

const servers: PostgresForTest[] = [];
const dbs: Db[] = [];

afterAll(async () => {
  await Promise.all(dbs.map((db) => db.close()));
  await Promise.all(servers.map((server) => server.drop()));
});

/** The writers' stores and the store (and Db) the held-open transaction appends through. */
interface Writers {
  stores: EventStore[];
  holderDb: Db;
  holder: EventStore;
  appendManyCalls?: AppendManyCalls;
}

/**
 * The scenario on a fresh database: writers from `writersOn`, the transaction held open, two subscribers. Checks
 * delivery and what each writer got back; returns what group commit needs checked.
 */
async function concurrentWriters(writersOn: (open: (poolSize: number) => Promise<Db>) => Promise<Writers>) {
  const server = await freshPostgres('pcas_es_conc');
  servers.push(server);
  if (!server.url) throw new Error('the concurrency test needs a real PostgreSQL');
  const open = async (poolSize: number) => {
    const db = await openDb({ url: server.url!, poolSize, applicationName: 'es-concurrency' });
    dbs.push(db);
    return db;
  };
  const readerDb = await open(4);
  const reader = createEventStore(readerDb);
  await reader.init();
  await readerDb.query(
    'CREATE TABLE handled (consumer text NOT NULL, event_id uuid NOT NULL, PRIMARY KEY (consumer, event_id))',
  );

  // Two subscribers; each also writes what it handled in its own transaction, so "exactly once" is checked
  // on committed effects and not only on what the handler saw.
  const deliveries: Record<string, Delivery[]> = { first: [], second: [] };
  const subscriptions: Subscription[] = Object.keys(deliveries).map((consumer) =>
    reader.subscribe(consumer, async (events: RecordedEvent[], tx: Queryable) => {
      await tx.query('INSERT INTO handled SELECT $1, unnest($2::text[]::uuid[])', [consumer, events.map((e) => e.id)]);
      const at = Date.now();
      for (const event of events) deliveries[consumer].push({ event, at });
    }),
  );

  const { stores: writers, holderDb, holder, appendManyCalls } = await writersOn(open);
  const returned: Returned[] = [];
  const keep = (streamIds: string[], results: AppendResult[]) =>
    results.forEach((result, k) => {
      for (const e of result.events) returned.push({ streamId: streamIds[k], ...e });
    });

  let appended = 0;
  let singles = 0;
  let pairs = 0;
  let held: { id: string; transactionId: string; commitSentAt: number } | undefined;
  let duringHold: Record<string, Delivery[]> | undefined;
  const holding = (async () => {
    while (appended < EVENTS / 5) await sleep(10);
    let id = '';
    let commitSentAt = 0;
    await holderDb.transaction(async (tx) => {
      const result = await holder.append('held-1', [{ type: 'Held', data: { n: 0 } }], { tx });
      keep(['held-1'], [result]);
      id = result.events[0].id;
      await sleep(HOLD_MS - 100);
      // Just before the commit: what the subscribers have been given while this transaction was open.
      duringHold = Object.fromEntries(Object.entries(deliveries).map(([k, v]) => [k, [...v]]));
      await sleep(100);
      commitSentAt = Date.now();
    });
    const [event] = await reader.readStream('held-1');
    held = { id, transactionId: event.transactionId, commitSentAt };
  })();

  let next = 0;
  await Promise.all(
    writers.map(async (store, w) => {
      for (let i = next++; i < EVENTS; i = next++) {
        const stream = `vessel-${(i * 7919 + w) % STREAMS}`;
        // Odd writers take two events at once over two streams (sometimes the same one twice): a batch.
        const j = w % 2 === 1 ? next++ : EVENTS;
        if (j >= EVENTS) {
          keep([stream], [await store.append(stream, [{ type: 'Timestamp', data: { i, writer: w } }])]);
          appended++;
          singles++;
        } else {
          const other = `vessel-${(j * 7919 + w) % STREAMS}`;
          const results = await store.appendMany([
            { streamId: stream, events: [{ type: 'Timestamp', data: { i, writer: w } }] },
            { streamId: other, events: [{ type: 'Timestamp', data: { i: j, writer: w } }] },
          ]);
          keep([stream, other], results);
          appended += 2;
          pairs++;
        }
      }
    }),
  );
  await holding;
  await Promise.all(subscriptions.map((s) => s.caughtUp()));
  await Promise.all(subscriptions.map((s) => s.stop()));

  const { rows: stored } = await readerDb.query<{
    event_id: string;
    stream_id: string;
    stream_position: number;
    global_position: number;
  }>('SELECT event_id, stream_id, stream_position, global_position FROM eventstore.events');
  expect(stored).toHaveLength(EVENTS + 1);
  const storedIds = new Set(stored.map((r) => r.event_id));

  // Every writer got back its own events' places, as stored.
  expect(returned).toHaveLength(EVENTS + 1);
  const storedAt = new Map(stored.map((r) => [r.event_id, r]));
  const misplaced = returned.filter((r) => {
    const row = storedAt.get(r.id);
    return (
      row?.stream_id !== r.streamId ||
      row.stream_position !== r.streamPosition ||
      row.global_position !== r.globalPosition
    );
  });
  expect(misplaced).toEqual([]);

  for (const [consumer, delivered] of Object.entries(deliveries)) {
    // Exactly once: as many deliveries as events, all distinct, all of them stored.
    const ids = delivered.map((d) => d.event.id);
    expect(ids).toHaveLength(EVENTS + 1);
    expect(new Set(ids).size).toBe(EVENTS + 1);
    expect(ids.every((id) => storedIds.has(id))).toBe(true);
    const { rows } = await readerDb.query<{ n: number }>(
      'SELECT count(*)::int8 AS n FROM handled WHERE consumer = $1',
      [consumer],
    );
    expect(rows[0].n).toBe(EVENTS + 1);

    // Per stream, positions arrive as 1, 2, 3, ... with no gap and no reordering.
    const lastPosition = new Map<string, number>();
    for (const { event } of delivered) {
      expect(event.streamPosition).toBe((lastPosition.get(event.streamId) ?? 0) + 1);
      lastPosition.set(event.streamId, event.streamPosition);
    }
    // Delivery follows commit order.
    for (let i = 1; i < delivered.length; i++) {
      const [a, b] = [delivered[i - 1].event, delivered[i].event];
      expect(compareCheckpoints(a, b)).toBeLessThan(0);
    }

    // While the transaction was open, nothing younger than it was delivered (it would have been passed over
    // for good): delivery waited for its commit instead.
    const heldTx = BigInt(held!.transactionId);
    expect(duringHold![consumer].every((d) => BigInt(d.event.transactionId) < heldTx)).toBe(true);
    const younger = delivered.filter((d) => BigInt(d.event.transactionId) > heldTx);
    expect(younger.length).toBeGreaterThan(0);
    expect(younger.every((d) => d.at >= held!.commitSentAt)).toBe(true);
    expect(ids).toContain(held!.id);
  }
  return { singles, pairs, appendManyCalls };
}

describe('event store under concurrent writers (PostgreSQL)', () => {
  it('delivers every event exactly once, in stream order, despite a transaction held open', async () => {
    await concurrentWriters(async (open) => {
      const stores: EventStore[] = [];
      for (let i = 0; i < WRITERS; i++) stores.push(createEventStore(await open(1)));
      const holderDb = await open(1);
      return { stores, holderDb, holder: createEventStore(holderDb) };
    });
  });

  it('does the same with the 16 writers sharing one store and its group commit', async () => {
    const { singles, pairs, appendManyCalls } = await concurrentWriters(async (open) => {
      // A service's pool, which the held-open transaction also takes a connection of.
      const { db, seen } = countingAppendMany(await open(10));
      const store = createEventStore(db);
      return {
        stores: Array.from({ length: WRITERS }, () => store),
        holderDb: db,
        holder: store,
        appendManyCalls: seen,
      };
    });
    // The writers' own appendMany calls are two events each; the other calls are group commits of single appends.
    const batches = appendManyCalls!.calls - pairs;
    const batched = appendManyCalls!.events - 2 * pairs;
    // Most single appends left in shared transactions (measured: about three quarters, six to a batch).
    expect(batches).toBeGreaterThan(100);
    expect(batched).toBeGreaterThan(singles / 4);
  });
});
