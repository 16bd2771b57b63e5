// The event store's contract, run against every Db kind (PGlite, PostgreSQL): one suite, same expectations.

import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '@pcas/sql';
import { deferred } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareCheckpoints } from './plan.ts';
import { createEventStore } from './store.ts';
import { type AppendResult, type EventStore, type RecordedEvent, WrongExpectedVersionError } from './types.ts';

export interface ContractDb {
  db: Db;
  /** Closes the Db and removes whatever makeDb created. */
  dispose(): Promise<void>;
}

const checkpointOf = (e: RecordedEvent) => ({ transactionId: e.transactionId, globalPosition: e.globalPosition });

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

const expectWrongVersion = async (promise: Promise<unknown>, actual: number) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WrongExpectedVersionError);
  expect((error as WrongExpectedVersionError).actual).toBe(actual);
};

/** A read model for subscription tests: one row per handled event, written in the handler's transaction. */
async function handledTable(db: Db, name: string) {
  await db.query(
    `CREATE TABLE ${name} (event_id uuid NOT NULL, stream_id text NOT NULL, stream_position bigint NOT NULL)`,
  );
  const record = async (tx: Queryable, events: RecordedEvent[]) => {
    if (events.length === 0) return;
    await tx.query(
      `INSERT INTO ${name} (event_id, stream_id, stream_position)
       SELECT * FROM unnest($1::text[]::uuid[], $2::text[], $3::int8[])`,
      [events.map((e) => e.id), events.map((e) => e.streamId), events.map((e) => e.streamPosition)],
    );
  };
  const rows = async (streamPrefix: string) =>
    (
      await db.query<{ event_id: string; stream_id: string; stream_position: number }>(
        `SELECT event_id, stream_id, stream_position FROM ${name} WHERE stream_id LIKE $1 || '%' ORDER BY stream_id, stream_position`,
        [streamPrefix],
      )
    ).rows;
  return { record, rows };
}

export function eventStoreContract(name: string, makeDb: () => Promise<ContractDb>) {
  describe(`event store contract (${name})`, () => {
    let handle: ContractDb;
    let db: Db;
    let store: EventStore;

    beforeAll(async () => {
      handle = await makeDb();
      db = handle.db;
      store = createEventStore(db, { notifyIntervalMs: 5 });
      await store.init();
      // Safe to repeat (every process runs it at start).
      await Promise.all([store.init(), createEventStore(db).init()]);
    });

    afterAll(async () => {
      await handle?.dispose();
    });

    it('appends and reads a stream, by position and by global position', async () => {
      const stream = unique('vessel');
      const result = await store.append(stream, [
        { type: 'Arrived', data: { berth: 'A1' } },
        { type: 'Departed', data: { at: '2024-01-01T00:00:00Z' } },
        { type: 'Noted', data: null },
      ]);
      expect(result.nextExpectedVersion).toBe(3);
      expect(result.events.map((e) => [e.streamPosition, e.duplicate])).toEqual([
        [1, false],
        [2, false],
        [3, false],
      ]);
      const events = await store.readStream(stream);
      expect(events.map((e) => [e.streamId, e.streamPosition, e.type, e.data])).toEqual([
        [stream, 1, 'Arrived', { berth: 'A1' }],
        [stream, 2, 'Departed', { at: '2024-01-01T00:00:00Z' }],
        [stream, 3, 'Noted', null],
      ]);
      expect(events.map((e) => e.id)).toEqual(result.events.map((e) => e.id));
      expect(events.map((e) => e.globalPosition)).toEqual(result.events.map((e) => e.globalPosition));
      expect(events[0].globalPosition).toBeLessThan(events[1].globalPosition);
      expect(events[0].transactionId).toMatch(/^\d+$/);
      // One append is one transaction.
      expect(new Set(events.map((e) => e.transactionId)).size).toBe(1);
      expect(events[0].created).toBeInstanceOf(Date);

      expect((await store.readStream(stream, { fromPosition: 2 })).map((e) => e.streamPosition)).toEqual([2, 3]);
      expect(await store.readStream(unique('vessel'))).toEqual([]);
      const other = unique('vessel');
      await store.append(other, [{ type: 'Noted', data: 1 }]);
      const read = await store.readStreams([
        { streamId: stream, fromPosition: 3 },
        { streamId: unique('vessel') },
        { streamId: other },
      ]);
      expect(read.map((list) => list.map((e) => [e.type, e.streamPosition]))).toEqual([
        [['Noted', 3]],
        [],
        [['Noted', 1]],
      ]);
      expect(read[0][0]).toEqual(events[2]);
      expect(await store.readByGlobalPosition(events[1].globalPosition)).toEqual(events[1]);
      expect(await store.readByGlobalPosition(-1)).toBeUndefined();
    });

    it('enforces expected versions and stores nothing on a conflict', async () => {
      const stream = unique('vessel');
      await expectWrongVersion(store.append(stream, [{ type: 'X', data: 1 }], { expectedVersion: 'stream_exists' }), 0);
      await expectWrongVersion(store.append(stream, [{ type: 'X', data: 1 }], { expectedVersion: 2 }), 0);
      expect(
        (await store.append(stream, [{ type: 'A', data: 1 }], { expectedVersion: 'no_stream' })).nextExpectedVersion,
      ).toBe(1);
      await expectWrongVersion(store.append(stream, [{ type: 'X', data: 1 }], { expectedVersion: 'no_stream' }), 1);
      expect((await store.append(stream, [{ type: 'B', data: 2 }], { expectedVersion: 1 })).nextExpectedVersion).toBe(
        2,
      );
      await expectWrongVersion(store.append(stream, [{ type: 'X', data: 1 }], { expectedVersion: 1 }), 2);
      expect(
        (await store.append(stream, [{ type: 'C', data: 3 }], { expectedVersion: 'stream_exists' }))
          .nextExpectedVersion,
      ).toBe(3);
      expect(
        (await store.append(stream, [{ type: 'D', data: 4 }], { expectedVersion: 'any' })).nextExpectedVersion,
      ).toBe(4);
      expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['A', 'B', 'C', 'D']);

      // Appending nothing still checks the version.
      expect(await store.append(stream, [], { expectedVersion: 4 })).toEqual({ nextExpectedVersion: 4, events: [] });
      await expectWrongVersion(store.append(stream, [], { expectedVersion: 3 }), 4);

      const error = await store
        .append(stream, [{ type: 'X', data: 1 }], { expectedVersion: 1 })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ streamId: stream, expected: 1, actual: 4, name: 'WrongExpectedVersionError' });
    });

    it('stores a retried append once and reports the stored positions', async () => {
      const stream = unique('vessel');
      const a = randomUUID();
      const b = randomUUID();
      const c = randomUUID();
      const first = await store.append(
        stream,
        [
          { id: a, type: 'A', data: 1 },
          { id: b, type: 'B', data: 2 },
        ],
        { expectedVersion: 'no_stream' },
      );
      // The same append again (e.g. the response was lost): same positions, no version conflict.
      const retry = await store.append(
        stream,
        [
          { id: a, type: 'A', data: 1 },
          { id: b, type: 'B', data: 2 },
        ],
        { expectedVersion: 'no_stream' },
      );
      expect(retry.nextExpectedVersion).toBe(2);
      expect(retry.events).toEqual(first.events.map((e) => ({ ...e, duplicate: true })));

      // Partly stored: the stored one is reported, the new one appended after the stream's end.
      const partial = await store.append(
        stream,
        [
          { id: b, type: 'B', data: 2 },
          { id: c, type: 'C', data: 3 },
        ],
        { expectedVersion: 2 },
      );
      expect(partial.events.map((e) => [e.id, e.streamPosition, e.duplicate])).toEqual([
        [b, 2, true],
        [c, 3, false],
      ]);
      expect(partial.nextExpectedVersion).toBe(3);

      // An id repeated within one call is stored once.
      const d = randomUUID();
      const repeated = await store.append(stream, [
        { id: d, type: 'D', data: 4 },
        { id: d.toUpperCase(), type: 'D', data: 4 },
      ]);
      expect(repeated.events.map((e) => [e.id, e.streamPosition, e.duplicate])).toEqual([
        [d, 4, false],
        [d, 4, true],
      ]);

      // The same append racing itself is stored once, and both callers get the positions.
      const e = randomUUID();
      const racing = await Promise.all(
        Array.from({ length: 8 }, () => store.append(stream, [{ id: e, type: 'E', data: 5 }], { expectedVersion: 4 })),
      );
      expect(new Set(racing.map((r) => r.events[0].streamPosition))).toEqual(new Set([5]));
      expect(racing.filter((r) => !r.events[0].duplicate)).toHaveLength(1);

      const stored = await store.readStream(stream);
      expect(stored.map((x) => x.id)).toEqual([a, b, c, d, e]);
      expect(stored.map((x) => x.streamPosition)).toEqual([1, 2, 3, 4, 5]);
    });

    it('keeps metadata as given and fills correlation and causation ids', async () => {
      const stream = unique('vessel');
      const metadata = {
        user_id: 42,
        api_key_id: null,
        correlation_id: 'corr-1',
        causation_id: 'cause-1',
        traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
        tracestate: 'vendor=value',
        source: 'agent-7',
      };
      const { events } = await store.append(stream, [
        { type: 'A', data: { n: 1 }, metadata },
        { type: 'B', data: { n: 2 } },
      ]);
      const [withGiven, withDefaults] = await store.readStream(stream);
      expect(withGiven.metadata).toEqual(metadata);
      // Same append, no metadata given: correlated with the first event's correlation id.
      expect(withDefaults.metadata).toEqual({ correlation_id: 'corr-1', causation_id: 'corr-1' });
      expect(events).toHaveLength(2);
      const alone = unique('vessel');
      await store.append(alone, [{ type: 'C', data: {} }]);
      const [read] = await store.readStream(alone);
      expect(read.metadata).toEqual({ correlation_id: read.id, causation_id: read.id });
    });

    it('reads all events in commit order, page by page', async () => {
      const prefix = unique('order');
      const s1 = `${prefix}-1`;
      const s2 = `${prefix}-2`;
      const before = await lastCheckpoint(store);
      await store.append(s1, [{ type: 'A', data: 1 }]);
      await db.transaction(async (tx) => {
        await store.append(s2, [{ type: 'B', data: 2 }], { tx });
        await store.append(s1, [{ type: 'C', data: 3 }], { tx });
      });
      await store.append(s2, [{ type: 'D', data: 4 }]);

      const seen: RecordedEvent[] = [];
      let checkpoint = before;
      // A transaction open anywhere on the server (another database's test, autovacuum) holds reads back for a
      // moment: keep reading until D has come.
      const until = Date.now() + 10_000;
      while (!seen.some((e) => e.streamId === s2 && e.type === 'D') && Date.now() < until) {
        const page = await store.readAll(checkpoint, 2);
        if (page.events.length === 0) {
          expect(page.checkpoint).toEqual(checkpoint);
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        expect(page.events.length).toBeLessThanOrEqual(2);
        seen.push(...page.events);
        checkpoint = page.checkpoint;
      }
      const ours = seen.filter((e) => e.streamId.startsWith(prefix));
      expect(ours.map((e) => e.type)).toEqual(['A', 'B', 'C', 'D']);
      // B and C share their transaction; the order is (transaction id, global position).
      expect(ours[1].transactionId).toBe(ours[2].transactionId);
      for (let i = 1; i < seen.length; i++) {
        expect(compareCheckpoints(checkpointOf(seen[i - 1]), checkpointOf(seen[i]))).toBeLessThan(0);
      }
    });

    it('passes over the streams it is told to skip, moving the checkpoint past them', async () => {
      const prefix = unique('skip');
      const kept = `${prefix}-kept`;
      // `_` is a LIKE wildcard: a stream that matches the prefix only through it must not be skipped.
      const skippedPrefix = `${prefix}_pos-`;
      const lookalike = `${prefix}xpos-1`;
      const before = await lastCheckpoint(store);
      await store.append(kept, [{ type: 'A', data: 1 }]);
      await store.appendMany(
        Array.from({ length: 5 }, (_, i) => ({ streamId: `${skippedPrefix}${i}`, events: [{ type: 'P', data: i }] })),
      );
      await store.append(lookalike, [{ type: 'L', data: 2 }]);
      await store.append(`${skippedPrefix}9`, [{ type: 'P', data: 9 }]);

      // All eight of ours readable first (commit-order reads show a transaction once every older one has ended),
      // so that an empty page below means "nothing left", not "not visible yet".
      await waitUntil(async () => (await ourEvents(store, before, prefix)).length === 8);
      const seen: RecordedEvent[] = [];
      const pages: number[] = [];
      let checkpoint = before;
      for (;;) {
        const page = await store.readAll(checkpoint, 3, { skipStreamPrefixes: [skippedPrefix] });
        const all = await store.readAll(checkpoint, 1_000);
        if (page.events.length === 0 && !all.events.some((e) => e.streamId.startsWith(prefix))) break;
        // Other writers' events may still be on their way; ours are all readable, so the pages move on.
        if (page.checkpoint === checkpoint) {
          await new Promise((r) => setTimeout(r, 20));
          continue;
        }
        pages.push(page.events.length);
        seen.push(...page.events);
        expect(
          compareCheckpoints(checkpoint ?? { transactionId: '0', globalPosition: 0 }, page.checkpoint!),
        ).toBeLessThan(0);
        checkpoint = page.checkpoint;
      }
      const ours = seen.filter((e) => e.streamId.startsWith(prefix));
      expect(ours.map((e) => [e.streamId, e.type, e.data])).toEqual([
        [kept, 'A', 1],
        [lookalike, 'L', 2],
      ]);
      // The checkpoint ends past the last skipped event: nothing of ours is left after it.
      const rest = await store.readAll(checkpoint, 1_000);
      expect(rest.events.filter((e) => e.streamId.startsWith(prefix))).toEqual([]);
      // Some page held skipped events only: it still moved the checkpoint.
      expect(pages).toContain(0);
    });

    it('rolls back an append made in a caller transaction together with it', async () => {
      const stream = unique('vessel');
      await expect(
        db.transaction(async (tx) => {
          await store.append(stream, [{ type: 'A', data: 1 }], { tx, expectedVersion: 'no_stream' });
          expect(await store.readStream(stream, { tx })).toHaveLength(1);
          throw new Error('abort');
        }),
      ).rejects.toThrow('abort');
      expect(await store.readStream(stream)).toEqual([]);
      // The stream version was rolled back too.
      expect(
        (await store.append(stream, [{ type: 'B', data: 2 }], { expectedVersion: 'no_stream' })).nextExpectedVersion,
      ).toBe(1);
    });

    it('delivers every event to a subscriber once, with the checkpoint surviving a restart', async () => {
      const prefix = unique('sub');
      const table = handledTable(db, `handled_${prefix.replace(/-/g, '_')}`);
      const { record, rows } = await table;
      const consumer = unique('consumer');
      const batches: number[] = [];
      const handler = async (events: RecordedEvent[], tx: Queryable) => {
        batches.push(events.length);
        await record(tx, events);
      };

      await store.append(`${prefix}-a`, [{ type: 'A', data: 1 }]);
      const first = store.subscribe(consumer, handler, { batchSize: 3, pollIntervalMs: 50 });
      await store.append(`${prefix}-a`, [
        { type: 'A', data: 2 },
        { type: 'A', data: 3 },
      ]);
      await store.append(`${prefix}-b`, [{ type: 'B', data: 1 }]);
      await first.caughtUp();
      expect((await rows(prefix)).map((r) => `${r.stream_id.slice(-1)}${r.stream_position}`)).toEqual([
        'a1',
        'a2',
        'a3',
        'b1',
      ]);
      expect(Math.max(...batches)).toBeLessThanOrEqual(3);
      await first.stop();

      // Appended while nobody listens; a new instance resumes from the stored checkpoint.
      await store.append(`${prefix}-b`, [{ type: 'B', data: 2 }]);
      const checkpoint = await store.readCheckpoint(consumer);
      expect(checkpoint).not.toBeNull();
      const second = store.subscribe(consumer, handler, { pollIntervalMs: 50 });
      await second.caughtUp();
      await second.stop();
      const handled = await rows(prefix);
      expect(handled.map((r) => `${r.stream_id.slice(-1)}${r.stream_position}`)).toEqual([
        'a1',
        'a2',
        'a3',
        'b1',
        'b2',
      ]);
      expect(new Set(handled.map((r) => r.event_id)).size).toBe(handled.length);
    });

    it('wakes a subscriber on NOTIFY well before its poll interval', async () => {
      const prefix = unique('wake');
      const consumer = unique('consumer');
      const got: string[] = [];
      const sub = store.subscribe(
        consumer,
        async (events) => {
          for (const e of events) if (e.streamId.startsWith(prefix)) got.push(e.streamId);
        },
        { pollIntervalMs: 60_000 },
      );
      await sub.caughtUp();
      await store.append(`${prefix}-1`, [{ type: 'A', data: 1 }]);
      const until = Date.now() + 10_000;
      while (got.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
      await sub.stop();
      expect(got).toEqual([`${prefix}-1`]);
    });

    it('retries a failing batch until it succeeds, losing and repeating nothing', async () => {
      const prefix = unique('fail');
      const { record, rows } = await handledTable(db, `handled_${prefix.replace(/-/g, '_')}`);
      const consumer = unique('consumer');
      const poison = randomUUID();
      let failures = 0;
      const sub = store.subscribe(
        consumer,
        async (events, tx) => {
          await record(tx, events);
          // Fails after writing, so a retry that did not roll back would show up as duplicates.
          if (events.some((e) => e.id === poison) && failures < 2) {
            failures++;
            throw new Error('projection bug');
          }
        },
        { pollIntervalMs: 20, batchSize: 10 },
      );
      await store.append(`${prefix}-1`, [{ type: 'A', data: 1 }]);
      await store.append(`${prefix}-1`, [{ id: poison, type: 'A', data: 2 }]);
      await store.append(`${prefix}-2`, [{ type: 'A', data: 3 }]);
      await sub.caughtUp();
      await sub.stop();
      expect(failures).toBe(2);
      const handled = await rows(prefix);
      expect(handled.map((r) => `${r.stream_id.slice(-1)}${r.stream_position}`)).toEqual(['11', '12', '21']);
    });

    it('passes only the wanted event types but moves past the others', async () => {
      const prefix = unique('types');
      const consumer = unique('consumer');
      const got: string[] = [];
      await store.append(`${prefix}-1`, [
        { type: 'Wanted', data: 1 },
        { type: 'Other', data: 2 },
        { type: 'Wanted', data: 3 },
      ]);
      await store.append(`${prefix}-2`, [{ type: 'Other', data: 4 }]);
      const sub = store.subscribe(
        consumer,
        async (events) => {
          for (const e of events) {
            expect(e.type).toBe('Wanted');
            if (e.streamId.startsWith(prefix)) got.push(`${e.streamPosition}`);
          }
        },
        { eventTypes: ['Wanted'], pollIntervalMs: 20 },
      );
      await sub.caughtUp();
      await sub.stop();
      expect(got).toEqual(['1', '3']);
      const last = await lastCheckpoint(store);
      expect(await store.readCheckpoint(consumer)).toEqual(last);
    });

    it('lets stop() finish the batch in flight, and stops on an aborted signal', async () => {
      const prefix = unique('stop');
      const consumer = unique('consumer');
      const inHandler = deferred();
      let finished = false;
      const sub = store.subscribe(consumer, async (events) => {
        if (!events.some((e) => e.streamId.startsWith(prefix))) return;
        inHandler.resolve();
        await new Promise((r) => setTimeout(r, 200));
        finished = true;
      });
      await store.append(`${prefix}-1`, [{ type: 'A', data: 1 }]);
      await inHandler.promise;
      await sub.stop();
      expect(finished).toBe(true);
      expect(await store.readCheckpoint(consumer)).toEqual(await lastCheckpoint(store));

      const controller = new AbortController();
      const calls: number[] = [];
      const aborted = store.subscribe(unique('consumer'), async (events) => void calls.push(events.length), {
        signal: controller.signal,
        pollIntervalMs: 20,
      });
      await aborted.caughtUp();
      controller.abort();
      await aborted.stop();
      const count = calls.length;
      await store.append(`${prefix}-2`, [{ type: 'A', data: 2 }]);
      await new Promise((r) => setTimeout(r, 100));
      expect(calls.length).toBe(count);
      await expect(aborted.caughtUp()).rejects.toThrow(/stopped/);
    });

    it('saves and reads checkpoints inside a caller transaction', async () => {
      const consumer = unique('consumer');
      expect(await store.readCheckpoint(consumer)).toBeNull();
      const checkpoint = { transactionId: '12345', globalPosition: 77 };
      await db.transaction(async (tx) => {
        await store.saveCheckpoint(tx, consumer, checkpoint);
        expect(await store.readCheckpoint(consumer, tx)).toEqual(checkpoint);
      });
      expect(await store.readCheckpoint(consumer)).toEqual(checkpoint);
      await db.transaction(async (tx) =>
        store.saveCheckpoint(tx, consumer, { transactionId: '12346', globalPosition: 1 }),
      );
      expect(await store.readCheckpoint(consumer)).toEqual({ transactionId: '12346', globalPosition: 1 });
    });

    it('appends to several streams in one call, each in order, and a retry stores nothing twice', async () => {
      const a = unique('many-a');
      const b = unique('many-b');
      await store.append(a, [{ type: 'Before', data: 0 }]);
      const entries = [
        { streamId: a, events: [{ id: randomUUID(), type: 'A1', data: 1 }] },
        {
          streamId: b,
          events: [
            { id: randomUUID(), type: 'B1', data: 2 },
            { id: randomUUID(), type: 'B2', data: 3 },
          ],
        },
        { streamId: a, events: [{ id: randomUUID(), type: 'A2', data: 4 }] },
      ];
      // Per entry, its events' positions, each stored or (true) a duplicate.
      const positions = (results: AppendResult[]) =>
        results.map((r) => r.events.map((e) => [e.streamPosition, e.duplicate]));
      const stored = (duplicate: boolean) => [
        [[2, duplicate]],
        [
          [1, duplicate],
          [2, duplicate],
        ],
        [[3, duplicate]],
      ];
      const results = await store.appendMany(entries);
      expect(positions(results)).toEqual(stored(false));
      expect(results.map((r) => r.nextExpectedVersion)).toEqual([3, 2, 3]);
      expect((await store.readStream(a)).map((e) => e.type)).toEqual(['Before', 'A1', 'A2']);
      expect((await store.readStream(b)).map((e) => e.type)).toEqual(['B1', 'B2']);

      // The same call again (a retry after a lost reply): the stored positions, all duplicates, nothing new.
      const again = await store.appendMany(entries);
      expect(positions(again)).toEqual(stored(true));
      expect(await store.readStream(a)).toHaveLength(3);
      expect(await store.readStream(b)).toHaveLength(2);

      // Part retry, part new: the stored one keeps its place, the new one goes at the stream's end.
      const [partly] = await store.appendMany([
        { streamId: a, events: [entries[0].events[0], { id: randomUUID(), type: 'A3', data: 6 }] },
      ]);
      expect(partly.events.map((e) => [e.streamPosition, e.duplicate])).toEqual([
        [2, true],
        [4, false],
      ]);
      expect(partly.nextExpectedVersion).toBe(4);
      expect((await store.readStream(a)).map((e) => e.type)).toEqual(['Before', 'A1', 'A2', 'A3']);

      // In a caller's transaction it rolls back with it.
      const c = unique('many-c');
      await expect(
        db.transaction(async (tx) => {
          await store.appendMany([{ streamId: c, events: [{ type: 'C', data: 5 }] }], { tx });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await store.readStream(c)).toEqual([]);
    });

    it("appends one event to each of many streams in a caller's transaction: retries, stream ends, a racing appender", async () => {
      const [fresh, old, retried, raced] = ['fresh', 'old', 'retried', 'raced'].map((n) => unique(`distinct-${n}`));
      await store.append(old, [{ type: 'Before', data: 0 }]);
      const retry = { id: randomUUID(), type: 'R', data: 1 };
      await store.append(retried, [{ type: 'Before', data: 0 }, retry]);
      // Another appender holds the raced stream's lock until it commits: the batch waits for it, then goes after.
      const held = deferred();
      const lockTaken = deferred();
      const racer = db.transaction(async (tx) => {
        await store.append(raced, [{ type: 'Racer', data: 0 }], { tx });
        lockTaken.resolve();
        await held.promise;
      });
      await lockTaken.promise;
      const batch = db.transaction((tx) =>
        store.appendMany(
          [
            { streamId: fresh, events: [{ type: 'F', data: 1 }] },
            { streamId: old, events: [{ type: 'O', data: 2 }] },
            { streamId: retried, events: [retry] },
            { streamId: raced, events: [{ type: 'X', data: 3 }] },
          ],
          { tx },
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      held.resolve();
      await racer;
      const results = await batch;
      expect(results.map((r) => [r.events.map((e) => [e.streamPosition, e.duplicate]), r.nextExpectedVersion])).toEqual(
        [
          [[[1, false]], 1],
          [[[2, false]], 2],
          [[[2, true]], 2],
          [[[2, false]], 2],
        ],
      );
      expect((await store.readStream(raced)).map((e) => e.type)).toEqual(['Racer', 'X']);
      expect((await store.readStream(retried)).map((e) => e.type)).toEqual(['Before', 'R']);
      // Rolled back with the caller's transaction.
      const gone = unique('distinct-gone');
      await expect(
        db.transaction(async (tx) => {
          await store.appendMany(
            [
              { streamId: gone, events: [{ type: 'G', data: 1 }] },
              { streamId: fresh, events: [{ type: 'G', data: 2 }] },
            ],
            { tx },
          );
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await store.readStream(gone)).toEqual([]);
      expect(await store.readStream(fresh)).toHaveLength(1);
    });

    it('commits concurrent appends together, each caller getting its own positions, ids and trace', async () => {
      const streams = [unique('group-a'), unique('group-b'), unique('group-c')];
      const calls = Array.from({ length: 60 }, (_, i) => ({
        streamId: streams[i % 3],
        events: [{ id: randomUUID(), type: 'Grouped', data: { i }, metadata: { correlation_id: `c-${i}` } }],
      }));
      const results = await Promise.all(calls.map((c) => store.append(c.streamId, c.events)));
      // Some went in one transaction: concurrent appends were gathered (a lone one goes alone).
      const stored = await Promise.all(streams.map((s) => store.readStream(s)));
      const transactions = new Set(stored.flat().map((e) => e.transactionId));
      expect(transactions.size).toBeLessThan(60);
      for (const [k, events] of stored.entries()) {
        // Every append of the stream, at positions 1..20 (concurrent calls promise no order among themselves).
        expect(events.map((e) => e.streamPosition)).toEqual(Array.from({ length: 20 }, (_, j) => j + 1));
        expect(events.map((e) => (e.data as { i: number }).i).sort((x, y) => x - y)).toEqual(
          Array.from({ length: 20 }, (_, j) => j * 3 + k),
        );
      }
      const byId = new Map(stored.flat().map((e) => [e.id, e]));
      calls.forEach((c, i) => {
        const [result] = results[i].events;
        const event = byId.get(c.events[0].id)!;
        expect(result).toEqual({
          id: c.events[0].id,
          streamPosition: event.streamPosition,
          globalPosition: event.globalPosition,
          duplicate: false,
        });
        expect(results[i].nextExpectedVersion).toBeGreaterThanOrEqual(event.streamPosition);
        expect(event.metadata.correlation_id).toBe(`c-${i}`);
      });
    });

    it('stores a repeated id once when the repeats arrive together, and answers each caller', async () => {
      const stream = unique('group-retry');
      const id = randomUUID();
      const results = await Promise.all(
        Array.from({ length: 8 }, () => store.append(stream, [{ id, type: 'Once', data: 1 }])),
      );
      expect(await store.readStream(stream)).toHaveLength(1);
      expect(results.map((r) => r.events[0].streamPosition)).toEqual(Array(8).fill(1));
      expect(results.filter((r) => !r.events[0].duplicate)).toHaveLength(1);
    });

    it('fails only the append the database refuses, not the ones committed with it', async () => {
      const stream = unique('group-refused');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) =>
          // jsonb refuses a NUL character.
          store.append(stream, [{ type: 'Maybe', data: i === 5 ? { text: 'nul \u0000' } : { i } }]),
        ),
      );
      expect(outcomes.map((o) => o.status)).toEqual(outcomes.map((_, i) => (i === 5 ? 'rejected' : 'fulfilled')));
      const stored = await store.readStream(stream);
      expect(stored.map((e) => (e.data as { i: number }).i).sort((x, y) => x - y)).toEqual([
        0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11,
      ]);
      expect(stored.map((e) => e.streamPosition)).toEqual(Array.from({ length: 11 }, (_, j) => j + 1));
    });

    // Last: the rows below sort before every other event of this database.
    it('orders by transaction id as a number, also where ids gain a digit', async () => {
      // Ids of long-finished transactions, written directly: text order would put 10 before 8 and 100 before 99.
      const stream = unique('digits');
      const ids = ['8', '9', '10', '99', '100'];
      for (const [i, transactionId] of ids.entries()) {
        await db.query(
          `INSERT INTO eventstore.events (transaction_id, stream_id, stream_position, event_id, event_type, data)
           VALUES ($1::xid8, $2, $3, $4, 'Digit', '{}')`,
          [transactionId, stream, i + 1, randomUUID()],
        );
      }
      const last = (await store.append(unique('after-digits'), [{ type: 'Last', data: {} }])).events[0];

      const seen: RecordedEvent[] = [];
      let checkpoint = null as Awaited<ReturnType<EventStore['readAll']>>['checkpoint'];
      const until = Date.now() + 10_000;
      while (seen.at(-1)?.id !== last.id && Date.now() < until) {
        const page = await store.readAll(checkpoint, 2);
        if (page.events.length === 0) await new Promise((r) => setTimeout(r, 20));
        seen.push(...page.events);
        checkpoint = page.checkpoint;
      }
      expect(seen.filter((e) => e.streamId === stream).map((e) => e.transactionId)).toEqual(ids);
      expect(seen.at(-1)?.id).toBe(last.id);

      // caughtUp() waits for the last event in commit order, not for the last in text order ('99').
      const delivered: string[] = [];
      const subscription = store.subscribe(unique('digits-consumer'), async (events) => {
        delivered.push(...events.map((e) => e.id));
      });
      await subscription.caughtUp();
      await subscription.stop();
      expect(delivered.at(-1)).toBe(last.id);
    });
  });
}

/** The checkpoint after everything committed so far. */
async function lastCheckpoint(store: EventStore) {
  let checkpoint = null as Awaited<ReturnType<EventStore['readAll']>>['checkpoint'];
  for (;;) {
    const page = await store.readAll(checkpoint, 1_000);
    if (page.events.length === 0) return checkpoint;
    checkpoint = page.checkpoint;
  }
}

/** Waits for `check` to hold, for at most `ms` (commit-order reads can trail an append by a moment). */
async function waitUntil(check: () => Promise<boolean>, ms = 10_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The events of streams starting with `prefix` readable after `from`, in commit order. */
async function ourEvents(
  store: EventStore,
  from: Awaited<ReturnType<EventStore['readAll']>>['checkpoint'],
  prefix: string,
) {
  const ours: RecordedEvent[] = [];
  let checkpoint = from;
  for (;;) {
    const page = await store.readAll(checkpoint, 1_000);
    if (page.events.length === 0) return ours;
    ours.push(...page.events.filter((e) => e.streamId.startsWith(prefix)));
    checkpoint = page.checkpoint;
  }
}
