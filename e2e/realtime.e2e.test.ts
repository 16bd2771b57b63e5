// Issue 12, real-time channels, black-box on the fleet (separate processes, PostgreSQL, RabbitMQ, Redis) with the
// original apps' own clients: socketcluster-client 15 (web UI) and 16 (mobile app) at /socketcluster/ on the
// gateway's port. A change reaches the sockets subscribed to its channel (docs/architecture.md#real-time); the
// mobile app's `socket.authenticate(jwt)` takes the session's jwt; `realtime_anonymous` off keeps anonymous
// sockets out; with two gateway processes every socket gets each message once.

import {
  ApiClient,
  connectRealtime,
  type RealtimeClient,
  type RunningSystem,
  startEmbedded,
  startExtraGateway,
  startFleet,
} from '@pcas/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, isoSecondsAgo } from './timestamps.ts';

const IMO = 9074729;

describe('real-time channels (fleet)', () => {
  let system: RunningSystem;
  let admin: ApiClient;
  /** The login payload's `user.id` and `jwt`. */
  let session: { userId: number; jwt: string };
  const clients: RealtimeClient[] = [];
  const connect = async (version: 15 | 16, baseUrl = system.baseUrl) => {
    const client = await connectRealtime(baseUrl, version);
    clients.push(client);
    return client;
  };
  let n = 0;
  const postTimestamp = async () => {
    const res = await admin.post('/timestamps', {
      imo: IMO,
      vessel_name: 'Test Vessel',
      time_type: 'Estimated',
      state: 'Arrival_Vessel_PortArea',
      time: isoSecondsAgo(-3600 - n++ * 60),
      payload: {},
    });
    expect([res.status, res.body]).toEqual([200, { result: 'OK' }]);
  };

  beforeAll(async () => {
    system = await startFleet();
    const login = await new ApiClient(system.baseUrl).post('/login', ADMIN);
    expect(login.status).toBe(200);
    session = { userId: login.body.user.id, jwt: login.body.jwt };
    admin = new ApiClient(system.baseUrl).withSession(login.body.session_id);
    // The vessel's first timestamp: later posts change its port call.
    await postTimestamp();
  }, 180_000);

  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  afterAll(async () => {
    await system?.stop();
  });

  it('posting a timestamp delivers portcalls-changed and queue-portcalls-changed ([]) (web client 15)', async () => {
    const web = await connect(15);
    await web.subscribe('portcalls-changed');
    await web.subscribe('queue-portcalls-changed');
    // Let the first timestamp's window pass, so this post's message is not held by the coalescing.
    await new Promise((r) => setTimeout(r, 300));
    const posted = Date.now();
    await postTimestamp();
    // How fast is bench:realtime's to measure; here a deadline only catches a message that never comes.
    const [changed, queue] = await Promise.all([
      web.next('portcalls-changed', 30_000, posted),
      web.next('queue-portcalls-changed', 30_000, posted),
    ]);
    expect(changed.data).toEqual([]);
    expect(queue.data).toEqual([]);
  });

  it('a burst of posts reaches a socket coalesced: at most one message per 250 ms, the last change not lost', async () => {
    const web = await connect(15);
    await web.subscribe('portcalls-changed');
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    for (let i = 0; i < 20; i++) await postTimestamp();
    const lastPosted = Date.now();
    // The last post's change arrives after it (leading or trailing edge).
    await expect
      .poll(() => web.received.get('portcalls-changed')!.some((r) => r.at >= lastPosted), { timeout: 30_000 })
      .toBe(true);
    const times = web.received.get('portcalls-changed')!.map((r) => r.at);
    // The burst's messages were sent after it started and before the last one arrived: at most one per window in
    // that span. Bounded as a count over the span, not gap by gap: the times are arrival times, and a loaded
    // gateway or test process may hand two messages sent a window apart to the socket at once. The slack: the
    // first window's message, and trailing edges of the previous test's change that arrive after the subscribe.
    const span = times[times.length - 1] - started;
    expect(times.length, JSON.stringify(times.map((t) => t - started))).toBeLessThanOrEqual(Math.floor(span / 250) + 3);
  });

  it("changing a user's pins delivers portcalls-changed-<userId>", async () => {
    const web = await connect(15);
    const channel = `portcalls-changed-${session.userId}`;
    await web.subscribe(channel);
    const put = await admin.put('/pinned-vessel-ids', { vessel_ids: [IMO] });
    expect(put.status).toBe(200);
    expect((await web.next(channel, 30_000)).data).toEqual([]);
  });

  it('creating a notification delivers notifications-changed with the whole notification', async () => {
    const web = await connect(15);
    await web.subscribe('notifications-changed');
    const created = await admin.post('/notifications', { type: 'port', message: 'Pilot boarding delayed' });
    expect(created.status).toBe(200);
    const { data } = await web.next('notifications-changed', 30_000);
    // The object the web UI's toast reads, and the same as the list serves it.
    expect(data).toMatchObject({
      id: created.body.id,
      type: 'port',
      message: 'Pilot boarding delayed',
      sender: { email: ADMIN.email },
    });
    const listed = await admin.get('/notifications');
    expect(data).toEqual(listed.body.find((x: { id: number }) => x.id === created.body.id));

    // Deleting it: notifications-changed with null, which clients read as "refetch, no toast".
    const since = Date.now();
    const deleted = await admin.delete(`/notifications/${created.body.id}`);
    expect(deleted.status).toBe(200);
    expect((await web.next('notifications-changed', 30_000, since)).data).toBeNull();
  });

  it("the mobile client (16) authenticates with the session's jwt; a bad jwt is refused", async () => {
    const mobile = await connect(16);
    await mobile.authenticate(session.jwt);
    expect(mobile.socket.authState).toBe('authenticated');

    const forged = await connect(16);
    // Same claims, other signature: not signed with the gateway's key.
    const [header, payload] = session.jwt.split('.');
    await expect(forged.authenticate(`${header}.${payload}.${'A'.repeat(342)}`)).rejects.toThrow();
    expect(forged.socket.authState).toBe('unauthenticated');
    await expect(forged.authenticate('not-a-jwt')).rejects.toThrow();
  });

  it('a client cannot publish: refused, and no subscriber gets it', async () => {
    const [listener, publisher] = [await connect(15), await connect(16)];
    await listener.subscribe('notifications-changed');
    await publisher.authenticate(session.jwt);
    await expect(publisher.socket.invokePublish('notifications-changed', { message: 'forged' })).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 300));
    expect(listener.received.get('notifications-changed')).toEqual([]);
  });

  it('with realtime_anonymous off, only signed-in sockets subscribe, and per-user channels only to their user', async () => {
    expect((await admin.put('/settings/realtime_anonymous/disabled')).status).toBe(200);
    try {
      const anonymous = await connect(15);
      await expect(anonymous.subscribe('portcalls-changed')).rejects.toThrow(/Sign in/);
      const mobile = await connect(16);
      await mobile.authenticate(session.jwt);
      await mobile.subscribe('portcalls-changed');
      await mobile.subscribe(`notifications-changed-${session.userId}`);
      await expect(mobile.subscribe(`portcalls-changed-${session.userId + 1}`)).rejects.toThrow(/another user/);
    } finally {
      expect((await admin.put('/settings/realtime_anonymous/enabled')).status).toBe(200);
    }
    const again = await connect(15);
    await again.subscribe('portcalls-changed');
  });

  it('two gateway processes: a socket on each gets each message once', async () => {
    const second = await startExtraGateway(system);
    try {
      const sockets = [
        await connect(15),
        await connect(16),
        await connect(15, second.baseUrl),
        await connect(16, second.baseUrl),
      ];
      const channel = `portcalls-changed-${session.userId}`;
      for (const socket of sockets) await socket.subscribe(channel);
      // Two changes of the pins: two messages (a per-user channel is not coalesced).
      for (const vessel_ids of [[IMO, 9176187], [9176187]])
        expect((await admin.put('/pinned-vessel-ids', { vessel_ids })).status).toBe(200);
      const counts = () => sockets.map((socket) => socket.received.get(channel)!.length);
      await expect.poll(counts, { timeout: 30_000 }).toEqual([2, 2, 2, 2]);
      // A barrier instead of a pause for duplicates: a third change comes after the first two on each gateway's
      // ordered path, so once every socket has a third message, a duplicate of the first two would be there too.
      expect((await admin.put('/pinned-vessel-ids', { vessel_ids: [IMO] })).status).toBe(200);
      await expect.poll(() => counts().every((count) => count >= 3), { timeout: 30_000 }).toBe(true);
      expect(counts()).toEqual([3, 3, 3, 3]);
    } finally {
      await second.stop();
    }
  }, 90_000);
});

describe('real-time channels (embedded: the in-process bus)', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startEmbedded({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  }, 120_000);
  afterAll(async () => {
    await system?.stop();
  });

  it('a posted timestamp reaches a web socket; the mobile socket authenticates', async () => {
    const login = await new ApiClient(system.baseUrl).post('/login', ADMIN);
    const admin = new ApiClient(system.baseUrl).withSession(login.body.session_id);
    const [web, mobile] = [await connectRealtime(system.baseUrl, 15), await connectRealtime(system.baseUrl, 16)];
    try {
      await web.subscribe('portcalls-changed');
      await mobile.authenticate(login.body.jwt);
      const posted = Date.now();
      const res = await admin.post('/timestamps', {
        imo: IMO,
        vessel_name: 'Test Vessel',
        time_type: 'Estimated',
        state: 'Arrival_Vessel_PortArea',
        time: isoSecondsAgo(-3600),
        payload: {},
      });
      expect(res.status).toBe(200);
      expect((await web.next('portcalls-changed', 30_000, posted)).data).toEqual([]);
    } finally {
      web.close();
      mobile.close();
    }
  });
});
