// Issue 14, the sea chart, black-box over HTTP on the fleet (separate processes, PostgreSQL, RabbitMQ, Redis): an AIS
// agent posts positions with an API key (every validation reason of the original, by IMO and by MMSI only,
// batches out of order, the age limit), GET /sea-chart/vessels as GeoJSON for the ongoing port calls and the fixed
// vessels, the markers, the fixed vessels with their business errors and the AIS agents' map in Redis, the
// map_module switch, and the sea-chart channels reaching a socket at most once a second.

import net from 'node:net';
import { type ApiClient, connectRealtime, type RealtimeClient, type RunningSystem, startFleet } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, adminAndDataSource, allowEstimatedArrivals, isoSecondsAgo, timestamp } from './timestamps.ts';

const PATH = '/sea-chart/vessels';
const IMO = 9074729; // an ongoing port call, MMSI 265000001
const NO_CALL = 9201827; // a known vessel whose port call is bound elsewhere (not on the timeline)
const PORT_CALL_MMSI = 265000001;

const position = (over: Record<string, unknown> = {}) => ({
  imo: IMO,
  latitude: 60.69,
  longitude: 17.21,
  headingDegrees: 45,
  speedKnots: 8.5,
  courseOverGroundDegrees: 47,
  locationTimestamp: isoSecondsAgo(60),
  ...over,
});

/** GET of one Redis key over RESP (the fleet's Redis; the test needs no client library for one command). */
function redisGet(url: string, key: string): Promise<string | null> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port || 6379), hostname || '127.0.0.1');
    let buffer = '';
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      if (buffer.startsWith('$-1')) {
        socket.end();
        resolve(null);
        return;
      }
      const match = /^\$(\d+)\r\n/.exec(buffer);
      if (match && buffer.length >= match[0].length + Number(match[1])) {
        socket.end();
        resolve(buffer.slice(match[0].length, match[0].length + Number(match[1])));
      }
    });
    socket.write(`*2\r\n$3\r\nGET\r\n$${Buffer.byteLength(key)}\r\n${key}\r\n`);
  });
}

describe('sea chart (fleet)', () => {
  let system: RunningSystem;
  let admin: ApiClient;
  let ais: ApiClient;
  let socket: RealtimeClient | undefined;

  beforeAll(async () => {
    // Port calls bound elsewhere than Gävle are not on the timeline (the original's VISIBLE_UNLOCODES).
    system = await startFleet({ VISIBLE_UNLOCODES: 'SEGVX' });
    const made = await adminAndDataSource(system.baseUrl, ADMIN);
    admin = made.admin;
    ais = made.api.withApiKey(made.apiKey.key);
    await allowEstimatedArrivals(admin, made.apiKey.id);
    // Two known vessels; the first with an ongoing port call that knows its MMSI.
    for (const body of [
      timestamp({ imo: IMO, vessel_name: 'Aurora', payload: { source: 'e2e', mmsi: PORT_CALL_MMSI } }),
      timestamp({ imo: NO_CALL, vessel_name: 'Bothnia', payload: { source: 'e2e', to_port: 'SEKAS' } }),
    ]) {
      const res = await ais.post('/agent/rest/timestamps', body);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    await ongoing(1);
    // Subscribed before any position is posted, for every test (each may run alone).
    socket = await connectRealtime(system.baseUrl, 15);
    await socket.subscribe('sea-chart-vessels-changed');
    await socket.subscribe('sea-chart-markers-changed');
  }, 180_000);

  /** Waits until the activity timeline shows this many port calls (the projector works behind the bus). */
  async function ongoing(count: number): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const shown = (await admin.get('/ongoing-port-calls')).body.portcalls?.length ?? 0;
      if (shown === count) return;
      if (Date.now() > deadline) throw new Error(`ongoing port calls: ${shown}, not ${count}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  afterAll(async () => {
    socket?.close();
    await system?.stop();
  });

  const vessels = async () => {
    const res = await admin.get(PATH);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as any[];
  };
  /**
   * Posts positions, then waits for the map's real-time message sent after the post was answered: a map that
   * reloads on it must see the batch (positions show no sooner for everyone: a body is reused up to a second).
   */
  const postPositions = async (locations: unknown[]) => {
    const res = await ais.post(PATH, { locations });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await socket!.next('sea-chart-vessels-changed', 15_000, Date.now());
    return res;
  };

  it('answers each bad item with the original reason and stores none of them', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [position({ imo: undefined }), 'IMO and MMSI missing'],
      [position({ imo: 1234567 }), 'Invalid imo: 1234567'],
      [position({ imo: undefined, mmsi: 230999999 }), 'MMSI can not be matched to fixed vessels'],
      [position({ latitude: undefined }), 'Mandatory coordinates missing'],
      [position({ longitude: 0 }), 'Mandatory coordinates missing'],
      [position({ latitude: 91 }), 'Invalid latitude: 91'],
      [position({ longitude: 180.5 }), 'Invalid longitude: 180.5'],
      [position({ headingDegrees: 400 }), 'Invalid heading: 400'],
      [position({ courseOverGroundDegrees: 361 }), 'Invalid course over ground: 361'],
      [
        position({ locationTimestamp: '2026-11-25 10:00' }),
        'Given location timestamp not in ISO format: 2026-11-25 10:00',
      ],
    ];
    const res = await ais.post(PATH, { locations: cases.map(([item]) => item) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.successful).toEqual([]);
    expect(res.body.failed.map((f: any) => f.reason)).toEqual(cases.map(([, reason]) => reason));
    expect(res.body.failed[1]).toEqual({ imo: 1234567, mmsi: null, reason: 'Invalid imo: 1234567' });
    expect(await vessels()).toEqual([]);
    expect(await ais.post(PATH, {})).toMatchObject({ status: 400, body: { error: 'Missing parameter: locations' } });
    // Positions come from data sources only: a person's session may not post them.
    expect((await admin.post(PATH, { locations: [position()] })).status).toBe(403);
  });

  it('keeps the newest position of a vessel, found by IMO or by MMSI alone, whatever order the batches come in', async () => {
    const posted = Date.now();
    const newest = isoSecondsAgo(30);
    // By MMSI alone: the ongoing port call gives the IMO.
    const first = await ais.post(PATH, {
      locations: [position({ imo: undefined, mmsi: PORT_CALL_MMSI, locationTimestamp: newest, latitude: 60.7 })],
    });
    expect(first.body).toEqual({ successful: [{ imo: IMO, mmsi: PORT_CALL_MMSI }], failed: [] });
    expect((await socket!.next('sea-chart-vessels-changed', 15_000, posted)).data).toEqual([]);
    expect((await socket!.next('sea-chart-markers-changed', 15_000, posted)).data).toEqual([]);
    // An older position arriving later, and a vessel without a port call or a fixed vessel: stored, not shown.
    const late = await postPositions([position({ latitude: 60.1 }), position({ imo: NO_CALL })]);
    expect(late.body.failed).toEqual([]);
    // The map's message came: its next read has the batches.
    const shown = await vessels();
    expect(shown).toEqual([
      {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [17.21, 60.7] },
        properties: {
          name: 'Aurora',
          mmsi: PORT_CALL_MMSI,
          imo: IMO,
          latitude: 60.7,
          longitude: 17.21,
          speed_knots: 8.5,
          marker_class: 'vessel_gray',
          heading_degrees: 45,
          course_over_ground_degrees: 47,
          location_timestamp: newest,
          id: IMO,
          vessel_type_name: 'Unknown Vessel Type',
        },
      },
    ]);
    // The vessel's type colours its marker: a change made elsewhere than the sea chart's routes, shown within a
    // second (a body is reused that long).
    expect((await ais.post('/agent/rest/vessel-type', { imo: IMO, vessel_type: 18 })).status).toBe(200);
    await expect
      .poll(async () => (await vessels())[0].properties, { timeout: 15_000 })
      .toMatchObject({ marker_class: 'vessel_red', vessel_type_name: 'Oil Products' });
    // And names it in the port call's ship object (the portcall-projector folds the type in).
    const deadline = Date.now() + 20_000;
    let names: string[] = [];
    while (Date.now() < deadline) {
      const calls = (await admin.get('/ongoing-port-calls')).body.portcalls as any[];
      names = calls.map((c) => c.ship.vessel_type_name);
      if (names[0] === 'Oil Products') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(names).toEqual(['Oil Products']);
  });

  it('shows only positions younger than MAP_VESSEL_LOCATION_MAX_AGE_MINUTES (120)', async () => {
    const res = await postPositions([position({ locationTimestamp: isoSecondsAgo(121 * 60) })]);
    expect(res.body.failed).toEqual([]);
    // Older than the row's: the row keeps the recent one.
    expect((await vessels()).map((f) => f.properties.imo)).toEqual([IMO]);
    // A fixed vessel whose only position is too old is not shown.
    expect(
      (await admin.post('/sea-chart/fixed-vessel', { vesselType: 37, vesselName: 'Old Tug', mmsi: 230000100 })).body,
    ).toEqual({ result: 'OK' });
    const old = await postPositions([
      position({ imo: undefined, mmsi: 230000100, locationTimestamp: isoSecondsAgo(121 * 60) }),
    ]);
    expect(old.body.successful).toEqual([{ imo: null, mmsi: 230000100 }]);
    expect((await vessels()).map((f) => f.properties.imo)).toEqual([IMO]);
    await postPositions([position({ imo: undefined, mmsi: 230000100, locationTimestamp: isoSecondsAgo(119 * 60) })]);
    expect((await vessels()).map((f) => [f.properties.name, f.properties.marker_class])).toEqual([
      ['Aurora', 'vessel_red'],
      ['Old Tug', 'vessel_cyan'],
    ]);
  });

  it('fixed vessels: the business errors as 200 ERROR, the list, one by id, change and delete, the map in Redis', async () => {
    const post = (body: Record<string, unknown>) => admin.post('/sea-chart/fixed-vessel', body);
    const refusals: [Record<string, unknown>, string][] = [
      [{ vesselType: 37, vesselName: 'X', mmsi: 230000100 }, 'MMSI belongs to another vessel'],
      [{ vesselType: 37, vesselName: 'X', imo: 1234567 }, 'Invalid IMO'],
      [{ vesselType: 37, vesselName: 'X' }, 'IMO and MMSI missing'],
      [{ vesselType: 99, vesselName: 'X', mmsi: 1 }, 'Invalid vessel properties'],
    ];
    for (const [body, message] of refusals) {
      expect(await post(body)).toMatchObject({ status: 200, body: { result: 'ERROR', message } });
    }
    expect((await post({ vesselType: 41, vesselName: 'Pilot Gävle', imo: NO_CALL, mmsi: 230000200 })).body).toEqual({
      result: 'OK',
    });
    expect((await post({ vesselType: 41, vesselName: 'X', imo: NO_CALL })).body).toEqual({
      result: 'ERROR',
      message: 'IMO belongs to another vessel',
    });
    expect(await admin.get('/sea-chart/fixed-vessels', { limit: 10, offset: 0 })).toMatchObject({
      status: 400,
      body: { error: 'Missing parameter: sort' },
    });
    const list = await admin.get('/sea-chart/fixed-vessels', { limit: 1, offset: 0, sort: 'vessel_name' });
    expect(list.body.pagination).toEqual({ start: 0, limit: 1, total: 2 });
    expect(list.body.data[0]).toMatchObject({ vessel_name: 'Old Tug', readable_type_name: 'Tug', imo: null });
    const found = await admin.get('/sea-chart/fixed-vessels', { limit: 10, offset: 0, sort: 'id', search: '^pilot' });
    expect(found.body.data.map((v: any) => v.vessel_name)).toEqual(['Pilot Gävle']);
    const pilot = found.body.data[0];
    expect((await admin.get('/sea-chart/fixed-vessel', { id: pilot.id })).body).toMatchObject({
      id: pilot.id,
      imo: NO_CALL,
      mmsi: 230000200,
      vessel_type: 41,
      readable_type_name: 'Pilot Boat',
    });
    // Its position, now that it is a fixed vessel, is shown under its fixed name.
    await expect
      .poll(async () => (await vessels()).map((f) => f.properties.name).sort())
      .toEqual(['Aurora', 'Old Tug', 'Pilot Gävle']);
    const redisUrl = system.env.REDIS_URL;
    expect(await redisGet(redisUrl, 'sea_chart_fixed_vessels_mmsi_imo_map')).toBe(
      `a:2:{i:230000100;N;i:230000200;i:${NO_CALL};}`,
    );
    const change = { id: pilot.id, vesselType: 41, vesselName: 'Pilot', imo: null, mmsi: 230000201 };
    expect((await admin.put('/sea-chart/fixed-vessel', change)).body).toEqual({ result: 'OK' });
    expect((await admin.delete('/sea-chart/fixed-vessel', { id: list.body.data[0].id })).body).toEqual({
      result: 'OK',
    });
    expect((await admin.delete('/sea-chart/fixed-vessel', { id: list.body.data[0].id })).body).toEqual({
      result: 'ERROR',
      message: `Invalid fixed vessel ID: ${list.body.data[0].id}`,
    });
    expect(await redisGet(redisUrl, 'sea_chart_fixed_vessels_mmsi_imo_map')).toBe('a:1:{i:230000201;N;}');
  });

  it('serves the Gävle markers with stable ids, and the tile server setting', async () => {
    const markers = (await admin.get('/sea-chart/markers')).body as any[];
    expect(markers.map((m) => m.properties.type)).toEqual([
      'port',
      'outer-port-area',
      'channel-line',
      'berth',
      'anchorage',
      'port',
    ]);
    expect((await admin.get('/sea-chart/markers')).body).toEqual(markers);
    expect(new Set(markers.map((m) => m.properties.id)).size).toBe(6);
    expect((await admin.get('/sea-chart/map-settings')).body).toEqual({ tile_server: null });
  });

  it('sends the vessels channel at most once a second during a burst, the last change included', async () => {
    const all = () => socket!.received.get('sea-chart-vessels-changed')!.map((m) => m.at);
    // Quiet first: the earlier tests' changes may still be on their way (a busy machine delivers late), and a
    // window they opened would hold or send one of ours. Quiet = no message for longer than a window.
    await expect
      .poll(() => Date.now() - Math.max(0, ...all()), { timeout: 30_000, interval: 100 })
      .toBeGreaterThan(1_500);
    const since = Date.now();
    let lastChange = since;
    for (let i = 0; i < 6; i++) {
      lastChange = Date.now();
      await ais.post(PATH, { locations: [position({ locationTimestamp: isoSecondsAgo(20 - i) })] });
      await new Promise((r) => setTimeout(r, 150));
    }
    const received = () => all().filter((at) => at >= since);
    // The last change is announced too (at the end of its window), however long a busy machine takes to deliver it.
    await expect.poll(() => received().filter((at) => at >= lastChange).length, { timeout: 15_000 }).toBeGreaterThan(0);
    const times = received();
    // At most one a second: every message since `since` was sent for one of our changes, so at or after `since`,
    // one window (1 s) apart at least, and received at or after it was sent. N of them take a span of N - 1 seconds
    // at least, and the last arrived no earlier than that; so N <= span + 1. (The default 250 ms window would send
    // about four a second.) Counted over the span rather than gap by gap: one message delivered late makes the
    // next gap short. How many messages a busy machine's timing gives is not asserted: one is right when the
    // changes reached the notifier together.
    const spanS = ((times.at(-1) as number) - since) / 1000;
    // (50 ms for a timer that fires a millisecond early, each window.)
    expect(times.length).toBeLessThanOrEqual(Math.floor(spanS + 0.05) + 1);
  });

  it('with map_module off every route answers 403 naming it; on, they answer again at once', async () => {
    expect((await admin.put('/settings/map_module/disabled')).status).toBe(200);
    const off = { status: 403, body: { error: 'Map module is disabled' } };
    expect(await ais.post(PATH, { locations: [position()] })).toMatchObject(off);
    for (const path of ['/sea-chart/vessels', '/sea-chart/markers', '/sea-chart/map-settings']) {
      expect(await admin.get(path)).toMatchObject(off);
    }
    expect(await admin.get('/sea-chart/fixed-vessels', { limit: 1, offset: 0, sort: 'id' })).toMatchObject(off);
    expect((await admin.put('/settings/map_module/enabled')).status).toBe(200);
    expect((await ais.post(PATH, { locations: [position()] })).status).toBe(200);
    expect((await admin.get('/sea-chart/markers')).status).toBe(200);
  });
});
