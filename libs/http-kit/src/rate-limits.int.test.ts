// A route's rate limits as the kit charges them (types.ts RouteRateLimit), with a counting limiter of the test's
// own over real HTTP: when each is charged, by what key, the 429 it answers, the refund, and the client address
// with and without trusted proxies. The gateway's limits themselves: services/gateway rate-limits.int.test.ts.

import { createServer, type Server } from 'node:http';
import { ApiError } from '@pcas/errors';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpApp } from './app.ts';
import { ANONYMOUS_AUTH, rawRequest, SILENT_LOGGER } from './test-client.ts';
import type { HttpAppOptions, RateLimiter, Route } from './types.ts';

/** Allows `allowed` requests per limit and key, and records what happened, in order. */
function countingLimiter(allowed: number) {
  const counts = new Map<string, number>();
  const events: string[] = [];
  const limiter: RateLimiter = {
    async consume(limit, key) {
      const id = `${limit} ${key}`;
      const count = (counts.get(id) ?? 0) + 1;
      counts.set(id, count);
      events.push(`consume ${id}`);
      if (count > allowed) throw ApiError.tooManyRequests(41_500);
    },
    async refund(limit, key) {
      const id = `${limit} ${key}`;
      counts.set(id, (counts.get(id) ?? 0) - 1);
      events.push(`refund ${id}`);
    },
  };
  return { limiter, events };
}

let server: Server | undefined;

afterEach(async () => {
  const closing = server;
  server = undefined;
  if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
});

async function serve(routes: Route[], options: Partial<HttpAppOptions>, events: string[]): Promise<Server> {
  const app = createHttpApp({
    routes,
    logger: SILENT_LOGGER,
    async authenticate() {
      events.push('authenticate');
      return ANONYMOUS_AUTH;
    },
    async authorize() {
      events.push('authorize');
    },
    ...options,
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return server;
}

const json = (body: unknown) => ({ headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

describe('a route with rate limits', () => {
  const signIn: Route = {
    method: 'POST',
    path: '/sign-in',
    permission: 'public',
    params: { email: { type: 'string' }, ok: { type: 'bool', optional: true, default: false } },
    rateLimits: [
      { limit: 'by_address', perAddress: true },
      { limit: 'by_both', perAddress: true, perParam: 'email' },
    ],
    async handle({ params, refundRateLimits, ip }) {
      if (params.ok) await refundRateLimits();
      return { ip };
    },
  };

  it('is charged by address before the body is read, by parameter before authorization', async () => {
    const { limiter, events } = countingLimiter(1);
    const app = await serve([signIn], { rateLimiter: limiter }, events);
    const first = await rawRequest(app, 'POST', '/sign-in', json({ email: '  Someone@Port.EXAMPLE ' }));
    expect(first.status).toBe(200);
    expect(first.json()).toEqual({ ip: '127.0.0.1' });
    expect(events).toEqual([
      'consume by_address ["127.0.0.1"]',
      'authenticate',
      'consume by_both ["127.0.0.1","someone@port.example"]',
      'authorize',
    ]);

    // The address's one request is spent: a body that is not even JSON is refused with 429, not 400.
    events.length = 0;
    const second = await rawRequest(app, 'POST', '/sign-in', { body: '{not json' });
    expect(second.status).toBe(429);
    expect(second.headers['retry-after']).toBe('42');
    expect(second.headers['content-type']).toContain('application/json');
    expect(second.json()).toEqual({ error: 'Too many requests, try again later' });
    expect(events).toEqual(['consume by_address ["127.0.0.1"]']);
  });

  it('counts no parameter that is not a non-empty string (validation refuses it)', async () => {
    const { limiter, events } = countingLimiter(5);
    const app = await serve([signIn], { rateLimiter: limiter }, events);
    expect((await rawRequest(app, 'POST', '/sign-in', json({ email: 42 }))).status).toBe(400);
    expect((await rawRequest(app, 'POST', '/sign-in', json({ email: '  ' }))).status).toBe(200);
    expect(events.filter((e) => e.includes('by_both'))).toEqual([]);
  });

  it('gives back what the request was charged when the handler refunds', async () => {
    const { limiter, events } = countingLimiter(1);
    const app = await serve([signIn], { rateLimiter: limiter }, events);
    for (let i = 0; i < 3; i++) {
      expect((await rawRequest(app, 'POST', '/sign-in', json({ email: 'a@b.c', ok: true }))).status).toBe(200);
    }
    expect(events.filter((e) => e.startsWith('refund'))).toHaveLength(6);
    expect((await rawRequest(app, 'POST', '/sign-in', json({ email: 'a@b.c' }))).status).toBe(200);
    expect((await rawRequest(app, 'POST', '/sign-in', json({ email: 'a@b.c' }))).status).toBe(429);
  });

  it('needs a limiter: an app without one does not start', () => {
    expect(() =>
      createHttpApp({
        routes: [signIn],
        logger: SILENT_LOGGER,
        authenticate: async () => ANONYMOUS_AUTH,
        authorize: async () => {},
      }),
    ).toThrow(/POST \/sign-in declares rate limits/);
  });
});

describe('the client address', () => {
  const whoAmI: Route = {
    method: 'GET',
    path: '/who',
    permission: 'public',
    params: {},
    handle: async ({ ip }) => ({ ip }),
  };
  const forwarded = { headers: { 'X-Forwarded-For': '198.51.100.7, 203.0.113.5' } };

  it('is the socket peer, whatever X-Forwarded-For says, when no proxy is trusted', async () => {
    const app = await serve([whoAmI], {}, []);
    expect((await rawRequest(app, 'GET', '/who', forwarded)).json()).toEqual({ ip: '127.0.0.1' });
  });

  it('is the address a trusted proxy names: the last one before the trusted hops', async () => {
    const app = await serve([whoAmI], { trustedProxies: ['loopback'] }, []);
    expect((await rawRequest(app, 'GET', '/who', forwarded)).json()).toEqual({ ip: '203.0.113.5' });
    expect((await rawRequest(app, 'GET', '/who')).json()).toEqual({ ip: '127.0.0.1' });
  });

  it('refuses a proxy list it cannot read, at start', () => {
    expect(() =>
      createHttpApp({
        routes: [whoAmI],
        logger: SILENT_LOGGER,
        authenticate: async () => ANONYMOUS_AUTH,
        authorize: async () => {},
        trustedProxies: ['not-an-address'],
      }),
    ).toThrow();
  });
});
