// Push tokens over HTTP, on real PostgreSQL: registering, moving a device between users, unregistering, the
// push service's stale-token report, and bad input.

import type { ApiClient } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeSnapshot, startTestGateway, type TestGateway } from '../testing/gateway-harness.ts';

let gw: TestGateway;
let alice: ApiClient;
let aliceId: number;
let bob: ApiClient;
let bobId: number;
let pushService: ApiClient;

const rows = async () =>
  (await gw.db.query('SELECT id, user_id, platform, installation_id, push_token FROM gateway.push_tokens ORDER BY id'))
    .rows;

beforeAll(async () => {
  gw = await startTestGateway('gw_push_tokens');
  aliceId = await gw.createUser('first_user');
  alice = await gw.as(aliceId);
  bobId = await gw.createUser('user');
  bob = await gw.as(bobId);
  pushService = gw.anonymous.withApiKey((await gw.createApiKey('push service')).key);
});

afterAll(async () => {
  await gw?.stop();
});

describe('POST /register-push-token', () => {
  let id: number;

  it('registers a device to the caller and returns its id', async () => {
    const res = await alice.post('/register-push-token', {
      installation_id: 'inst-1',
      platform: 'android',
      push_token: 'ExponentPushToken[aaa]',
    });
    expect(res.status).toBe(200);
    id = res.body;
    expect(typeof id).toBe('number');
    expect(await rows()).toEqual([
      { id, user_id: aliceId, platform: 'android', installation_id: 'inst-1', push_token: 'ExponentPushToken[aaa]' },
    ]);
    const events = await gw.store.readStream(`pushtoken-${id}`);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'PushTokenRegistered',
      data: { id, user_id: aliceId, previous_user_id: null, push_token: 'ExponentPushToken[aaa]' },
      metadata: { user_id: aliceId },
    });
    // The same registration again changes nothing.
    const again = await alice.post('/register-push-token', {
      installation_id: 'inst-1',
      platform: 'android',
      push_token: 'ExponentPushToken[aaa]',
    });
    expect(again.body).toBe(id);
    expect(await gw.store.readStream(`pushtoken-${id}`)).toHaveLength(1);
  });

  it('one device, one user: registering it again moves it to the current user', async () => {
    const res = await bob.post('/register-push-token', {
      installation_id: 'inst-1',
      platform: 'android',
      push_token: 'ExponentPushToken[bbb]',
    });
    expect(res.body).toBe(id);
    expect(await rows()).toMatchObject([{ id, user_id: bobId, push_token: 'ExponentPushToken[bbb]' }]);
    expect((await gw.store.readStream(`pushtoken-${id}`)).at(-1)).toMatchObject({
      type: 'PushTokenRegistered',
      data: { user_id: bobId, previous_user_id: aliceId },
    });
    // Another platform with the same installation id is another device.
    const ios = await alice.post('/register-push-token', {
      installation_id: 'inst-1',
      platform: 'ios',
      push_token: 'ExponentPushToken[ccc]',
    });
    expect(ios.body).not.toBe(id);
    expect(await rows()).toHaveLength(2);
  });

  it('an empty token unregisters the device', async () => {
    const res = await bob.post('/register-push-token', {
      installation_id: 'inst-1',
      platform: 'android',
      push_token: '',
    });
    expect(res).toMatchObject({ status: 200, body: id });
    expect((await rows()).map((r) => r.platform)).toEqual(['ios']);
    expect((await gw.store.readStream(`pushtoken-${id}`)).at(-1)).toMatchObject({
      type: 'PushTokenRemoved',
      data: { id, user_id: bobId, reason: 'unregistered' },
    });
    const none = await bob.post('/register-push-token', {
      installation_id: 'inst-1',
      platform: 'android',
      push_token: '',
    });
    expect(none).toMatchObject({ status: 200, body: 0 });
  });

  it('needs basic_user_action', async () => {
    const body = { installation_id: 'inst-9', platform: 'ios', push_token: 'ExponentPushToken[x]' };
    const consignee = await gw.as(await gw.createUser('consignee'));
    expect(await consignee.post('/register-push-token', body)).toMatchObject({
      status: 403,
      body: { error: 'Invalid access' },
    });
    expect(await gw.anonymous.post('/register-push-token', body)).toMatchObject({ status: 403 });
    expect(await pushService.post('/register-push-token', body)).toMatchObject({ status: 403 });
  });
});

describe('POST /push-notification-tokens (the push service)', () => {
  it('deletes the devices of stale tokens and records why', async () => {
    await alice.post('/register-push-token', {
      installation_id: 'inst-2',
      platform: 'android',
      push_token: 'ExponentPushToken[stale]',
    });
    const staleRow = (await rows()).find((r) => r.push_token === 'ExponentPushToken[stale]')!;
    const res = await pushService.post('/push-notification-tokens', {
      tokens: ['ExponentPushToken[stale]', 'ExponentPushToken[unknown]'],
    });
    expect(res).toMatchObject({ status: 200, body: null });
    expect((await rows()).map((r) => r.push_token)).toEqual(['ExponentPushToken[ccc]']);
    expect((await gw.store.readStream(`pushtoken-${staleRow.id}`)).at(-1)).toMatchObject({
      type: 'PushTokenRemoved',
      data: { reason: 'stale', user_id: aliceId },
    });
  });

  it('is for API keys only', async () => {
    const admin = await gw.as(gw.adminId);
    expect(await admin.post('/push-notification-tokens', { tokens: [] })).toMatchObject({
      status: 403,
      body: { error: 'Invalid access' },
    });
  });
});

describe('bad input changes nothing', () => {
  const ok = { installation_id: 'inst-3', platform: 'ios', push_token: 'ExponentPushToken[ok]' };
  const cases: [string, () => ApiClient, Record<string, unknown>, string][] = [
    ['/register-push-token', () => alice, {}, 'Missing parameter: installation_id'],
    ['/register-push-token', () => alice, { installation_id: 'x', platform: 'ios' }, 'Missing parameter: push_token'],
    ['/register-push-token', () => alice, { ...ok, installation_id: '' }, 'Invalid Device Identifier'],
    ['/register-push-token', () => alice, { ...ok, installation_id: { a: 1 } }, 'Invalid Device Identifier'],
    [
      '/register-push-token',
      () => alice,
      { ...ok, installation_id: 'i'.repeat(256) },
      'Parameter too long: installation_id',
    ],
    ['/register-push-token', () => alice, { ...ok, platform: '' }, 'Invalid Device Platform'],
    ['/register-push-token', () => alice, { ...ok, platform: 7.5 }, 'Invalid Device Platform'],
    ['/register-push-token', () => alice, { ...ok, push_token: ['x'] }, 'Invalid push token'],
    ['/register-push-token', () => alice, { ...ok, push_token: 't'.repeat(1001) }, 'Parameter too long: push_token'],
    ['/push-notification-tokens', () => pushService, {}, 'Missing parameter: tokens'],
    [
      '/push-notification-tokens',
      () => pushService,
      { tokens: 'x' },
      // Values of token-like parameters are never echoed.
      "Wrong parameter type: tokens should be array but got '<hidden>'",
    ],
    [
      '/push-notification-tokens',
      () => pushService,
      { tokens: { a: 'ExponentPushToken[ccc]' } },
      'Invalid tokens: expected a list of at most 10000 tokens',
    ],
    [
      '/push-notification-tokens',
      () => pushService,
      { tokens: ['ExponentPushToken[ccc]', 5] },
      'Invalid tokens: every token must be a string',
    ],
  ];

  it.each(cases)('POST %s, case %#', async (path, client, body, error) => {
    const before = await changeSnapshot(gw.db);
    const res = await client().post(path, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
    expect(await changeSnapshot(gw.db)).toBe(before);
  });
});
