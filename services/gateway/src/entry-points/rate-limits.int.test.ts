// The rate limits of the routes a stranger can cost us something on (docs/security.md#limits), and failed sign-ins
// counted per account and client address, over real HTTP against the gateway harness (limits in Redis when there
// is one). Requests leave from different loopback addresses (127.0.0.x) to be different clients; each test has
// addresses and e-mails of its own, and each gateway its own NAMESPACE, so no two tests share a limiter key.

import { request } from 'node:http';
import { parsePasswordRules } from '@pcas/config';
import type { RunningService } from '@pcas/contracts';
import type { ApiClient } from '@pcas/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimits } from '../adapters/rate-limits.ts';
import { startGateway } from './service.ts';
import { startTestGateway, type TestGateway } from './testing/gateway-harness.ts';

const LOCKED = { message: 'Too many failed login attempts. Account locked.' };
const SUSPENDED = { message: 'Too many failed login attempts. Account suspended for 15 minute(s).' };
const INVALID_ACCESS = { error: 'Invalid access' };
const TOO_MANY = { error: 'Too many requests, try again later' };
const HOUR = 3600;

// `user`: suspended at the 2nd failure, locked at the 3rd; `first_user`: neither, to see the rate limits alone.
const PASSWORD_RULES = parsePasswordRules(
  '{"user":{"suspend_failures":"2","lock_failures":"3"},"first_user":{"suspend_failures":"0","lock_failures":"0"}}',
);
const LIMITS = {
  loginPerAddressAccount: { points: 6, seconds: HOUR },
  loginPerAddress: { points: 8, seconds: HOUR },
  resetPerEmail: { points: 2, seconds: HOUR },
  resetPerAddress: { points: 3, seconds: HOUR },
  registerPerEmail: { points: 2, seconds: HOUR },
  registerPerAddress: { points: 3, seconds: HOUR },
  visPerAddress: { points: 3, seconds: HOUR },
};

let gw: TestGateway;
let admin: ApiClient;

beforeAll(async () => {
  gw = await startTestGateway('gw_limits', { passwordRules: PASSWORD_RULES, rateLimits: LIMITS });
  admin = await gw.as(gw.adminId);
});

afterAll(async () => {
  await gw?.stop();
});

interface Answer {
  status: number;
  retryAfter: string | undefined;
  body: any;
}

/** A request from the loopback address `from` (the client the gateway sees, unless a proxy it trusts says else). */
function call(
  baseUrl: string,
  from: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const { port } = new URL(baseUrl);
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        localAddress: from,
        method: 'POST',
        path,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          const header = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, retryAfter: header, body: raw ? JSON.parse(raw) : null });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

const post = (from: string, path: string, body: unknown, headers?: Record<string, string>) =>
  call(gw.baseUrl, from, path, body, headers);

const login = (from: string, email: string, password: string) => post(from, '/login', { email, password });

/** A user of the role with a known password, made through the API. */
async function newUser(role: string, name: string): Promise<{ id: number; email: string; password: string }> {
  const email = `${name}-${Math.random().toString(36).slice(2, 8)}@limits.test`;
  const res = await admin.post('/users', { email, first_name: 'Rate', last_name: name, role });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.id, email, password: res.body.password };
}

/** A 429 as the kit answers it: the one error shape and a whole number of seconds to wait, at most the window. */
function expectTooMany(answer: Answer, windowSeconds = HOUR) {
  expect(answer.status).toBe(429);
  expect(answer.body).toEqual(TOO_MANY);
  expect(answer.retryAfter).toMatch(/^\d+$/);
  expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(answer.retryAfter)).toBeLessThanOrEqual(windowSeconds);
}

const userInList = async (email: string) =>
  (await admin.get('/users', { limit: 10, offset: 0, sort: 'id', search: email })).body.data[0];

describe('failed sign-ins count per account and client address', () => {
  it('a flood from one address suspends and locks the account there only: the owner signs in from another', async () => {
    const owner = await newUser('user', 'owner');
    const stranger = '127.0.0.2';
    const home = '127.0.0.3';

    // The original's answers, for the one address that fails: 403, then suspended at the 2nd failure.
    expect((await login(stranger, owner.email, 'wrong-password')).body).toEqual(INVALID_ACCESS);
    expect(await login(stranger, owner.email, 'wrong-password')).toMatchObject({ status: 200, body: SUSPENDED });
    expect((await login(stranger, owner.email, owner.password)).body).toEqual(SUSPENDED);
    const fromHome = await login(home, owner.email, owner.password);
    expect(fromHome.status).toBe(200);
    expect(fromHome.body.session_id).toEqual(expect.any(String));
    expect(await userInList(owner.email)).toMatchObject({ suspended: true, locked: false });

    // An administrator's unsuspension ends the stranger's suspension; the count goes on and the 3rd locks.
    expect((await admin.post('/user-suspend', { id: owner.id, suspended: false })).status).toBe(200);
    expect((await login(stranger, owner.email, 'wrong-password')).body).toEqual(LOCKED);
    expect((await login(stranger, owner.email, owner.password)).body).toEqual(LOCKED);
    expect((await login(home, owner.email, owner.password)).body.session_id).toEqual(expect.any(String));
    expect(await userInList(owner.email)).toMatchObject({ locked: true });

    // The account itself is neither suspended nor locked; the failures are the stranger's, in its events.
    const { rows } = await gw.db.query<{ failed_logins: number; suspend_start: Date | null; locked: boolean }>(
      'SELECT failed_logins, suspend_start, locked FROM gateway.users WHERE id = $1',
      [owner.id],
    );
    expect(rows[0]).toEqual({ failed_logins: 0, suspend_start: null, locked: false });
    const failed = (await gw.store.readStream(`user-${owner.id}`)).filter((e) => e.type === 'UserLoginFailed');
    expect(failed.map((e) => e.data)).toEqual([
      { id: owner.id, failed_logins: 1, suspend_start: null, locked: false, client: stranger },
      { id: owner.id, failed_logins: 2, suspend_start: expect.any(String), locked: false, client: stranger },
      { id: owner.id, failed_logins: 3, suspend_start: null, locked: true, client: stranger },
    ]);

    // Unlocking forgets every client's failures.
    expect((await admin.post('/user-lock', { id: owner.id, locked: false })).status).toBe(200);
    expect((await login(stranger, owner.email, owner.password)).body.session_id).toEqual(expect.any(String));
    expect(await userInList(owner.email)).toMatchObject({ suspended: false, locked: false });
  });

  it("a sign-in clears its own client's failures, not another's", async () => {
    const owner = await newUser('user', 'clears');
    const [stranger, home] = ['127.0.0.4', '127.0.0.5'];
    await login(stranger, owner.email, 'wrong-password');
    await login(home, owner.email, 'wrong-password');
    expect((await login(home, owner.email, owner.password)).status).toBe(200);
    // The stranger's one failure stands: its next one is its 2nd, which suspends.
    expect((await login(stranger, owner.email, 'wrong-password')).body).toEqual(SUSPENDED);
    // Home's count started again: one failure is a 403.
    expect((await login(home, owner.email, 'wrong-password')).body).toEqual(INVALID_ACCESS);
  });
});

describe('sign-in limits', () => {
  it('answer 429 with Retry-After once one address has failed too often on one account; others sign in', async () => {
    const target = await newUser('first_user', 'target');
    const from = '127.0.0.6';
    for (let i = 0; i < LIMITS.loginPerAddressAccount.points; i++) {
      expect((await login(from, target.email, `wrong-${i}`)).body).toEqual(INVALID_ACCESS);
    }
    expectTooMany(await login(from, target.email, 'wrong-again'));
    // Counted before the password is looked at: the right one is refused too, from there.
    expectTooMany(await login(from, target.email.toUpperCase(), target.password));
    expect((await login('127.0.0.7', target.email, target.password)).status).toBe(200);
  });

  it('limit one address whatever the accounts it tries', async () => {
    const from = '127.0.0.8';
    for (let i = 0; i < LIMITS.loginPerAddress.points; i++) {
      expect((await login(from, `nobody-${i}@limits.test`, 'whatever-password')).body).toEqual(INVALID_ACCESS);
    }
    const someone = await newUser('first_user', 'someone');
    expectTooMany(await login(from, someone.email, someone.password));
    expect((await login('127.0.0.9', someone.email, someone.password)).status).toBe(200);
  });

  it('do not count sign-ins that succeed', async () => {
    const regular = await newUser('first_user', 'regular');
    const from = '127.0.0.10';
    for (let i = 0; i < LIMITS.loginPerAddress.points + 2; i++) {
      expect((await login(from, regular.email, regular.password)).status).toBe(200);
    }
    // Every point is still there: as many failures as the limit allows are answered as failures.
    for (let i = 0; i < LIMITS.loginPerAddressAccount.points; i++) {
      expect((await login(from, regular.email, 'wrong-password')).body).toEqual(INVALID_ACCESS);
    }
    expectTooMany(await login(from, regular.email, 'wrong-password'));
  });
});

describe('password reset limits', () => {
  const reset = (from: string, email: string) => post(from, '/request-password-reset', { email, port: 'Gävle' });
  const REQUESTED = { status: 200, body: { message: 'Password reset requested' } };

  it('per e-mail address, from any client', async () => {
    const email = 'reset-target@limits.test';
    for (let i = 0; i < LIMITS.resetPerEmail.points; i++)
      expect(await reset('127.0.0.11', email)).toMatchObject(REQUESTED);
    expectTooMany(await reset('127.0.0.11', email));
    // Spelt otherwise, from elsewhere: the same address.
    expectTooMany(await reset('127.0.0.12', ' Reset-Target@LIMITS.test '));
    expect(await reset('127.0.0.12', 'reset-other@limits.test')).toMatchObject(REQUESTED);
  });

  it('per client address, whatever the e-mail', async () => {
    const from = '127.0.0.13';
    for (let i = 0; i < LIMITS.resetPerAddress.points; i++) {
      expect(await reset(from, `reset-${i}@limits.test`)).toMatchObject(REQUESTED);
    }
    expectTooMany(await reset(from, 'reset-fresh@limits.test'));
  });
});

describe('registration limits', () => {
  const person = (email: string) => ({ first_name: 'New', last_name: 'Person', email, password: 'a-long-password' });
  const withCode = (from: string, email: string) =>
    post(from, '/register', { ...person(email), code: 'NOSUCH-123456' });
  const codeless = (from: string, email: string) => post(from, '/codeless-register', person(email));

  it('per e-mail address, across both sign-ups and clients', async () => {
    const email = 'signup@limits.test';
    for (let i = 0; i < LIMITS.registerPerEmail.points; i++) {
      expect((await withCode('127.0.0.14', email)).body).toEqual({ error: 'Invalid code' });
    }
    expectTooMany(await withCode('127.0.0.14', email));
    expectTooMany(await codeless('127.0.0.15', email));
  });

  it('per client address, across both sign-ups', async () => {
    const from = '127.0.0.16';
    for (let i = 0; i < LIMITS.registerPerAddress.points; i++) {
      expect((await codeless(from, `signup-${i}@limits.test`)).body).toEqual({
        error: 'Codeless registration not permitted',
      });
    }
    expectTooMany(await withCode(from, 'signup-fresh@limits.test'));
  });
});

describe('VIS peer endpoints', () => {
  it('limit each sender address before its body is read', async () => {
    const from = '127.0.0.17';
    for (let i = 0; i < LIMITS.visPerAddress.points; i++) {
      expect(await post(from, '/vis/textMessage', '{not json')).toMatchObject({ status: 400 });
    }
    // Not a 400: the limit answers before the body is parsed, and so before any signature check or RPC.
    expectTooMany(await post(from, '/vis/textMessage', '{not json'));
    expectTooMany(await post(from, '/api/v1/vis/voyagePlans', { message: '<route/>' }));
    expect(await post('127.0.0.18', '/vis/textMessage', '{not json')).toMatchObject({ status: 400 });
  });
});

describe('the client address', () => {
  it('is the socket peer without trusted proxies: X-Forwarded-For changes nothing', async () => {
    const from = '127.0.0.19';
    for (let i = 0; i < LIMITS.visPerAddress.points; i++) {
      const forwarded = { 'X-Forwarded-For': `203.0.113.${i + 1}` };
      expect(await post(from, '/vis/textMessage', '{not json', forwarded)).toMatchObject({ status: 400 });
    }
    expectTooMany(await post(from, '/vis/textMessage', '{not json', { 'X-Forwarded-For': '203.0.113.99' }));
  });

  it('is the one a trusted proxy names, and only a trusted one', async () => {
    const proxied = await startTestGateway('gw_limits_proxy', {
      rateLimits: LIMITS,
      trustedProxies: ['127.0.0.20'],
    });
    try {
      const via = (from: string, client: string, body: unknown = '{not json', path = '/vis/textMessage') =>
        call(proxied.baseUrl, from, path, body, { 'X-Forwarded-For': `198.51.100.7, ${client}` });
      for (let i = 0; i < LIMITS.visPerAddress.points; i++) {
        expect(await via('127.0.0.20', '203.0.113.1')).toMatchObject({ status: 400 });
      }
      expectTooMany(await via('127.0.0.20', '203.0.113.1'));
      // Another client behind the same proxy has its own count.
      expect(await via('127.0.0.20', '203.0.113.2')).toMatchObject({ status: 400 });
      // A peer that is not the proxy cannot choose its address: it is counted as itself.
      for (let i = 0; i < LIMITS.visPerAddress.points; i++) {
        expect(await via('127.0.0.21', `203.0.113.${10 + i}`)).toMatchObject({ status: 400 });
      }
      expectTooMany(await via('127.0.0.21', '203.0.113.20'));

      // The sign-in records the address the proxy named (UserLoggedIn's remote_addr).
      const credentials = { email: proxied.config.adminEmail, password: proxied.config.adminPassword };
      expect((await via('127.0.0.20', '203.0.113.30', credentials, '/login')).status).toBe(200);
      const events = await proxied.store.readStream(`user-${proxied.adminId}`);
      const logins = events.filter((e) => e.type === 'UserLoggedIn');
      expect(logins.at(-1)!.data).toMatchObject({
        last_login_data: { remote_addr: '203.0.113.30', x_forwarded_for: '198.51.100.7, 203.0.113.30' },
      });
    } finally {
      await proxied.stop();
    }
  });
});

describe('in Redis (the fleet)', () => {
  it('every gateway process counts together', async (ctx) => {
    // Only where the harness found a Redis (always in CI, where one is required).
    if (!gw.redisUrl) ctx.skip();
    // A second gateway process: same database, its own connection to the same Redis and the same key prefix.
    const redis = new Redis(gw.redisUrl!);
    let other: (RunningService & { port: number }) | undefined;
    try {
      const rateLimiter = createRateLimits(gw.config.rateLimits, { redis, prefix: gw.rateLimitPrefix });
      other = await startGateway({ ...gw.deps, rateLimiter });
      const otherUrl = `http://127.0.0.1:${other.port}`;
      const from = '127.0.0.22';
      for (let i = 0; i < LIMITS.visPerAddress.points; i++) {
        const url = i % 2 === 0 ? gw.baseUrl : otherUrl;
        expect(await call(url, from, '/vis/textMessage', '{not json')).toMatchObject({ status: 400 });
      }
      expectTooMany(await call(gw.baseUrl, from, '/vis/textMessage', '{not json'));
      expectTooMany(await call(otherUrl, from, '/vis/textMessage', '{not json'));
    } finally {
      await other?.stop();
      await redis.quit();
    }
  });
});
