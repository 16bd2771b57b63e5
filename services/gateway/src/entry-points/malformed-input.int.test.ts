// Bad input over real HTTP through the gateway (real PostgreSQL and event store, Redis sessions): U+0000 on every
// kind of route answers 400 naming the parameter and changes nothing, and a run over the whole route table
// (broken JSON, wrong types, 200 kB strings, deep nesting, hostile strings, U+0000) never answers 5xx and refuses
// only with JSON {"error"}. Services do not import each other, so ingest, the port-call projector, the notifier
// logistics, the queue-scheduler and the vis-bridge are stand-ins on the bus here that record what reaches them; e2e/bad-input.e2e.test.ts sends timestamps through
// the real ingest (a payload given as JSON text is only looked into there).

import { generateKeyPairSync } from 'node:crypto';
import net from 'node:net';
import {
  DCSA_BRIDGE,
  INGEST,
  IngestCommands,
  LOGISTICS,
  NOTIFIER,
  PORTCALL_PROJECTOR,
  type PostTimestampsCommand,
  QUEUE_SCHEDULER,
  VIS_BRIDGE,
} from '@pcas/contracts';
import type { ParamSpec, Route } from '@pcas/http-kit';
import type { ApiClient } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PERMISSIONS } from '../domain/roles.ts';
import { allRoutes } from './routes/index.ts';
import { changeSnapshot, startTestGateway, type TestGateway } from './testing/gateway-harness.ts';

let gw: TestGateway;
let admin: ApiClient;
let adminSession: string;
let apiKey: string;
/** Every command the stand-ins received, as JSON text. */
const received: string[] = [];

beforeAll(async () => {
  gw = await startTestGateway('gw_malformed');
  await gw.deps.bus.serveRpc(INGEST, async (command, payload) => {
    received.push(JSON.stringify(payload));
    if (command === IngestCommands.postTimestamps)
      return (payload as PostTimestampsCommand).items.map(() => ({ ok: true }));
    return true;
  });
  await gw.deps.bus.serveRpc(PORTCALL_PROJECTOR, async (_command, payload) => {
    received.push(JSON.stringify(payload));
    return true;
  });
  await gw.deps.bus.serveRpc(NOTIFIER, async (_command, payload) => {
    received.push(JSON.stringify(payload));
    return null;
  });
  await gw.deps.bus.serveRpc(LOGISTICS, async (_command, payload) => {
    received.push(JSON.stringify(payload));
    return { result: 'OK' };
  });
  for (const service of [QUEUE_SCHEDULER, VIS_BRIDGE, DCSA_BRIDGE]) {
    await gw.deps.bus.serveRpc(service, async (_command, payload) => {
      received.push(JSON.stringify(payload));
      return { result: 'OK' };
    });
  }
  // The vis-bridge's sealing key (made at its start), which POST /port-peer seals a peer's secret to.
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  await gw.deps.db.query('CREATE SCHEMA IF NOT EXISTS vis');
  await gw.deps.db.query(
    'CREATE TABLE IF NOT EXISTS vis.peer_sealing_key (id integer PRIMARY KEY, public_pem text NOT NULL, private_pem text NOT NULL)',
  );
  await gw.deps.db.query('INSERT INTO vis.peer_sealing_key VALUES (1, $1, $2) ON CONFLICT DO NOTHING', [
    publicKey.export({ format: 'pem', type: 'spki' }),
    privateKey.export({ format: 'pem', type: 'pkcs8' }),
  ]);
  adminSession = await gw.sessions.create(gw.adminId);
  admin = gw.anonymous.withSession(adminSession);
  apiKey = (await gw.createApiKey()).key;
});

afterAll(async () => {
  await gw?.stop();
});

const NUL = '\u0000';
const nulError = (param: string) => ({ error: `${param} contains a NUL character` });
const TIMESTAMP = {
  imo: 9074729,
  vessel_name: 'Ever Given',
  time_type: 'Estimated',
  state: 'Arrival_Vessel_PortArea',
  time: '2030-01-01T00:00:00+00:00',
  payload: { source: 'test' },
};

describe('U+0000 on every kind of route: 400 naming the parameter, nothing appended or written', () => {
  // [who, method, path, parameter named in the error, body or query]
  const cases: [string, string, string, string, Record<string, unknown> | undefined][] = [
    ['anonymous', 'POST', '/login', 'email', { email: `admin${NUL}@test.local`, password: 'x' }],
    ['anonymous', 'POST', '/login', 'password', { email: 'admin@test.local', password: `pw${NUL}` }],
    ['admin', 'POST', '/change-password', 'email', { email: `a${NUL}@test.local`, password: 'long-enough-1' }],
    ['admin', 'POST', '/change-password', 'password', { email: 'a@test.local', password: `pw${NUL}pw` }],
    ['admin', 'POST', '/api-keys', 'name', { name: `key${NUL}` }],
    ['admin', 'POST', '/users', 'email', { email: `new${NUL}@test.local`, first_name: 'A', last_name: 'B' }],
    ['admin', 'POST', '/users', 'first_name', { email: 'new@test.local', first_name: NUL, last_name: 'B' }],
    ['admin', 'PUT', '/users/1', 'last_name', { email: 'new@test.local', first_name: 'A', last_name: `B${NUL}` }],
    ['key', 'POST', '/agent/rest/timestamps', 'vessel_name', { ...TIMESTAMP, vessel_name: `Ever${NUL}Given` }],
    ['key', 'POST', '/agent/rest/timestamps', 'payload', { ...TIMESTAMP, payload: { note: `a${NUL}` } }],
    ['key', 'POST', '/agent/rest/timestamps', 'payload', { ...TIMESTAMP, payload: { [`k${NUL}`]: 1 } }],
    ['key', 'POST', '/agent/rest/timestamps', 'payload', { ...TIMESTAMP, payload: { a: [{ b: [NUL] }] } }],
    ['key', 'POST', '/agent/rest/timestamps', 'time', { ...TIMESTAMP, time: `${TIMESTAMP.time}${NUL}` }],
    ['admin', 'POST', '/timestamps', 'state', { ...TIMESTAMP, state: `${TIMESTAMP.state}${NUL}` }],
    ['admin', 'POST', '/timestamps', 'payload', { ...TIMESTAMP, payload: { source: NUL } }],
    ['admin', 'PUT', '/settings/port_operator_emails/ops%00@port.se', 'value', {}],
    ['admin', 'PUT', '/settings/activity_module%00/enabled', 'name', {}],
    ['admin', 'GET', '/settings/by-name/activity_module%00', 'name', undefined],
    ['admin', 'POST', '/translations/common/en', 'translations', { translations: { hello: `Hei${NUL}` } }],
    ['admin', 'POST', '/translations/common/en', 'translations', { translations: { [`hel${NUL}lo`]: 'Hei' } }],
    ['key', 'PUT', '/translations/common/en', 'updated', { updated: { hello: { nested: NUL } } }],
    ['key', 'POST', '/translation/common/en', 'missing', { missing: { [`k${NUL}`]: '' } }],
    ['admin', 'GET', '/translations/common%00/en', 'ns', undefined],
    ['admin', 'GET', '/users', 'search', { limit: 10, offset: 0, sort: 'id', search: `a${NUL}` }],
    ['admin', 'PUT', '/role-permissions/user/manage%00_setting', 'permission', {}],
    [
      'admin',
      'POST',
      '/register-push-token',
      'installation_id',
      { installation_id: NUL, platform: 'ios', push_token: 't' },
    ],
    [
      'admin',
      'POST',
      '/timestamp-api-key-weights',
      'timestamp_time_type',
      { timestamp_time_type: `Estimated${NUL}`, timestamp_state: 'Arrival_Vessel_PortArea', api_key_ids: [1] },
    ],
    // A parameter the route does not declare is refused too: authorization sees every parameter.
    ['admin', 'POST', '/api-keys', 'note', { name: 'fine', note: `x${NUL}` }],
  ];

  it.each(cases)('%s: %s %s → 400 naming %s', async (who, method, path, param, params) => {
    const client = who === 'admin' ? admin : who === 'key' ? gw.anonymous.withApiKey(apiKey) : gw.anonymous;
    const before = await changeSnapshot(gw.db);
    const commands = received.length;
    const res = await client.call(method, path, params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(nulError(param));
    expect(await changeSnapshot(gw.db)).toBe(before);
    expect(received.length).toBe(commands);
  });

  it('a NUL in a header that is stored (User-Agent at login) is refused by the HTTP parser as JSON 400', async () => {
    const before = await changeSnapshot(gw.db);
    const body = JSON.stringify({ email: gw.config.adminEmail, password: gw.config.adminPassword });
    const answer = await rawExchange(
      `POST /login HTTP/1.1\r\nHost: x\r\nUser-Agent: a${NUL}b\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/i);
    expect(answer.slice(answer.indexOf('\r\n\r\n') + 4)).toBe('{"error":"Bad request"}');
    expect(await changeSnapshot(gw.db)).toBe(before);
  });
});

/** Sends raw bytes (fetch refuses to send a NUL in a header) and reads until the server closes. */
function rawExchange(request: string): Promise<string> {
  const { port } = new URL(gw.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

// ---- The malformed-input run over the route table ----

interface Probe {
  what: string;
  path: string;
  /** Query string for GET, without `?`. */
  query?: string;
  /** Request body for other methods; JSON unless `contentType` says otherwise. */
  body?: string | Buffer;
  contentType?: string;
  /** When set, the answer must be exactly this (status 400). */
  expect?: { error: string };
}

const LONE_SURROGATE = '\ud800';
const HOSTILE_STRINGS: [string, string][] = [
  ['SQL', "'; DROP TABLE gateway.users; --"],
  ['path traversal', '../../etc/passwd'],
  ['markup', '<script>alert(1)</script>'],
  ['U+FFFF', '\uffff'],
  ['lone surrogate', LONE_SURROGATE],
  ['U+0000', NUL],
  ['200 kB', 'x'.repeat(200_000)],
  ['encoded NUL', '%00'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log4j-style lookup, meant literally
  ['lookup', '${jndi:ldap://x/a}'],
  ['empty', ''],
  ['blank', '   '],
  ['emoji', '🚢'],
  ['number words', 'NaN'],
];
const WRONG_VALUES: Record<ParamSpec['type'], unknown[]> = {
  int: ['abc', -1, 1.5, '1e3', 2_147_483_648, Number.MAX_SAFE_INTEGER, '99999999999999999999', {}, [], true, null],
  float: ['x', {}, [], '1e999', true, null],
  string: [5, {}, [], true, null, { a: 1 }],
  bool: ['maybe', 2, {}, [], null],
  array: ['x', 5, true, null, [[[]]], { a: { b: [1, 'x'] } }],
  mixed: [{}, [], 5, true, null, { a: { b: [1] } }, 'x', -1, 1e308],
};
/** A value of the right type that names no existing row, so a probe changing another parameter gets past type checks. */
const BASELINE: Record<ParamSpec['type'], unknown> = {
  int: 999_999,
  float: 1.5,
  string: 'x',
  bool: false,
  array: {},
  mixed: 'x',
};

/** Stands for an array nested `depth` deep; spliced into the JSON text, as JSON.stringify would overflow the stack. */
const nested = (depth: number) => `<nested ${depth}>`;
const spliceNesting = (json: string) =>
  json.replace(/"<nested (\d+)>"/g, (_m, depth: string) => `${'['.repeat(+depth)}"leaf"${']'.repeat(+depth)}`);

const pathParams = (route: Route) => [...route.path.matchAll(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);

/** Percent-encodes a path or query value; a lone surrogate (which encodeURIComponent refuses) as its WTF-8 bytes. */
const encode = (value: unknown): string => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.split(LONE_SURROGATE).map(encodeURIComponent).join('%ED%A0%80');
};

function pathOf(route: Route, values: Record<string, unknown>): string {
  return route.path
    .replace(/[{}]/g, '')
    .replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => encode(values[name] ?? 'x'));
}

/** Query string in the extended (qs) syntax: nested objects and arrays as `a[b][]=…`. */
function queryOf(values: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (key: string, value: unknown) => {
    if (value === null || value === undefined) parts.push(`${key}=`);
    else if (Array.isArray(value)) for (const item of value) add(`${key}[]`, item);
    else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) add(`${key}[${encode(k)}]`, v);
    else parts.push(`${key}=${encode(value)}`);
  };
  for (const [key, value] of Object.entries(values)) add(encode(key), value);
  return parts.join('&');
}

/** The route called with `values` for its declared parameters (path, then query or JSON body). */
function probe(route: Route, what: string, values: Record<string, unknown>, expected?: { error: string }): Probe {
  const inPath = new Set(pathParams(route));
  const rest = Object.fromEntries(Object.entries(values).filter(([name]) => !inPath.has(name)));
  const path = pathOf(route, values);
  if (route.method === 'GET') return { what, path, query: queryOf(rest), expect: expected };
  return { what, path, body: spliceNesting(JSON.stringify(rest)), expect: expected };
}

function probesFor(route: Route): Probe[] {
  const declared = Object.entries(route.params);
  const baseline = Object.fromEntries(declared.map(([name, spec]) => [name, BASELINE[spec.type]]));
  const inPath = new Set(pathParams(route));
  const probes: Probe[] = [probe(route, 'baseline', baseline)];

  for (const [name, spec] of declared) {
    const withValue = (what: string, value: unknown, expected?: { error: string }) =>
      probe(route, `${name}: ${what}`, { ...baseline, [name]: value }, expected);
    for (const value of WRONG_VALUES[spec.type]) {
      // A path segment is text: only strings can be put there.
      if (inPath.has(name) && typeof value !== 'string' && typeof value !== 'number') continue;
      probes.push(withValue(`wrong type ${JSON.stringify(value)}`, value));
    }
    for (const [what, text] of HOSTILE_STRINGS) {
      probes.push(withValue(what, text, text === NUL ? nulError(name) : undefined));
    }
    if (inPath.has(name)) continue;
    // Past the nesting limit; far past it (a stack's worth) once per route, which is where the check sits.
    if (route.method !== 'GET') probes.push(withValue('nested 1,000 deep', nested(1_000)));
    if (route.method !== 'GET' && name === declared.find(([n]) => !inPath.has(n))?.[0]) {
      probes.push(withValue('nested 200,000 deep', nested(200_000)));
    }
    probes.push(withValue('__proto__ key', JSON.parse('{"__proto__":{"polluted":true},"constructor":{"a":1}}')));
    probes.push(withValue('nested U+0000', { a: [{ b: `x${NUL}` }] }, nulError(name)));
    probes.push(withValue('nested key U+0000', { [`k${NUL}`]: 1 }, nulError(name)));
    probes.push(withValue('nested lone surrogate', { a: [LONE_SURROGATE] }));
  }

  // Whatever the route declares: undeclared parameters, and malformed requests as a whole.
  probes.push(probe(route, 'undeclared U+0000', { ...baseline, nul_probe: NUL }, nulError('nul_probe')));
  probes.push(probe(route, 'undeclared __proto__', { ...baseline, ...JSON.parse('{"__proto__":{"polluted":1}}') }));
  const path = pathOf(route, baseline);
  if (route.method === 'GET') {
    for (const query of [
      'a[=1',
      '%',
      'a=%ff',
      'a=%ed%a0%80',
      'a[b]=1&a=2',
      '__proto__[x]=1',
      'constructor[prototype][x]=1',
    ]) {
      probes.push({ what: `query ${query}`, path, query: `${queryOf(baseline)}&${query}` });
    }
    probes.push({ what: 'query nested 1,000 deep', path, query: `${queryOf(baseline)}&a${'[a]'.repeat(1_000)}=1` });
  } else {
    const bodies: [string, string | Buffer][] = [
      ['truncated JSON', '{"a":'],
      ['single quotes', "{'a':1}"],
      ['trailing brace', '{"a":1}}'],
      ['lone bracket', '['],
      ['empty', ''],
      ['null', 'null'],
      ['a string', '"text"'],
      ['a number', '5'],
      ['a list', '[1,2]'],
      ['a raw NUL byte', `{"a":"${NUL}"}`],
      ['invalid UTF-8', Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')])],
      ['nested 200,000 deep', `${'['.repeat(200_000)}${']'.repeat(200_000)}`],
      ['over the size limit', `{"a":"${'x'.repeat(1_100_000)}"}`],
    ];
    for (const [what, body] of bodies) probes.push({ what: `body ${what}`, path, body });
    probes.push({ what: 'body as a form', path, body: 'a=1', contentType: 'application/x-www-form-urlencoded' });
    probes.push({ what: 'body in Latin-1', path, body: '{}', contentType: 'application/json; charset=latin1' });
  }
  return probes;
}

async function send(route: Route, authorization: string, p: Probe): Promise<string | null> {
  const url = `${gw.baseUrl}${p.path}${p.query ? `?${p.query}` : ''}`;
  // A route may answer only a given Accept (the page at / answers browsers); send what it takes.
  const accept = (route as { accept?: string }).accept ?? 'application/json';
  const headers: Record<string, string> = { Authorization: authorization, Accept: accept };
  if (p.body !== undefined) headers['Content-Type'] = p.contentType ?? 'application/json;charset=utf-8';
  const body = typeof p.body === 'string' || p.body === undefined ? p.body : new Uint8Array(p.body);
  const res = await fetch(url, { method: route.method, headers, body });
  const text = await res.text();
  const where = `${route.method} ${route.path} [${p.what}] → ${res.status} ${text.slice(0, 200)}`;
  if (res.status >= 500) return where;
  if (p.expect) {
    return res.status === 400 && text === JSON.stringify(p.expect)
      ? null
      : `${where} (expected ${JSON.stringify(p.expect)})`;
  }
  if (res.status >= 200 && res.status < 300) return null;
  if (!res.headers.get('content-type')?.startsWith('application/json')) return `${where} (not JSON)`;
  try {
    return typeof JSON.parse(text).error === 'string' ? null : `${where} (no string "error")`;
  } catch {
    return `${where} (not JSON)`;
  }
}

describe('a malformed-input run over the whole route table', () => {
  // Thousands of requests, one route after another: minutes on a loaded machine.
  it('answers no 5xx, refuses only with JSON {"error"}, and names U+0000 wherever it is sent', {
    timeout: 600_000,
  }, async () => {
    const routes = allRoutes(gw.deps);
    expect(routes.length).toBeGreaterThan(50);
    const failures: string[] = [];
    let count = 0;
    for (const route of routes) {
      // A session of its own per route: a route may end it (POST /logout).
      const authorization = API_KEY_PERMISSIONS.includes(route.permission)
        ? `ApiKey ${apiKey}`
        : `Bearer ${await gw.sessions.create(gw.adminId)}`;
      const probes = probesFor(route);
      count += probes.length;
      // A few at a time: enough to keep the run short, few enough not to crowd a shared machine.
      for (let i = 0; i < probes.length; i += 4) {
        const answers = await Promise.all(probes.slice(i, i + 4).map((p) => send(route, authorization, p)));
        for (const answer of answers) if (answer) failures.push(answer);
      }
    }
    expect(failures).toEqual([]);
    expect(count).toBeGreaterThan(3_000);
    // Nothing with a NUL or a lone surrogate crossed the gateway into a command.
    for (const command of received) expect(command).not.toMatch(/\\u0000|\\ud800/);
  });
});
