// Issue 4, port calls in clustering mode (PORT_CALL_MASTER_SOURCE unset), black-box in both run modes: timestamps
// posted by a data source and by a person become port calls (an old visit done, the current one on the activity
// timeline), served by every query in the shapes the original UI reads; then each manual correction over HTTP
// (docs/domain.md#corrections) and what it does, a rebuild from the log that keeps them all, and bad
// input answering 400 with the original's messages while changing nothing.

import { type ApiClient, eventually, type RunningSystem } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, adminAndDataSource, HOUR, iso, RUN_MODES } from './timestamps.ts';

const DAY = 24 * HOUR;
/** PostgreSQL's text form, as the ship object and the range carry times. */
const pgText = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}+00`;

const IMO = 9074729;
const OTHER_IMO = 9176187;
const PAIRS: [string, string][] = [
  ['Estimated', 'Arrival_Vessel_PortArea'],
  ['Actual', 'Arrival_Vessel_Berth'],
  ['Estimated', 'Departure_Vessel_Berth'],
  ['Actual', 'Departure_Vessel_Berth'],
];

describe.each(RUN_MODES)('%s mode', (_mode, start) => {
  let system: RunningSystem;
  let admin: ApiClient;
  let agent: ApiClient;
  let viewer: ApiClient;
  let keyName: string;
  const now = Date.now();
  let oldCall: number;
  let call: number;
  let otherCall: number;
  /** timestamp ids by the marker `n` in their payload */
  const ids = new Map<string, number>();

  const post = async (
    source: ApiClient,
    path: string,
    n: string,
    time_type: string,
    state: string,
    at: number,
    payload = {},
  ) => {
    const res = await source.post(path, {
      imo: n.startsWith('other') ? OTHER_IMO : IMO,
      vessel_name: n.startsWith('other') ? 'Other Ship' : 'Test Vessel',
      time_type,
      state,
      time: iso(at),
      payload: { n, ...payload },
    });
    expect([res.status, res.body], `post ${n}`).toEqual([200, { result: 'OK' }]);
  };
  const portCalls = async (imo = IMO) =>
    (await admin.get('/port-calls', { limit: 100, offset: 0, sort: 'id', search: String(imo) })).body.data as any[];
  const portCall = async (id: number) => (await admin.get('/port-call', { id })).body;
  const ongoing = async () => (await viewer.get('/ongoing-port-calls')).body;
  const timestampsOf = async (imo = IMO) =>
    (await admin.get('/timestamps', { imo, limit: 100, sort: 'id' })).body.data as any[];
  const slot = (body: any, time_type: string, state: string) =>
    body.timestamps.find((t: any) => t.time_type === time_type && t.state === state && !t.payload?.direction);

  beforeAll(async () => {
    system = await start();
    const setup = await adminAndDataSource(system.baseUrl);
    admin = setup.admin;
    keyName = setup.apiKey.name;
    agent = setup.api.withApiKey(setup.apiKey.key);
    // A data source may post only the pairs it has a weight for.
    for (const [timestamp_time_type, timestamp_state] of PAIRS) {
      const res = await admin.post('/timestamp-api-key-weights', {
        timestamp_time_type,
        timestamp_state,
        api_key_ids: [setup.apiKey.id],
      });
      expect(res.status).toBe(200);
    }
    // A port-staff user: basic_user_action, no manage_port_call.
    const email = `viewer-${Date.now()}@port.local`;
    const created = await admin.post('/users', { email, first_name: 'View', last_name: 'Er', role: 'user' });
    expect(created.status).toBe(200);
    viewer = await setup.api.login(email, created.body.password);
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('groups a vessel’s timestamps into port calls: a visit 40 days ago (done), the current one (at berth)', async () => {
    // An ETA 40 days old opens a port call that the 30-day rule departs at once (ATD = its ETA), and the
    // 180-minute rule closes (docs/domain.md#timers); the original trashed anything that came for a done port call.
    const old = now - 40 * DAY;
    await post(agent, '/agent/rest/timestamps', 'old-eta', 'Estimated', 'Arrival_Vessel_PortArea', old);
    await post(agent, '/agent/rest/timestamps', 'eta', 'Estimated', 'Arrival_Vessel_PortArea', now + 5 * HOUR, {
      berth_name: 'Quay 1',
      from_port: 'SEGVX',
    });
    await post(agent, '/agent/rest/timestamps', 'etd', 'Estimated', 'Departure_Vessel_Berth', now + 30 * HOUR);
    // A person's timestamp (the UI's manual entry).
    await post(admin, '/timestamps', 'ata', 'Actual', 'Arrival_Vessel_Berth', now - 10 * 60_000);
    await post(agent, '/agent/rest/timestamps', 'other-eta', 'Estimated', 'Arrival_Vessel_PortArea', now + 8 * HOUR);

    const calls = await eventually(
      portCalls,
      (pcs) => pcs.length === 2 && pcs[1].status === 'at berth',
      'two port calls',
    );
    for (const row of await timestampsOf()) ids.set(JSON.parse(row.payload).n, row.id);
    [oldCall, call] = calls.map((pc) => pc.id);
    // A port call's id is the id of the timestamp that opened it.
    expect([oldCall, call]).toEqual([ids.get('old-eta'), ids.get('eta')]);
    expect(calls[0]).toMatchObject({ status: 'done', imo: IMO, atd: pgText(old) });
    expect(calls[1]).toMatchObject({
      id: call,
      status: 'at berth',
      vessel_name: 'Test Vessel',
      current_eta: pgText(now + 5 * HOUR),
      current_etd: pgText(now + 30 * HOUR),
      berth_name: 'Quay 1',
      from_port_code: 'SEGVX',
      badges: [
        { type: 'success', value: 'at berth' },
        { type: 'default', value: 'Quay 1' },
      ],
      next_event: { title: 'ETD', ts: iso(now + 30 * HOUR) },
    });
    otherCall = (
      await eventually(
        () => portCalls(OTHER_IMO),
        (pcs) => pcs.length === 1,
        'the other vessel',
      )
    )[0].id;
  });

  it('shows the current port calls on the activity timeline, not the old one', async () => {
    const body = await ongoing();
    expect(body.pinned_vessels).toEqual([]);
    const cards = body.portcalls.filter((c: any) => c.ship.imo === IMO || c.ship.imo === OTHER_IMO);
    // By next event: the other vessel's ETA (+8 h) before this one's ETD (+30 h).
    expect(cards.map((c: any) => c.ship.id)).toEqual([otherCall, call]);
    const [sea, port, departing] = cards[1].portcalls[0].events;
    expect([sea.id, sea.location, port.location, departing.location]).toEqual([1, 'sea', 'port', 'sea']);
    // Every card has its slots; each placeholder's state is a string (the web UI fails otherwise).
    for (const e of [sea, port, departing]) for (const t of e.timestamps) expect(typeof t.state).toBe('string');
    expect(sea.timestamps[0]).toMatchObject({
      time_type: 'Estimated',
      state: 'Arrival_Vessel_PortArea',
      time: iso(now + 5 * HOUR),
      source: keyName,
      payload: { berth_name: 'Quay 1', from_port: 'SEGVX', n: 'eta' },
    });
    expect(port.timestamps.find((t: any) => t.state === 'Arrival_Vessel_Berth')).toMatchObject({
      time_type: 'Actual',
      source: `Admin User (${ADMIN.email})`,
      weight: 999,
    });
  });

  it('serves the port call, its timestamps, the vessel’s orphans, the timesheet CSV and the export', async () => {
    const body = await portCall(call);
    expect(body.ship).toMatchObject({ id: call, imo: IMO, vessel_name: 'Test Vessel' });
    // The Gävle template: 23 slots, placeholders included.
    expect(body.timestamps).toHaveLength(23);
    expect(slot(body, 'Estimated', 'Departure_Vessel_Berth')).toMatchObject({ time: iso(now + 30 * HOUR) });

    const inCall = await viewer.get('/port-call-timestamps', { port_call_id: call, limit: 10, offset: 0, sort: 'id' });
    expect(inCall.body.data.map((r: any) => r.id)).toEqual([ids.get('eta'), ids.get('etd'), ids.get('ata')]);
    const orphans = await viewer.get('/non-port-call-timestamps', { imo: IMO, limit: 10, offset: 0, sort: 'id' });
    expect(orphans.body).toEqual({ data: [], pagination: { start: 0, limit: 10, total: 0 } });

    const csv = await viewer.get('/port-call-csv', { id: call, time_zone: 'Asia/Kolkata' });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('application/csv');
    expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="${call}-${IMO}-Test+Vessel.csv"`);
    const lines = (csv.body as string).split('\n');
    expect(lines).toHaveLength(25);
    const eta = new Date(now + 5 * HOUR + 5.5 * HOUR).toISOString().slice(0, 19);
    expect(lines[1]).toBe(
      `"${IMO}","Test Vessel","","SEGVX","","","Quay 1","Estimated Arrival Vessel Port Area","${eta}+05:30"`,
    );

    const key = (await admin.post('/api-keys', { name: `exporter-${Date.now()}` })).body.key;
    const exported = await agent.withApiKey(key).get('/export/port-calls', { imo: IMO });
    expect(exported.status).toBe(200);
    expect(exported.body.data.map((d: any) => [d.id, d.status])).toEqual([
      [oldCall, 'done'],
      [call, 'at berth'],
    ]);
    expect(exported.body.data[1]).toMatchObject({ current_eta: iso(now + 5 * HOUR), master_id: null });
  });

  it('POST /unset-port-call-id detaches and trashes a timestamp; POST /update-port-call-id puts it back', async () => {
    const etd = ids.get('etd')!;
    expect(await admin.post('/unset-port-call-id', { id: etd })).toMatchObject({ status: 200, body: true });
    const orphans = await eventually(
      async () =>
        (await admin.get('/non-port-call-timestamps', { imo: IMO, limit: 10, offset: 0, sort: 'id' })).body.data,
      (rows: any[]) => rows.length > 0,
      'the orphan',
    );
    expect(orphans.map((r: any) => [r.id, r.is_trash])).toEqual([[etd, 't']]);
    let body = await portCall(call);
    expect(slot(body, 'Estimated', 'Departure_Vessel_Berth').time).toBeUndefined();
    expect(body.ship.current_etd).toBe('');
    // An unset timestamp is left alone by the automatic attachment.
    expect(await admin.get('/timestamps-to-port-calls', { imo: IMO })).toMatchObject({
      status: 200,
      body: { result: 'OK' },
    });
    expect((await portCall(call)).ship.current_etd).toBe('');

    expect(await admin.post('/update-port-call-id', { id: etd, portCallId: call })).toMatchObject({
      status: 200,
      body: true,
    });
    body = await eventually(
      () => portCall(call),
      (b) => b.ship.current_etd !== '',
      'the ETD back',
    );
    expect(body.ship.current_etd).toBe(pgText(now + 30 * HOUR));
    const row = (await timestampsOf()).find((r) => r.id === etd);
    expect([row.port_call_id, row.is_trash]).toEqual([call, 'f']);
  });

  it('DELETE /timestamps and POST /restore-timestamp trash a timestamp and untrash it (an orphan until put back)', async () => {
    const etd = ids.get('etd')!;
    const row = async () => (await timestampsOf()).find((r) => r.id === etd);
    expect((await admin.delete('/timestamps', { id: etd })).body).toBe(true);
    await eventually(row, (r) => r.is_trash === 't' && r.port_call_id === null, 'trashed');
    await eventually(
      async () => (await portCall(call)).ship.current_etd,
      (etd) => etd === '',
      'ETD gone',
    );
    expect((await admin.post('/restore-timestamp', { id: etd })).body).toBe(true);
    await eventually(row, (r) => r.is_trash === 'f', 'restored');
    expect((await row()).port_call_id).toBe(null);
    expect((await admin.post('/update-port-call-id', { id: etd, portCallId: call })).body).toBe(true);
    const etdBack = await eventually(
      async () => (await portCall(call)).ship.current_etd,
      (etd) => etd !== '',
      'the ETD back',
    );
    expect(etdBack).toBe(pgText(now + 30 * HOUR));
  });

  it('GET /force-scan-port-call re-derives the port call; GET /port-call-range reads its range', async () => {
    expect(await admin.get('/force-scan-port-call', { port_call_id: call })).toMatchObject({
      status: 200,
      body: { result: 'OK' },
    });
    const range = await admin.get('/port-call-range', { port_call_id: call });
    expect(range.status).toBe(200);
    expect(range.body).toMatchObject({ port_call_id: call, master_id: null, master_manual: false });
  });

  it('POST /vessel-visibility hides the vessel from the activity timeline and GET /vessels shows it', async () => {
    const onTimeline = async () => (await ongoing()).portcalls.some((c: any) => c.ship.imo === IMO);
    expect(await onTimeline()).toBe(true);
    expect(await admin.post('/vessel-visibility', { imo: IMO, visible: false })).toMatchObject({
      status: 200,
      body: { result: 'OK' },
    });
    await eventually(onTimeline, (shown) => !shown, 'the vessel off the timeline');
    const vessels = await viewer.get('/vessels', { limit: 10, offset: 0, search: String(IMO) });
    expect(vessels.body.data.map((v: any) => [v.imo, v.visible])).toEqual([[IMO, false]]);
    expect((await admin.post('/vessel-visibility', { imo: IMO, visible: true })).body).toEqual({ result: 'OK' });
    await eventually(onTimeline, (shown) => shown, 'the vessel back on the timeline');
    // A vessel the service has never seen: the original's ERROR.
    expect((await admin.post('/vessel-visibility', { imo: 9321483, visible: false })).body).toEqual({
      result: 'ERROR',
    });
  });

  it('GET /rebuild-port-calls replays the vessel’s stream: the same port calls, corrections included', async () => {
    const before = await portCalls();
    const timelineBefore = await portCall(call);
    expect((await admin.get('/rebuild-port-calls', { imo: IMO })).body).toEqual({ result: 'OK' });
    expect(await portCalls()).toEqual(before);
    expect(await portCall(call)).toEqual(timelineBefore);
  });

  describe('bad input answers 400 with the original’s messages and changes nothing', () => {
    const missing = 999_999_999;
    // Expected messages naming ids known only once the port calls exist are functions.
    const cases: [string, string, () => Record<string, unknown>, number, string | (() => string)][] = [
      ['GET', '/force-close-port-call', () => ({ port_call_id: missing }), 400, `Invalid port call ID: ${missing}`],
      [
        'GET',
        '/force-close-port-call',
        () => ({ port_call_id: 'abc' }),
        400,
        "Wrong parameter type: port_call_id should be int but got 'abc'",
      ],
      ['GET', '/force-close-port-call', () => ({}), 400, 'Missing parameter: port_call_id'],
      ['GET', '/force-scan-port-call', () => ({ port_call_id: missing }), 400, `Invalid port call ID: ${missing}`],
      [
        'GET',
        '/force-scan-port-call',
        () => ({ port_call_id: ids.get('ata') }),
        400,
        () => `Invalid port call ID: ${ids.get('ata')}`,
      ],
      ['GET', '/port-call-range', () => ({ port_call_id: missing }), 400, `Invalid port call ID: ${missing}`],
      [
        'POST',
        '/port-call-range',
        () => ({ port_call_id: call, start: iso(now + DAY), end: iso(now) }),
        400,
        'Start time must be before end time',
      ],
      [
        'POST',
        '/port-call-range',
        () => ({ port_call_id: call, start: 'yesterday', end: iso(now) }),
        400,
        'Invalid start time: yesterday',
      ],
      [
        'POST',
        '/port-call-range',
        () => ({ port_call_id: call, start: iso(now), end: '2020-01-01T00:00:00Z' }),
        400,
        'Invalid end time: 2020-01-01T00:00:00Z',
      ],
      [
        'POST',
        '/port-call-range',
        () => ({ port_call_id: call, start: 5, end: iso(now) }),
        400,
        "Wrong parameter type: start should be string but got '5'",
      ],
      [
        'POST',
        '/port-call-range',
        () => ({ port_call_id: missing, start: iso(now), end: iso(now) }),
        400,
        `Invalid port call ID: ${missing}`,
      ],
      [
        'POST',
        '/update-port-call-id',
        () => ({ id: ids.get('etd'), portCallId: missing }),
        400,
        `Invalid port call ID: ${missing}`,
      ],
      [
        'POST',
        '/update-port-call-id',
        () => ({ id: ids.get('etd'), portCallId: otherCall }),
        400,
        'Port call imo must be same as timestamp imo.',
      ],
      [
        'POST',
        '/update-port-call-id',
        () => ({ id: missing, portCallId: call }),
        400,
        `Invalid timestamp id: ${missing}`,
      ],
      [
        'POST',
        '/update-port-call-id',
        () => ({ id: ids.get('etd'), port_call_id: call }),
        400,
        'Missing parameter: portCallId',
      ],
      ['POST', '/unset-port-call-id', () => ({ id: missing }), 400, `Invalid timestamp id: ${missing}`],
      ['POST', '/unset-port-call-id', () => ({ id: 'x' }), 400, "Wrong parameter type: id should be int but got 'x'"],
      [
        'GET',
        '/timestamps-to-port-calls',
        () => ({ imo: 'x' }),
        400,
        "Wrong parameter type: imo should be int but got 'x'",
      ],
      [
        'GET',
        '/timestamps-to-port-calls',
        () => ({ imo: IMO, isFromAgent: 'maybe' }),
        400,
        "Wrong parameter type: isFromAgent should be bool but got 'maybe'",
      ],
      ['GET', '/rebuild-port-calls', () => ({}), 400, 'Missing parameter: imo'],
      ['POST', '/vessel-visibility', () => ({ imo: IMO }), 400, 'Missing parameter: visible'],
      ['POST', '/vessel-visibility', () => ({ imo: IMO, visible: 'perhaps' }), 400, 'Invalid visible: perhaps'],
      ['GET', '/port-call', () => ({ id: missing }), 400, `Invalid port call ID: ${missing}`],
      [
        'GET',
        '/port-call-csv',
        () => ({ id: call, time_zone: 'Mars/Olympus' }),
        400,
        'Invalid time zone: Mars/Olympus',
      ],
      ['GET', '/port-call-csv', () => ({ id: missing, time_zone: 'UTC' }), 400, `Invalid port call ID: ${missing}`],
      ['GET', '/port-calls', () => ({ limit: 10, offset: 0, sort: 'atd ASC' }), 400, 'Invalid orderBy: atd ASC'],
      [
        'GET',
        '/port-call-template',
        () => ({ namespace: 'atlantis' }),
        400,
        'No port call template for namespace atlantis',
      ],
    ];

    it.each(cases)('%# %s %s', async (method, path, params, status, error) => {
      const snapshot = async () =>
        JSON.stringify([
          await portCalls(),
          await portCalls(OTHER_IMO),
          await timestampsOf(),
          await portCall(call),
          (await admin.get('/port-call-range', { port_call_id: call })).body,
          (await viewer.get('/vessels', { limit: 10, offset: 0, sort: 'imo' })).body,
        ]);
      const before = await snapshot();
      const res = await admin.call(method, path, params());
      expect([res.status, res.body]).toEqual([status, { error: typeof error === 'function' ? error() : error }]);
      // Anything wrongly recorded would reach the read models by now (a correction's reply waits for them).
      await new Promise((r) => setTimeout(r, 100));
      expect(await snapshot()).toBe(before);
    });

    it('refuses every correction to a user without manage_port_call', async () => {
      for (const [method, path, params] of cases.filter(
        ([, p]) => !['/port-call', '/port-call-csv', '/port-calls', '/port-call-template'].includes(p),
      )) {
        const res = await viewer.call(method, path, params());
        expect([res.status, res.body], `${method} ${path}`).toEqual([403, { error: 'Invalid access' }]);
      }
    });
  });

  it('POST /port-call-range marks the range manual; a clustered port call’s scan then sets it from its ETA and ETD', async () => {
    const set = await admin.post('/port-call-range', {
      port_call_id: call,
      start: iso(now - 2 * DAY),
      end: iso(now + 2 * DAY),
    });
    expect([set.status, set.body]).toEqual([200, null]);
    // The same port call keeps its timestamps; as in the original, the scan that follows gives a port call without a
    // master ID the range of its current ETA and ETD, so only master_manual shows the change here
    // (master-ID mode keeps the range itself: port-calls-master.e2e.test.ts).
    expect((await admin.get('/port-call-range', { port_call_id: call })).body).toEqual({
      port_call_id: call,
      start: pgText(now + 5 * HOUR),
      end: pgText(now + 30 * HOUR),
      master_id: null,
      master_manual: true,
    });
    expect((await portCalls()).map((pc) => pc.id)).toEqual([oldCall, call]);
    const inCall = await admin.get('/port-call-timestamps', { port_call_id: call, limit: 10, offset: 0, sort: 'id' });
    expect(inCall.body.data.map((r: any) => r.id)).toEqual([ids.get('eta'), ids.get('etd'), ids.get('ata')]);
  });

  it('GET /force-close-port-call closes it (ATD now, done, on the timeline two more hours)', async () => {
    expect((await admin.get('/force-close-port-call', { port_call_id: call })).body).toEqual({ result: 'OK' });
    const { ship } = await eventually(
      () => portCall(call),
      (b) => b.ship.status === 'done',
      'done',
    );
    const atd = Date.parse(ship.atd.replace(' ', 'T').replace('+00', 'Z'));
    expect(Math.abs(atd - Date.now())).toBeLessThan(60_000);
    const card = (await ongoing()).portcalls.find((c: any) => c.ship.id === call);
    expect(card.ship.badges[0]).toEqual({ type: 'success', value: 'done' });
  });

  it('after a manual range and a close, a rebuild still gives the same port calls', async () => {
    const before = await portCalls();
    expect((await admin.get('/rebuild-port-calls', { imo: IMO })).body).toEqual({ result: 'OK' });
    expect(await portCalls()).toEqual(before);
    expect((await admin.get('/port-call-range', { port_call_id: call })).body).toMatchObject({ master_manual: true });
  });
});
