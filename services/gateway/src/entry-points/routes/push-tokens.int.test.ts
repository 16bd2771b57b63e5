// The push-token routes over HTTP: who may call them, the parameters' types checked by the kit (nothing reaches
// the notifier on bad input), the command sent to the notifier with the caller as its actor, and its answer or
// refusal passed back. The notifier is faked on the bus; the tokens themselves are the notifier's
// (services/notifier/src/entry-points/push-tokens.int.test.ts).

import { ApiError, NOTIFIER, PushTokenCommands } from '@pcas/contracts';
import type { ApiClient } from '@pcas/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/gateway-harness.ts';

let gw: TestGateway;
let alice: ApiClient;
let aliceId: number;
let pushService: ApiClient;
let pushServiceKey: { id: number; key: string };
let calls: { command: string; payload: any }[] = [];
let refusal: ApiError | undefined;

beforeAll(async () => {
  gw = await startTestGateway('gw_push_tokens');
  aliceId = await gw.createUser('first_user');
  alice = await gw.as(aliceId);
  pushServiceKey = await gw.createApiKey('push service');
  pushService = gw.anonymous.withApiKey(pushServiceKey.key);
  await gw.deps.bus.serveRpc(NOTIFIER, async (command, payload) => {
    calls.push({ command, payload });
    if (refusal) throw refusal;
    return command === PushTokenCommands.registerPushToken ? 41 : null;
  });
});

afterAll(async () => {
  await gw?.stop();
});

beforeEach(() => {
  calls = [];
  refusal = undefined;
});

const device = { installation_id: 'inst-1', platform: 'android', push_token: 'ExponentPushToken[aaa]' };

describe('POST /register-push-token', () => {
  it('sends the registration to the notifier as the caller and answers its reply', async () => {
    expect(await alice.post('/register-push-token', device)).toMatchObject({ status: 200, body: 41 });
    expect(calls).toEqual([
      {
        command: PushTokenCommands.registerPushToken,
        payload: { actor: { user_id: aliceId, api_key_id: null }, input: device },
      },
    ]);
  });

  it("passes the notifier's refusal on", async () => {
    refusal = ApiError.badRequest('Invalid Device Identifier');
    expect(await alice.post('/register-push-token', { ...device, installation_id: '' })).toMatchObject({
      status: 400,
      body: { error: 'Invalid Device Identifier' },
    });
  });

  it('needs basic_user_action', async () => {
    const consignee = await gw.as(await gw.createUser('consignee'));
    expect(await consignee.post('/register-push-token', device)).toMatchObject({
      status: 403,
      body: { error: 'Invalid access' },
    });
    expect(await gw.anonymous.post('/register-push-token', device)).toMatchObject({ status: 403 });
    expect(await pushService.post('/register-push-token', device)).toMatchObject({ status: 403 });
    expect(calls).toEqual([]);
  });
});

describe('POST /push-notification-tokens (the push service)', () => {
  it('sends the tokens to the notifier as the API key', async () => {
    const tokens = ['ExponentPushToken[stale]', 'ExponentPushToken[unknown]'];
    expect(await pushService.post('/push-notification-tokens', { tokens })).toMatchObject({ status: 200, body: null });
    expect(calls).toMatchObject([
      {
        command: PushTokenCommands.removeStalePushTokens,
        payload: { actor: { api_key_id: pushServiceKey.id }, input: { tokens } },
      },
    ]);
  });

  it('is for API keys only', async () => {
    const admin = await gw.as(gw.adminId);
    expect(await admin.post('/push-notification-tokens', { tokens: [] })).toMatchObject({
      status: 403,
      body: { error: 'Invalid access' },
    });
    expect(calls).toEqual([]);
  });
});

describe('bad parameters never reach the notifier', () => {
  const cases: [string, () => ApiClient, Record<string, unknown>, string][] = [
    ['/register-push-token', () => alice, {}, 'Missing parameter: installation_id'],
    ['/register-push-token', () => alice, { installation_id: 'x', platform: 'ios' }, 'Missing parameter: push_token'],
    [
      '/register-push-token',
      () => alice,
      { ...device, installation_id: 'i'.repeat(256) },
      'Parameter too long: installation_id',
    ],
    [
      '/register-push-token',
      () => alice,
      { ...device, push_token: 't'.repeat(1001) },
      'Parameter too long: push_token',
    ],
    ['/push-notification-tokens', () => pushService, {}, 'Missing parameter: tokens'],
    [
      '/push-notification-tokens',
      () => pushService,
      { tokens: 'x' },
      // Values of token-like parameters are never echoed.
      "Wrong parameter type: tokens should be array but got '<hidden>'",
    ],
  ];

  it.each(cases)('POST %s, case %#', async (path, client, body, error) => {
    const res = await client().post(path, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error });
    expect(calls).toEqual([]);
  });
});
