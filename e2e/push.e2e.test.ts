// Push to phones end to end (docs/domain.md#push-notifications), the embedded process against a local Expo server
// (EXPO_PUSH_URL): devices registered over HTTP reach the notifier, a ship notification goes only to those who
// pinned the ship, a data source's timestamp on a pinned vessel pushes its label and time once the real port-call
// projection has placed it, and a device Expo no longer knows is gone after the receipts.

import {
  ApiClient,
  connectRealtime,
  type ExpoServerForTest,
  type RunningSystem,
  startEmbedded,
  startExpoServer,
} from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, adminAndDataSource, allowEstimatedArrivals, isoSecondsAgo } from './timestamps.ts';

const IMO = 9074729;
const ZONE = 'Europe/Helsinki';

// Generous: pushes go out after the projection and a job queue, on a machine that may be small and busy.
async function eventually(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('push to phones (embedded)', () => {
  let expo: ExpoServerForTest;
  let system: RunningSystem;
  let admin: ApiClient;
  let source: ApiClient;
  let pinner: ApiClient;
  let pinnerId: number;
  let other: ApiClient;

  const createUser = async (email: string) => {
    const res = await admin.post('/users', { email, first_name: 'First', last_name: 'Last', role: 'user' });
    expect(res.status).toBe(200);
    return { id: res.body.id as number, client: await new ApiClient(system.baseUrl).login(email, res.body.password) };
  };
  const register = (client: ApiClient, name: string) =>
    client.post('/register-push-token', {
      installation_id: name,
      platform: 'android',
      push_token: `ExponentPushToken[${name}]`,
    });
  /** The administrator sends a port notification, and both registered devices get a push (counted afresh). */
  const sendPortNotification = async (message: string) => {
    expo.reset();
    expect((await admin.post('/notifications', { type: 'port', message })).status).toBe(200);
    await eventually(() => expo.delivered().length === 2, 'the port push');
  };
  const pushedTokens = () =>
    expo
      .delivered()
      .map((m) => m.to)
      .sort();

  beforeAll(async () => {
    expo = await startExpoServer();
    system = await startEmbedded({
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      EXPO_PUSH_URL: expo.pushUrl,
      PUSH_RECEIPT_DELAY_MS: '200',
      PORT_DEFAULT_TIME_ZONE: ZONE,
    });
    const setup = await adminAndDataSource(system.baseUrl);
    admin = setup.admin;
    await allowEstimatedArrivals(admin, setup.apiKey.id);
    source = setup.api.withApiKey(setup.apiKey.key);
    ({ id: pinnerId, client: pinner } = await createUser('pinner@push.test'));
    other = (await createUser('other@push.test')).client;
    expect(await register(pinner, 'pinner')).toMatchObject({ status: 200 });
    expect(await register(other, 'other')).toMatchObject({ status: 200 });
    expect(await pinner.put('/pinned-vessel-ids', { vessel_ids: [IMO] })).toMatchObject({ status: 200 });
  });

  afterAll(async () => {
    await system?.stop();
    await expo?.close();
  });

  it('a ship notification reaches only the devices of those who pinned the ship', async () => {
    const res = await admin.post('/notifications', { type: 'ship', message: 'Pilot delayed', ship_imo: IMO });
    expect(res.status).toBe(200);
    await eventually(() => expo.delivered().length === 1, 'the push');
    await new Promise((r) => setTimeout(r, 300));
    expect(expo.delivered()).toMatchObject([
      {
        to: 'ExponentPushToken[pinner]',
        title: `Ship #${IMO}`,
        body: 'Pilot delayed',
        // As the list serves it: the original mobile app's toast reads data.data.sender.email when tapped.
        data: {
          type: 'NOTIFICATION',
          data: { id: res.body.id, type: 'ship', ship_imo: IMO, sender: { email: ADMIN.email } },
        },
      },
    ]);
  });

  it('a refused device registration answers 400 with the original message and stores nothing', async () => {
    const device = { installation_id: 'refused', platform: 'android', push_token: 'ExponentPushToken[refused]' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...device, installation_id: '' }, 'Invalid Device Identifier'],
      [{ ...device, platform: 'not a platform!' }, 'Invalid Device Platform'],
      [{ ...device, platform: '' }, 'Invalid Device Platform'],
    ];
    for (const [body, error] of cases) {
      expect(await other.post('/register-push-token', body)).toMatchObject({ status: 400, body: { error } });
    }
    // A port notification goes to every stored device but the sender's: the two registered above, no other.
    await sendPortNotification('Berth 2 closed');
    await new Promise((r) => setTimeout(r, 300));
    expect(pushedTokens()).toEqual(['ExponentPushToken[other]', 'ExponentPushToken[pinner]']);
  });

  it('another user can neither unregister a device nor take it over without its token', async () => {
    const pinners = { installation_id: 'pinner', platform: 'android' };
    // An empty token naming someone else's device removes nothing: 0, as for a device never registered.
    expect(await other.post('/register-push-token', { ...pinners, push_token: '' })).toMatchObject({
      status: 200,
      body: 0,
    });
    expect(
      await other.post('/register-push-token', { ...pinners, push_token: 'ExponentPushToken[taken]' }),
    ).toMatchObject({ status: 403, body: { error: 'This device is registered to another user' } });
    // Both devices still get a port notification, each at its own token.
    await sendPortNotification('Tug 3 ready');
    expect(pushedTokens()).toEqual(['ExponentPushToken[other]', 'ExponentPushToken[pinner]']);
  });

  it('a data source’s timestamp on a pinned vessel: its label and time in the port’s zone, and the web UI’s notification', async () => {
    expo.reset();
    const web = await connectRealtime(system.baseUrl, 15);
    const channel = `notifications-changed-${pinnerId}`;
    // A per-user channel: only its user's signed-in socket.
    await web.authenticate((await pinner.get('/session')).body.jwt);
    await web.subscribe(channel);
    const time = isoSecondsAgo(-7200);
    const posted = await source.post('/agent/rest/timestamps', {
      imo: IMO,
      vessel_name: 'Ever Given',
      time_type: 'Estimated',
      state: 'Arrival_Vessel_PortArea',
      time,
      payload: {},
    });
    expect(posted).toMatchObject({ status: 200, body: { result: 'OK' } });
    await eventually(() => expo.delivered().length === 1, 'the VESSEL push');
    const local = new Intl.DateTimeFormat('sv-SE', {
      timeZone: ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    }).format(new Date(time));
    const [message] = expo.delivered();
    expect(message).toMatchObject({
      to: 'ExponentPushToken[pinner]',
      title: 'Ever Given',
      data: {
        type: 'VESSEL',
        vessel_id: IMO,
        data: {
          type: 'ship',
          ship_imo: IMO,
          sender: { email: 'system' },
          ship: { imo: IMO, vessel_name: 'Ever Given' },
        },
      },
    });
    expect(message.body).toMatch(/^Estimated .+\r\n/);
    expect(message.body.split('\r\n')[1]).toBe(local);
    try {
      const { data } = await web.next(channel, 30_000);
      expect(data).toMatchObject({
        type: 'ship',
        ship_imo: IMO,
        message: message.body,
        sender: { email: 'system' },
        ship: { imo: IMO, vessel_name: 'Ever Given' },
      });
    } finally {
      web.close();
    }
  });

  it('a device Expo no longer knows is removed after the receipts', async () => {
    expo.reset();
    expo.goneAtReceipt.add('ExponentPushToken[other]');
    const before = (await register(other, 'other')).body;
    expect(await admin.post('/notifications', { type: 'port', message: 'Storm warning' })).toMatchObject({
      status: 200,
    });
    await eventually(() => expo.receiptRequests.flat().includes('receipt:ExponentPushToken[other]'), 'the receipts');
    // Removed: registering the same device again makes a new one (while it exists, the same id comes back).
    let again = before;
    for (const until = Date.now() + 30_000; again === before && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 50));
      again = (await register(other, 'other')).body;
    }
    expect(again).not.toBe(before);
  });
});
