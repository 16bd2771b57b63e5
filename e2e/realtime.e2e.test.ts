// Issue 12, real-time channels, black-box on the fleet (separate processes, PostgreSQL, RabbitMQ, Redis) with the
// original apps' own clients: socketcluster-client 15 (web UI) and 16 (mobile app) at /socketcluster/ on the
// gateway's port. A change reaches the sockets subscribed to its channel (docs/architecture.md#real-time); the
// mobile app's `socket.authenticate(jwt)` takes the session's jwt; channels follow the API's permissions under
// `realtime_anonymous` (off, signals, legacy); a session's end reaches its open sockets; with two gateway processes
// every socket gets each message once.

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
    await web.authenticate(session.jwt);
    const channel = `portcalls-changed-${session.userId}`;
    await web.subscribe(channel);
    const put = await admin.put('/pinned-vessel-ids', { vessel_ids: [IMO] });
    expect(put.status).toBe(200);
    expect((await web.next(channel, 30_000)).data).toEqual([]);
  });

  it('creating a notification delivers notifications-changed with the whole notification', async () => {
    const web = await connect(15);
    await web.authenticate(session.jwt);
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
    await listener.authenticate(session.jwt);
    await listener.subscribe('notifications-changed');
    await publisher.authenticate(session.jwt);
    await expect(publisher.socket.invokePublish('notifications-changed', { message: 'forged' })).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 300));
    expect(listener.received.get('notifications-changed')).toEqual([]);
  });

  it('signals (the default): an anonymous socket gets the signals, not notifications nor per-user channels', async () => {
    const settings = await admin.get('/settings');
    expect(settings.body).toContainEqual(expect.objectContaining({ realtime_anonymous: 'signals' }));
    const anonymous = await connect(15);
    for (const channel of ['portcalls-changed', 'queue-portcalls-changed', 'logistics-changed', 'vis-changed'])
      await anonymous.subscribe(channel);
    await expect(anonymous.subscribe('notifications-changed')).rejects.toThrow(/Sign in/);
    await expect(anonymous.subscribe(`portcalls-changed-${session.userId}`)).rejects.toThrow(/Sign in/);
    await expect(anonymous.subscribe(`notifications-changed-${session.userId}`)).rejects.toThrow(/Sign in/);
  });

  it('off: anonymous sockets subscribe to nothing; signed-in ones to what their permissions allow', async () => {
    expect((await admin.put('/settings/realtime_anonymous/off')).status).toBe(200);
    try {
      const anonymous = await connect(15);
      await expect(anonymous.subscribe('portcalls-changed')).rejects.toThrow(/Sign in/);
      const mobile = await connect(16);
      await mobile.authenticate(session.jwt);
      await mobile.subscribe('portcalls-changed');
      await mobile.subscribe('notifications-changed');
      await mobile.subscribe(`notifications-changed-${session.userId}`);
      await expect(mobile.subscribe(`portcalls-changed-${session.userId + 1}`)).rejects.toThrow(/another user/);
      await expect(mobile.subscribe('no-such-channel')).rejects.toThrow(/Unknown channel/);
    } finally {
      expect((await admin.put('/settings/realtime_anonymous/signals')).status).toBe(200);
    }
  });

  it('legacy: an anonymous socket subscribes to any channel, as the original web UI does', async () => {
    expect((await admin.put('/settings/realtime_anonymous/legacy')).status).toBe(200);
    try {
      const web = await connect(15);
      await web.subscribe('notifications-changed');
      await web.subscribe(`portcalls-changed-${session.userId}`);
      await web.subscribe(`notifications-changed-${session.userId}`);
      const created = await admin.post('/notifications', { type: 'port', message: 'Legacy pop-up' });
      expect(created.status).toBe(200);
      await expect
        .poll(
          () =>
            web.received.get('notifications-changed')?.some((r) => (r.data as { id?: number })?.id === created.body.id),
          {
            timeout: 30_000,
          },
        )
        .toBe(true);
    } finally {
      expect((await admin.put('/settings/realtime_anonymous/signals')).status).toBe(200);
    }
  });

  it('an unknown value of realtime_anonymous is refused and changes nothing', async () => {
    const res = await admin.put('/settings/realtime_anonymous/enabled');
    expect([res.status, res.body]).toEqual([400, { error: 'Invalid value: enabled for setting: realtime_anonymous' }]);
    const settings = await admin.get('/settings');
    expect(settings.body).toContainEqual(expect.objectContaining({ realtime_anonymous: 'signals' }));
  });

  describe("a session's end reaches its open sockets", () => {
    let userNumber = 0;
    /** A new user of role `user` signed in, with a socket signed in and subscribed to two channels. */
    const signedInUser = async () => {
      const email = `realtime-end-${++userNumber}@example.com`;
      const created = await admin.post('/users', { email, first_name: 'Real', last_name: 'Time', role: 'user' });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const login = await new ApiClient(system.baseUrl).post('/login', { email, password: created.body.password });
      expect(login.status, JSON.stringify(login.body)).toBe(200);
      const id: number = login.body.user.id;
      const socket = await connect(16);
      await socket.authenticate(login.body.jwt);
      await socket.subscribe('notifications-changed');
      await socket.subscribe(`portcalls-changed-${id}`);
      await socket.subscribe('portcalls-changed');
      return {
        id,
        email,
        jwt: login.body.jwt as string,
        api: new ApiClient(system.baseUrl).withSession(login.body.session_id),
        socket,
      };
    };
    const signedOut = async (socket: RealtimeClient) => {
      await expect.poll(() => socket.socket.authState, { timeout: 20_000 }).toBe('unauthenticated');
      // What needs a sign-in is left; the signal stays (an anonymous socket may hold it under `signals`).
      await expect.poll(() => socket.socket.isSubscribed('notifications-changed'), { timeout: 20_000 }).toBe(false);
      expect(socket.socket.isSubscribed('portcalls-changed')).toBe(true);
    };
    /** Its own channel left as well: the server kicks a signed-out socket out of each channel in turn. */
    const leftUserChannel = (user: { id: number; socket: RealtimeClient }) =>
      expect
        .poll(() => user.socket.socket.isSubscribed(`portcalls-changed-${user.id}`), { timeout: 20_000 })
        .toBe(false);

    it('logout: the socket is signed out, and its token no longer signs a socket in', async () => {
      const user = await signedInUser();
      expect((await user.api.post('/logout', {})).status).toBe(200);
      await signedOut(user.socket);
      await leftUserChannel(user);
      const again = await connect(16);
      await expect(again.authenticate(user.jwt)).rejects.toThrow(/ended/);
    });

    it('suspension, lock and deletion sign the socket out', async () => {
      for (const end of [
        (id: number) => admin.post('/user-suspend', { id, suspended: true }),
        (id: number) => admin.post('/user-lock', { id, locked: true }),
        (id: number) => admin.delete(`/users/${id}`),
      ]) {
        const user = await signedInUser();
        const res = await end(user.id);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        await signedOut(user.socket);
        await leftUserChannel(user);
      }
    });

    it('a role without the permission: the socket stays signed in and leaves the channel that needs it', async () => {
      const user = await signedInUser();
      const res = await admin.put(`/users/${user.id}`, {
        id: user.id,
        email: user.email,
        first_name: 'Real',
        last_name: 'Time',
        role: 'consignee',
        updateRole: true,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      await expect
        .poll(() => user.socket.socket.isSubscribed('notifications-changed'), { timeout: 20_000 })
        .toBe(false);
      expect(user.socket.socket.authState).toBe('authenticated');
      expect(user.socket.socket.isSubscribed(`portcalls-changed-${user.id}`)).toBe(true);
      await expect(user.socket.subscribe('notifications-changed')).rejects.toThrow(/needs the permission/);
    });

    it("a permission taken from the user's role: the socket leaves the channel that needs it", async () => {
      const user = await signedInUser();
      expect((await admin.delete('/role-permissions/user/basic_user_action')).status).toBe(200);
      try {
        await expect
          .poll(() => user.socket.socket.isSubscribed('notifications-changed'), { timeout: 20_000 })
          .toBe(false);
        expect(user.socket.socket.authState).toBe('authenticated');
        expect(user.socket.socket.isSubscribed(`portcalls-changed-${user.id}`)).toBe(true);
      } finally {
        expect((await admin.put('/role-permissions/user/basic_user_action')).status).toBe(200);
      }
      // Given back, it is seen at the next re-check.
      await expect
        .poll(
          () =>
            user.socket.subscribe('notifications-changed').then(
              () => true,
              () => false,
            ),
          { timeout: 20_000 },
        )
        .toBe(true);
    });
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
      for (const socket of sockets) {
        await socket.authenticate(session.jwt);
        await socket.subscribe(channel);
      }
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
