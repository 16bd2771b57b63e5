// Each gateway process reuses a resolved Bearer session, API key and module switch for at most a second
// (caller-cache.ts): two gateways on the same PostgreSQL, event store and sessions (Redis when there is one), each
// with its own caches. A logout, a removed user, a role's revoked permission, a disabled key or a module switched
// off made through one holds in that one for the very next request and in the other within about a second, even
// though the other had just served the caller.

import type { RunningService } from '@pcas/contracts';
import { ApiClient } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLER_MAX_AGE_MS, startGateway } from './service.ts';
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

/**
 * Every look-up the other gateway keeps began before the change was made, and none is used longer than
 * CALLER_MAX_AGE_MS from its start: a request sent that long after the change must see it. No upper bound on
 * how long the request itself takes, so a loaded machine cannot fail it.
 */
async function seenAfterMaxAge(probe: () => Promise<{ status: number }>, status: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, CALLER_MAX_AGE_MS + 50));
  expect((await probe()).status).toBe(status);
}

describe('a session resolved by another gateway moments ago', () => {
  it('ends with a logout: at once where it was made, within about a second elsewhere', async () => {
    const { here, there } = await signedIn();
    // Both gateways have just resolved the session (and keep it).
    expect((await there.get('/settings')).status).toBe(200);
    expect((await there.get('/settings')).status).toBe(200);
    expect((await here.get('/settings')).status).toBe(200);
    expect((await here.post('/logout')).status).toBe(200);
    expect((await here.get('/settings')).status).toBe(440);
    await seenAfterMaxAge(() => there.get('/settings'), 440);
  });

  it('ends when its user is removed', async () => {
    const { userId, here, there } = await signedIn();
    expect((await there.get('/settings')).status).toBe(200);
    expect((await here.get('/settings')).status).toBe(200);
    expect((await admin.delete(`/users/${userId}`)).body).toBe(true);
    expect((await here.get('/settings')).status).toBe(440);
    await seenAfterMaxAge(() => there.get('/settings'), 440);
  });

  it('loses a permission its role loses, and gets it back when the role does', async () => {
    const { here, there } = await signedIn();
    try {
      expect((await there.get('/settings')).status).toBe(200);
      expect((await here.get('/settings')).status).toBe(200);
      expect((await admin.delete('/role-permissions/user/basic_user_action')).body).toEqual({ result: 'OK' });
      expect((await here.get('/settings')).status).toBe(403);
      await seenAfterMaxAge(() => there.get('/settings'), 403);
      expect((await admin.put('/role-permissions/user/basic_user_action')).body).toEqual({ result: 'OK' });
      expect((await here.get('/settings')).status).toBe(200);
      await seenAfterMaxAge(() => there.get('/settings'), 200);
    } finally {
      await admin.put('/role-permissions/user/basic_user_action');
    }
  });

  it('ends within about a second when it expires (ended behind the gateways’ backs)', async () => {
    const { session, here } = await signedIn();
    expect((await here.get('/settings')).status).toBe(200);
    // Not through a gateway (as if its Redis key expired): only the second's reuse bounds how long it is served.
    await gw.sessions.destroy(session);
    await seenAfterMaxAge(() => here.get('/settings'), 440);
  });
});

describe('a module switch read by both gateways moments ago', () => {
  it('switched off holds at once where it was switched, within about a second elsewhere; on again likewise', async () => {
    const there = new ApiClient(`http://127.0.0.1:${other.port}`).withSession(await gw.sessions.create(gw.adminId));
    const berths = (client: ApiClient) => client.get('/all-nominatable-berths');
    const off = { status: 403, body: { error: 'Queue module is disabled' } };
    try {
      expect((await berths(there)).status).toBe(200);
      expect((await berths(admin)).status).toBe(200);
      expect((await admin.put('/settings/queue_module/disabled')).status).toBe(200);
      expect(await berths(admin)).toMatchObject(off);
      await seenAfterMaxAge(() => berths(there), 403);
      expect(await berths(there)).toMatchObject(off);
      expect((await admin.put('/settings/queue_module/enabled')).status).toBe(200);
      expect((await berths(admin)).status).toBe(200);
      await seenAfterMaxAge(() => berths(there), 200);
    } finally {
      await admin.put('/settings/queue_module/enabled');
    }
  });
});

describe('an API key resolved by both gateways moments ago', () => {
  it('disabled is refused at once where it was disabled, within about a second elsewhere; enabled likewise', async () => {
    const { id, key } = await gw.createApiKey('cached key');
    const here = new ApiClient(gw.baseUrl).withApiKey(key);
    const there = new ApiClient(`http://127.0.0.1:${other.port}`).withApiKey(key);
    // A route of API keys (`timestamp`) that changes nothing.
    const read = (client: ApiClient) => client.get('/agent/rest/slot-reservation-by-id', { id: 1 });
    const refused = { status: 403, body: { error: 'Invalid access' } };
    expect((await read(there)).status).toBe(200);
    expect((await read(there)).status).toBe(200);
    expect((await read(here)).status).toBe(200);
    expect((await admin.put('/api-keys/disable', { id })).body).toBe(true);
    expect(await read(here)).toMatchObject(refused);
    await seenAfterMaxAge(() => read(there), 403);
    // Refused (and so known as refused) by both: enabled, it is accepted again at once where it was enabled.
    expect(await read(here)).toMatchObject(refused);
    expect((await admin.put('/api-keys/enable', { id })).body).toBe(true);
    expect((await read(here)).status).toBe(200);
    await seenAfterMaxAge(() => read(there), 200);
  });

  it('loses a permission its bound user’s role loses, at once where the role changed', async () => {
    const { key } = await gw.createApiKey('role key');
    const here = new ApiClient(gw.baseUrl).withApiKey(key);
    // `GET /api-keys` needs manage_api_key, which the bound user's role (inactive_user) gets only here.
    const list = () => here.get('/api-keys', { limit: 1, offset: 0, sort: 'id' });
    try {
      expect((await list()).status).toBe(403);
      expect((await admin.put('/role-permissions/inactive_user/manage_api_key')).body).toEqual({ result: 'OK' });
      expect((await list()).status).toBe(200);
      // Again through the cached key (its permissions built once for it).
      expect((await list()).status).toBe(200);
      expect((await admin.delete('/role-permissions/inactive_user/manage_api_key')).body).toEqual({ result: 'OK' });
      expect((await list()).status).toBe(403);
    } finally {
      await admin.delete('/role-permissions/inactive_user/manage_api_key');
    }
  });
});
