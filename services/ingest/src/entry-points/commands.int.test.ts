// The ingest handlers against a real database and the event store: what a post, a re-post, an invalid post,
// an IMO-0 post and delete/restore leave in `vessel-<imo>` and in `ingest.vessels`. The data source (API key 3)
// has a weight for every pair of the Gävle template, as an operator sets before a source goes live; admission
// and the priorities commands are in priorities.int.test.ts.

import { loadConfig } from '@pcas/config';
import { type ApiError, INGEST, IngestCommands, type PostTimestampCommand, vesselStream } from '@pcas/contracts';
import { createEventStore, type EventStore } from '@pcas/eventstore';
import { createInProcessBus } from '@pcas/messaging';
import { createLogger } from '@pcas/observability';
import { templatePairs } from '@pcas/s211';
import type { Db, Queryable } from '@pcas/sql';
import { pollUntil, rejected, waitFor } from '@pcas/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureSchema } from '../adapters/schema.ts';
import { insertFakeImoVessel, lockVesselName } from '../adapters/vessels.ts';
import { type IngestDatabase, useIngest } from '../testing/database.ts';
import { createIngestCommands, type IngestCommandHandlers } from './commands.ts';
import { startIngest } from './service.ts';

const NOW = new Date('2026-05-11T12:30:40Z');
const log = createLogger('ingest-test', 'silent');
const agent = { user_id: 7, api_key_id: 3 };
const person = { user_id: 12, api_key_id: null };

const timestamp = (overrides: Partial<PostTimestampCommand> = {}): PostTimestampCommand => ({
  imo: 9074729,
  vessel_name: 'Ever Given',
  time_type: 'Estimated',
  state: 'Arrival_Vessel_PortArea',
  time: '2026-05-12T08:00:00+03:00',
  payload: { source: 'test', external_id: 'A-1' },
  manual: false,
  ...overrides,
});

let database: IngestDatabase;
let db: Db;
let store: EventStore;
let ingest: IngestCommandHandlers;
useIngest('pcas_ingest', { pool: { applicationName: 'ingest-test' }, now: NOW, log }, async (made) => {
  ({ database, db, store, ingest } = made);
  await ensureSchema(db); // a second start changes nothing
  for (const { time_type, state } of templatePairs('gavle')!) {
    await ingest.setTimestampApiKeyWeights({
      actor: person,
      input: { time_type, state, api_key_ids: [agent.api_key_id] },
    });
  }
});

const handlers = () => createIngestCommands({ db, store, log, namespace: 'gavle', now: () => NOW });
const streamOf = (imo: number) => store.readStream(vesselStream(imo));
const vesselRow = async (imo: number) =>
  (await db.query('SELECT * FROM ingest.vessels WHERE imo = $1', [imo])).rows[0] as Record<string, unknown> | undefined;

const rejection = (promise: Promise<unknown>) => rejected<ApiError>(promise);

describe('postTimestamp', () => {
  let firstId: number;

  it('registers a new vessel and records the timestamp in vessel-<imo>, with who did it', async () => {
    const reply = await ingest.postTimestamp({ actor: agent, input: timestamp() });
    expect(reply).toEqual({ result: 'OK', id: expect.any(Number) });
    firstId = reply.id;

    const events = await streamOf(9074729);
    expect(events.map((e) => e.type)).toEqual(['VesselRegistered', 'TimestampReceived']);
    expect(events[0].data).toEqual({ imo: 9074729, vessel_name: 'Ever Given' });
    expect(events[1].data).toEqual({
      imo: 9074729,
      vessel_name: 'Ever Given',
      time_type: 'Estimated',
      state: 'Arrival_Vessel_PortArea',
      time: '2026-05-12T05:00:00+00:00',
      payload: { source: 'test', external_id: 'A-1' },
      source: 'api_key',
      api_key_id: 3,
      user_id: 7,
      weight: 1,
    });
    for (const e of events) expect(e.metadata).toMatchObject({ user_id: 7, api_key_id: 3 });
    expect(events[1].globalPosition).toBe(reply.id);
    expect((await store.readByGlobalPosition(reply.id))?.type).toBe('TimestampReceived');

    expect(await vesselRow(9074729)).toMatchObject({
      imo: 9074729,
      vessel_name: 'Ever Given',
      visible: true,
      vessel_type: 1,
      created_by: 7,
    });
  });

  it('stores a re-post of the same timestamp once and answers with the same id', async () => {
    const before = await database.eventCount();
    const again = await ingest.postTimestamp({
      actor: person,
      input: timestamp({
        manual: true,
        time: '2026-05-12T05:00:00.000Z',
        payload: '{"external_id":"A-1","source":"test"}',
      }),
    });
    expect(again).toEqual({ result: 'OK', id: firstId });
    // A fresh handler (another process, empty cache) dedupes too.
    expect(await handlers().postTimestamp({ actor: agent, input: timestamp() })).toEqual({ result: 'OK', id: firstId });
    expect(await database.eventCount()).toBe(before);
  });

  it('appends only the timestamp for a known vessel, and uses the stored name when none is given', async () => {
    const reply = await ingest.postTimestamp({
      actor: person,
      input: timestamp({
        vessel_name: '',
        time_type: 'Actual',
        state: 'Arrival_Vessel_Berth',
        time: '2026-05-11T12:35:00Z',
        manual: true,
      }),
    });
    const events = await streamOf(9074729);
    expect(events.map((e) => e.type)).toEqual(['VesselRegistered', 'TimestampReceived', 'TimestampReceived']);
    expect(events[2].globalPosition).toBe(reply.id);
    expect(events[2].data).toMatchObject({
      vessel_name: 'Ever Given',
      source: 'manual',
      user_id: 12,
      api_key_id: null,
      weight: 999,
    });
    expect(events[2].metadata).toMatchObject({ user_id: 12, api_key_id: null });
  });

  it('renames the vessel when a different name arrives, in the stream and the vessels table', async () => {
    await ingest.postTimestamp({
      actor: agent,
      input: timestamp({ vessel_name: 'Ever Given II', state: 'Departure_Vessel_Berth' }),
    });
    const events = await streamOf(9074729);
    expect(events.slice(-2).map((e) => [e.type, e.data])).toEqual([
      ['VesselRenamed', { imo: 9074729, vessel_name: 'Ever Given II', previous_vessel_name: 'Ever Given' }],
      ['TimestampReceived', expect.objectContaining({ vessel_name: 'Ever Given II' })],
    ]);
    expect(await vesselRow(9074729)).toMatchObject({ vessel_name: 'Ever Given II', modified_by: 7 });
  });

  it.each([
    [{ imo: 1234568 }, 'IMO number is not valid (automatic check calculation)'],
    [{ imo: 123 }, 'IMO length should 7 digits or IMO should be 0'],
    [{ imo: 0, vessel_name: '' }, 'IMO is 0 and vessel name is empty.'],
    [
      { time_type: 'Guess' },
      'Timestamp time type is not valid: Guess. Should be one of: Planned, Estimated, Actual, Recommended, Required',
    ],
    [{ state: 'Nowhere' }, 'Timestamp state is not valid: Nowhere. Should be one of: '],
    [{ time: '2026-02-30T10:00:00Z' }, 'Invalid date format: 2026-02-30T10:00:00Z. Use format '],
    [
      { time_type: 'Actual', time: '2026-05-11T12:41:41Z' },
      'Time type is actual, but time is in future. Now: 2026-05-11T12:30:40+00:00, Time: 2026-05-11T12:41:41+00:00',
    ],
    [{ payload: 'nope' }, 'Invalid payload'],
    [{ imo: 1234567, payload: [1] }, 'Invalid payload'],
  ] as [Partial<PostTimestampCommand>, string][])(
    'refuses %j with 400 and appends nothing',
    async (overrides, message) => {
      const before = await database.eventCount();
      const error = await rejection(ingest.postTimestamp({ actor: agent, input: timestamp(overrides) }));
      expect(error.status).toBe(400);
      expect(error.message.startsWith(message)).toBe(true);
      expect(await database.eventCount()).toBe(before);
      expect(await vesselRow(1234567)).toBeUndefined();
    },
  );

  it('IMO 0: creates the vessel under a fake IMO, then finds it by case-insensitive name', async () => {
    const first = await ingest.postTimestamp({
      actor: agent,
      input: timestamp({ imo: 0, vessel_name: 'Nameless One' }),
    });
    const { rows } = await db.query<{ id: number; imo: number }>(
      "SELECT id, imo FROM ingest.vessels WHERE vessel_name = 'Nameless One'",
    );
    expect(rows).toHaveLength(1);
    const fake = rows[0].imo;
    expect(fake).toBe(100_000_000 + rows[0].id);

    let events = await streamOf(fake);
    expect(events.map((e) => e.type)).toEqual(['VesselRegistered', 'TimestampReceived']);
    expect(events[0].data).toEqual({ imo: fake, vessel_name: 'Nameless One' });
    expect(events[1]).toMatchObject({ globalPosition: first.id, data: { imo: fake, vessel_name: 'Nameless One' } });

    // Another process (empty cache), other case: same vessel, stored name, no second registration.
    await handlers().postTimestamp({
      actor: agent,
      input: timestamp({ imo: 0, vessel_name: 'NAMELESS ONE', state: 'CargoOp_Completed' }),
    });
    events = await streamOf(fake);
    expect(events.map((e) => e.type)).toEqual(['VesselRegistered', 'TimestampReceived', 'TimestampReceived']);
    expect(events[2].data).toMatchObject({ imo: fake, vessel_name: 'Nameless One', state: 'CargoOp_Completed' });
    expect((await db.query("SELECT 1 FROM ingest.vessels WHERE lower(vessel_name) = 'nameless one'")).rowCount).toBe(1);
  });

  it('IMO 0: a name of a vessel with a real IMO posts to that vessel', async () => {
    const reply = await ingest.postTimestamp({
      actor: agent,
      input: timestamp({ imo: 0, vessel_name: 'ever given ii', state: 'Pilotage_Commenced' }),
    });
    const event = await store.readByGlobalPosition(reply.id);
    expect(event).toMatchObject({ streamId: 'vessel-9074729', data: { imo: 9074729, vessel_name: 'Ever Given II' } });
  });

  it('a stale cache never leaves a wrong name: the handler notices the missed rename and renames back', async () => {
    const a = handlers();
    const b = handlers();
    await a.postTimestamp({ actor: agent, input: timestamp({ imo: 1234567, vessel_name: 'Alpha' }) });
    await b.postTimestamp({
      actor: agent,
      input: timestamp({ imo: 1234567, vessel_name: 'Beta', state: 'CargoOp_Completed' }),
    });
    // a still believes the vessel is "Alpha": its timestamp goes in at once (no version needed), then a sees
    // that the stream moved, catches up, and renames the vessel back from "Beta".
    await a.postTimestamp({
      actor: agent,
      input: timestamp({ imo: 1234567, vessel_name: 'Alpha', state: 'Departure_Vessel_Berth' }),
    });
    const events = await streamOf(1234567);
    expect(events.map((e) => e.type)).toEqual([
      'VesselRegistered',
      'TimestampReceived',
      'VesselRenamed',
      'TimestampReceived',
      'TimestampReceived',
      'VesselRenamed',
    ]);
    expect(events[5].data).toEqual({ imo: 1234567, vessel_name: 'Alpha', previous_vessel_name: 'Beta' });
    expect(events.map((e) => e.streamPosition)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await vesselRow(1234567)).toMatchObject({ vessel_name: 'Alpha' });
  });

  it('many concurrent posts for one known vessel all succeed, each stored once', async () => {
    const h = handlers();
    await h.postTimestamp({ actor: agent, input: timestamp({ imo: 9295347, vessel_name: 'Delta' }) });
    const replies = await Promise.all(
      Array.from({ length: 32 }, (_, i) =>
        handlers().postTimestamp({
          actor: agent,
          input: timestamp({ imo: 9295347, vessel_name: 'Delta', payload: { n: i } }),
        }),
      ),
    );
    expect(new Set(replies.map((r) => r.id)).size).toBe(32);
    const events = await streamOf(9295347);
    expect(events.filter((e) => e.type === 'TimestampReceived')).toHaveLength(33);
    expect(events.filter((e) => e.type.startsWith('Vessel'))).toHaveLength(1);
  });

  it('concurrent first posts of one vessel from several processes register it once', async () => {
    const posts = ['Estimated', 'Planned', 'Actual', 'Recommended'].map((timeType, i) =>
      handlers().postTimestamp({
        actor: agent,
        input: timestamp({ imo: 9201827, vessel_name: 'Gamma', time_type: timeType, time: `2026-05-11T1${i}:00:00Z` }),
      }),
    );
    const replies = await Promise.all(posts);
    expect(new Set(replies.map((r) => r.id)).size).toBe(4);
    const events = await streamOf(9201827);
    expect(events.filter((e) => e.type === 'VesselRegistered')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'TimestampReceived')).toHaveLength(4);
    expect((await db.query('SELECT 1 FROM ingest.vessels WHERE imo = 9201827')).rowCount).toBe(1);
  });

  it('concurrent IMO-0 posts of one new name create one vessel', async () => {
    const replies = await Promise.all(
      ['Planned', 'Estimated', 'Recommended'].map((timeType) =>
        handlers().postTimestamp({
          actor: agent,
          input: timestamp({ imo: 0, vessel_name: 'Drifter', time_type: timeType }),
        }),
      ),
    );
    const { rows } = await db.query<{ imo: number }>(
      "SELECT imo FROM ingest.vessels WHERE lower(vessel_name) = 'drifter'",
    );
    expect(rows).toHaveLength(1);
    const events = await streamOf(rows[0].imo);
    expect(events.map((e) => e.type).sort()).toEqual([
      'TimestampReceived',
      'TimestampReceived',
      'TimestampReceived',
      'VesselRegistered',
    ]);
    expect(replies.map((r) => r.id).sort()).toEqual(
      events
        .filter((e) => e.type === 'TimestampReceived')
        .map((e) => e.globalPosition)
        .sort(),
    );
  });
  it('IMO 0: a registration waits for one of the same name in flight, then posts to that vessel', async () => {
    // Needs a second connection to hold the lock meanwhile; PGlite has one.
    if (db.kind !== 'postgres') return;
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let otherImo = 0;
    const other = db.transaction(async (tx) => {
      await lockVesselName(tx, 'Racer');
      const imo = await insertFakeImoVessel(tx, 'Racer', 1);
      await store.append(vesselStream(imo), [{ type: 'VesselRegistered', data: { imo, vessel_name: 'Racer' } }], {
        expectedVersion: 'no_stream',
        tx,
      });
      otherImo = imo;
      await released;
    });
    await waitFor(() => otherImo !== 0);
    const post = handlers().postTimestamp({ actor: agent, input: timestamp({ imo: 0, vessel_name: 'racer' }) });
    const waiting = await pollUntil(
      // This database's locks only: pg_locks shows the whole cluster's (other test files run beside this one).
      async () =>
        (
          await db.query(
            `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
              AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
          )
        ).rowCount > 0,
      (held) => held,
    );
    release();
    await other;
    const reply = await post;
    expect(waiting).toBe(true);
    expect((await db.query("SELECT 1 FROM ingest.vessels WHERE lower(vessel_name) = 'racer'")).rowCount).toBe(1);
    expect(await store.readByGlobalPosition(reply.id)).toMatchObject({
      streamId: vesselStream(otherImo),
      data: { imo: otherImo, vessel_name: 'Racer' },
    });
  });
});

describe('postTimestamps (a batch of posts)', () => {
  const item = (actor: typeof agent | typeof person, input: PostTimestampCommand) => ({ body: { actor, input } });

  it('answers each post as if it came alone, in order, and stores each once', async () => {
    const h = handlers();
    // Known and cached: takes the one-append path together with the others.
    await h.postTimestamp({ actor: agent, input: timestamp({ imo: 9310006, vessel_name: 'Batch One' }) });
    const before = await database.eventCount();
    const replies = await h.postTimestamps({
      items: [
        item(agent, timestamp({ imo: 9310006, vessel_name: 'Batch One', payload: { n: 1 } })),
        item(agent, timestamp({ imo: 1234, vessel_name: 'Broken' })),
        item({ user_id: 7, api_key_id: 99 }, timestamp({ imo: 9310006, vessel_name: 'Batch One', payload: { n: 2 } })),
        item(agent, timestamp({ imo: 9310018, vessel_name: 'Batch Two' })),
        item(agent, timestamp({ imo: 9310006, vessel_name: 'Batch One', payload: { n: 1 } })),
        item(person, timestamp({ imo: 9310006, vessel_name: 'Batch One', payload: { n: 3 }, manual: true })),
        item(agent, timestamp({ imo: 0, vessel_name: 'Batch Nameless' })),
        item(agent, timestamp({ imo: 9310006, vessel_name: 'Batch One Renamed', payload: { n: 4 } })),
      ],
    });
    expect(replies.map((r) => (r.ok ? 'OK' : `${r.status} ${r.error}`))).toEqual([
      'OK',
      '400 IMO length should 7 digits or IMO should be 0',
      '403 No permission to post given timestamp data',
      'OK',
      'OK',
      'OK',
      'OK',
      'OK',
    ]);
    const ok = replies.filter((r) => r.ok).map((r) => (r as { result: { id: number } }).result.id);
    // The repeat of item 1 is the same stored timestamp.
    expect(ok[0]).toBe(ok[2]);
    // Stored: n=1 once, n=3, the rename's timestamp; the new vessel (registration + timestamp); the nameless
    // vessel (registration + timestamp); the rename event.
    const one = await streamOf(9310006);
    expect(
      one.filter((e) => e.type === 'TimestampReceived').map((e) => (e.data as { payload: unknown }).payload),
    ).toEqual([{ source: 'test', external_id: 'A-1' }, { n: 1 }, { n: 3 }, { n: 4 }]);
    expect(one.filter((e) => e.type === 'VesselRenamed')).toHaveLength(1);
    expect((await streamOf(9310018)).map((e) => e.type)).toEqual(['VesselRegistered', 'TimestampReceived']);
    expect(await database.eventCount()).toBe(before + 8);
    // Positions follow the stream's order with no gap, whatever path each post took.
    expect(one.map((e) => e.streamPosition)).toEqual(one.map((_, i) => i + 1));
  });

  it("a new vessel's posts in one batch: registered with all its posts in one append, in order", async () => {
    // Counting the store's calls: run at once, each post would try to register the vessel (one append each, the
    // losers again after catching up).
    const calls = { append: 0, appendMany: 0 };
    const counted: EventStore = {
      ...store,
      append: (...args) => {
        calls.append++;
        return store.append(...args);
      },
      appendMany: (...args) => {
        calls.appendMany++;
        return store.appendMany(...args);
      },
    };
    const h = createIngestCommands({ db, store: counted, log, namespace: 'gavle', now: () => NOW });
    const replies = await h.postTimestamps({
      items: [1, 2, 3].map((n) => item(agent, timestamp({ imo: 9310020, vessel_name: 'Batch New', payload: { n } }))),
    });
    expect(replies.map((r) => r.ok)).toEqual([true, true, true]);
    const stream = await streamOf(9310020);
    expect(stream.map((e) => e.type)).toEqual([
      'VesselRegistered',
      'TimestampReceived',
      'TimestampReceived',
      'TimestampReceived',
    ]);
    expect(stream.slice(1).map((e) => (e.data as { payload: { n: number } }).payload.n)).toEqual([1, 2, 3]);
    expect(replies.map((r) => (r as { result: { id: number } }).result.id)).toEqual(
      stream.slice(1).map((e) => e.globalPosition),
    );
    expect(calls).toEqual({ append: 0, appendMany: 1 });
  });

  it('registers the new vessels of one batch in one transaction, each with its timestamps in order', async () => {
    const h = handlers();
    const imos = [9310056, 9310032, 9310044];
    const replies = await h.postTimestamps({
      items: [
        ...imos.map((imo) => item(agent, timestamp({ imo, vessel_name: `Fleet ${imo}`, payload: { n: 1 } }))),
        item(agent, timestamp({ imo: 9310032, vessel_name: 'Fleet 9310032', payload: { n: 2 } })),
      ],
    });
    expect(replies.map((r) => r.ok)).toEqual([true, true, true, true]);
    const streams = await Promise.all(imos.map(streamOf));
    for (const [i, stream] of streams.entries()) {
      expect(stream.map((e) => e.type)).toEqual(
        imos[i] === 9310032
          ? ['VesselRegistered', 'TimestampReceived', 'TimestampReceived']
          : ['VesselRegistered', 'TimestampReceived'],
      );
      expect((replies[i] as { result: { id: number } }).result.id).toBe(stream[1].globalPosition);
    }
    // One transaction wrote the three registrations.
    expect(new Set(streams.map((stream) => stream[0].transactionId)).size).toBe(1);
    const rows = await db.query('SELECT imo, vessel_name FROM ingest.vessels WHERE imo = ANY($1) ORDER BY imo', [imos]);
    expect(rows.rows.map((r) => [Number(r.imo), r.vessel_name])).toEqual([
      [9310032, 'Fleet 9310032'],
      [9310044, 'Fleet 9310044'],
      [9310056, 'Fleet 9310056'],
    ]);
  });

  it("a new vessel's repeat goes along as a duplicate and its rename after, in one transaction and few statements", async () => {
    let statements = 0;
    const counting = (q: Queryable): Queryable => ({
      query: (text, params) => {
        statements++;
        return q.query(text, params);
      },
    });
    const countedDb: Db = Object.assign(Object.create(db) as Db, {
      query: counting(db).query,
      transaction: <T>(fn: (tx: Queryable) => Promise<T>) => {
        statements += 2; // BEGIN, COMMIT
        return db.transaction((tx) => fn(counting(tx)));
      },
    });
    const h = createIngestCommands({
      db: countedDb,
      store: createEventStore(countedDb, { notifyIntervalMs: -1 }),
      log,
      namespace: 'gavle',
      now: () => NOW,
    });
    const replies = await h.postTimestamps({
      items: [
        item(agent, timestamp({ imo: 9310082, vessel_name: 'Group A', payload: { n: 1 } })),
        item(agent, timestamp({ imo: 9310094, vessel_name: 'Group B', payload: { n: 1 } })),
        item(agent, timestamp({ imo: 9310082, vessel_name: 'Group A', payload: { n: 1 } })),
        item(agent, timestamp({ imo: 9310082, vessel_name: 'Group A2', payload: { n: 2 } })),
        item(agent, timestamp({ imo: 9310082, vessel_name: '', payload: { n: 3 } })),
        item(agent, timestamp({ imo: 9310094, vessel_name: 'Group B', payload: { n: 2 } })),
      ],
    });
    expect(replies.map((r) => r.ok)).toEqual([true, true, true, true, true, true]);
    const ids = replies.map((r) => (r as { result: { id: number } }).result.id);
    const a = await streamOf(9310082);
    const b = await streamOf(9310094);
    // Item 3 repeats item 1; item 5 (no name) goes with the registration, the rename (item 4) after it, as when
    // the first post registers the vessel and the others follow decided against it.
    expect(a.map((e) => e.type)).toEqual([
      'VesselRegistered',
      'TimestampReceived',
      'TimestampReceived',
      'VesselRenamed',
      'TimestampReceived',
    ]);
    expect(
      a.filter((e) => e.type === 'TimestampReceived').map((e) => (e.data as { payload: unknown }).payload),
    ).toEqual([{ n: 1 }, { n: 3 }, { n: 2 }]);
    expect(ids[0]).toBe(a[1].globalPosition);
    expect(ids[2]).toBe(a[1].globalPosition);
    expect(ids[4]).toBe(a[2].globalPosition);
    expect(ids[3]).toBe(a[4].globalPosition);
    expect(b.map((e) => e.type)).toEqual(['VesselRegistered', 'TimestampReceived', 'TimestampReceived']);
    expect([ids[1], ids[5]]).toEqual([b[1].globalPosition, b[2].globalPosition]);
    // Both registrations and their posts in one transaction.
    expect(new Set([...a.slice(0, 3), ...b].map((e) => e.transactionId)).size).toBe(1);
    expect((await vesselRow(9310082))?.vessel_name).toBe('Group A2');
    expect((await vesselRow(9310094))?.vessel_name).toBe('Group B');
    // The key's weights, the vessels looked up, BEGIN, one append, the rows with the sea chart's lock, its
    // refresh, COMMIT; then the rename on the single path (BEGIN, append, row with lock, refresh, COMMIT).
    expect(statements).toBe(7 + 5);
  });

  it('the same batch of new vessels from several processes at once: each vessel registered once, each post once', async () => {
    const imos = [9310109, 9310111, 9310123];
    const batch = () => ({
      items: imos.flatMap((imo) =>
        [1, 2, 3].map((n) =>
          item(person, timestamp({ imo, vessel_name: `Race ${imo}`, payload: { n }, manual: true })),
        ),
      ),
    });
    const all = await Promise.all([1, 2, 3].map(() => handlers().postTimestamps(batch())));
    for (const replies of all) expect(replies.every((r) => r.ok)).toBe(true);
    const ids = all.map((replies) => replies.map((r) => (r as { result: { id: number } }).result.id));
    // Whoever stored a post first, every process answers with its id.
    expect(ids[1]).toEqual(ids[0]);
    expect(ids[2]).toEqual(ids[0]);
    for (const [i, imo] of imos.entries()) {
      const stream = await streamOf(imo);
      expect(stream.map((e) => e.type)).toEqual([
        'VesselRegistered',
        'TimestampReceived',
        'TimestampReceived',
        'TimestampReceived',
      ]);
      expect(ids[0]!.slice(i * 3, i * 3 + 3)).toEqual(stream.slice(1).map((e) => e.globalPosition));
    }
    expect((await db.query('SELECT 1 FROM ingest.vessels WHERE imo = ANY($1)', [imos])).rowCount).toBe(3);
  });

  it('falls back to one by one when a vessel of the batch was registered meanwhile, registering none twice', async () => {
    // A stream whose row is not there yet: the batch's "no stream" append meets it and the transaction rolls back.
    await store.append(
      vesselStream(9310068),
      [{ type: 'VesselRegistered', data: { imo: 9310068, vessel_name: 'Early' } }],
      {
        expectedVersion: 'no_stream',
      },
    );
    const replies = await handlers().postTimestamps({
      items: [9310068, 9310070].map((imo) => item(agent, timestamp({ imo, vessel_name: `Late ${imo}` }))),
    });
    expect(replies.map((r) => r.ok)).toEqual([true, true]);
    expect((await streamOf(9310068)).filter((e) => e.type === 'VesselRegistered')).toHaveLength(1);
    expect((await streamOf(9310070)).map((e) => e.type)).toEqual(['VesselRegistered', 'TimestampReceived']);
  });

  it('refuses a malformed batch as a whole and stores nothing', async () => {
    const h = handlers();
    const before = await database.eventCount();
    for (const payload of [{}, { items: [] }, { items: 'x' }, { items: Array.from({ length: 257 }, () => ({})) }]) {
      expect((await rejection(h.postTimestamps(payload))).message).toBe('Invalid command');
    }
    expect(await database.eventCount()).toBe(before);
  });
});

describe('deleteTimestamp / restoreTimestamp', () => {
  let id: number;

  beforeAll(async () => {
    id = (await ingest.postTimestamp({ actor: agent, input: timestamp({ imo: 9321483, vessel_name: 'Delta' }) })).id;
  });

  const trashEvents = async () =>
    (await streamOf(9321483)).filter((e) => e.type === 'TimestampDeleted' || e.type === 'TimestampRestored');

  it('deletes once; deleting again changes nothing and still succeeds', async () => {
    expect(await ingest.deleteTimestamp({ actor: person, input: { id } })).toBe(true);
    expect(await ingest.deleteTimestamp({ actor: person, input: { id } })).toBe(true);
    const events = await trashEvents();
    expect(events.map((e) => [e.type, e.data])).toEqual([['TimestampDeleted', { timestamp_id: id }]]);
    expect(events[0].metadata).toMatchObject({ user_id: 12, api_key_id: null });
  });

  it('restores once; restoring a present one changes nothing', async () => {
    expect(await ingest.restoreTimestamp({ actor: person, input: { id } })).toBe(true);
    expect(await ingest.restoreTimestamp({ actor: person, input: { id } })).toBe(true);
    expect((await trashEvents()).map((e) => e.type)).toEqual(['TimestampDeleted', 'TimestampRestored']);
  });

  it('the same post after a delete/restore still appends to the right version', async () => {
    await ingest.postTimestamp({
      actor: agent,
      input: timestamp({ imo: 9321483, vessel_name: 'Delta', state: 'CargoOp_Completed' }),
    });
    expect((await streamOf(9321483)).map((e) => e.streamPosition)).toEqual([1, 2, 3, 4, 5]);
  });

  it('refuses ids that are not timestamps', async () => {
    const registered = (await streamOf(9321483))[0];
    for (const bad of [registered.globalPosition, 987654321]) {
      const error = await rejection(ingest.deleteTimestamp({ actor: person, input: { id: bad } }));
      expect([error.status, error.message]).toEqual([400, `Invalid timestamp id: ${bad}`]);
      expect((await rejection(ingest.restoreTimestamp({ actor: person, input: { id: bad } }))).status).toBe(400);
    }
    expect((await rejection(ingest.deleteTimestamp({ actor: person, input: { id: 'x' } }))).message).toBe(
      'Invalid timestamp id: x',
    );
    expect(await trashEvents()).toHaveLength(2);
  });
});

describe('startIngest over the bus', () => {
  it('serves cmd.ingest: commands in, replies and ApiErrors out', async () => {
    const bus = createInProcessBus({ log });
    const config = loadConfig({}, { namespace: 'gavle' });
    const service = await startIngest({ config, db, store, bus, log });
    try {
      const reply = await bus.rpc<{ result: string; id: number }>(INGEST, IngestCommands.postTimestamp, {
        actor: agent,
        input: timestamp({ imo: 9074729, vessel_name: '', state: 'CargoOp_Completed' }),
      });
      expect(reply).toMatchObject({ result: 'OK', id: expect.any(Number) });
      expect(await bus.rpc(INGEST, IngestCommands.deleteTimestamp, { actor: person, input: { id: reply.id } })).toBe(
        true,
      );
      const refused = await rejection(
        bus.rpc(INGEST, IngestCommands.postTimestamp, { actor: agent, input: timestamp({ state: 'x' }) }),
      );
      expect(refused.status).toBe(400);
      expect(refused.message).toMatch(/^Timestamp state is not valid: x\./);
      expect((await rejection(bus.rpc(INGEST, 'launchRockets', { actor: agent, input: {} }))).status).toBe(400);
      const malformed = await rejection(bus.rpc(INGEST, IngestCommands.postTimestamp, { actor: agent }));
      expect([malformed.status, malformed.message]).toEqual([400, 'Invalid command']);
    } finally {
      await service.stop();
      await bus.close();
    }
  });
});
