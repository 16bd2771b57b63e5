// Issue 16, VIS/STM through HTTP on the embedded process: every refusal of the VIS API with the original's
// messages (and this port's own for what the original let through: malformed XML, payloads that are not JSON),
// each storing nothing; what the agent posts listed with names and parsed fields; acknowledgements; ports and their
// whitelists; the VIS module switch and the permissions. The agent-mode flows and URLs are in vis-agent.e2e.test.ts.

import { type ApiClient, type RunningSystem, startEmbedded } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, adminAndDataSource, stmTextMessage } from './timestamps.ts';

const SHIP = 'urn:mrn:stm:service:instance:e2e:ship-a';
const PORT = 'urn:mrn:stm:service:instance:e2e:port-b';

const textXml = (id: string, body?: string) => stmTextMessage(id, SHIP, body);

const message = (over: Record<string, unknown> = {}) => ({
  time: '2026-11-27T10:00:00+02:00',
  from_service_id: SHIP,
  to_service_id: 'urn:mrn:stm:service:instance:e2e:here',
  message_id: 'urn:mrn:stm:txt:e2e:1',
  message_type: 'TXT',
  payload: JSON.stringify({ stmMessage: { message: textXml('urn:mrn:stm:txt:e2e:1') } }),
  ...over,
});

const plan = (over: Record<string, unknown> = {}) => ({
  ...message({ message_type: 'RTZ', message_id: 'urn:mrn:stm:voyage:id:e2e:1' }),
  rtz_state: 'SYNC_WITH_ETA_FOUND',
  rtz_parse_results: JSON.stringify({ route_name: 'Route A', eta: '2026-11-28T08:00:00+00:00' }),
  payload: JSON.stringify({ stmMessage: { message: '<route/>' } }),
  ...over,
});

describe('VIS API (embedded)', () => {
  let system: RunningSystem;
  let admin: ApiClient;
  let agent: ApiClient;
  let viewer: ApiClient;

  beforeAll(async () => {
    system = await startEmbedded({ ADMIN_PASSWORD: ADMIN.password });
    const made = await adminAndDataSource(system.baseUrl, ADMIN);
    admin = made.admin;
    agent = made.api.withApiKey(made.apiKey.key);
    // A `user` may read VIS information but send nothing (the original's default matrix).
    const email = `vis-viewer-${Date.now()}@port.local`;
    const created = await admin.post('/users', { email, first_name: 'Vis', last_name: 'Viewer', role: 'user' });
    expect(created.status).toBe(200);
    viewer = await made.api.login(email, created.body.password);
    expect(
      (
        await agent.post('/agent/rest/vis-vessels', {
          imo: 9074729,
          vessel_name: 'Ship A',
          service_id: SHIP,
          service_url: 'https://ship-a.example/vis',
        })
      ).status,
    ).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await system?.stop();
  });

  const count = async (path: string, query: Record<string, unknown> = {}) => {
    const res = await admin.get(path, query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.pagination.total as number;
  };

  it("refuses the agent's bad posts with the original's messages and stores nothing", async () => {
    const before = { txt: await count('/vis-text-messages'), rtz: await count('/vis-voyage-plans') };
    const cases: [string, Record<string, unknown>, string | RegExp][] = [
      [
        '/agent/rest/vis-voyage-plans',
        plan({ rtz_state: 'SYNC_FOUND' }),
        'RTZ state is not valid: SYNC_FOUND. Should be one of: CALCULATED_SCHEDULE_NOT_FOUND, SYNC_WITH_ETA_FOUND, ' +
          'SYNC_WITHOUT_ETA_FOUND, SYNC_NOT_FOUND_CAN_BE_ADDED, SYNC_NOT_FOUND_CAN_NOT_BE_ADDED, RTA_SENT',
      ],
      ['/agent/rest/vis-voyage-plans', plan({ rtz_parse_results: 'eta' }), 'Invalid rtz_parse_results: not JSON'],
      ['/agent/rest/vis-voyage-plans', plan({ payload: '[1' }), 'Invalid payload: not JSON'],
      ['/agent/rest/vis-messages', message({ message_type: 'RTZ' }), 'Message type is not valid: RTZ. Should be: TXT'],
      ['/agent/rest/vis-messages', message({ payload: '<textMessage/>' }), 'Invalid payload: not JSON'],
      [
        '/agent/rest/vis-messages',
        message({ payload: JSON.stringify({ stmMessage: { message: '<textMessage><author>x</textMessage>' } }) }),
        /not well-formed XML/,
      ],
      ['/agent/rest/vis-messages', message({ time: '27.11.2026 10:00' }), /^Invalid date format: 27\.11\.2026 10:00/],
      ['/agent/rest/vis-messages', message({ time: undefined }), 'Missing parameter: time'],
    ];
    for (const [path, body, error] of cases) {
      const res = await agent.post(path, body);
      expect(res.status, `${path} ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
      if (typeof error === 'string') expect(res.body.error).toBe(error);
      else expect(res.body.error).toMatch(error);
    }
    expect({ txt: await count('/vis-text-messages'), rtz: await count('/vis-voyage-plans') }).toEqual(before);
  });

  it('lists a text message with the names and the parsed author, subject and body, once however often posted', async () => {
    // Three at once (a retrying agent racing itself), then once more.
    const posts = await Promise.all([1, 2, 3].map(() => agent.post('/agent/rest/vis-messages', message())));
    expect(posts.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await agent.post('/agent/rest/vis-messages', message())).status).toBe(200);
    const list = await viewer.get('/vis-text-messages', { from_service_id: SHIP });
    expect(list.status).toBe(200);
    expect(list.body.pagination.total).toBe(1);
    expect(list.body.data[0]).toMatchObject({
      time: '2026-11-27 08:00:00+00',
      from_service_id: SHIP,
      from_name: 'Ship A',
      message_id: 'urn:mrn:stm:txt:e2e:1',
      author: 'Captain Ahab',
      subject: 'Arrival',
      body: 'We arrive at noon',
      ack: false,
    });
  });

  it('marks a message acknowledged when its ACKNOWLEDGEMENT_RECEIVED arrives, before or after it', async () => {
    const ack = (messageId: string) =>
      agent.post('/agent/rest/vis-notifications', {
        time: '2026-11-27T10:05:00Z',
        from_service_id: SHIP,
        message_id: messageId,
        message_type: 'TXT',
        notification_type: 'ACKNOWLEDGEMENT_RECEIVED',
        subject: 'Acknowledged',
        payload: '{}',
      });
    expect((await ack('urn:mrn:stm:txt:e2e:1')).status).toBe(200);
    expect((await ack('urn:mrn:stm:txt:e2e:2')).status).toBe(200);
    const second = message({
      message_id: 'urn:mrn:stm:txt:e2e:2',
      payload: JSON.stringify({ stmMessage: { message: textXml('urn:mrn:stm:txt:e2e:2', 'Second') } }),
    });
    expect((await agent.post('/agent/rest/vis-messages', second)).status).toBe(200);
    const list = (await admin.get('/vis-text-messages', { sort: 'id' })).body.data;
    expect(list.map((m: { ack: boolean }) => m.ack)).toEqual([true, true]);
    const notes = await admin.get('/vis-notifications', { from_service_id: SHIP });
    expect(notes.body.data[0]).toMatchObject({ from_name: 'Ship A', notification_type: 'ACKNOWLEDGEMENT_RECEIVED' });
  });

  it('lists a voyage plan with its state name, ETA, route name and RTZ', async () => {
    expect((await agent.post('/agent/rest/vis-voyage-plans', plan())).status).toBe(200);
    const res = await viewer.get('/vis-voyage-plans', { from_service_id: SHIP });
    expect(res.body.data[0]).toMatchObject({
      from_name: 'Ship A',
      rtz_state: 2,
      rtz_state_name: 'SYNC_WITH_ETA_FOUND',
      eta: '2026-11-28T08:00:00+00:00',
      route_name: 'Route A',
      rtz: '<route/>',
    });
  });

  it("refuses sends with the original's messages, storing nothing", async () => {
    const before = await count('/vis-text-messages');
    expect(
      (
        await agent.post('/agent/rest/vis-vessels', {
          imo: 9074731,
          vessel_name: 'No URL',
          service_id: 'urn:e2e:no-url',
          service_url: '',
        })
      ).status,
    ).toBe(200);
    const text = { author: 'Harbour master', subject: 'Hello', body: 'Welcome' };
    const cases: [string, Record<string, unknown>, string][] = [
      [
        '/vis-text-messages',
        { ...text, vis_service_id: 'urn:e2e:unknown' },
        'VIS service ID not found: urn:e2e:unknown',
      ],
      [
        '/vis-text-messages',
        { ...text, vis_service_id: 'urn:e2e:no-url' },
        'VIS service URL not found: urn:e2e:no-url',
      ],
      [
        '/vis-text-messages-with-imo',
        { imo: 1234567, subject: 'Hi', body: 'x' },
        "Can't send message since no service_id known",
      ],
      [
        '/vis-send-rta',
        {
          vis_service_id: 'urn:e2e:unknown',
          rta: '2026-11-28T08:00:00Z',
          eta_min: '2026-11-28T07:45:00Z',
          eta_max: '2026-11-28T08:15:00Z',
        },
        'Cannot find voyage plan for VIS service ID: urn:e2e:unknown',
      ],
      [
        '/vis-send-rta',
        { vis_service_id: SHIP, rta: '2026-11-28T08:00:00Z', eta_min: '', eta_max: '', port_call_id: 999999 },
        'Port call is not at arriving status',
      ],
      ['/vis-send-rta', { vis_service_id: SHIP, rta: 'tomorrow', eta_min: '', eta_max: '' }, 'Invalid rta: tomorrow'],
    ];
    for (const [path, body, error] of cases) {
      const res = await admin.post(path, body);
      expect(res, path).toMatchObject({ status: 400, body: { error } });
    }
    // A newest plan without its RTZ message cannot be answered.
    expect(
      (await agent.post('/agent/rest/vis-voyage-plans', plan({ time: '2026-11-27T11:00:00Z', payload: '{}' }))).status,
    ).toBe(200);
    expect(
      await admin.post('/vis-send-rta', {
        vis_service_id: SHIP,
        rta: '2026-11-28T08:00:00Z',
        eta_min: '',
        eta_max: '',
      }),
    ).toMatchObject({
      status: 400,
      body: { error: `Cannot find voyage plan message for VIS service ID: ${SHIP}` },
    });
    expect(await count('/vis-text-messages')).toBe(before);
  });

  it('keeps ports by service id with merged locodes, and answers the whitelists OK or ERROR', async () => {
    expect((await admin.post('/ports', { name: 'Port B', service_id: PORT, locodes: ['FIRAU'] })).body).toEqual({
      result: 'OK',
    });
    expect((await admin.post('/ports', { name: 'Port B', service_id: PORT, locodes: ['FIPOR', 'FIRAU'] })).status).toBe(
      200,
    );
    expect(await admin.post('/ports', { name: 'Port B', service_id: PORT, locodes: 'FIRAU' })).toMatchObject({
      status: 400,
    });
    expect((await admin.post('/port-whitelist-out', { service_id: PORT, whitelist: false })).body).toEqual({
      result: 'OK',
    });
    expect((await admin.post('/port-whitelist-in', { service_id: PORT, whitelist: 'no' })).body).toEqual({
      result: 'ERROR',
    });
    expect((await admin.post('/port-whitelist-in', { service_id: 'urn:e2e:nobody', whitelist: true })).body).toEqual({
      result: 'ERROR',
    });
    const ports = await admin.get('/ports', { search: 'Port B' });
    expect(ports.body.data).toEqual([
      expect.objectContaining({
        name: 'Port B',
        service_id: PORT,
        locodes: ['FIRAU', 'FIPOR'],
        whitelist_in: true,
        whitelist_out: false,
      }),
    ]);
  });

  it('takes inbound vessels from a whitelisted port only, one row a vessel', async () => {
    const inbound = (time: string) => ({ time, imo: 9074729, vessel_name: 'Ship A', from_service_id: PORT });
    expect((await agent.post('/agent/rest/inbound-vessels', inbound('2026-11-27T09:00:00Z'))).status).toBe(200);
    expect((await agent.post('/agent/rest/inbound-vessels', inbound('2026-11-27T12:00:00Z'))).status).toBe(200);
    let list = await viewer.get('/inbound-vessels', { search: '9074729' });
    expect(list.body.data).toEqual([
      expect.objectContaining({
        imo: 9074729,
        vessel_name: 'Ship A',
        from_service_name: 'Port B',
        time: '2026-11-27 12:00:00+00',
      }),
    ]);
    expect((await admin.post('/port-whitelist-in', { service_id: PORT, whitelist: false })).body).toEqual({
      result: 'OK',
    });
    expect(await agent.post('/agent/rest/inbound-vessels', inbound('2026-11-27T13:00:00Z'))).toMatchObject({
      status: 400,
      body: { error: `Service ID is not whitelisted to post inbound vessel data: ${PORT}` },
    });
    list = await viewer.get('/inbound-vessels');
    expect(list.body.data[0].time).toBe('2026-11-27 12:00:00+00');
    // A service not known as a port becomes one, named after its VIS service.
    expect(
      (
        await agent.post('/agent/rest/inbound-vessels', {
          ...inbound('2026-11-27T09:00:00Z'),
          imo: 9074731,
          from_service_id: SHIP,
        })
      ).status,
    ).toBe(200);
    expect((await admin.get('/ports', { search: 'Ship A' })).body.data[0]).toMatchObject({
      service_id: SHIP,
      whitelist_in: true,
    });
  });

  it('lets a user read but not send, and refuses everything while the VIS module is off', async () => {
    expect(
      await viewer.post('/vis-text-messages', { vis_service_id: SHIP, author: 'a', subject: 's', body: 'b' }),
    ).toMatchObject({
      status: 403,
    });
    expect(await viewer.get('/ports')).toMatchObject({ status: 403 });
    expect((await admin.put('/settings/vis_module/disabled')).status).toBe(200);
    try {
      expect((await admin.get('/session')).body.modules.vis_module).toBe('disabled');
      for (const res of [
        await viewer.get('/vis-text-messages'),
        await viewer.get('/inbound-vessels'),
        await agent.post('/agent/rest/vis-messages', message({ message_id: 'urn:mrn:stm:txt:e2e:off' })),
      ]) {
        expect(res).toMatchObject({ status: 403, body: { error: 'VIS module is disabled' } });
      }
    } finally {
      expect((await admin.put('/settings/vis_module/enabled')).status).toBe(200);
    }
    expect((await viewer.get('/vis-text-messages')).status).toBe(200);
  });
});
