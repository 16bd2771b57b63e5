// The authorization matrix, pinned to data written out by hand (testing/pinned-authorization.ts: the interface
// spec's route → permission table and the original app's default role matrix), never to the gateway's own route
// and role tables: a route declared with too weak a permission is a failure here. Every pinned route that the
// gateway serves × the six roles, an API key, a disabled API key, an anonymous caller and an unknown session
// gets exactly the access the original's permission check gives (its rule restated below): allowed, 403
// {"error":"Invalid access"}, or 440 {"error":"Session expired"} for the unknown session on every route, public
// ones included. Allowed means the request reached the route: parameter validation (400) or, for a route
// without parameters, its answer; a 404 or a 5xx is a failure (but for the root page, whose answer to an API
// client is pinned as the original's 404). Pinned routes not served yet are skipped with their
// reason; a route the gateway declares but the pinned table lacks fails, so a new route cannot escape the
// matrix. Then role permissions are changed over HTTP and the matrix, with the changed expectation, must hold
// again: in this gateway at once, and in a second gateway process on the same database within about a second (it
// reuses a resolved session that long: caller-cache.ts).
//
// Inputs never change data: authorization runs before parameter validation (libs/http-kit), so every call
// carries parameters that fail validation (a missing required one, or one of the wrong type or too long);
// a route whose parameters cannot fail runs with a fresh throw-away session (POST /logout ends only that).

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { RATE_LIMITS_OFF_ENV } from '@pcas/config';
import type { ModuleName, ParamSpec, Route } from '@pcas/http-kit';
import { ApiClient, freePort, rabbitmq, repoRoot, uniqueName, waitForHealth } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KEY_PERMISSIONS } from '../domain/roles.ts';
import { allRoutes } from './routes/index.ts';
import { CALLER_MAX_AGE_MS } from './service.ts';
import { startTestGateway, type TestGateway } from './testing/gateway-harness.ts';
import {
  API_CLIENT_ANSWERS,
  API_KEY_ONLY,
  DEFAULT_ROLE_MATRIX,
  PENDING_AREAS,
  type PinnedRoute,
  ROLE_NAMES,
  ROUTE_PERMISSIONS,
  SPEC_PERMISSION_NAMES,
} from './testing/pinned-authorization.ts';

const run = promisify(execFile);

type Caller =
  | { kind: 'role'; role: string; userId: number }
  | { kind: 'anonymous' }
  | { kind: 'api_key'; key: string }
  // A key an administrator gave one API-key permission only.
  | { kind: 'scoped_api_key'; key: string; holds: string[] }
  | { kind: 'disabled_api_key'; key: string }
  | { kind: 'unknown_session' };

const callerName = (c: Caller) => (c.kind === 'role' ? c.role : c.kind);

/** Role → its permissions, as the test expects them to be (the pinned defaults, then the changes the test makes). */
type Matrix = Map<string, Set<string>>;

const routeName = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
const PINNED = new Map(ROUTE_PERMISSIONS.map((r) => [routeName(r), r]));

// ---- the original's permission check, restated ----

type Access = 'allowed' | 'refused' | 'expired';

function expectedAccess(caller: Caller, permission: string, matrix: Matrix): Access {
  // An unknown or expired session is refused before anything else, on every route (the UI then logs out).
  if (caller.kind === 'unknown_session') return 'expired';
  if (permission === 'public') return 'allowed';
  // API-key-only permissions: no role can hold them; a key holds those it was given (the original's, when created
  // without a list: dcsa_partner only by choice).
  if (API_KEY_ONLY.includes(permission)) {
    const held =
      (caller.kind === 'api_key' && DEFAULT_KEY_PERMISSIONS.includes(permission)) ||
      (caller.kind === 'scoped_api_key' && caller.holds.includes(permission));
    return held ? 'allowed' : 'refused';
  }
  // A disabled key is no credential at all: the caller is anonymous.
  if (caller.kind === 'anonymous' || caller.kind === 'disabled_api_key') return 'refused';
  // An API key acts as its bound user, whose role is inactive_user.
  const held = matrix.get(caller.kind === 'role' ? caller.role : 'inactive_user') ?? new Set<string>();
  const name = SPEC_PERMISSION_NAMES[permission] ?? permission;
  if (held.has(name)) return 'allowed';
  // `manage_user` routes are open to a holder of any manage_user_<role>; the handler refines (own or all users).
  return name === 'manage_user' && [...held].some((p) => p.startsWith('manage_user_')) ? 'allowed' : 'refused';
}

// ---- requests that cannot change data ----

const PROBE_LIMIT = 8_000; // keeps the request line well under Node's 16 KB header limit

/** A value this parameter's validation refuses, or undefined when none can be sent this way. */
function failingValue(spec: ParamSpec, where: 'path' | 'query' | 'body'): unknown {
  const maxLength = spec.maxLength ?? 4096;
  const tooLong = maxLength < PROBE_LIMIT ? 'x'.repeat(maxLength + 1) : undefined;
  switch (spec.type) {
    case 'int':
    case 'float':
    case 'bool':
      return 'not-a-number';
    case 'array':
      return 'not-an-array';
    case 'string':
      return where === 'body' ? 12_345 : tooLong;
    case 'mixed':
      return tooLong;
  }
}

interface Probe {
  method: Route['method'];
  path: string;
  params: Record<string, unknown> | undefined;
  /** True when no parameter could be made to fail: the handler runs. */
  runs: boolean;
}

function probeFor(route: Route): Probe {
  let failing = false;
  const pathParams = new Set<string>();
  // Express 5 optional groups `{/:x}` are filled in too; every path parameter gets a refused value if it can.
  const concrete = route.path.replace(/[{}]/g, '').replace(/[:*]([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => {
    pathParams.add(name);
    const spec = route.params[name];
    const value = spec ? failingValue(spec, 'path') : undefined;
    if (value === undefined) return 'matrix-probe';
    failing = true;
    return encodeURIComponent(String(value));
  });
  const others = Object.entries(route.params).filter(([name]) => !pathParams.has(name));
  const where = route.method === 'GET' ? 'query' : 'body';
  const empty = route.method === 'GET' ? undefined : {};
  // A required parameter left out fails as surely as a wrong one, and keeps the request small.
  if (failing || others.some(([, spec]) => !spec.optional)) {
    return { method: route.method, path: concrete, params: empty, runs: false };
  }
  for (const [name, spec] of others) {
    const value = failingValue(spec, where);
    if (value !== undefined) return { method: route.method, path: concrete, params: { [name]: value }, runs: false };
  }
  return { method: route.method, path: concrete, params: empty, runs: true };
}

// ---- running the matrix ----

interface Outcome {
  route: string;
  caller: string;
  expected: Access;
  status: number;
  body: unknown;
}

let gw: TestGateway;
let routes: Route[];
let callers: Caller[];
let admin: ApiClient;
const matrix: Matrix = new Map(ROLE_NAMES.map((role) => [role, new Set(DEFAULT_ROLE_MATRIX[role])]));

async function clientFor(base: ApiClient, caller: Caller): Promise<ApiClient> {
  switch (caller.kind) {
    case 'anonymous':
      return base.anonymous();
    case 'api_key':
    case 'scoped_api_key':
    case 'disabled_api_key':
      return base.withApiKey(caller.key);
    case 'unknown_session':
      return base.withSession('matrix-no-such-session');
    case 'role':
      // A fresh session per call: a route that ends the session (POST /logout) ends only this one.
      return base.withSession(await gw.sessions.create(caller.userId));
  }
}

const sameBody = (body: unknown, expected: unknown) => JSON.stringify(body) === JSON.stringify(expected);

/** Whether the answer is what the caller should get. */
function isRight(o: Outcome, runs: boolean): boolean {
  const fixed = API_CLIENT_ANSWERS[o.route];
  if (fixed) return o.status === fixed.status && sameBody(o.body, fixed.body);
  switch (o.expected) {
    case 'expired':
      return o.status === 440 && sameBody(o.body, { error: 'Session expired' });
    case 'refused':
      return o.status === 403 && sameBody(o.body, { error: 'Invalid access' });
    case 'allowed':
      // Past the permission check, the probe's parameters are refused (400). A route without parameters runs:
      // any answer but a refusal, a missing route (404) or a server error.
      if (!runs) return o.status === 400;
      return (
        !(o.status === 403 && sameBody(o.body, { error: 'Invalid access' })) &&
        ![404, 440].includes(o.status) &&
        o.status < 500
      );
  }
}

/** Every caller against one route; returns the outcomes that are not what they should be. */
async function probeRoute(base: ApiClient, route: Route): Promise<{ outcomes: Outcome[]; wrong: Outcome[] }> {
  const pinned = PINNED.get(routeName(route));
  if (!pinned) throw new Error(`${routeName(route)} is not in the pinned table`);
  const probe = probeFor(route);
  const outcomes = await Promise.all(
    callers.map(async (caller): Promise<Outcome> => {
      const client = await clientFor(base, caller);
      const res = await client.call(probe.method, probe.path, probe.params);
      return {
        route: routeName(route),
        caller: callerName(caller),
        expected: expectedAccess(caller, pinned.permission, matrix),
        status: res.status,
        body: res.body,
      };
    }),
  );
  return { outcomes, wrong: outcomes.filter((o) => !isRight(o, probe.runs)) };
}

/** Every served route for every caller against `baseUrl`; returns the wrong answers and who was let in where. */
async function runMatrix(baseUrl: string): Promise<{ wrong: Outcome[]; allowed: Set<string> }> {
  const base = new ApiClient(baseUrl);
  const wrong: Outcome[] = [];
  const allowed = new Set<string>();
  for (const route of routes) {
    const result = await probeRoute(base, route);
    wrong.push(...result.wrong);
    for (const o of result.outcomes) if (o.expected === 'allowed') allowed.add(`${o.caller} ${o.route}`);
  }
  return { wrong, allowed };
}

async function changeRole(method: 'PUT' | 'DELETE', role: string, permission: string): Promise<void> {
  const res = await admin.call(method, `/role-permissions/${role}/${permission}`);
  expect(res, `${method} ${role}/${permission}`).toMatchObject({ status: 200, body: { result: 'OK' } });
  if (method === 'PUT') matrix.get(role)!.add(permission);
  else matrix.get(role)!.delete(permission);
}

async function expectServedMatrix(): Promise<void> {
  const res = await admin.get('/role-permissions');
  const served = new Map(
    (res.body as Record<string, string[]>[]).map((entry) => {
      const [role, permissions] = Object.entries(entry)[0];
      return [role, new Set(permissions)];
    }),
  );
  expect(served).toEqual(matrix);
}

// ---- a second gateway process (the fleet's own entry point) on the same database and session store ----

interface SecondGateway {
  baseUrl: string;
  stop(): Promise<void>;
}

async function startSecondGateway(): Promise<SecondGateway | null> {
  const amqp = await rabbitmq();
  if (!gw.databaseUrl || !gw.redisUrl || !amqp) {
    if (process.env.CI === 'true') throw new Error('CI needs PostgreSQL, Redis and RabbitMQ for the second gateway');
    return null;
  }
  // Its own RabbitMQ virtual host, so its relay publishes where no other test listens.
  const vhost = uniqueName('pcas-matrix');
  await run('rabbitmqctl', ['add_vhost', vhost]);
  const amqpUrl = new URL(amqp.url);
  await run('rabbitmqctl', [
    'set_permissions',
    '-p',
    vhost,
    decodeURIComponent(amqpUrl.username || 'guest'),
    '.*',
    '.*',
    '.*',
  ]);
  amqpUrl.pathname = `/${encodeURIComponent(vhost)}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'gw-matrix-b-'));
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'services/gateway/src/entry-points/main.ts'],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(port),
        DATABASE_URL: gw.databaseUrl,
        REDIS_URL: gw.redisUrl,
        AMQP_URL: amqpUrl.toString(),
        // Same NAMESPACE, same session key prefix: a session minted here is valid there.
        NAMESPACE: gw.config.namespace,
        ADMIN_EMAIL: gw.config.adminEmail,
        ADMIN_PASSWORD: gw.config.adminPassword,
        DATA_DIR: dataDir,
        // vitest puts Vite's BASE_URL ("/") into process.env; the gateway reads BASE_URL as the UI's address.
        BASE_URL: 'http://localhost:3000',
        INVALID_ACCESS_DELAY_MS: '0',
        LOG_LEVEL: 'warn',
        // As the harness's gateway: the matrix calls from one address far faster than any client.
        ...RATE_LIMITS_OFF_ENV,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.pid !== undefined) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      const force = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(force);
    }
    await run('rabbitmqctl', ['delete_vhost', vhost]).catch(() => {});
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, 60_000, child);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return { baseUrl, stop };
}

let second: SecondGateway | null = null;
let defaultAllowed: Set<string>;

beforeAll(async () => {
  gw = await startTestGateway('gw_matrix');
  routes = allRoutes(gw.deps);
  admin = await gw.as(gw.adminId);
  callers = [];
  for (const role of ROLE_NAMES) callers.push({ kind: 'role', role, userId: await gw.createUser(role) });
  callers.push({ kind: 'anonymous' });
  const key = await gw.createApiKey('matrix key');
  callers.push({ kind: 'api_key', key: key.key });
  // The expectation for API keys rests on this: the key's bound user has the role inactive_user.
  const bound = await gw.db.query<{ role: string }>(
    `SELECT r.name AS role FROM gateway.api_keys k JOIN gateway.users u ON u.id = k.bound_user_id
     JOIN gateway.roles r ON r.id = u.role_id WHERE k.id = $1`,
    [key.id],
  );
  expect(bound.rows[0].role).toBe('inactive_user');
  const scoped = await gw.createApiKey('matrix scoped key', ['timestamp']);
  callers.push({ kind: 'scoped_api_key', key: scoped.key, holds: ['timestamp'] });
  const disabled = await gw.createApiKey('matrix disabled key');
  expect((await admin.put('/api-keys/disable', { id: disabled.id })).status).toBe(200);
  callers.push({ kind: 'disabled_api_key', key: disabled.key });
  callers.push({ kind: 'unknown_session' });
  second = await startSecondGateway();
});

afterAll(async () => {
  await second?.stop();
  await gw?.stop();
});

const declared = (pinned: PinnedRoute) => routes.find((r) => routeName(r) === routeName(pinned));

describe('the pinned tables', () => {
  it('are transcribed whole: one line a route, the default role counts 36/30/10/3/0/3', () => {
    expect(PINNED.size).toBe(ROUTE_PERMISSIONS.length);
    const counts = ROLE_NAMES.map((role) => DEFAULT_ROLE_MATRIX[role].length);
    expect(counts).toEqual([36, 30, 10, 3, 0, 3]);
  });

  it('hold every route the gateway declares, so none escapes the matrix', () => {
    expect(routes.length).toBeGreaterThan(20);
    expect(routes.map(routeName).filter((name) => !PINNED.has(name))).toEqual([]);
  });

  it('list as not served yet only routes of areas that later issues bring', () => {
    const pending = ROUTE_PERMISSIONS.filter((r) => !declared(r));
    console.info(
      `authorization matrix: ${pending.length} pinned routes not served yet, skipped:\n` +
        pending.map((r) => `  ${routeName(r)} (${PENDING_AREAS[r.area] ?? r.area})`).join('\n'),
    );
    expect(pending.filter((r) => !PENDING_AREAS[r.area]).map(routeName)).toEqual([]);
  });

  it('are what a new installation starts from (GET /role-permissions)', async () => {
    await expectServedMatrix();
  });

  it('leave most routes unable to run on the probe inputs', () => {
    const runs = routes.filter((r) => probeFor(r).runs).map(routeName);
    // Routes without parameters run; none of them may change shared data (POST /logout ends its own session).
    for (const route of runs) expect(route, route).toMatch(/^GET |^POST \/logout$/);
  });
});

describe('the default matrix, route by route', () => {
  for (const pinned of ROUTE_PERMISSIONS) {
    it(`${routeName(pinned)} (${pinned.permission})`, async (ctx) => {
      const route = declared(pinned);
      if (!route) ctx.skip(`not served yet: ${PENDING_AREAS[pinned.area] ?? pinned.area}`);
      const { wrong } = await probeRoute(new ApiClient(gw.baseUrl), route!);
      expect(wrong).toEqual([]);
    });
  }

  it('lets keys and roles in where they belong, and a caller without permissions only into public routes', async () => {
    const { wrong, allowed } = await runMatrix(gw.baseUrl);
    expect(wrong).toEqual([]);
    defaultAllowed = allowed;
    // Not vacuous: keys and roles get routes of their own.
    expect(allowed.size).toBeGreaterThan(routes.length);
    expect([...allowed].some((entry) => entry.startsWith('api_key '))).toBe(true);
    // The key with `timestamp` only posts timestamps, and reaches none of the other API-key routes.
    const scopedRoutes = [...allowed].filter((entry) => entry.startsWith('scoped_api_key '));
    expect(scopedRoutes).toContain('scoped_api_key POST /agent/rest/timestamps');
    expect(scopedRoutes).not.toContain('scoped_api_key GET /export/timestamps');
    expect(scopedRoutes.length).toBeLessThan([...allowed].filter((entry) => entry.startsWith('api_key ')).length);
    const publicRoutes = routes.filter((r) => PINNED.get(routeName(r))?.permission === 'public').map(routeName);
    expect(publicRoutes).toContain('GET /health-check');
    for (const who of ['anonymous', 'inactive_user', 'disabled_api_key']) {
      const own = [...allowed].filter((entry) => entry.startsWith(`${who} `)).map((e) => e.slice(who.length + 1));
      expect(own.sort()).toEqual([...publicRoutes].sort());
    }
  });

  it('changes with PUT and DELETE /role-permissions, and still holds (in both gateway processes)', async () => {
    // PUT gives the role the permission, DELETE takes it away; each is undone at the end.
    const changes = [
      ['PUT', 'user', 'manage_setting'],
      ['PUT', 'user', 'manage_api_key'],
      ['DELETE', 'user', 'basic_user_action'],
      // The API key's bound user is an inactive_user: the key gains what that role gains.
      ['PUT', 'inactive_user', 'basic_user_action'],
      ['DELETE', 'consignee', 'login'],
    ] as const;
    for (const [method, role, permission] of changes) await changeRole(method, role, permission);
    await expectServedMatrix();

    const { wrong, allowed } = await runMatrix(gw.baseUrl);
    expect(wrong).toEqual([]);
    const changed = [...new Set([...allowed, ...defaultAllowed])].filter(
      (e) => allowed.has(e) !== defaultAllowed.has(e),
    );
    const who = new Set(changed.map((entry) => entry.split(' ')[0]));
    expect(who).toEqual(new Set(['user', 'inactive_user', 'api_key', 'scoped_api_key', 'consignee']));
    expect(changed).toContain('user PUT /settings/:name/:value');
    expect(changed).toContain('api_key GET /settings');

    if (second) {
      const other = await runMatrix(second.baseUrl);
      expect(other.wrong).toEqual([]);
    }

    // Back to the defaults: the matrix of the start holds again.
    for (const [method, role, permission] of changes) {
      await changeRole(method === 'PUT' ? 'DELETE' : 'PUT', role, permission);
    }
    await expectServedMatrix();
    const again = await runMatrix(gw.baseUrl);
    expect(again.wrong).toEqual([]);
    expect(again.allowed).toEqual(defaultAllowed);
  });
});

/**
 * The other process's look-ups all began before the change, and none is used longer than CALLER_MAX_AGE_MS from
 * its start: a request sent that long after the change must see it (no bound on the request's own time, which a
 * loaded machine stretches).
 */
async function seenAfterMaxAge(probe: () => Promise<{ status: number }>, status: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, CALLER_MAX_AGE_MS + 50));
  expect((await probe()).status).toBe(status);
}

describe('another gateway process', () => {
  // A process reuses a resolved session for up to CALLER_MAX_AGE_MS (caller-cache.ts).
  it('applies a role-permission change within about a second', async (ctx) => {
    if (!second) ctx.skip();
    const userId = (callers.find((c) => c.kind === 'role' && c.role === 'user') as { userId: number }).userId;
    const onSecond = new ApiClient(second!.baseUrl).withSession(await gw.sessions.create(userId));
    expect((await onSecond.get('/roles')).status).toBe(200);
    await changeRole('DELETE', 'user', 'basic_user_action');
    await seenAfterMaxAge(() => onSecond.get('/roles'), 403);
    expect(await onSecond.get('/roles')).toMatchObject({ status: 403, body: { error: 'Invalid access' } });
    expect((await onSecond.get('/session')).body.user.permissions).not.toContain('basic_user_action');
    await changeRole('PUT', 'user', 'basic_user_action');
    await seenAfterMaxAge(() => onSecond.get('/roles'), 200);
  });
});

describe('modules', () => {
  const TITLES: Record<ModuleName, string> = {
    activity: 'Activity',
    logistics: 'Logistics',
    queue: 'Queue',
    map: 'Map',
    vis: 'VIS',
  };

  it('every route of a disabled module answers 403 naming it, at once, in every gateway process', async () => {
    const targets = [gw.baseUrl, ...(second ? [second.baseUrl] : [])];
    const noModule = routes.find((r) => !r.module && r.method === 'GET' && r.path === '/roles');
    expect(noModule).toBeDefined();
    for (const module of Object.keys(TITLES) as ModuleName[]) {
      const own = routes.filter((r) => r.module === module);
      expect((await admin.put(`/settings/${module}_module/disabled`)).status).toBe(200);
      for (const baseUrl of targets) {
        const client = new ApiClient(baseUrl).withSession(await gw.sessions.create(gw.adminId));
        expect((await client.get('/session')).body.modules[`${module}_module`]).toBe('disabled');
        for (const route of own) {
          const probe = probeFor(route);
          const res = await client.call(probe.method, probe.path, probe.params);
          expect(res, `${route.method} ${route.path}`).toMatchObject({
            status: 403,
            body: { error: `${TITLES[module]} module is disabled` },
          });
        }
        expect((await client.get('/roles')).status).toBe(200);
      }
      expect((await admin.put(`/settings/${module}_module/enabled`)).status).toBe(200);
      for (const route of own) {
        const probe = probeFor(route);
        const res = await admin.call(probe.method, probe.path, probe.params);
        expect(res.body, `${route.method} ${route.path}`).not.toEqual({
          error: `${TITLES[module]} module is disabled`,
        });
      }
    }
    // The activity module has routes today (timestamps, vessels); the others gain theirs with their issues.
    expect(routes.some((r) => r.module === 'activity')).toBe(true);
  });
});
