// Issue 12, pinned vessels (docs/domain.md#pinned-vessels), black-box in both run modes: GET and PUT
// /pinned-vessel-ids per user, GET /ongoing-port-calls carrying each caller's own pins (gzip and plain, never
// stale after a PUT) while a caller without pins gets the very bytes it got before anyone pinned, and every
// refused list answering 400 with its message while storing nothing.

import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { openDb } from '@pcas/sql';
import { ApiClient, type RunningSystem } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAndDataSource, allowEstimatedArrivals, isoSecondsAgo, RUN_MODES } from './timestamps.ts';

const A = 9074729;
const B = 9176187;

/** The response's bytes as they came over the wire (no decoding), with the session of `sessionId`. */
function rawGet(baseUrl: string, sessionId: string, encoding: 'gzip' | 'identity') {
  return new Promise<{ status: number; encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
    const req = request(
      `${baseUrl}/ongoing-port-calls`,
      { headers: { authorization: `Bearer ${sessionId}`, 'accept-encoding': encoding } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            encoding: res.headers['content-encoding'],
            bytes: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe.each(RUN_MODES)('%s mode', (mode, start) => {
  let system: RunningSystem;
  let admin: ApiClient;
  /** Three port-staff users: two who pin, one who never does. */
  const users: { id: number; session: string; client: ApiClient }[] = [];

  beforeAll(async () => {
    system = await start();
    const setup = await adminAndDataSource(system.baseUrl);
    admin = setup.admin;
    await allowEstimatedArrivals(admin, setup.apiKey.id);
    const source = setup.api.withApiKey(setup.apiKey.key);
    for (const [imo, name] of [
      [A, 'Pinned One'],
      [B, 'Pinned Two'],
    ] as const) {
      const res = await source.post('/agent/rest/timestamps', {
        imo,
        vessel_name: name,
        time_type: 'Estimated',
        state: 'Arrival_Vessel_PortArea',
        time: isoSecondsAgo(-7200),
        payload: { source: 'e2e' },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    for (let i = 0; i < 3; i++) {
      const email = `pins-${i}-${Date.now()}@port.local`;
      const created = await admin.post('/users', { email, first_name: 'Pin', last_name: `User${i}`, role: 'user' });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const login = await setup.api.anonymous().post('/login', { email, password: created.body.password });
      users.push({
        id: created.body.id,
        session: login.body.session_id,
        client: setup.api.withSession(login.body.session_id),
      });
    }
    // Generous: the projection runs beside everything else on a machine that may be small and busy.
    const until = Date.now() + 30_000;
    while ((await users[2].client.get('/ongoing-port-calls')).body.portcalls.length < 2) {
      if (Date.now() > until) throw new Error('the port calls did not appear');
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(async () => {
    await system?.stop();
  });

  /** What a caller gets, gzip and plain, checked to be the same document. */
  const ongoing = async (user: { session: string }) => {
    const gzip = await rawGet(system.baseUrl, user.session, 'gzip');
    const plain = await rawGet(system.baseUrl, user.session, 'identity');
    expect([gzip.status, gzip.encoding, plain.status, plain.encoding]).toEqual([200, 'gzip', 200, undefined]);
    expect(gunzipSync(gzip.bytes).equals(plain.bytes)).toBe(true);
    return { gzip: gzip.bytes, plain: plain.bytes, body: JSON.parse(plain.bytes.toString('utf8')) };
  };

  it('keeps each user its own list: [] at first, then the list as sent, in order', async () => {
    const [one, two] = users;
    expect(await one.client.get('/pinned-vessel-ids')).toMatchObject({ status: 200, body: [] });
    expect(await one.client.put('/pinned-vessel-ids', { vessel_ids: [B, A] })).toMatchObject({
      status: 200,
      body: [B, A],
    });
    expect(await two.client.put('/pinned-vessel-ids', { vessel_ids: [A] })).toMatchObject({ status: 200, body: [A] });
    expect((await one.client.get('/pinned-vessel-ids')).body).toEqual([B, A]);
    expect((await two.client.get('/pinned-vessel-ids')).body).toEqual([A]);
    // The same list again is accepted as it is; no body means none pinned, as in the original.
    expect((await two.client.put('/pinned-vessel-ids', { vessel_ids: [A] })).body).toEqual([A]);
    expect(await two.client.put('/pinned-vessel-ids')).toMatchObject({ status: 200, body: [] });
    expect((await two.client.get('/pinned-vessel-ids')).body).toEqual([]);
  });

  it("serves each caller's pins in GET /ongoing-port-calls, gzip and plain, fresh after every PUT, and a caller without pins the same bytes as before", async () => {
    const [one, two, none] = users;
    await one.client.put('/pinned-vessel-ids', { vessel_ids: [] });
    await two.client.put('/pinned-vessel-ids', { vessel_ids: [] });
    const before = await ongoing(none);
    expect(before.body.pinned_vessels).toEqual([]);
    expect(before.body.portcalls.map((p: any) => p.ship.imo).sort()).toEqual([A, B].sort());
    // Nobody has pins: everyone gets the one stored document.
    expect((await ongoing(one)).gzip.equals(before.gzip)).toBe(true);

    const lists = [[A], [B, A], [], [A, B], [B]];
    for (const [i, list] of lists.entries()) {
      const other = lists[(i + 2) % lists.length];
      expect((await one.client.put('/pinned-vessel-ids', { vessel_ids: list })).status).toBe(200);
      expect((await two.client.put('/pinned-vessel-ids', { vessel_ids: other })).status).toBe(200);
      const [mine, theirs] = [await ongoing(one), await ongoing(two)];
      expect([mine.body.pinned_vessels, theirs.body.pinned_vessels], `round ${i}`).toEqual([list, other]);
      expect(mine.body.portcalls).toEqual(before.body.portcalls);
    }

    const after = await ongoing(none);
    expect(after.gzip.equals(before.gzip)).toBe(true);
    expect(after.plain.equals(before.plain)).toBe(true);
  });

  it('refuses a bad list with 400 and its message, storing nothing', async () => {
    const [one] = users;
    await one.client.put('/pinned-vessel-ids', { vessel_ids: [A, B] });
    const eventsOfOne = async () => {
      if (mode !== 'fleet') return undefined;
      const db = await openDb({ url: system.env.DATABASE_URL, poolSize: 1 });
      try {
        const { rows } = await db.query<{ n: string }>(
          'SELECT count(*) AS n FROM eventstore.events WHERE stream_id = $1',
          [`pins-${one.id}`],
        );
        return Number(rows[0].n);
      } finally {
        await db.close();
      }
    };
    const stored = await eventsOfOne();
    const cases: [unknown, string][] = [
      ['9074729', "Wrong parameter type: vessel_ids should be array but got '9074729'"],
      [{ 0: A }, 'vessel_ids should be a list of IMO numbers'],
      [[String(A)], 'Invalid IMO: "9074729"'],
      [[A, 1.5], 'Invalid IMO: 1.5'],
      [[1234568], 'Invalid IMO: 1234568'],
      [[123], 'Invalid IMO: 123'],
      [[null], 'Invalid IMO: null'],
      [[-A], 'Invalid IMO: -9074729'],
      [[A, B, A], 'Duplicate IMO: 9074729'],
      [Array.from({ length: 501 }, (_, i) => 100_000_000 + i), 'Too many pinned vessels: at most 500'],
    ];
    for (const [vessel_ids, error] of cases) {
      expect(await one.client.put('/pinned-vessel-ids', { vessel_ids }), JSON.stringify(vessel_ids)).toMatchObject({
        status: 400,
        body: { error },
      });
    }
    expect((await one.client.get('/pinned-vessel-ids')).body).toEqual([A, B]);
    expect((await ongoing(one)).body.pinned_vessels).toEqual([A, B]);
    expect(await eventsOfOne()).toBe(stored);
    // The same list again stores nothing either.
    await one.client.put('/pinned-vessel-ids', { vessel_ids: [A, B] });
    expect(await eventsOfOne()).toBe(stored);
  });

  it('asks for a session', async () => {
    const anonymous = new ApiClient(system.baseUrl);
    expect((await anonymous.get('/pinned-vessel-ids')).status).toBe(403);
    expect((await anonymous.put('/pinned-vessel-ids', { vessel_ids: [A] })).status).toBe(403);
  });
});
