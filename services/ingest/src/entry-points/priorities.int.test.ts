// Priorities in ingest against a real database and the event store: the weight commands (events on the
// priorities-* streams, their tables in the same transaction, replace / unchanged / empty-list semantics, bad
// input changing nothing, concurrent operators) and admission of timestamps posted with an API key.

import { loadConfig } from '@pcas/config';
import {
  type ApiError,
  INGEST,
  IngestCommands,
  PAYLOAD_KEY_PRIORITIES_STREAM,
  type PostTimestampCommand,
  TIMESTAMP_PRIORITIES_STREAM,
  vesselStream,
} from '@pcas/contracts';
import type { EventStore } from '@pcas/eventstore';
import { createInProcessBus } from '@pcas/messaging';
import { createLogger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import { rejected } from '@pcas/testing';
import { describe, expect, it } from 'vitest';
import { type IngestDatabase, useIngest } from '../testing/database.ts';
import { createIngestCommands, type IngestCommandHandlers } from './commands.ts';
import { startIngest } from './service.ts';

const NOW = new Date('2026-05-11T12:30:40Z');
const log = createLogger('ingest-priorities-test', 'silent');
const operator = { user_id: 1, api_key_id: null };
const person = { user_id: 12, api_key_id: null };
const source = (apiKeyId: number) => ({ user_id: 100 + apiKeyId, api_key_id: apiKeyId });

const ETD = { time_type: 'Estimated', state: 'Departure_Vessel_Berth' };
const ETA = { time_type: 'Estimated', state: 'Arrival_Vessel_PortArea' };

const timestamp = (overrides: Partial<PostTimestampCommand> = {}): PostTimestampCommand => ({
  imo: 1234567,
  vessel_name: 'Unikieship',
  ...ETD,
  time: '2026-05-11T12:30:40+00:00',
  payload: [],
  manual: false,
  ...overrides,
});

let database: IngestDatabase;
let db: Db;
let store: EventStore;
let ingest: IngestCommandHandlers;

const streamOf = (id: string) => store.readStream(id);
const timestampWeights = async () =>
  (
    await db.query(
      'SELECT time_type, state, api_key_id, weight, modified_by FROM ingest.timestamp_api_key_weights ORDER BY 1, 2, weight DESC',
    )
  ).rows;
const payloadWeights = async () =>
  (
    await db.query(
      'SELECT payload_key, api_key_id, weight FROM ingest.payload_key_api_key_weights ORDER BY 1, weight DESC',
    )
  ).rows;
const setEtd = (ids: unknown, actor = operator) =>
  ingest.setTimestampApiKeyWeights({ actor, input: { ...ETD, api_key_ids: ids } });

const rejection = (promise: Promise<unknown>) => rejected<ApiError>(promise);

useIngest('pcas_ingest_prio', { pool: { applicationName: 'ingest-prio-test' }, now: NOW, log }, (made) => {
  ({ database, db, store, ingest } = made);
});

describe('setTimestampApiKeyWeights', () => {
  it('sets the ordered list as weights N − index: an event on priorities-timestamps and its rows', async () => {
    expect(await setEtd([2, 1])).toEqual({ result: 'OK' });
    const events = await streamOf(TIMESTAMP_PRIORITIES_STREAM);
    expect(events.map((e) => [e.type, e.data])).toEqual([
      [
        'TimestampApiKeyWeightsSet',
        {
          ...ETD,
          weights: [
            { api_key_id: 2, weight: 2 },
            { api_key_id: 1, weight: 1 },
          ],
        },
      ],
    ]);
    expect(events[0].metadata).toMatchObject({ user_id: 1, api_key_id: null });
    expect(await timestampWeights()).toEqual([
      { ...ETD, api_key_id: 2, weight: 2, modified_by: 1 },
      { ...ETD, api_key_id: 1, weight: 1, modified_by: 1 },
    ]);
  });

  it('the same list again appends nothing and leaves the rows', async () => {
    const before = await database.eventCount();
    expect(await setEtd(['2', 1], person)).toEqual({ result: 'OK' });
    expect(await database.eventCount()).toBe(before);
    expect((await timestampWeights()).map((r) => r.modified_by)).toEqual([1, 1]);
  });

  it('replaces the list (not merged), keeps other pairs, and an empty list deletes the pair', async () => {
    await ingest.setTimestampApiKeyWeights({ actor: operator, input: { ...ETA, api_key_ids: [3] } });
    await setEtd([1, 3, 2]);
    expect((await timestampWeights()).map((r) => [r.state, r.api_key_id, r.weight])).toEqual([
      ['Arrival_Vessel_PortArea', 3, 1],
      ['Departure_Vessel_Berth', 1, 3],
      ['Departure_Vessel_Berth', 3, 2],
      ['Departure_Vessel_Berth', 2, 1],
    ]);
    await setEtd([]);
    expect((await timestampWeights()).map((r) => [r.state, r.api_key_id])).toEqual([['Arrival_Vessel_PortArea', 3]]);
    const last = (await streamOf(TIMESTAMP_PRIORITIES_STREAM)).at(-1)!;
    expect([last.type, last.data]).toEqual(['TimestampApiKeyWeightsSet', { ...ETD, weights: [] }]);
    // Deleting what is not there changes nothing.
    const before = await database.eventCount();
    await setEtd([]);
    expect(await database.eventCount()).toBe(before);
  });

  it.each([
    [{ ...ETD, api_key_ids: [1, 1] }, 'Duplicate API key ID values not allowed'],
    [
      { time_type: 'LiveEstimated', state: 'Arrival_Vessel_PortArea', api_key_ids: [1] },
      'Invalid timestamp time type: LiveEstimated',
    ],
    [
      { time_type: 'Estimated', state: 'Arrival_Vessel_LOC', api_key_ids: [1] },
      'Invalid timestamp state: Arrival_Vessel_LOC',
    ],
    [{ ...ETD, api_key_ids: [1, 'x'] }, 'Invalid api key ID: x'],
    [{ ...ETD, api_key_ids: 5 }, "Wrong parameter type: api_key_ids should be array but got '5'"],
  ])('refuses %j with 400 and changes nothing', async (input, message) => {
    const before = [await database.eventCount(), await timestampWeights()];
    const error = await rejection(ingest.setTimestampApiKeyWeights({ actor: operator, input }));
    expect([error.status, error.message]).toEqual([400, message]);
    expect([await database.eventCount(), await timestampWeights()]).toEqual(before);
  });

  it('refuses every pair when the namespace has no template', async () => {
    const other = createIngestCommands({ db, store, log, namespace: 'atlantis' });
    const error = await rejection(
      other.setTimestampApiKeyWeights({ actor: operator, input: { ...ETD, api_key_ids: [] } }),
    );
    expect([error.status, error.message]).toEqual([400, 'No port call template for namespace atlantis']);
  });

  it('concurrent operators (separate processes) all succeed, one after the other, and the rows match the stream', async () => {
    const lists = [[4], [5, 4], [6], [4, 5, 6]];
    await Promise.all(
      lists.map((ids) =>
        createIngestCommands({ db, store, log, namespace: 'gavle' }).setTimestampApiKeyWeights({
          actor: operator,
          input: { time_type: 'Actual', state: 'Arrival_Vessel_Berth', api_key_ids: ids },
        }),
      ),
    );
    const events = (await streamOf(TIMESTAMP_PRIORITIES_STREAM)).filter(
      (e) => (e.data as { state: string }).state === 'Arrival_Vessel_Berth',
    );
    // Every list differs from any other, so each change, decided after the one before it, appends.
    expect(events).toHaveLength(lists.length);
    const lastWeights = (events.at(-1)!.data as { weights: { api_key_id: number; weight: number }[] }).weights;
    const rows = (await timestampWeights()).filter((r) => r.state === 'Arrival_Vessel_Berth');
    expect(rows.map((r) => ({ api_key_id: r.api_key_id, weight: r.weight }))).toEqual(lastWeights);
    expect(events.map((e) => e.streamPosition)).toEqual([...events.map((e) => e.streamPosition)].sort((a, b) => a - b));
  });
});

describe('setPayloadKeyApiKeyWeights', () => {
  it('sets, keeps, replaces and deletes weights per payload key on priorities-payload-keys', async () => {
    const set = (payload_key: string, ids: unknown[]) =>
      ingest.setPayloadKeyApiKeyWeights({ actor: operator, input: { payload_key, api_key_ids: ids } });
    expect(await set('berth_name', [2, 1])).toEqual({ result: 'OK' });
    await set('berth_name', [2, 1]);
    await set('any key at all', [1]);
    expect(await payloadWeights()).toEqual([
      { payload_key: 'any key at all', api_key_id: 1, weight: 1 },
      { payload_key: 'berth_name', api_key_id: 2, weight: 2 },
      { payload_key: 'berth_name', api_key_id: 1, weight: 1 },
    ]);
    await set('any key at all', []);
    await set('berth_name', [1, 2]);
    expect(await payloadWeights()).toEqual([
      { payload_key: 'berth_name', api_key_id: 1, weight: 2 },
      { payload_key: 'berth_name', api_key_id: 2, weight: 1 },
    ]);
    const events = await streamOf(PAYLOAD_KEY_PRIORITIES_STREAM);
    expect(events.map((e) => (e.data as { payload_key: string }).payload_key)).toEqual([
      'berth_name',
      'any key at all',
      'any key at all',
      'berth_name',
    ]);
    const before = await database.eventCount();
    expect((await rejection(set('berth_name', [3, 3]))).message).toBe('Duplicate API key ID values not allowed');
    expect((await rejection(set('berth_name', [0]))).message).toBe('Invalid api key ID: 0');
    expect(await database.eventCount()).toBe(before);
  });
});

describe('admission of timestamps posted with an API key', () => {
  it('a key with a weight for the pair posts; the event records that weight', async () => {
    await setEtd([7, 8]);
    const reply = await ingest.postTimestamp({ actor: source(8), input: timestamp() });
    const event = await store.readByGlobalPosition(reply.id);
    expect(event?.data).toMatchObject({ ...ETD, api_key_id: 8, weight: 1, source: 'api_key' });
    // Posting twice is still OK (the duplicate rule), stored once.
    expect(await ingest.postTimestamp({ actor: source(8), input: timestamp() })).toEqual(reply);
  });

  it('a key without a weight for the pair gets 403 and nothing is stored, not even a new vessel', async () => {
    const before = await database.eventCount();
    for (const input of [
      timestamp({ imo: 9074729 }),
      timestamp({ imo: 0, vessel_name: 'Never Seen' }),
      timestamp({ ...ETA }),
    ]) {
      const error = await rejection(ingest.postTimestamp({ actor: source(9), input }));
      expect([error.status, error.message]).toEqual([403, 'No permission to post given timestamp data']);
    }
    // Key 7 has a weight for ETD, not for ETA.
    const eta = await rejection(ingest.postTimestamp({ actor: source(7), input: timestamp({ ...ETA }) }));
    expect(eta.status).toBe(403);
    expect(await database.eventCount()).toBe(before);
    expect(await streamOf(vesselStream(9074729))).toEqual([]);
    expect((await db.query("SELECT 1 FROM ingest.vessels WHERE vessel_name = 'Never Seen'")).rowCount).toBe(0);
  });

  it('bad input is still a 400 before admission, as in the original', async () => {
    const error = await rejection(ingest.postTimestamp({ actor: source(9), input: timestamp({ state: 'Moon' }) }));
    expect(error.status).toBe(400);
  });

  it('a removed weight refuses the key from then on; manual timestamps always get in with 999', async () => {
    await setEtd([7]);
    expect(
      (await rejection(ingest.postTimestamp({ actor: source(8), input: timestamp({ payload: { n: 2 } }) }))).status,
    ).toBe(403);
    const manual = await ingest.postTimestamp({
      actor: person,
      input: timestamp({ ...ETA, manual: true, time_type: 'Actual', state: 'Arrival_Vessel_Berth' }),
    });
    expect((await store.readByGlobalPosition(manual.id))?.data).toMatchObject({ source: 'manual', weight: 999 });
  });
});

describe('over the bus', () => {
  it('serves the priority commands on cmd.ingest', async () => {
    const bus = createInProcessBus({ log });
    const config = loadConfig({}, { namespace: 'gavle' });
    const service = await startIngest({ config, db, store, bus, log });
    try {
      expect(
        await bus.rpc(INGEST, IngestCommands.setTimestampApiKeyWeights, {
          actor: operator,
          input: { time_type: 'Actual', state: 'Pilotage_Commenced', api_key_ids: [11] },
        }),
      ).toEqual({ result: 'OK' });
      expect(
        await bus.rpc(INGEST, IngestCommands.setPayloadKeyApiKeyWeights, {
          actor: operator,
          input: { payload_key: 'mmsi', api_key_ids: [11] },
        }),
      ).toEqual({ result: 'OK' });
      const refused = await rejection(
        bus.rpc(INGEST, IngestCommands.postTimestamp, { actor: source(12), input: timestamp({ payload: { bus: 1 } }) }),
      );
      expect([refused.status, refused.message]).toEqual([403, 'No permission to post given timestamp data']);
      expect(
        await bus.rpc(INGEST, IngestCommands.postTimestamp, {
          actor: source(11),
          input: timestamp({ time_type: 'Actual', state: 'Pilotage_Commenced', payload: { direction: 'inbound' } }),
        }),
      ).toMatchObject({ result: 'OK' });
    } finally {
      await service.stop();
      await bus.close();
    }
  });
});
