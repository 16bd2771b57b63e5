// The kit over real HTTP, with fake authenticate/authorize: what the original clients send, and what they get.

import { createServer, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { ApiError } from '@pcas/errors';
import type { Logger } from '@pcas/observability';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { answerParserErrors, createHttpApp, requestSummary } from './app.ts';
import { ANONYMOUS_AUTH, rawRequest } from './test-client.ts';
import { type AuthContext, HttpResponse, type Route } from './types.ts';

// Captures what the kit logs, so the test can check what reaches the log (and what must not).
const logged: Array<{ level: string; obj: any; msg?: string }> = [];
const logger = {
  child: () => logger,
  info: (obj: any, msg?: string) => logged.push({ level: 'info', obj, msg }),
  warn: (obj: any, msg?: string) => logged.push({ level: 'warn', obj, msg }),
  error: (obj: any, msg?: string) => logged.push({ level: 'error', obj, msg }),
  debug: (obj: any, msg?: string) => logged.push({ level: 'debug', obj, msg }),
} as unknown as Logger;

const anonymous = ANONYMOUS_AUTH;
const admin: AuthContext = {
  kind: 'session',
  sessionId: 'good',
  userId: 7,
  apiKeyId: null,
  role: 'admin',
  permissions: new Set(['basic_user_action', 'manage_setting', 'manage_port_call']),
};

const calls: string[] = [];
const seen: Array<Record<string, unknown>> = [];

const routes: Route[] = [
  { method: 'GET', path: '/public', permission: 'public', params: {}, handle: async () => ({ ok: true }) },
  {
    method: 'GET',
    path: '/items',
    permission: 'basic_user_action',
    params: {
      limit: { type: 'int' },
      offset: { type: 'int', optional: true, default: 0 },
      search: { type: 'string', optional: true, default: '' },
    },
    handle: async (ctx) => {
      seen.push(ctx.params);
      return { params: ctx.params, keys: Object.keys(ctx.params) };
    },
  },
  {
    method: 'DELETE',
    path: '/items',
    permission: 'basic_user_action',
    params: { id: { type: 'int' } },
    handle: async (ctx) => {
      seen.push(ctx.params);
      return true;
    },
  },
  {
    method: 'PUT',
    path: '/settings/:name/:value',
    permission: 'manage_setting',
    params: { name: { type: 'string' }, value: { type: 'string' } },
    handle: async (ctx) => {
      seen.push(ctx.params);
      return 'OK';
    },
  },
  {
    method: 'POST',
    path: '/things',
    permission: 'basic_user_action',
    params: {
      name: { type: 'string' },
      count: { type: 'int', optional: true, default: 1 },
      urgent: { type: 'bool', optional: true, default: false },
      payload: { type: 'array', optional: true },
    },
    handle: async (ctx) => {
      calls.push('handler');
      seen.push(ctx.params);
      return 12;
    },
  },
  {
    method: 'GET',
    path: '/notifications{/:limit}',
    permission: 'basic_user_action',
    params: { limit: { type: 'int', optional: true, default: 100 } },
    handle: async (ctx) => ctx.params.limit,
  },
  { method: 'GET', path: '/nothing', permission: 'public', params: {}, handle: async () => null },
  {
    method: 'GET',
    path: '/queue-things',
    permission: 'basic_user_action',
    module: 'queue',
    params: { id: { type: 'int' } },
    handle: async () => [],
  },
  {
    method: 'GET',
    path: '/csv',
    permission: 'manage_port_call',
    params: {},
    handle: async () =>
      new HttpResponse(200, 'a,b\n1,2\n', {
        'Content-Type': 'application/csv',
        'Content-Disposition': 'attachment; filename="1-9201827-x.csv"',
      }),
  },
  {
    method: 'GET',
    path: '/boom',
    permission: 'public',
    params: {},
    handle: async () => {
      throw new Error('db password is hunter2 at /srv/app.ts:12');
    },
  },
  {
    method: 'GET',
    path: '/refused',
    permission: 'public',
    params: {},
    handle: async () => {
      throw ApiError.badRequest('Invalid date format');
    },
  },
];

let server: Server;

beforeAll(async () => {
  const app = createHttpApp({
    routes,
    logger,
    async authenticate(headers) {
      calls.push('authenticate');
      const [prefix, token] = (headers.authorization ?? '').split(' ');
      if (prefix !== 'Bearer') return anonymous;
      if (token === 'good') return admin;
      throw ApiError.sessionExpired();
    },
    async authorize(auth, route) {
      calls.push('authorize');
      if (route.permission !== 'public' && !auth.permissions.has(route.permission)) throw ApiError.forbidden();
    },
    async isModuleEnabled(module) {
      calls.push('module');
      return module !== 'queue';
    },
  });
  server = createServer(app);
  answerParserErrors(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  if (!server) return;
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

beforeEach(() => {
  calls.length = 0;
  seen.length = 0;
  logged.length = 0;
});

const auth = { Authorization: 'Bearer good' };

describe('headers and CORS', () => {
  it('answers OPTIONS on any path at once with 200 and an empty body, without authenticating', async () => {
    for (const path of ['/items', '/no/such/path']) {
      const res = await rawRequest(server, 'OPTIONS', path, { headers: { Authorization: 'Bearer bad' } });
      expect(res.status).toBe(200);
      expect(res.text).toBe('');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-methods']).toBe('POST,GET,DELETE,PUT,OPTIONS');
    }
    expect(calls).toEqual([]);
  });

  it('sets the CORS, no-cache and JSON headers on every answer, and no framework banner or ETag', async () => {
    for (const [path, status] of [
      ['/public', 200],
      ['/nope', 404],
    ] as const) {
      const res = await rawRequest(server, 'GET', path);
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-headers']).toBe(
        'Authorization, Origin, X-Requested-With, Content-Type, Accept, Credentials, Cache-Control, ClientTimeZone',
      );
      expect(res.headers['cache-control']).toContain('no-store');
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers.etag).toBeUndefined();
    }
  });
});

describe('order: authenticate → module → authorize → validate → handler', () => {
  it('answers 440 from authenticate even on a public route', async () => {
    const res = await rawRequest(server, 'GET', '/public', { headers: { Authorization: 'Bearer bad' } });
    expect(res.status).toBe(440);
    expect(res.json()).toEqual({ error: 'Session expired' });
  });

  it('answers 403 naming the disabled module before checking permission or parameters', async () => {
    const res = await rawRequest(server, 'GET', '/queue-things');
    expect(res.status).toBe(403);
    expect(res.json()).toEqual({ error: 'Queue module is disabled' });
    expect(calls).toEqual(['authenticate', 'module']);
  });

  it('refuses an anonymous caller before telling it about parameters', async () => {
    const res = await rawRequest(server, 'POST', '/things', { body: '{}' });
    expect(res.status).toBe(403);
    expect(res.json()).toEqual({ error: 'Invalid access' });
    expect(calls).toEqual(['authenticate', 'authorize']);
  });

  it('validates after authorizing, and calls the handler only with valid parameters', async () => {
    const res = await rawRequest(server, 'POST', '/things', { headers: auth, body: '{"count": 2}' });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ error: 'Missing parameter: name' });
    expect(calls).toEqual(['authenticate', 'authorize']);
  });
});

describe('parameters', () => {
  it('merges a POST body, trims strings, converts types, applies defaults, drops unknown keys', async () => {
    const res = await rawRequest(server, 'POST', '/things', {
      headers: { ...auth, 'Content-Type': 'application/json;charset=utf-8' },
      body: JSON.stringify({ name: '  Ever Given ', urgent: 'true', payload: { a: ' x ' }, extra: 1 }),
    });
    expect(res.status).toBe(200);
    expect(res.json()).toBe(12);
    expect(seen[0]).toEqual({ name: 'Ever Given', count: 1, urgent: true, payload: { a: ' x ' } });
  });

  it('gives the original 400 messages', async () => {
    const post = (body: unknown) =>
      rawRequest(server, 'POST', '/things', { headers: auth, body: JSON.stringify(body) });
    const wrongInt = await post({ name: 'x', count: '-3' });
    expect(wrongInt.status).toBe(400);
    expect(wrongInt.json()).toEqual({ error: "Wrong parameter type: count should be int but got '-3'" });
    expect((await post({ name: 5 })).json()).toEqual({
      error: "Wrong parameter type: name should be string but got '5'",
    });
    expect((await post({ name: 'x'.repeat(5000) })).json()).toEqual({ error: 'Parameter too long: name' });
  });

  it('answers 400 for invalid JSON', async () => {
    const res = await rawRequest(server, 'POST', '/things', {
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: '{"name": ',
    });
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ error: 'Invalid JSON body' });
  });

  it('takes the id of a DELETE from its JSON body', async () => {
    const res = await rawRequest(server, 'DELETE', '/items', {
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: '{"id": 5}',
    });
    expect(res.status).toBe(200);
    expect(res.json()).toBe(true);
    expect(seen[0]).toEqual({ id: 5 });
  });

  it('accepts a PUT with no body and no Content-Type, parameters from the path', async () => {
    const res = await rawRequest(server, 'PUT', '/settings/queue_module/disabled', { headers: auth });
    expect(res.status).toBe(200);
    expect(res.json()).toBe('OK');
    expect(seen[0]).toEqual({ name: 'queue_module', value: 'disabled' });
  });

  it('treats a PUT body of [] as no parameters', async () => {
    const res = await rawRequest(server, 'PUT', '/settings/a/b', {
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: '[]',
    });
    expect(res.status).toBe(200);
    expect(seen[0]).toEqual({ name: 'a', value: 'b' });
  });

  it('reads GET parameters from the query, ignoring a JSON Content-Type with no body and a trailing &', async () => {
    const res = await rawRequest(server, 'GET', '/items?limit=10&offset=0&search=%20ever%20&', {
      headers: { ...auth, 'Content-Type': 'application/json;charset=utf-8' },
    });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      params: { limit: 10, offset: 0, search: 'ever' },
      keys: ['limit', 'offset', 'search'],
    });
  });

  it('accepts a declared path parameter as optional', async () => {
    expect((await rawRequest(server, 'GET', '/notifications', { headers: auth })).json()).toBe(100);
    expect((await rawRequest(server, 'GET', '/notifications/5', { headers: auth })).json()).toBe(5);
  });
});

describe('what storage refuses, before authorization or the handler', () => {
  const post = (body: string | Buffer, headers: Record<string, string> = {}) =>
    rawRequest(server, 'POST', '/things', { headers: { ...auth, ...headers }, body });

  it('answers 400 naming the parameter for U+0000 anywhere in the body, query or path', async () => {
    for (const [res, name] of [
      [await post('{"name":"Ever\\u0000Given"}'), 'name'],
      [await post('{"name":"x","payload":{"a":[{"b":"\\u0000"}]}}'), 'payload'],
      [await post('{"name":"x","payload":{"k\\u0000":1}}'), 'payload'],
      [await post('{"name":"x","undeclared":"\\u0000"}'), 'undeclared'],
      [await rawRequest(server, 'GET', '/items?limit=1&search=a%00b', { headers: auth }), 'search'],
      [await rawRequest(server, 'GET', '/items?limit=1&ids[]=%00', { headers: auth }), 'ids'],
      [await rawRequest(server, 'PUT', '/settings/a%00/b', { headers: auth }), 'name'],
    ] as const) {
      expect(res.status).toBe(400);
      expect(res.json()).toEqual({ error: `${name} contains a NUL character` });
    }
    // Authentication ran (a stale session still gets 440 first); nothing after it did.
    expect(calls.every((call) => call === 'authenticate')).toBe(true);
    expect(seen).toEqual([]);
  });

  it('answers 400 for a lone surrogate and for nesting deeper than the limit', async () => {
    const surrogate = await post('{"name":"\\ud800"}');
    expect(surrogate.status).toBe(400);
    expect(surrogate.json()).toEqual({ error: 'name contains an invalid character' });
    const deep = await post(`{"name":"x","payload":${'['.repeat(300_000)}${']'.repeat(300_000)}}`);
    expect(deep.status).toBe(400);
    expect(deep.json()).toEqual({ error: 'payload is nested too deeply' });
    expect(seen).toEqual([]);
  });

  it('answers 400 for a body that is not valid UTF-8, but reads a declared UTF-16 body', async () => {
    const bytes = Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
    const invalid = await post(bytes, { 'Content-Type': 'application/json; charset=utf-8' });
    expect(invalid.status).toBe(400);
    expect(invalid.json()).toEqual({ error: 'Request body is not valid UTF-8' });
    expect((await post(bytes)).json()).toEqual({ error: 'Request body is not valid UTF-8' });
    // An encoded surrogate (ED A0 80) is not UTF-8 either.
    const surrogate = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]);
    expect((await post(surrogate)).status).toBe(400);
    expect(seen).toEqual([]);

    const utf16 = await post(Buffer.from('{"name":"Gävle"}', 'utf16le'), {
      'Content-Type': 'application/json; charset=utf-16le',
    });
    expect(utf16.status).toBe(200);
    expect(seen[0]).toMatchObject({ name: 'Gävle' });
  });

  it('answers 400 for broken percent-encoding, or encoded bytes that are not UTF-8, in the query or the path', async () => {
    for (const query of ['search=%', 'search=%zz', 'search=%ff', 'search=%e0%a4%a', 'search=%ed%a0%80']) {
      const res = await rawRequest(server, 'GET', `/items?limit=1&${query}`, { headers: auth });
      expect(res.status).toBe(400);
      expect(res.json()).toEqual({ error: 'Invalid percent-encoding in the query string' });
    }
    for (const part of ['%', '%zz', '%ff', '%ed%a0%80']) {
      const res = await rawRequest(server, 'PUT', `/settings/${part}/b`, { headers: auth });
      expect(res.status).toBe(400);
      expect(res.json()).toEqual({ error: 'Invalid percent-encoding in the path' });
    }
    expect(seen).toEqual([]);
    // Well-formed encodings still arrive decoded.
    const ok = await rawRequest(server, 'GET', '/items?limit=1&search=G%C3%A4vle%20%F0%9F%9A%A2', { headers: auth });
    expect(ok.json().params.search).toBe('Gävle 🚢');
  });
});

describe('requests the HTTP parser refuses', () => {
  /** Raw bytes (Node's client refuses to send these headers); the answer as read until the server closes. */
  const exchange = (request: string) =>
    new Promise<string>((resolve, reject) => {
      const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1', () => socket.write(request));
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
    });

  it.each([
    ['a NUL in a header', 'User-Agent: a\u0000b\r\n', 400, 'Bad request'],
    ['a header line without a colon', 'Nonsense\r\n', 400, 'Bad request'],
    ['headers over the limit', `X-Big: ${'x'.repeat(20_000)}\r\n`, 431, 'Request headers too large'],
  ])('answers %s with JSON {"error"}', async (_what, header, status, error) => {
    const answer = await exchange(`GET /public HTTP/1.1\r\nHost: x\r\n${header}Connection: close\r\n\r\n`);
    expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(answer).toContain('\r\nContent-Type: application/json; charset=utf-8\r\n');
    expect(answer.slice(answer.indexOf('\r\n\r\n') + 4)).toBe(JSON.stringify({ error }));
    expect(calls).toEqual([]);
  });
});

describe('responses', () => {
  it('sends null and plain values as JSON', async () => {
    const res = await rawRequest(server, 'GET', '/nothing');
    expect(res.status).toBe(200);
    expect(res.text).toBe('null');
  });

  it('answers 404 for an unknown path and 405 for a known path with another method', async () => {
    const missing = await rawRequest(server, 'GET', '/no/such/path');
    expect(missing.status).toBe(404);
    expect(missing.json()).toEqual({ error: 'Not found' });
    const wrong = await rawRequest(server, 'POST', '/items', { headers: auth, body: '{}' });
    expect(wrong.status).toBe(405);
    expect(wrong.json()).toEqual({ error: 'Method not allowed' });
    expect(wrong.headers.allow).toBe('GET, DELETE, OPTIONS');
  });

  it('sends an HttpResponse as given (a CSV download)', async () => {
    const res = await rawRequest(server, 'GET', '/csv', { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename="1-9201827-x.csv"');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.text).toBe('a,b\n1,2\n');
  });

  it('renders an ApiError from the handler with its status', async () => {
    const res = await rawRequest(server, 'GET', '/refused');
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ error: 'Invalid date format' });
  });

  it('turns any other error into 500 JSON without details, logged with the request id', async () => {
    const res = await rawRequest(server, 'GET', '/boom', { headers: { 'X-Request-Id': 'req-boom-1' } });
    expect(res.status).toBe(500);
    expect(res.json()).toEqual({ error: 'Internal error' });
    expect(res.text).not.toContain('hunter2');
    expect(res.headers['x-request-id']).toBe('req-boom-1');
    const error = logged.find((line) => line.level === 'error');
    expect(error?.obj.reqId).toBe('req-boom-1');
    expect(error?.obj.err).toBeInstanceOf(Error);
  });
});

describe('request log', () => {
  it('logs one line per request at debug with method, path, status, time and user, never the query or headers', async () => {
    await rawRequest(server, 'GET', '/items?limit=1&token=secret-token', {
      headers: { Authorization: 'Bearer good' },
    });
    const lines = logged.filter((line) => line.msg === 'request');
    expect(lines).toHaveLength(1);
    expect(lines[0].level).toBe('debug');
    expect(lines[0].obj).toMatchObject({ method: 'GET', path: '/items', status: 200, userId: 7 });
    expect(typeof lines[0].obj.ms).toBe('number');
    expect(JSON.stringify(lines[0].obj)).not.toMatch(/secret-token|Bearer/);
  });

  it('logs a failed request (5xx) at error, not debug', async () => {
    await rawRequest(server, 'GET', '/boom');
    const line = logged.find((entry) => entry.msg === 'request' && entry.obj.path === '/boom');
    expect(line?.level).toBe('error');
    expect(line?.obj.status).toBe(500);
  });

  it('sums the requests up at info, once per interval, and says nothing for an interval without any', () => {
    const lines: Array<{ obj: any; msg?: string }> = [];
    const quiet = { info: (obj: any, msg?: string) => lines.push({ obj, msg }) } as unknown as Logger;
    const summary = requestSummary(quiet);
    summary.flush();
    expect(lines).toEqual([]);
    for (const status of [200, 200, 304, 404, 500]) summary.count(status);
    summary.flush();
    expect(lines).toEqual([
      { obj: { requests: 5, '2xx': 2, '3xx': 1, '4xx': 1, '5xx': 1 }, msg: 'requests in the last minute' },
    ]);
    summary.flush();
    expect(lines).toHaveLength(1);
  });
});
