// Each gateway process reuses a resolved Bearer session for at most a second (caller-cache.ts): two gateways on the
// same PostgreSQL, event store and sessions (Redis when there is one), each with its own cache. A logout, a removed
// user or a role's revoked permission made through one is refused by that one at once and by the other within
// about a second, even though the other had just served the session.

import type { RunningService } from '@pcas/contracts';
import { ApiClient } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_CALLER_MAX_AGE_MS, startGateway } from './service.ts';
import { startTestGateway, type TestGateway } from './testing/gateway-harness.ts';

let gw: TestGateway;
let other: RunningService & { port: number };
let admin: ApiClient;

beforeAll(async () => {
  gw = await startTestGateway('gw_callers');
  other = await startGateway(gw.deps);
  admin = await gw.as(gw.adminId);
});

afterAll(async () => {
  await other?.stop();
  await gw?.stop();
});

/** A user of role `user` and its session, as clients of the first gateway and of the other. */
async function signedIn() {
  const userId = await gw.createUser('user');
  const session = await gw.sessions.create(userId);
  const here = new ApiClient(gw.baseUrl).withSession(session);
  const there = new ApiClient(`http://127.0.0.1:${other.port}`).withSession(session);
  return { userId, session, here, there };
}

/** Milliseconds until `probe` answers `status` (polling every 50 ms), failing after 3 s. */
async function msUntil(probe: () => Promise<{ status: number }>, status: number): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < 3_000) {
    if ((await probe()).status === status) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`still not ${status} after 3 s`);
}

// A second's reuse, plus what a loaded machine adds to a request.
const PROMPTLY_MS = SESSION_CALLER_MAX_AGE_MS + 500;

describe('a session resolved by another gateway moments ago', () => {
  it('ends with a logout: at once where it was made, within about a second elsewhere', async () => {
    const { here, there } = await signedIn();
    // Both gateways have just resolved the session (and keep it).
    expect((await there.get('/settings')).status).toBe(200);
    expect((await there.get('/settings')).status).toBe(200);
    expect((await here.get('/settings')).status).toBe(200);
    expect((await here.post('/logout')).status).toBe(200);
    expect((await here.get('/settings')).status).toBe(440);
    expect(await msUntil(() => there.get('/settings'), 440)).toBeLessThan(PROMPTLY_MS);
  });

  it('ends when its user is removed', async () => {
    const { userId, here, there } = await signedIn();
    expect((await there.get('/settings')).status).toBe(200);
    expect((await here.get('/settings')).status).toBe(200);
    expect((await admin.delete(`/users/${userId}`)).body).toBe(true);
    expect((await here.get('/settings')).status).toBe(440);
    expect(await msUntil(() => there.get('/settings'), 440)).toBeLessThan(PROMPTLY_MS);
  });

  it('loses a permission its role loses, and gets it back when the role does', async () => {
    const { here, there } = await signedIn();
    try {
      expect((await there.get('/settings')).status).toBe(200);
      expect((await here.get('/settings')).status).toBe(200);
      expect((await admin.delete('/role-permissions/user/basic_user_action')).body).toEqual({ result: 'OK' });
      expect((await here.get('/settings')).status).toBe(403);
      expect(await msUntil(() => there.get('/settings'), 403)).toBeLessThan(PROMPTLY_MS);
      expect((await admin.put('/role-permissions/user/basic_user_action')).body).toEqual({ result: 'OK' });
      expect((await here.get('/settings')).status).toBe(200);
      expect(await msUntil(() => there.get('/settings'), 200)).toBeLessThan(PROMPTLY_MS);
    } finally {
      await admin.put('/role-permissions/user/basic_user_action');
    }
  });

  it('ends within about a second when it expires (ended behind the gateways’ backs)', async () => {
    const { session, here } = await signedIn();
    expect((await here.get('/settings')).status).toBe(200);
    // Not through a gateway (as if its Redis key expired): only the second's reuse bounds how long it is served.
    await gw.sessions.destroy(session);
    expect(await msUntil(() => here.get('/settings'), 440)).toBeLessThan(PROMPTLY_MS);
  });
});
