// Issue 29, DCSA Just in Time Port Call 2.0.0, black-box over HTTP, on the embedded process and on the fleet. A
// test plays a carrier: it registers with its API key as a DCSA partner whose own JIT endpoints are a stand-in
// server here, creates a port call, a terminal call, a berth and a towage service, sends ETA-Berth (EST) and gets
// our PLN back at the stand-in (the stand-in refuses the first delivery once: a redelivery), sends ATA, cancels the
// towage, omits the terminal call. Asserted: the activity timeline (DCSA times as S-211 timestamps, once each),
// the DCSA port call as the standard's GET shows it, the standard's error objects, another partner seeing nothing,
// and what the stand-in received: in order, each message taken once.

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ApiClient, type RunningSystem, startEmbedded, startFleet } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, adminAndDataSource } from './timestamps.ts';

const J = '/dcsa/jit/v2';

interface Received {
  method: string;
  path: string;
  body: any;
  authorization?: string;
  answered: number;
}

/** The carrier's own JIT consumer endpoints: records every request; refuses the first timestamp PUT with 503. */
async function standIn(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  let refusedOnce = false;
  const server: Server = createServer((req: IncomingMessage, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      const path = req.url ?? '';
      let status = 204;
      if (!refusedOnce && path.startsWith('/jit/v2/timestamps/')) {
        refusedOnce = true;
        status = 503;
      }
      received.push({
        method: req.method ?? '',
        path: path.replace(/^\/jit/, ''),
        body: text ? JSON.parse(text) : undefined,
        authorization: req.headers.authorization,
        answered: status,
      });
      res.writeHead(status, { 'API-Version': '2.0.0' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/jit`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function until<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, ms = 30_000): Promise<T> {
  const started = Date.now();
  let last: T = await read();
  while (!ok(last)) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms; last ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 50));
    last = await read();
  }
  return last;
}

const iso = (minutesFromNow: number) => new Date(Date.now() + minutesFromNow * 60_000).toISOString();

function scenario(name: string, start: () => Promise<RunningSystem>) {
  describe(`DCSA JIT 2.0.0: a carrier (${name})`, () => {
    let system: RunningSystem;
    let admin: ApiClient;
    let carrier: ApiClient;
    let other: ApiClient;
    let stranger: ApiClient;
    let stand: Awaited<ReturnType<typeof standIn>>;
    const IMO = 9704611;
    const portCallID = randomUUID();
    const terminalCallID = randomUUID();
    const berthID = randomUUID();
    const towageID = randomUUID();
    const estID = randomUUID();
    const ataID = randomUUID();
    let planID = '';

    beforeAll(async () => {
      system = await start();
      stand = await standIn();
      const made = await adminAndDataSource(system.baseUrl);
      admin = made.admin;
      carrier = made.api.withApiKey(made.apiKey.key);
      // dcsa_partner is never a key's by default: the administrator gives it.
      const asPartner = (id: number) =>
        admin.put('/api-keys/permissions', { id, permissions: ['timestamp', 'dcsa_partner'] });
      expect((await asPartner(made.apiKey.id)).status).toBe(200);
      for (const [timeType, state] of [
        ['Estimated', 'Arrival_Vessel_Berth'],
        ['Actual', 'Arrival_Vessel_Berth'],
      ]) {
        const weights = await admin.post('/timestamp-api-key-weights', {
          timestamp_time_type: timeType,
          timestamp_state: state,
          api_key_ids: [made.apiKey.id],
        });
        expect(weights.status).toBe(200);
      }
      const registered = await admin.post('/dcsa-partners', {
        name: 'Carrier',
        api_key_id: made.apiKey.id,
        base_url: stand.url,
        credentials: 'Bearer carrier-secret',
        vessel_imos: [IMO],
      });
      expect(registered.status, JSON.stringify(registered.body)).toBe(200);
      const otherKey = await admin.post('/api-keys', { name: `terminal-${Date.now()}` });
      other = made.api.withApiKey(otherKey.body.key);
      expect((await asPartner(otherKey.body.id)).status).toBe(200);
      expect(
        (await admin.post('/dcsa-partners', { name: 'Other', api_key_id: otherKey.body.id, base_url: stand.url }))
          .status,
      ).toBe(200);
      const strangerKey = await admin.post('/api-keys', { name: `stranger-${Date.now()}` });
      stranger = made.api.withApiKey(strangerKey.body.key);
      // A key that holds dcsa_partner but that no administrator registered as a partner.
      expect((await asPartner(strangerKey.body.id)).status).toBe(200);
    }, 240_000);

    afterAll(async () => {
      await stand?.close();
      await system?.stop();
    });

    it('takes the port call, terminal call and services: 204 with API-Version, a repeat stores nothing new', async () => {
      const portCall = {
        portCallID,
        UNLocationCode: 'NLAMS',
        vessel: { vesselIMONumber: String(IMO), MMSINumber: '477524700', name: 'YM WHOLESOME', typeCode: 'CONT' },
      };
      const put = await carrier.put(`${J}/port-calls/${portCallID}`, portCall);
      expect(put.status).toBe(204);
      expect(put.headers.get('api-version')).toBe('2.0.0');
      expect((await carrier.put(`${J}/port-calls/${portCallID}`, { ...portCall, isFYI: true })).status).toBe(204);
      const terminalCall = {
        terminalCallID,
        portCallID,
        carrierServiceName: 'Great Lion Service',
        carrierServiceCode: 'FE1',
      };
      expect((await carrier.put(`${J}/terminal-calls/${terminalCallID}`, terminalCall)).status).toBe(204);
      const location = { UNLocationCode: 'NLAMS' };
      for (const [id, type, event] of [
        [berthID, 'BERTH', 'ARRI'],
        [towageID, 'TOWAGE', 'STRT'],
      ]) {
        const service = {
          terminalCallID,
          portCallServiceID: id,
          portCallServiceType: type,
          portCallServiceEventTypeCode: event,
          portCallServiceLocation: location,
        };
        expect((await carrier.put(`${J}/port-call-services/${id}`, service)).status).toBe(204);
      }
      const listed = await carrier.get(`${J}/port-calls`, { vesselIMONumber: String(IMO) });
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual([{ ...portCall, omitted: false }]);
    });

    it('refuses what the standard refuses with its error object, naming the property, and stores nothing', async () => {
      const bad = await carrier.put(`${J}/port-calls/${randomUUID()}`, {
        portCallID: randomUUID(),
        UNLocationCode: 'NLAMS',
      });
      expect(bad.status).toBe(400);
      expect(bad.headers.get('api-version')).toBe('2.0.0');
      const missing = randomUUID();
      const noVessel = await carrier.put(`${J}/port-calls/${missing}`, {
        portCallID: missing,
        UNLocationCode: 'NLAMS',
      });
      expect(noVessel.body).toMatchObject({
        httpMethod: 'PUT',
        requestUri: `${J}/port-calls/${missing}`,
        statusCode: 400,
        statusCodeText: 'Bad Request',
        errors: [{ errorCode: 7003, property: 'vessel', errorCodeText: 'mandatory property missing' }],
      });
      expect(typeof noVessel.body.errorDateTime).toBe('string');
      expect((await carrier.get(`${J}/port-calls`, { portCallID: missing })).body).toEqual([]);
      const fyi = await carrier.post(`${J}/port-calls/${portCallID}/omit`, { isFYI: 12 });
      expect(fyi.body.errors[0]).toMatchObject({ errorCode: 7004, property: 'isFYI' });
      const unknown = await carrier.put(`${J}/timestamps/${randomUUID()}`, {
        timestampID: randomUUID(),
        portCallServiceID: randomUUID(),
        classifierCode: 'EST',
        dateTime: iso(60),
      });
      expect(unknown.status).toBe(400); // the body's id is not the path's
      const nowhere = randomUUID();
      const notFound = await carrier.put(`${J}/timestamps/${nowhere}`, {
        timestampID: nowhere,
        portCallServiceID: randomUUID(),
        classifierCode: 'EST',
        dateTime: iso(60),
      });
      expect(notFound.status).toBe(404);
      expect(notFound.body.statusCode).toBe(404);
      expect((await carrier.get(`${J}/port-calls`, {})).body.errors[0]).toMatchObject({ errorCode: 7003 });
    });

    it('maps ETA-Berth (EST) onto the timeline once, marked as from DCSA', async () => {
      const est = { timestampID: estID, portCallServiceID: berthID, classifierCode: 'EST', dateTime: iso(120) };
      expect((await carrier.put(`${J}/timestamps/${estID}`, est)).status).toBe(204);
      expect((await carrier.put(`${J}/timestamps/${estID}`, est)).status).toBe(204);
      const rows = await until(
        'Estimated Arrival_Vessel_Berth',
        async () => (await admin.get('/timestamps', { imo: IMO })).body.data as any[],
        (r) => r.some((t) => t.state === 'Arrival_Vessel_Berth'),
      );
      const mapped = rows.filter((t) => t.state === 'Arrival_Vessel_Berth' && t.time_type === 'Estimated');
      expect(mapped).toHaveLength(1);
      const payload = typeof mapped[0].payload === 'string' ? JSON.parse(mapped[0].payload) : mapped[0].payload;
      expect(payload).toMatchObject({ source: 'dcsa', dcsa_classifier: 'EST', dcsa_timestamp_id: estID });
      const dcsa = (await admin.get('/dcsa-timestamps', { imo: IMO })).body.data;
      expect(dcsa).toEqual([
        expect.objectContaining({
          timestamp_id: estID,
          direction: 'in',
          s211_status: 'posted',
          partner_name: 'Carrier',
        }),
      ]);
    });

    it('answers the EST with our PLN, which reaches the carrier once after a redelivery', async () => {
      const answer = await admin.post(`/dcsa-timestamps/${estID}/plan`, { date_time: iso(150) });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      planID = answer.body.timestamp_id;
      const got = await until(
        'the PLN at the carrier',
        async () => stand.received.filter((r) => r.path === `/v2/timestamps/${planID}` && r.answered === 204),
        (r) => r.length > 0,
      );
      expect(got[0]).toMatchObject({
        method: 'PUT',
        authorization: 'Bearer carrier-secret',
        body: { timestampID: planID, replyToTimestampID: estID, portCallServiceID: berthID, classifierCode: 'PLN' },
      });
      await until(
        'Planned Arrival_Vessel_Berth',
        async () => (await admin.get('/timestamps', { imo: IMO })).body.data as any[],
        (r) => r.some((t) => t.state === 'Arrival_Vessel_Berth' && t.time_type === 'Planned'),
      );
    });

    it('sends our own planned departure, creating the service it needs there first', async () => {
      const posted = await admin.post('/timestamps', {
        imo: IMO,
        vessel_name: 'YM WHOLESOME',
        time_type: 'Planned',
        state: 'Departure_Vessel_Berth',
        time: `${iso(600).slice(0, 19)}+00:00`,
        payload: {},
      });
      expect(posted.status, JSON.stringify(posted.body)).toBe(200);
      const sent = await until(
        'the departure at the carrier',
        async () => stand.received.filter((r) => r.answered === 204 && r.body?.portCallServiceEventTypeCode === 'DEPA'),
        (r) => r.length > 0,
      );
      const serviceId = sent[0].body.portCallServiceID;
      expect(sent[0].body).toMatchObject({ terminalCallID, portCallServiceType: 'BERTH' });
      await until(
        'its PLN',
        async () => stand.received.filter((r) => r.body?.portCallServiceID === serviceId && r.body?.classifierCode),
        (r) => r.length > 0,
      );
    });

    it('takes the ATA, the towage cancel and the terminal call omit; then refuses changes with 409', async () => {
      const ata = { timestampID: ataID, portCallServiceID: berthID, classifierCode: 'ACT', dateTime: iso(-5) };
      expect((await carrier.put(`${J}/timestamps/${ataID}`, ata)).status).toBe(204);
      expect(
        (await carrier.post(`${J}/port-call-services/${towageID}/cancel`, { reason: 'Storms ahead' })).status,
      ).toBe(204);
      const late = randomUUID();
      const onCancelled = await carrier.put(`${J}/timestamps/${late}`, {
        timestampID: late,
        portCallServiceID: towageID,
        classifierCode: 'EST',
        dateTime: iso(30),
      });
      expect(onCancelled.status).toBe(409);
      expect(onCancelled.body).toMatchObject({ statusCode: 409, statusCodeText: 'Conflict' });
      expect(
        (await carrier.post(`${J}/terminal-calls/${terminalCallID}/omit`, { reason: 'Not enough time' })).status,
      ).toBe(204);
      const newService = randomUUID();
      const onOmitted = await carrier.put(`${J}/port-call-services/${newService}`, {
        terminalCallID,
        portCallServiceID: newService,
        portCallServiceType: 'PILOTAGE',
        portCallServiceEventTypeCode: 'STRT',
        portCallServiceLocation: { UNLocationCode: 'NLAMS' },
      });
      expect(onOmitted.status).toBe(409);

      const services = await carrier.get(`${J}/port-call-services`, { terminalCallID });
      expect(services.body.map((s: any) => [s.portCallServiceType, s.cancelled])).toEqual([
        ['BERTH', false],
        ['TOWAGE', true],
      ]);
      expect((await carrier.get(`${J}/terminal-calls`, { portCallID })).body[0].omitted).toBe(true);
      const timeline = await until(
        'Actual Arrival_Vessel_Berth',
        async () => (await admin.get('/timestamps', { imo: IMO })).body.data as any[],
        (r) => r.some((t) => t.state === 'Arrival_Vessel_Berth' && t.time_type === 'Actual'),
      );
      const berth = timeline.filter((t) => t.state === 'Arrival_Vessel_Berth');
      expect(berth.map((t) => t.time_type).sort()).toEqual(['Actual', 'Estimated', 'Planned']);
      const timestamps = await carrier.get(`${J}/timestamps`, { portCallServiceID: berthID });
      expect(timestamps.body.map((t: any) => t.classifierCode)).toEqual(['EST', 'PLN', 'ACT']);
    });

    it('lets another partner see nothing of it, and a key that is no partner nothing at all', async () => {
      expect((await other.get(`${J}/port-calls`, { portCallID })).body).toEqual([]);
      const id = randomUUID();
      const put = await other.put(`${J}/timestamps/${id}`, {
        timestampID: id,
        portCallServiceID: berthID,
        classifierCode: 'REQ',
        dateTime: iso(90),
      });
      expect(put.status).toBe(404);
      const refused = await stranger.get(`${J}/port-calls`, { portCallID });
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0].errorCodeText).toBe('not a DCSA partner');
    });

    it('delivered to the carrier in order, each message taken once', async () => {
      const taken = stand.received.filter((r) => r.answered === 204).map((r) => `${r.method} ${r.path}`);
      expect(new Set(taken).size).toBe(taken.length);
      const refusedFirst = stand.received.find((r) => r.answered === 503)!;
      expect(taken).toContain(`${refusedFirst.method} ${refusedFirst.path}`);
      const plan = taken.indexOf(`PUT /v2/timestamps/${planID}`);
      const service = taken.findIndex((t) => t.startsWith('PUT /v2/port-call-services/'));
      const departure = taken.findIndex((t, i) => i > service && t.startsWith('PUT /v2/timestamps/'));
      expect(plan).toBeGreaterThanOrEqual(0);
      expect(plan).toBeLessThan(service);
      expect(service).toBeLessThan(departure);
      const outbox = await admin.get('/dcsa-outbox', {});
      expect(outbox.body.data.every((m: any) => m.status === 'delivered')).toBe(true);
      const partners = (await admin.get('/dcsa-partners')).body.data;
      expect(partners[0]).toMatchObject({ name: 'Carrier', has_credentials: true, pending: 0, refused: 0 });
      expect(JSON.stringify(partners)).not.toContain('carrier-secret');
    });

    it('describes the DCSA routes in /openapi.json', async () => {
      const doc = (await admin.get('/openapi.json')).body;
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining([`${J}/port-calls/{id}`, `${J}/timestamps/{id}`, `${J}/vessel-statuses`]),
      );
    });
  });
}

scenario('embedded', () => startEmbedded({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password }));
scenario('fleet', () => startFleet());
