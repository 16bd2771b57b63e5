// The sea chart's write side on real PostgreSQL: positions appended per vessel with the newest kept in the read
// model whatever order batches arrive in (out of order, concurrently for one vessel, delivered again), fixed
// vessels with their refusals and the AIS agents' map, and the retention job compacting old position events.
// (Over HTTP, with the module switch, the age limit and Redis in the fleet: e2e/sea-chart.e2e.test.ts.)

import { loadConfig } from '@pcas/config';
import {
  PORTCALL_PROJECTOR,
  PortcallLookups,
  type PostTimestampCommand,
  SEA_CHART_CHANGES_STREAM,
} from '@pcas/contracts';
import type { EventStore } from '@pcas/eventstore';
import { createInProcessJobs, type DelayedJobs } from '@pcas/jobs';
import { createInProcessBus } from '@pcas/messaging';
import { createLogger } from '@pcas/observability';
import { vesselMarkerClass, vesselTypeById } from '@pcas/s211';
import type { Db } from '@pcas/sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactPositions, lockSeaChart, refreshSeaChartFeatures } from '../adapters/positions.ts';
import { type IngestDatabase, ingestDatabase } from '../testing/database.ts';
import { createIngestCommands } from './commands.ts';
import { armRetention, retentionJob, seaChartCommands } from './sea-chart.ts';

const log = createLogger('ingest-sea-chart-test', 'silent');
const agent = { user_id: 3, api_key_id: 5 };
const operator = { user_id: 7, api_key_id: null };
const IMO = 9074729;
const OTHER = 9201827;

let database: IngestDatabase;
let db: Db;
let store: EventStore;
let seaChart: ReturnType<typeof seaChartCommands>;
const map: Record<string, string> = {};
/** The ongoing port calls' vessels by MMSI, as the projector's lookup answers (the stub served below). */
const ongoing = new Map<number, number>();

const at = (second: number) => `2026-11-25T10:00:${String(second).padStart(2, '0')}+00:00`;
const position = (second: number, over: Record<string, unknown> = {}) => ({
  imo: IMO,
  latitude: 60 + second / 100,
  longitude: 17.3,
  headingDegrees: 90,
  speedKnots: 10,
  courseOverGroundDegrees: 91,
  locationTimestamp: at(second),
  ...over,
});
const record = (locations: unknown[]) =>
  seaChart.commands.recordVesselPositions({ actor: agent, input: { locations } }, {}) as Promise<{
    successful: unknown[];
    failed: { reason: string }[];
  }>;
const fixed = (command: 'addFixedVessel' | 'changeFixedVessel' | 'removeFixedVessel', input: object) =>
  seaChart.commands[command]({ actor: operator, input }, {});
const row = async (key: string) =>
  (
    await db.query<{ latitude: number; location_timestamp: string; id: number }>(
      `SELECT latitude, to_char(location_timestamp AT TIME ZONE 'UTC', 'HH24:MI:SS') AS location_timestamp, id
         FROM ingest.sea_chart_positions WHERE vessel_key = $1`,
      [key],
    )
  ).rows[0];
/** The batch signals of every seachart-batches-<n> stream, in the order they were stored. */
const readSignals = async () =>
  (
    await db.query<{ type: string; data: unknown; metadata: Record<string, unknown>; stream_id: string }>(
      `SELECT event_type AS type, data, metadata, stream_id FROM eventstore.events
        WHERE stream_id LIKE 'seachart-batches-%' ORDER BY global_position`,
    )
  ).rows;
const streamTimes = async (stream: string) =>
  (await store.readStream(stream)).map((e) => (e.data as { location_timestamp: string }).location_timestamp);

beforeAll(async () => {
  database = await ingestDatabase('pcas_ingest_sea_chart', { poolSize: 8 });
  ({ db, store } = database);
  const ingest = createIngestCommands({ db, store, log, namespace: 'gavle' });
  for (const [imo, name] of [
    [IMO, 'Aurora'],
    [OTHER, 'Bothnia'],
  ] as const) {
    const input: PostTimestampCommand = {
      imo,
      vessel_name: name,
      time_type: 'Estimated',
      state: 'Arrival_Vessel_PortArea',
      time: '2026-11-25T12:00:00+00:00',
      payload: {},
      manual: true,
    };
    await ingest.postTimestamp({ actor: operator, input });
  }
  const bus = createInProcessBus({ log });
  // The portcall-projector's lookup of the vessels of ongoing port calls by MMSI (its RPC; see `ongoing`).
  await bus.serveRpc(PORTCALL_PROJECTOR, async (command, payload) => {
    if (command !== PortcallLookups.ongoingImosByMmsi) throw new Error(`unexpected ${command}`);
    const { mmsis } = (payload as { input: { mmsis: number[] } }).input;
    return mmsis.flatMap((mmsi) => (ongoing.has(mmsi) ? [[mmsi, ongoing.get(mmsi)]] : []));
  });
  const deps = { config: loadConfig({}), db, store, bus, log };
  seaChart = seaChartCommands(deps, { mapStore: { set: async (key, value) => (map[key] = value) } });
});

afterAll(() => database?.close());

describe('vessel positions', () => {
  it('keeps every position on the vessel stream and the newest in the row, batches out of order', async () => {
    expect(await record([position(10), position(30)])).toEqual({
      successful: [
        { imo: IMO, mmsi: null },
        { imo: IMO, mmsi: null },
      ],
      failed: [],
    });
    // An older batch arriving late: stored for the track, the row keeps the newer position.
    expect((await record([position(20)])).failed).toEqual([]);
    expect(await row(`position-imo-${IMO}`)).toEqual({
      latitude: 60.3,
      location_timestamp: '10:00:30',
      id: IMO,
    });
    expect(await streamTimes(`position-imo-${IMO}`)).toEqual([at(10), at(30), at(20)]);
    expect((await record([position(40)])).failed).toEqual([]);
    expect(await row(`position-imo-${IMO}`)).toMatchObject({ location_timestamp: '10:00:40' });
    const signals = await readSignals();
    expect(signals.map((e) => [e.type, e.data])).toEqual([
      ['VesselPositionsRecorded', { count: 2 }],
      ['VesselPositionsRecorded', { count: 1 }],
      ['VesselPositionsRecorded', { count: 1 }],
    ]);
    expect(signals[0].metadata).toMatchObject({ user_id: 3, api_key_id: 5 });
  });

  it('a batch delivered again changes nothing; concurrent batches for one vessel keep the newest of all', async () => {
    const before = (await store.readStream(`position-imo-${OTHER}`)).length;
    const batches = Array.from({ length: 12 }, (_, i) => [
      position(i + 1, { imo: OTHER }),
      position(50 - i, { imo: OTHER, latitude: 61 }),
    ]);
    await Promise.all([...batches.map(record), ...batches.map(record)]);
    const times = await streamTimes(`position-imo-${OTHER}`);
    expect(times.length - before).toBe(24);
    expect(new Set(times).size).toBe(times.length);
    expect(await row(`position-imo-${OTHER}`)).toMatchObject({ latitude: 61, location_timestamp: '10:00:50' });
    // Redelivered once more, alone: still nothing new.
    await record(batches[0]);
    expect(await streamTimes(`position-imo-${OTHER}`)).toHaveLength(times.length);
  });

  it('matches a position by MMSI through the vessel of an ongoing port call, as the projector answers', async () => {
    ongoing.set(230000500, OTHER);
    try {
      const reply = await record([position(7, { imo: undefined, mmsi: 230000500 })]);
      expect(reply.successful).toEqual([{ imo: OTHER, mmsi: 230000500 }]);
      expect(reply.failed).toEqual([]);
    } finally {
      ongoing.delete(230000500);
    }
  });

  it('matches a position by MMSI through a fixed vessel; an unknown MMSI or IMO fails and stores nothing', async () => {
    expect(await fixed('addFixedVessel', { vesselType: 37, vesselName: 'Tug One', mmsi: 230000001 })).toEqual({
      result: 'OK',
    });
    const reply = await record([
      position(5, { imo: undefined, mmsi: 230000001 }),
      position(5, { imo: undefined, mmsi: 230000999 }),
      position(5, { imo: 1234567 }),
    ]);
    expect(reply.successful).toEqual([{ imo: null, mmsi: 230000001 }]);
    expect(reply.failed.map((f) => f.reason)).toEqual([
      'MMSI can not be matched to fixed vessels',
      'Invalid imo: 1234567',
    ]);
    expect(await row('position-mmsi-230000001')).toMatchObject({ id: 230000001 });
    expect(await row('position-mmsi-230000999')).toBeUndefined();
    expect(await store.readStream('position-imo-1234567')).toEqual([]);
  });
});

describe('fixed vessels', () => {
  it("refuses with the original's messages, keeps IMO and MMSI unique, and keeps the AIS agents' map in step", async () => {
    const refusals = [
      [{ vesselType: 37, vesselName: 'X', mmsi: 230000001 }, 'MMSI belongs to another vessel'],
      [{ vesselType: 37, vesselName: 'X', imo: 1234567 }, 'Invalid IMO'],
      [{ vesselType: 37, vesselName: 'X' }, 'IMO and MMSI missing'],
      [{ vesselType: 0, vesselName: 'X', mmsi: 1 }, 'Invalid vessel properties'],
    ] as const;
    for (const [input, message] of refusals) {
      expect(await fixed('addFixedVessel', input)).toEqual({ result: 'ERROR', message });
    }
    // Two operators giving one IMO to two new vessels at once: one of them gets it.
    const both = await Promise.all([
      fixed('addFixedVessel', { vesselType: 41, vesselName: 'Pilot A', imo: IMO, mmsi: 230000002 }),
      fixed('addFixedVessel', { vesselType: 41, vesselName: 'Pilot B', imo: IMO, mmsi: 230000003 }),
    ]);
    expect(both).toContainEqual({ result: 'OK' });
    expect(both).toContainEqual({ result: 'ERROR', message: 'IMO belongs to another vessel' });
    const rows = (await db.query('SELECT id, imo, mmsi, vessel_name FROM ingest.fixed_vessels ORDER BY id')).rows;
    expect(rows).toHaveLength(2);
    const pilot = rows.find((r) => Number(r.imo) === IMO)!;
    expect(map.sea_chart_fixed_vessels_mmsi_imo_map).toBe(`a:2:{i:230000001;N;i:${pilot.mmsi};i:${IMO};}`);

    expect(
      await fixed('changeFixedVessel', {
        id: pilot.id,
        vesselType: 41,
        vesselName: 'Pilot',
        imo: null,
        mmsi: 230000004,
      }),
    ).toEqual({ result: 'OK' });
    expect(await fixed('removeFixedVessel', { id: rows[0].id })).toEqual({ result: 'OK' });
    expect(await fixed('removeFixedVessel', { id: rows[0].id })).toEqual({
      result: 'ERROR',
      message: `Invalid fixed vessel ID: ${rows[0].id}`,
    });
    expect(map.sea_chart_fixed_vessels_mmsi_imo_map).toBe('a:1:{i:230000004;N;}');
    expect((await store.readStream(`fixedvessel-${pilot.id}`)).map((e) => e.type)).toEqual([
      'FixedVesselAdded',
      'FixedVesselChanged',
    ]);
  });
});

describe('the retention job', () => {
  it("removes position events older than the limit but each vessel's newest, and records what it did", async () => {
    // Age every event of the IMO vessel but its two newest.
    await db.query(
      `UPDATE eventstore.events SET created = now() - interval '40 days'
        WHERE stream_id = $1 AND stream_position <= 2`,
      [`position-imo-${IMO}`],
    );
    await db.query(
      `UPDATE eventstore.events SET created = now() - interval '40 days'
        WHERE stream_id = $1 OR stream_id LIKE 'seachart-batches-%'`,
      [`position-imo-${OTHER}`],
    );
    const otherCount = (await store.readStream(`position-imo-${OTHER}`)).length;
    const signals = await readSignals();
    const signalStreams = new Set(signals.map((e) => e.stream_id)).size;
    // The batches of these tests spread over more than one signal stream.
    expect(signalStreams).toBeGreaterThan(1);
    const removed = await compactPositions(db, store, new Date(Date.now() - 30 * 86_400_000), 5);
    expect(await streamTimes(`position-imo-${IMO}`)).toEqual([at(20), at(40)]);
    // The other vessel's newest event stays, so its stream's version never goes back.
    const other = await store.readStream(`position-imo-${OTHER}`);
    expect(other.map((e) => e.streamPosition)).toEqual([otherCount]);
    const changes = await store.readStream(SEA_CHART_CHANGES_STREAM);
    expect(changes.at(-1)).toMatchObject({ type: 'VesselPositionsCompacted', data: { removed } });
    // Two of the IMO vessel's, all but one of the other's, and all but the newest batch signal of each stream.
    expect(removed).toBe(2 + (otherCount - 1) + (signals.length - signalStreams));
    expect((await readSignals()).length).toBe(signalStreams);
    expect(changes.map((e) => e.type)).toEqual(['VesselPositionsCompacted']);
    // The read model is untouched.
    expect(await row(`position-imo-${OTHER}`)).toMatchObject({ location_timestamp: '10:00:50' });
  });

  it('runs as a delayed job that arms its next run', async () => {
    const scheduled: string[] = [];
    let jobs: DelayedJobs;
    const deps = { config: loadConfig({}), db, store, bus: createInProcessBus({ log }), log };
    const handler = retentionJob(deps, 30, () => wrapped);
    jobs = createInProcessJobs({ queue: 'test-retention', handler, log });
    const wrapped: DelayedJobs = {
      kind: jobs.kind,
      schedule: async (id, when, data) => {
        scheduled.push(id);
        if (scheduled.length === 1) await jobs.schedule(id, when, data);
      },
      cancel: (id) => jobs.cancel(id),
      close: () => jobs.close(),
    };
    await db.query(`UPDATE eventstore.events SET created = now() - interval '40 days' WHERE stream_id = $1`, [
      `position-imo-${IMO}`,
    ]);
    await armRetention(wrapped, Date.now());
    await expect.poll(() => scheduled.length, { timeout: 20_000 }).toBe(2);
    expect(await streamTimes(`position-imo-${IMO}`)).toEqual([at(40)]);
    await jobs.close();
  });
});

describe("each row's Feature (what GET /sea-chart/vessels serves)", () => {
  const feature = async (key: string) => {
    const { rows } = await db.query<{ fixed: boolean; feature: string }>(
      'SELECT fixed, feature FROM ingest.sea_chart_positions WHERE vessel_key = $1',
      [key],
    );
    return (
      rows[0] && { fixed: rows[0].fixed, ...(JSON.parse(rows[0].feature) as { properties: Record<string, unknown> }) }
    );
  };

  it('is written with the position and made again when a fixed vessel or the vessel changes', async () => {
    const mmsi = 230000100;
    expect(await fixed('addFixedVessel', { vesselType: 37, vesselName: 'Tug "Two"', mmsi })).toEqual({ result: 'OK' });
    await record([position(55, { imo: undefined, mmsi, latitude: 60.5, speedKnots: null, headingDegrees: 0 })]);
    expect(await feature(`position-mmsi-${mmsi}`)).toEqual({
      fixed: true,
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [17.3, 60.5] },
      properties: {
        name: 'Tug "Two"',
        mmsi,
        imo: null,
        latitude: 60.5,
        longitude: 17.3,
        speed_knots: null,
        marker_class: vesselMarkerClass(37),
        heading_degrees: 0,
        course_over_ground_degrees: 91,
        location_timestamp: '2026-11-25T10:00:55+00:00',
        id: mmsi,
        vessel_type_name: vesselTypeById(37)?.name,
      },
    });
    const tug = (await db.query<{ id: number }>('SELECT id FROM ingest.fixed_vessels WHERE mmsi = $1', [mmsi])).rows[0];
    await fixed('changeFixedVessel', { id: tug.id, vesselType: 41, vesselName: 'Pilot Two', imo: null, mmsi });
    expect((await feature(`position-mmsi-${mmsi}`))?.properties).toMatchObject({
      name: 'Pilot Two',
      marker_class: vesselMarkerClass(41),
      vessel_type_name: vesselTypeById(41)?.name,
    });
    // Removed: not a fixed vessel's any more (not shown), named as the position was.
    await fixed('removeFixedVessel', { id: tug.id });
    expect(await feature(`position-mmsi-${mmsi}`)).toMatchObject({ fixed: false, properties: { name: 'Tug "Two"' } });

    // A known vessel without a fixed vessel: its name and type are the vessel's.
    const ingest = createIngestCommands({ db, store, log, namespace: 'gavle' });
    await ingest.setVesselType({ actor: operator, input: { imo: OTHER, vessel_type: 37 } });
    expect(await feature(`position-imo-${OTHER}`)).toMatchObject({
      fixed: false,
      properties: { name: 'Bothnia', imo: OTHER, vessel_type_name: vesselTypeById(37)?.name },
    });
  });

  // PostgreSQL only: PGlite has one connection, so no transaction can wait for another.
  it('a fixed-vessel change waits for the batches on their way, so neither leaves a stale Feature', async (ctx) => {
    if (database.url === undefined) ctx.skip();
    const mmsi = 230000300;
    const key = `position-mmsi-${mmsi}`;
    await fixed('addFixedVessel', { vesselType: 37, vesselName: 'Before', mmsi });
    await record([position(1, { imo: undefined, mmsi })]);
    const { id } = (await db.query<{ id: number }>('SELECT id FROM ingest.fixed_vessels WHERE mmsi = $1', [mmsi]))
      .rows[0];
    const waiting = async (n: number) =>
      expect
        .poll(
          async () =>
            (
              await db.query<{ n: number }>(
                "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
              )
            ).rows[0].n,
          { timeout: 20_000 },
        )
        .toBeGreaterThanOrEqual(n);
    // Another transaction holds the vessel's row: the batch's upsert, its snapshot taken, waits for it; then the
    // rename starts. Whichever order they finish in, the row must end as made from scratch.
    let release!: () => void;
    const held = db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM ingest.sea_chart_positions WHERE vessel_key = $1 FOR UPDATE', [key]);
      await new Promise<void>((resolve) => (release = resolve));
    });
    await expect.poll(() => release !== undefined, { timeout: 20_000 }).toBe(true);
    const batch = record([position(2, { imo: undefined, mmsi, latitude: 62 })]);
    await waiting(1);
    const rename = fixed('changeFixedVessel', { id, vesselType: 37, vesselName: 'After', imo: null, mmsi });
    await waiting(2);
    release();
    await Promise.all([held, batch, rename]);
    const featureText = async () =>
      (
        await db.query<{ feature: string }>('SELECT feature FROM ingest.sea_chart_positions WHERE vessel_key = $1', [
          key,
        ])
      ).rows[0].feature;
    const kept = await featureText();
    expect(JSON.parse(kept).properties).toMatchObject({ name: 'After', latitude: 62 });
    await db.transaction(async (tx) => {
      await lockSeaChart(tx);
      await refreshSeaChartFeatures(tx, { imos: [], mmsis: [mmsi] });
    });
    expect(await featureText()).toBe(kept);
  });
});
