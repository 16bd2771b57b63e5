// Issue 16, VIS in agent mode on the fleet (separate processes, PostgreSQL, RabbitMQ): VIS_AGENT_API_URL points at a
// local HTTP server started here, standing in for the original's VIS agent: it records every call and answers as
// the agent does. Checked: the original's URLs (`<base><call>/<key>:<value>`) and JSON bodies for find-services,
// find-inter-port-services-by-locode, upload-text-message (a user's, with IMO, the "Route inconsistent" reply, the
// voyage-plan request once per port call), send-rta (and the RTA on the port call), send-departure to whitelisted
// ports when the ETD changes, poll-save and config; a refusal by the agent is a 400.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ApiClient, type RunningSystem, startFleet } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, adminAndDataSource, allowEstimatedArrivals, isoSecondsAgo, timestamp } from './timestamps.ts';

const SHIP = 'urn:mrn:stm:service:instance:agent-e2e:ship';
const SHIP_URL = 'https://ship.example/vis';
const RAUMA = 'urn:mrn:stm:service:instance:agent-e2e:rauma';
const RAUMA_URL = 'https://rauma.example/vis';
const IMO = 9074729;

interface Call {
  method: string;
  path: string;
  body: any;
}

/** The stand-in agent: records calls under /api/, answers 200 with what the agent would, or 500 when told to. */
function standInAgent() {
  const calls: Call[] = [];
  let failing = false;
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      const path = decodeURIComponent((req.url ?? '').replace(/^\/api\//, ''));
      calls.push({ method: req.method ?? '', path, body: text === '' ? undefined : JSON.parse(text) });
      if (failing) {
        res.writeHead(500).end('{"error":"agent down"}');
        return;
      }
      let answer: unknown = {};
      if (path.startsWith('find-inter-port-services-by-locode/')) answer = [{ name: 'Rauma', service_id: RAUMA }];
      if (path === 'config') answer = { service_instance_urn: 'urn:mrn:stm:service:instance:agent-e2e:port' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  return {
    calls,
    server,
    fail(on: boolean) {
      failing = on;
    },
    of: (path: string) => calls.filter((c) => c.path === path || c.path.startsWith(`${path}/`)),
  };
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 30_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > ms) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('VIS agent mode (fleet)', () => {
  const agent = standInAgent();
  let system: RunningSystem;
  let admin: ApiClient;
  let source: ApiClient;
  let apiKeyId: number;
  const requests = () => agent.of('upload-text-message').filter((c) => c.body.subject === 'Share voyage plan request');
  /** The data source's estimate of the ship's `state`, `seconds` from now. */
  const postEstimate = (state: string, seconds: number, payload: Record<string, unknown>) =>
    source.post(
      '/agent/rest/timestamps',
      timestamp({ imo: IMO, vessel_name: 'Agent Ship', state, time: isoSecondsAgo(-seconds), payload }),
    );

  beforeAll(async () => {
    await new Promise<void>((resolve) => agent.server.listen(0, '127.0.0.1', resolve));
    const { port } = agent.server.address() as AddressInfo;
    system = await startFleet({
      ADMIN_PASSWORD: ADMIN.password,
      VIS_AGENT_API_URL: `http://127.0.0.1:${port}/api/`,
      VIS_SERVICE_INSTANCE_URN: 'urn:mrn:stm:service:instance:agent-e2e:port',
      VIS_PORT_NAME: 'Gävle',
      VIS_PORT_UNLOCODE: 'SEGVX',
      RTA_POINT_LOCATION_NAME: 'Gävle pilot station',
      VIS_SYNC_POINT_LAT: '60.7',
      VIS_SYNC_POINT_LON: '17.6',
      VIS_SYNC_POINT_RADIUS: '5000',
    });
    const made = await adminAndDataSource(system.baseUrl, ADMIN);
    admin = made.admin;
    source = made.api.withApiKey(made.apiKey.key);
    apiKeyId = made.apiKey.id;
    await allowEstimatedArrivals(admin, apiKeyId);
    const etd = await admin.post('/timestamp-api-key-weights', {
      timestamp_time_type: 'Estimated',
      timestamp_state: 'Departure_Vessel_Berth',
      api_key_ids: [apiKeyId],
    });
    expect(etd.status).toBe(200);
    for (const [service_id, service_url, vessel_name, imo] of [
      [SHIP, SHIP_URL, 'Agent Ship', IMO],
      [RAUMA, RAUMA_URL, 'Rauma', 0],
    ] as const) {
      const res = await source.post('/agent/rest/vis-vessels', { imo, vessel_name, service_id, service_url });
      expect(res.status).toBe(200);
    }
  }, 240_000);

  afterAll(async () => {
    await system?.stop();
    await new Promise((resolve) => agent.server.close(resolve));
  });

  it('finds services, polls and reads the configuration with the original URLs; an agent refusal is a 400', async () => {
    expect((await admin.get('/vis-services', { imo: IMO })).body).toEqual({ result: 'OK' });
    expect((await admin.get('/vis-services', { service_id: SHIP })).body).toEqual({ result: 'OK' });
    expect((await admin.get('/vis-service-poll')).body).toEqual({ result: 'OK' });
    expect((await admin.get('/vis-configuration')).body).toEqual({
      service_instance_urn: 'urn:mrn:stm:service:instance:agent-e2e:port',
    });
    expect(agent.of('find-services').map((c) => `${c.method} ${c.path}`)).toEqual([
      `GET find-services/imo:${IMO}`,
      `GET find-services/service-id:${SHIP}`,
    ]);
    expect(agent.of('poll-save').map((c) => c.method)).toEqual(['GET']);
    expect(agent.of('config').map((c) => c.method)).toEqual(['GET']);
    agent.fail(true);
    try {
      expect(await admin.get('/vis-service-poll')).toMatchObject({ status: 400, body: { error: expect.any(String) } });
      const before = (await admin.get('/vis-text-messages')).body.pagination.total;
      expect(
        await admin.post('/vis-text-messages', { vis_service_id: SHIP, author: 'A', subject: 'S', body: 'B' }),
      ).toMatchObject({ status: 400 });
      expect((await admin.get('/vis-text-messages')).body.pagination.total).toBe(before);
    } finally {
      agent.fail(false);
    }
  });

  it("uploads a user's text message, and one by IMO with the caller as author", async () => {
    const sent = agent.of('upload-text-message').length;
    const res = await admin.post('/vis-text-messages', {
      vis_service_id: SHIP,
      author: 'Harbour master',
      subject: 'Welcome',
      body: 'Berth 3 is ready',
      informationObjectReferenceId: 'urn:mrn:stm:voyage:id:x',
      informationObjectReferenceType: 'RTZ',
    });
    expect(res.body).toEqual({ result: 'OK' });
    expect(
      (await admin.post('/vis-text-messages-with-imo', { imo: IMO, subject: 'Pilot', body: 'Pilot at 12' })).status,
    ).toBe(200);
    const uploads = agent.of('upload-text-message').slice(sent);
    expect(uploads.map((c) => [c.method, c.body])).toEqual([
      [
        'POST',
        {
          to_service_id: SHIP,
          to_url: SHIP_URL,
          author: 'Harbour master',
          subject: 'Welcome',
          body: 'Berth 3 is ready',
          information_object_reference_id: 'urn:mrn:stm:voyage:id:x',
          information_object_reference_type: 'RTZ',
        },
      ],
      [
        'POST',
        { to_service_id: SHIP, to_url: SHIP_URL, author: expect.any(String), subject: 'Pilot', body: 'Pilot at 12' },
      ],
    ]);
    const session = (await admin.get('/session')).body.user;
    expect(uploads[1].body.author).toBe(`${session.first_name} ${session.last_name}`);
  });

  it('answers a voyage plan without a schedule with "Route inconsistent"', async () => {
    const sent = agent.of('upload-text-message').length;
    const res = await source.post('/agent/rest/vis-voyage-plans', {
      time: '2026-11-27T09:00:00Z',
      from_service_id: SHIP,
      to_service_id: 'urn:mrn:stm:service:instance:agent-e2e:port',
      message_id: 'urn:mrn:stm:voyage:id:agent-e2e:bad',
      message_type: 'RTZ',
      rtz_state: 'CALCULATED_SCHEDULE_NOT_FOUND',
      rtz_parse_results: JSON.stringify({ route_name: 'Bad Route' }),
      payload: JSON.stringify({ stmMessage: { message: '<route/>' } }),
    });
    expect(res.status).toBe(200);
    expect(
      agent
        .of('upload-text-message')
        .slice(sent)
        .map((c) => c.body),
    ).toEqual([
      {
        to_service_id: SHIP,
        to_url: SHIP_URL,
        author: 'Port Activity Application',
        subject: 'Route inconsistent',
        body:
          'The voyage plan (Bad Route) does not have a valid schedule. Please send an updated voyage plan with a ' +
          'valid ETA for waypoint near Gävle pilot station.',
        information_object_reference_id: 'urn:mrn:stm:voyage:id:agent-e2e:bad',
        information_object_reference_type: 'RTZ',
        area: '<Circle><position lat="60.7" lon="17.6"/><radius>5000</radius></Circle>',
      },
    ]);
  });

  it('asks a VIS vessel for its voyage plan once per port call, sends the RTA and stores it on the port call', async () => {
    const eta = (seconds: number) => postEstimate('Arrival_Vessel_PortArea', seconds, { source: 'e2e' });
    expect((await eta(7200)).status).toBe(200);
    const [request] = await until('the voyage-plan request', () => (requests().length > 0 ? requests() : undefined));
    expect(request.body).toEqual({
      to_service_id: SHIP,
      to_url: SHIP_URL,
      author: 'Port Activity Application',
      subject: 'Share voyage plan request',
      body:
        'Share your voyage plan with Gävle (SEGVX). Voyage plan should have calculated schedule and waypoint near ' +
        'Gävle pilot station.',
    });
    expect((await eta(7000)).status).toBe(200);
    const portCall = await until('the port call', async () => {
      const res = await admin.get('/port-calls', { search: String(IMO), limit: 10, offset: 0 });
      return res.body.data?.[0] as { id: number; status: string } | undefined;
    });
    expect(portCall.status).toBe('arriving');

    const plan = {
      time: '2026-11-27T10:00:00Z',
      from_service_id: SHIP,
      to_service_id: 'urn:mrn:stm:service:instance:agent-e2e:port',
      message_id: 'urn:mrn:stm:voyage:id:agent-e2e:good',
      message_type: 'RTZ',
      rtz_state: 'SYNC_WITH_ETA_FOUND',
      rtz_parse_results: JSON.stringify({ route_name: 'Good Route', eta: '2026-11-28T08:00:00+00:00', waypointId: 4 }),
      payload: JSON.stringify({ stmMessage: { message: '<route version="1.1"/>' } }),
    };
    expect((await source.post('/agent/rest/vis-voyage-plans', plan)).status).toBe(200);
    const rta = {
      vis_service_id: SHIP,
      rta: '2026-11-28T08:00:00+00:00',
      eta_min: '2026-11-28T07:45:00+00:00',
      eta_max: '2026-11-28T08:15:00+00:00',
      port_call_id: portCall.id,
    };
    const answer = await admin.post('/vis-send-rta', rta);
    expect(answer.body).toEqual({ result: 'OK' });
    expect(agent.of('send-rta').map((c) => [c.method, c.body])).toEqual([
      [
        'POST',
        {
          to_service_id: SHIP,
          to_url: SHIP_URL,
          rtz_parse_results: expect.any(String),
          rtz: '<route version="1.1"/>',
          rta: rta.rta,
          eta_min: rta.eta_min,
          eta_max: rta.eta_max,
        },
      ],
    ]);
    expect(JSON.parse(agent.of('send-rta')[0].body.rtz_parse_results)).toMatchObject({ route_name: 'Good Route' });
    const stored = await until('the RTA on the port call', async () => {
      const res = await admin.get('/port-call', { id: portCall.id });
      return res.body.ship?.rta ? res.body.ship : undefined;
    });
    expect(new Date(stored.rta).toISOString()).toBe('2026-11-28T08:00:00.000Z');
    // The second ETA did not ask again.
    expect(requests()).toHaveLength(1);
  });

  it('sends the departure to the whitelisted services of the next port when the ETD changes', async () => {
    const etd = (seconds: number) =>
      postEstimate('Departure_Vessel_Berth', seconds, { source: 'e2e', next_port: 'FIRAU' });
    const first = await etd(36_000);
    expect(first.status).toBe(200);
    const [departure] = await until('the departure', () =>
      agent.of('send-departure').length > 0 ? agent.of('send-departure') : undefined,
    );
    expect(agent.of('find-inter-port-services-by-locode').map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET find-inter-port-services-by-locode/locode:FIRAU',
    ]);
    // The departure was sent by the same ordered consumer of port-call changes that asks for voyage plans, after
    // the second ETA's change: that one has been handled by now, and did not ask again.
    expect(requests()).toHaveLength(1);
    expect(departure.body).toEqual({
      to_service_id: RAUMA,
      to_url: RAUMA_URL,
      from_locode: 'SEGVX',
      to_locode: 'FIRAU',
      vessel_imo: IMO,
      vessel_name: 'Agent Ship',
      to_lat: 61.1333,
      to_lon: 21.5,
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/),
    });
    expect((await admin.get('/ports', { search: 'Rauma' })).body.data[0]).toMatchObject({
      service_id: RAUMA,
      locodes: ['FIRAU'],
      whitelist_out: true,
    });

    // A second port for FIRAU that does not take our departures: only Rauma gets the changed ETD.
    const other = 'urn:mrn:stm:service:instance:agent-e2e:other';
    const otherVessel = await source.post('/agent/rest/vis-vessels', {
      imo: 0,
      vessel_name: 'Other',
      service_id: other,
      service_url: 'https://o',
    });
    expect(otherVessel.status).toBe(200);
    expect((await admin.post('/ports', { name: 'Other', service_id: other, locodes: ['FIRAU'] })).status).toBe(200);
    expect((await admin.post('/port-whitelist-out', { service_id: other, whitelist: false })).body).toEqual({
      result: 'OK',
    });
    expect((await etd(40_000)).status).toBe(200);
    const both = await until('the second departure', () =>
      agent.of('send-departure').length > 1 ? agent.of('send-departure') : undefined,
    );
    expect(both.map((c) => c.body.to_service_id)).toEqual([RAUMA, RAUMA]);
    expect(both[1].body.time).not.toBe(both[0].body.time);
  });
});
