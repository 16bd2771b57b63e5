// The portcall-projector as it runs: event store → relay → bus → projection, the corrections over RPC, the
// timers. On RabbitMQ and Redis (the fleet's adapters: republished events change nothing; a departed port call
// closes 180 minutes after its ATD without any new traffic, by a BullMQ job), and embedded (PGlite, in-process
// bus and timers). The rules keep their 180 minutes: the tests post an ATD that is almost that old.

import { loadConfig } from '@pcas/config';
import {
  ApiError,
  PORTCALL_CHANGES_STREAM,
  PortcallCommands,
  type RunningService,
  type TimestampReceived,
  vesselStream,
} from '@pcas/contracts';
import { createEventStore, type EventStore } from '@pcas/eventstore';
import { type Bus, createAmqpBus, createInProcessBus, type Relay, startRelay } from '@pcas/messaging';
import { createLogger } from '@pcas/observability';
import { type Db, openDb } from '@pcas/sql';
import {
  freshPostgres,
  type PostgresForTest,
  rabbitmq,
  redis,
  uniqueName,
  waitForValue,
  withVhost,
} from '@pcas/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rebuildAll } from '../adapters/rebuild.ts';
import { readModels } from '../testing/read-models.ts';
import { type PortcallProjectorOptions, rulesFromEnv, startPortcallProjector } from './service.ts';

const log = createLogger('portcall-projector-test', 'silent');
const MINUTE = 60_000;
const rules = rulesFromEnv({}, 'gavle');

/** A stored time `ms` from now (whole seconds). */
const iso = (ms: number) => `${new Date(Math.floor((Date.now() + ms) / 1000) * 1000).toISOString().slice(0, 19)}+00:00`;

function received(imo: number, timeType: string, state: string, time: string, key = 1): TimestampReceived {
  return {
    imo,
    vessel_name: `Vessel ${imo}`,
    time_type: timeType,
    state,
    time,
    payload: { source: `agent-${key}` },
    source: 'api_key',
    api_key_id: key,
    user_id: 100 + key,
  };
}

async function post(store: EventStore, data: TimestampReceived): Promise<number> {
  const result = await store.append(vesselStream(data.imo), [
    { type: 'TimestampReceived', data, metadata: { user_id: data.user_id, api_key_id: data.api_key_id } },
  ]);
  return result.events[0].globalPosition;
}

/** Polls until fn returns a value: a deadline for the fleet's slower start, not a performance assertion. */
const waitFor = <T>(fn: () => Promise<T | undefined>) => waitForValue(fn, 60_000);

/** Until the projection has applied every event of the vessels' streams. */
async function caughtUp(db: Db, store: EventStore, imos: readonly number[]): Promise<void> {
  await waitFor(async () => {
    for (const imo of imos) {
      const length = (await store.readStream(vesselStream(imo))).length;
      const { rows } = await db.query<{ stream_position: number }>(
        'SELECT stream_position FROM portcall.vessels WHERE imo = $1',
        [imo],
      );
      if (Number(rows[0]?.stream_position ?? -1) !== length) return undefined;
    }
    return true;
  });
}

async function portCallsOf(db: Db, imo: number) {
  const { rows } = await db.query<{ id: number; status: string; shown: boolean; doc: Record<string, unknown> }>(
    'SELECT id, status, shown, doc FROM portcall.port_calls WHERE imo = $1 ORDER BY seq',
    [imo],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

interface Running {
  pg: PostgresForTest | undefined;
  db: Db;
  store: EventStore;
  bus: Bus;
  relay: Relay;
  service: RunningService;
  stop(): Promise<void>;
}

async function start(
  kind: 'postgres' | 'pglite',
  busOf: () => Promise<Bus>,
  options: PortcallProjectorOptions,
  config = loadConfig({}),
): Promise<Running> {
  const pg = kind === 'postgres' ? await freshPostgres('pcas_projector_svc') : undefined;
  const db = await openDb(pg?.url ? { url: pg.url } : { dataDir: 'memory://' });
  const store = createEventStore(db);
  await store.init();
  const bus = await busOf();
  const service = await startPortcallProjector({ config, db, store, bus, log }, { timerSweepMs: 500, ...options });
  const relay = await startRelay({ store, db, bus, log, name: uniqueName('relay') });
  return {
    pg,
    db,
    store,
    bus,
    relay,
    service,
    async stop() {
      await relay.stop();
      await service.stop();
      await bus.close();
      await db.close();
      await pg?.drop();
    },
  };
}

describe('on RabbitMQ and Redis (fleet adapters)', async () => {
  const brokerUrl = (await rabbitmq())?.url;
  const redisUrl = (await redis())?.url;
  // Queues and exchanges go with the virtual host afterwards.
  let vhost: Awaited<ReturnType<typeof withVhost>> | undefined;
  let amqpUrl = brokerUrl;
  let running: Running | undefined;

  beforeAll(async () => {
    if (!brokerUrl) return;
    vhost = await withVhost(brokerUrl);
    amqpUrl = vhost.url;
  });

  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });

  afterAll(async () => {
    await vhost?.drop();
  });

  /** The projector as the fleet runs it: PostgreSQL, an exchange of its own on RabbitMQ, BullMQ jobs, its own names. */
  const startAsFleet = (options: { timerSweepMs?: number } = {}) => {
    const exchange = uniqueName('events');
    return start(
      'postgres',
      () => createAmqpBus({ url: amqpUrl!, log, exchange }),
      {
        projectionName: uniqueName('portcalls'),
        rpcService: uniqueName('portcall-projector'),
        jobsPrefix: uniqueName('bull'),
        ...options,
      },
      loadConfig({ RUN_MODE: 'fleet', DATABASE_URL: 'x', AMQP_URL: amqpUrl, REDIS_URL: redisUrl }),
    );
  };

  it.skipIf(!brokerUrl || !redisUrl)('projects the log; events published again change nothing', async () => {
    running = await startAsFleet();
    const { db, store } = running;
    const imos = [9600001, 9600002];
    for (const imo of imos) {
      await post(store, received(imo, 'Estimated', 'Arrival_Vessel_PortArea', iso(48 * 60 * MINUTE)));
      await post(store, received(imo, 'Estimated', 'Arrival_Vessel_PortArea', iso(47 * 60 * MINUTE), 2));
      await post(store, received(imo, 'Estimated', 'Departure_Vessel_Berth', iso(60 * 60 * MINUTE)));
    }
    await caughtUp(db, store, imos);
    const live = await readModels(db, imos);
    expect(live.port_calls).toHaveLength(2);
    // The signals of these vessels (the barrier vessel below adds its own).
    const signalsOf = async () =>
      (await store.readStream(PORTCALL_CHANGES_STREAM)).filter((e) => imos.includes((e.data as { imo: number }).imo))
        .length;
    const signals = await signalsOf();
    expect(signals).toBeGreaterThanOrEqual(2);

    // A second relay publishes the whole log again (as after a lost checkpoint): every message is a duplicate.
    const againName = uniqueName('relay-again');
    const again = await startRelay({ store, db, bus: running.bus, log, name: againName });
    // Its checkpoint at the head: every duplicate is confirmed, so in the projection's queue.
    await waitFor(async () => {
      const checkpoint = await store.readCheckpoint(againName);
      return checkpoint && (await store.readAll(checkpoint, 1)).events.length === 0 ? true : undefined;
    });
    await again.stop();
    // A barrier: an event appended now is queued behind all of them, so once it is projected they all were.
    const barrier = 9600003;
    await post(store, received(barrier, 'Estimated', 'Arrival_Vessel_PortArea', iso(48 * 60 * MINUTE)));
    await caughtUp(db, store, [barrier]);
    expect(await readModels(db, imos)).toEqual(live);
    expect(await signalsOf()).toBe(signals);
    // And the live rows are those of a rebuild.
    await rebuildAll({ db, store, rules, log, imos });
    expect(await readModels(db, imos)).toEqual(live);
  });

  it.skipIf(!brokerUrl || !redisUrl)(
    'closes a departed port call 180 minutes after its ATD, by a BullMQ job',
    async () => {
      running = await startAsFleet({ timerSweepMs: 3_600_000 });
      await expectTimerCloses(running);
    },
  );
});

/**
 * An ATD 180 minutes minus 10 seconds ago: departed now, done 10 seconds later with no other event. The seconds
 * are what projecting it may take on a loaded machine before the test sees it departed.
 */
async function expectTimerCloses({ db, store }: Running): Promise<void> {
  const imo = 9700001;
  await post(store, received(imo, 'Actual', 'Departure_Vessel_Berth', iso(-180 * MINUTE + 10_000)));
  await caughtUp(db, store, [imo]);
  const [departed] = await portCallsOf(db, imo);
  expect(departed.status).toBe('departed');
  const done = await waitFor(async () => {
    const [pc] = await portCallsOf(db, imo);
    return pc.status === 'done' ? pc : undefined;
  });
  expect(done.id).toBe(departed.id);
  const stream = await store.readStream(vesselStream(imo));
  expect(stream.map((e) => e.type)).toEqual(['TimestampReceived', 'PortCallTimersElapsed']);
  const { rows } = await db.query('SELECT next_timer_at FROM portcall.vessels WHERE imo = $1', [imo]);
  expect(rows[0].next_timer_at).toBeNull();
}

describe('embedded: PGlite, in-process bus and timers', () => {
  it('projects, answers a correction and fires a timer', async () => {
    const running = await start('pglite', async () => createInProcessBus({ log }), {});
    try {
      const { db, store, bus } = running;
      const imo = 9800001;
      await post(store, received(imo, 'Estimated', 'Arrival_Vessel_PortArea', iso(24 * 60 * MINUTE)));
      await caughtUp(db, store, [imo]);
      const [pc] = await portCallsOf(db, imo);
      expect(pc.status).toBe('arriving');
      const reply = await bus.rpc('portcall-projector', PortcallCommands.forceClose, {
        actor: { user_id: 1, api_key_id: null },
        input: { port_call_id: pc.id },
      });
      expect(reply).toEqual({ result: 'OK' });
      // The reply waits for the projection: the change is visible at once.
      expect((await portCallsOf(db, imo))[0].status).toBe('done');
      await expectTimerCloses(running);
    } finally {
      await running.stop();
    }
  });
});

describe('corrections over RPC', () => {
  let running: Running;
  const actor = { user_id: 5, api_key_id: null };
  const rpc = (command: string, input: Record<string, unknown>) =>
    running.bus.rpc(PORTCALL_PROJECTOR_TEST, command, { actor, input });
  const PORTCALL_PROJECTOR_TEST = 'portcall-projector';
  const A = 9900001;
  const B = 9900002;
  let ids: { a1: number; a2: number; a3: number; b1: number };

  beforeAll(async () => {
    running = await start('postgres', async () => createInProcessBus({ log }), {});
    const { store, db } = running;
    ids = {
      a1: await post(running.store, received(A, 'Estimated', 'Arrival_Vessel_PortArea', iso(30 * 60 * MINUTE))),
      a2: await post(running.store, received(A, 'Estimated', 'Departure_Vessel_Berth', iso(40 * 60 * MINUTE))),
      a3: await post(running.store, received(A, 'Actual', 'Arrival_Vessel_Berth', iso(31 * 60 * MINUTE))),
      b1: await post(running.store, received(B, 'Estimated', 'Arrival_Vessel_PortArea', iso(20 * 60 * MINUTE))),
    };
    await caughtUp(db, store, [A, B]);
  });

  afterAll(async () => {
    await running?.stop();
  });

  const streamLength = async (imo: number) => (await running.store.readStream(vesselStream(imo))).length;

  /** The command fails with 400 and this message, and nothing is appended to either vessel. */
  async function rejects(command: string, input: Record<string, unknown>, message: string) {
    const before = [await streamLength(A), await streamLength(B)];
    const error = await rpc(command, input).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, message });
    expect([await streamLength(A), await streamLength(B)]).toEqual(before);
  }

  it('refuses bad input with the original messages and appends nothing', async () => {
    await rejects(PortcallCommands.forceClose, { port_call_id: 987654 }, 'Invalid port call ID: 987654');
    await rejects(PortcallCommands.forceScan, { port_call_id: 'x' }, 'Invalid port call ID: x');
    // A timestamp id that opened nothing is not a port call either.
    await rejects(PortcallCommands.forceScan, { port_call_id: ids.a3 }, `Invalid port call ID: ${ids.a3}`);
    await rejects(PortcallCommands.getPortCallRange, { port_call_id: -1 }, 'Invalid port call ID: -1');
    const range = { port_call_id: ids.a1, start: iso(0), end: iso(60 * MINUTE) };
    await rejects(
      PortcallCommands.setPortCallRange,
      { ...range, start: '2020-01-01T00:00:00Z' },
      'Invalid start time: 2020-01-01T00:00:00Z',
    );
    await rejects(PortcallCommands.setPortCallRange, { ...range, end: 'tomorrow' }, 'Invalid end time: tomorrow');
    await rejects(
      PortcallCommands.setPortCallRange,
      { ...range, start: range.end, end: range.start },
      'Start time must be before end time',
    );
    await rejects(
      PortcallCommands.updatePortCallId,
      { id: ids.a2, portCallId: 123456 },
      'Invalid port call ID: 123456',
    );
    await rejects(PortcallCommands.updatePortCallId, { id: 55555, portCallId: ids.a1 }, 'Invalid timestamp id: 55555');
    await rejects(
      PortcallCommands.updatePortCallId,
      { id: ids.b1, portCallId: ids.a1 },
      'Port call imo must be same as timestamp imo.',
    );
    await rejects(PortcallCommands.unsetPortCallId, { id: 'abc' }, 'Invalid timestamp id: abc');
    await rejects(PortcallCommands.attachOrphans, { imo: 'x' }, 'Invalid IMO: x');
    await rejects(PortcallCommands.attachOrphans, { imo: A, ignoreStatus: 'maybe' }, 'Invalid ignoreStatus: maybe');
    await rejects(PortcallCommands.setVesselVisibility, { imo: A, visible: 'perhaps' }, 'Invalid visible: perhaps');
    await rejects(PortcallCommands.rebuildVessel, { imo: 0 }, 'Invalid IMO: 0');
    await rejects('nope', {}, 'Unknown command: nope');
  });

  it('applies each correction through the vessel stream', async () => {
    const { db, store } = running;
    const [pcA] = await portCallsOf(db, A);
    expect(pcA.id).toBe(ids.a1);

    expect(await rpc(PortcallCommands.getPortCallRange, { port_call_id: ids.a1 })).toMatchObject({
      port_call_id: ids.a1,
      master_id: null,
      master_manual: false,
    });
    const start = iso(29 * 60 * MINUTE);
    const end = iso(41 * 60 * MINUTE);
    expect(await rpc(PortcallCommands.setPortCallRange, { port_call_id: ids.a1, start, end })).toBeNull();
    // Clustering mode: the scan sets a clustered port call's range to its ETA and ETD again.
    expect(await rpc(PortcallCommands.getPortCallRange, { port_call_id: ids.a1 })).toMatchObject({
      master_manual: true,
    });

    expect(await rpc(PortcallCommands.unsetPortCallId, { id: ids.a3 })).toEqual({ result: 'OK' });
    const { rows: unset } = await db.query(
      'SELECT port_call_id, is_trash, hold FROM portcall.timestamps WHERE id = $1',
      [ids.a3],
    );
    expect(unset[0]).toEqual({ port_call_id: null, is_trash: true, hold: 'unset' });

    expect(await rpc(PortcallCommands.updatePortCallId, { id: ids.a3, portCallId: ids.a1 })).toEqual({ result: 'OK' });
    const { rows: moved } = await db.query('SELECT port_call_id, is_trash FROM portcall.timestamps WHERE id = $1', [
      ids.a3,
    ]);
    expect(moved[0]).toEqual({ port_call_id: ids.a1, is_trash: false });

    expect(await rpc(PortcallCommands.forceScan, { port_call_id: ids.a1 })).toEqual({ result: 'OK' });
    expect(await rpc(PortcallCommands.attachOrphans, { imo: A, isFromAgent: false })).toEqual({ result: 'OK' });
    // A vessel without a stream has nothing to attach: OK, nothing recorded.
    expect(await rpc(PortcallCommands.attachOrphans, { imo: 1234567 })).toEqual({ result: 'OK' });
    expect(await streamLength(1234567)).toBe(0);

    expect(await rpc(PortcallCommands.setVesselVisibility, { imo: B, visible: false })).toEqual({ result: 'OK' });
    expect((await portCallsOf(db, B)).map((pc) => pc.shown)).toEqual([false]);
    expect(await rpc(PortcallCommands.setVesselVisibility, { imo: 1234567, visible: false })).toEqual({
      result: 'ERROR',
    });

    expect(await rpc(PortcallCommands.forceClose, { port_call_id: ids.a1 })).toEqual({ result: 'OK' });
    expect((await portCallsOf(db, A))[0].status).toBe('done');
    expect(await rpc(PortcallCommands.rebuildVessel, { imo: A })).toEqual({ result: 'OK' });

    const events = await store.readStream(vesselStream(A));
    expect(events.slice(3).map((e) => e.type)).toEqual([
      'PortCallRangeSet',
      'TimestampPortCallUnset',
      'TimestampPortCallSet',
      'PortCallForceScanned',
      'OrphanTimestampsAttachRequested',
      'PortCallForceClosed',
    ]);
    // Each carries who did it.
    expect(events.slice(3).every((e) => e.metadata.user_id === 5)).toBe(true);
    // The rebuild replayed the corrections to the same rows.
    const live = await readModels(db, [A]);
    await rebuildAll({ db, store, rules, log, imos: [A] });
    expect(await readModels(db, [A])).toEqual(live);
  });

  it('racing corrections are decided one after the other', async () => {
    const before = await streamLength(B);
    const replies = await Promise.all(
      Array.from({ length: 4 }, () => rpc(PortcallCommands.setVesselVisibility, { imo: B, visible: true })),
    );
    expect(replies).toEqual(Array(4).fill({ result: 'OK' }));
    // One of them made it visible; the others found it so and recorded nothing.
    expect(await streamLength(B)).toBe(before + 1);
  });
});
