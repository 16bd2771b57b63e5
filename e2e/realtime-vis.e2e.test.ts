// The `vis-changed` channel (docs/architecture.md#real-time), black-box over HTTP in both run modes with the web
// UI's own client (socketcluster-client 15): each VIS ingestion of the agent (a VIS vessel, a text message, a voyage
// plan, a notification, an inbound vessel) and a port's change by an operator sends `[]` on the channel, and the
// list the message says to refetch already holds the change; a refused post and an exact duplicate send nothing.

import { type ApiClient, connectRealtime, type RealtimeClient, type RunningSystem } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, adminAndDataSource, RUN_MODES, stmTextMessage } from './timestamps.ts';

const CHANNEL = 'vis-changed';
const SHIP = 'urn:mrn:stm:service:instance:realtime-e2e:ship';
const PORT_B = 'urn:mrn:stm:service:instance:realtime-e2e:port-b';
// How long the channel must have been quiet before a change: several of the notifier's coalescing windows
// (250 ms), so the next change is again announced at once and a message still due from an earlier change (its
// trailing edge, late on a loaded machine) has arrived before the next message or a "nothing" is awaited.
const QUIET_MS = 1_500;

const message = (id: string) => ({
  time: '2026-11-27T10:00:00Z',
  from_service_id: SHIP,
  to_service_id: 'urn:mrn:stm:service:instance:realtime-e2e:here',
  message_id: id,
  message_type: 'TXT',
  payload: JSON.stringify({ stmMessage: { message: stmTextMessage(id, SHIP) } }),
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(RUN_MODES)('vis-changed (%s mode)', (_mode, start) => {
  let system: RunningSystem;
  let admin: ApiClient;
  let agent: ApiClient;
  let socket: RealtimeClient;

  beforeAll(async () => {
    system = await start();
    const made = await adminAndDataSource(system.baseUrl, ADMIN);
    admin = made.admin;
    agent = made.api.withApiKey(made.apiKey.key);
    socket = await connectRealtime(system.baseUrl, 15);
    await socket.subscribe(CHANNEL);
  }, 180_000);

  afterAll(async () => {
    socket?.close();
    await system?.stop();
  });

  /** Until nothing has arrived on the channel for QUIET_MS (waited for, not paused: a loaded machine is slower). */
  const settled = async () => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const quietFor = Date.now() - (socket.received.get(CHANNEL)?.at(-1)?.at ?? 0);
      if (quietFor >= QUIET_MS) return;
      if (Date.now() > deadline) throw new Error(`${CHANNEL} did not go quiet for ${QUIET_MS} ms`);
      await pause(QUIET_MS - quietFor);
    }
  };

  /** Does the change, expects 200, and returns the first message on the channel after it. */
  const announced = async (change: () => Promise<{ status: number; body: unknown }>) => {
    await settled();
    const since = Date.now();
    const res = await change();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (await socket.next(CHANNEL, 30_000, since)).data;
  };

  const nothingAfter = async (change: () => Promise<{ status: number }>, status: number) => {
    await settled();
    const quiet = Date.now();
    expect((await change()).status).toBe(status);
    await expect(socket.next(CHANNEL, 1_000, quiet)).rejects.toThrow(/nothing on vis-changed/);
  };

  it("announces the agent's VIS vessel and text message; the list already holds them", async () => {
    const vessel = {
      imo: 9074729,
      vessel_name: 'Realtime Ship',
      service_id: SHIP,
      service_url: 'https://ship.example',
    };
    expect(await announced(() => agent.post('/agent/rest/vis-vessels', vessel))).toEqual([]);
    expect((await admin.get('/vis-vessels', { search: 'Realtime' })).body.data).toEqual([
      expect.objectContaining({ service_id: SHIP }),
    ]);

    expect(await announced(() => agent.post('/agent/rest/vis-messages', message('urn:mrn:stm:txt:rt:1')))).toEqual([]);
    // The event and its row are written in one transaction before the relay publishes it: the refetch finds it.
    const list = await admin.get('/vis-text-messages', { from_service_id: SHIP });
    expect(list.body.data.map((m: { message_id: string }) => m.message_id)).toEqual(['urn:mrn:stm:txt:rt:1']);
  });

  it('sends nothing for a refused post or an exact duplicate', async () => {
    await nothingAfter(
      () => agent.post('/agent/rest/vis-messages', { ...message('urn:mrn:stm:txt:rt:2'), message_type: 'RTZ' }),
      400,
    );
    await nothingAfter(() => agent.post('/agent/rest/vis-messages', message('urn:mrn:stm:txt:rt:1')), 200);
    expect((await admin.get('/vis-text-messages', { from_service_id: SHIP })).body.pagination.total).toBe(1);
  });

  it('announces a voyage plan, a notification, a port and its whitelist, and an inbound vessel', async () => {
    const plan = {
      ...message('urn:mrn:stm:voyage:id:rt:1'),
      message_type: 'RTZ',
      rtz_state: 'SYNC_WITH_ETA_FOUND',
      rtz_parse_results: JSON.stringify({ route_name: 'Route RT', eta: '2026-11-28T08:00:00+00:00' }),
      payload: JSON.stringify({ stmMessage: { message: '<route/>' } }),
    };
    expect(await announced(() => agent.post('/agent/rest/vis-voyage-plans', plan))).toEqual([]);
    const notification = {
      time: '2026-11-27T10:05:00Z',
      from_service_id: SHIP,
      message_id: 'urn:mrn:stm:txt:rt:1',
      message_type: 'TXT',
      notification_type: 'ACKNOWLEDGEMENT_RECEIVED',
      subject: 'Acknowledged',
      payload: '{}',
    };
    expect(await announced(() => agent.post('/agent/rest/vis-notifications', notification))).toEqual([]);
    expect((await admin.get('/vis-text-messages', { from_service_id: SHIP })).body.data[0].ack).toBe(true);

    expect(
      await announced(() => admin.post('/ports', { name: 'Port RT', service_id: PORT_B, locodes: ['FIRAU'] })),
    ).toEqual([]);
    // A new port sends our departures; switched off, it is announced, and switched off again nothing changed.
    const departuresOff = () => admin.post('/port-whitelist-out', { service_id: PORT_B, whitelist: false });
    expect(await announced(departuresOff)).toEqual([]);
    await nothingAfter(departuresOff, 200);
    const inbound = { time: '2026-11-27T09:00:00Z', imo: 9074731, vessel_name: 'Borealis', from_service_id: PORT_B };
    expect(await announced(() => agent.post('/agent/rest/inbound-vessels', inbound))).toEqual([]);
    expect((await admin.get('/inbound-vessels', { search: '9074731' })).body.data).toEqual([
      expect.objectContaining({ vessel_name: 'Borealis', from_service_name: 'Port RT' }),
    ]);
  });
});
