// The authorization matrix, generated from the gateway's own route table (`allRoutes`, so routes added later
// are covered without touching this file): every route × the six roles, an anonymous caller and an API key
// gets exactly the access that the role → permission matrix and the API-key permissions allow
// (shared/reference/original-app.md §2.3; 403 {"error":"Invalid access"} otherwise). Then role permissions are
// changed over HTTP and the matrix, with the changed expectation, must hold again: in this gateway and in a
// second gateway process on the same database, which also sees module switches at once.
//
// Inputs never change data: authorization runs before parameter validation (libs/http-kit), so every call
// carries parameters that fail validation (a missing required one, or one of the wrong type or too long);
// a route whose parameters cannot fail runs with a fresh throw-away session (POST /logout ends only that).

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { ModuleName, ParamSpec, Route } from '@pcas/http-kit';
import { ApiClient, freePort, rabbitmq, repoRoot, uniqueName, waitForHealth } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PERMISSIONS, DEFAULT_ROLE_PERMISSIONS, ROLE_NAMES } from '../domain/roles.ts';
import { allRoutes } from './routes/index.ts';
import { startTestGateway, type TestGateway } from './testing/gateway-harness.ts';

const run = promisify(execFile);

type Caller = { kind: 'role'; role: string; userId: number } | { kind: 'anonymous' } | { kind: 'api_key'; key: string };

const callerName = (c: Caller) => (c.kind === 'role' ? c.role : c.kind);

/** Role → its permissions, as the test expects them to be (defaults, then the changes the test makes). */
type Matrix = Map<string, Set<string>>;

// ---- the rule under test, restated from §2.3 and DESIGN.md "Permission names" ----

const SPEC_ALIASES: Record<string, string> = { modify_sea_chart_vessels: 'manage_sea_chart_vessel' };

function expectedAllowed(caller: Caller, permission: string, matrix: Matrix): boolean {
  if (permission === 'public') return true;
  // API-key-only pseudo permissions: no role can hold them, every active key has them.
  if (API_KEY_PERMISSIONS.includes(permission)) return caller.kind === 'api_key';
  if (caller.kind === 'anonymous') return false;
  // An API key acts as its bound user, whose role is inactive_user (§8.2).
  const held = matrix.get(caller.kind === 'role' ? caller.role : 'inactive_user') ?? new Set<string>();
  const name = SPEC_ALIASES[permission] ?? permission;
  if (held.has(name)) return true;
  // `manage_user` routes are open to a holder of any manage_user_<role>; the handler refines (§2.3 step 4).
  return name === 'manage_user' && [...held].some((p) => p.startsWith('manage_user_'));
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
  expected: 'allowed' | 'refused';
  status: number;
  body: unknown;
}

let gw: TestGateway;
let routes: Route[];
let callers: Caller[];
let admin: ApiClient;
const matrix: Matrix = new Map(ROLE_NAMES.map((role) => [role, new Set(DEFAULT_ROLE_PERMISSIONS[role])]));

async function clientFor(base: ApiClient, caller: Caller): Promise<ApiClient> {
  if (caller.kind === 'anonymous') return base.anonymous();
  if (caller.kind === 'api_key') return base.withApiKey(caller.key);
  // A fresh session per call: a route that ends the session (POST /logout) ends only this one.
  return base.withSession(await gw.sessions.create(caller.userId));
}

const isInvalidAccess = (status: number, body: unknown) =>
  status === 403 && JSON.stringify(body) === JSON.stringify({ error: 'Invalid access' });

/** Runs every route for every caller against `baseUrl`; returns the calls that did not get what they should. */
async function runMatrix(baseUrl: string): Promise<{ wrong: Outcome[]; allowed: Set<string> }> {
  const base = new ApiClient(baseUrl);
  const jobs: (() => Promise<Outcome>)[] = [];
  for (const route of routes) {
    const probe = probeFor(route);
    for (const caller of callers) {
      jobs.push(async () => {
        const client = await clientFor(base, caller);
        const res = await client.call(probe.method, probe.path, probe.params);
        return {
          route: `${route.method} ${route.path}`,
          caller: callerName(caller),
          expected: expectedAllowed(caller, route.permission, matrix) ? 'allowed' : 'refused',
          status: res.status,
          body: res.body,
        };
      });
    }
  }
  const outcomes: Outcome[] = [];
  // A few at a time: quick, without flooding a 2-core machine.
  for (let i = 0; i < jobs.length; i += 8) outcomes.push(...(await Promise.all(jobs.slice(i, i + 8).map((j) => j()))));
  const wrong = outcomes.filter((o) =>
    o.expected === 'allowed'
      ? isInvalidAccess(o.status, o.body) || o.status === 440
      : !isInvalidAccess(o.status, o.body),
  );
  const allowed = new Set(outcomes.filter((o) => o.expected === 'allowed').map((o) => `${o.caller} ${o.route}`));
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
  second = await startSecondGateway();
});

afterAll(async () => {
  await second?.stop();
  await gw?.stop();
});

describe('the authorization matrix', () => {
  it('covers the route table, and most routes cannot run on the probe inputs', () => {
    expect(routes.length).toBeGreaterThan(20);
    const runs = routes.filter((r) => probeFor(r).runs).map((r) => `${r.method} ${r.path}`);
    // Routes without parameters run; none of them may change shared data (POST /logout ends its own session).
    for (const route of runs) expect(route, route).toMatch(/^GET |^POST \/logout$/);
  });

  it('holds for every route and caller with the default role permissions', async () => {
    const { wrong, allowed } = await runMatrix(gw.baseUrl);
    expect(wrong).toEqual([]);
    defaultAllowed = allowed;
    // Not vacuous: keys and roles get routes of their own; a role without permissions gets the public ones only.
    expect(allowed.size).toBeGreaterThan(routes.length);
    expect([...allowed].some((entry) => entry.startsWith('api_key '))).toBe(true);
    const publicRoutes = routes.filter((r) => r.permission === 'public').map((r) => `${r.method} ${r.path}`);
    for (const who of ['anonymous', 'inactive_user']) {
      const own = [...allowed].filter((entry) => entry.startsWith(`${who} `)).map((e) => e.slice(who.length + 1));
      expect(own.sort()).toEqual([...publicRoutes].sort());
    }
  });

  it('changes with PUT and DELETE /role-permissions, and still holds (in both gateway processes)', async () => {
    await changeRole('PUT', 'user', 'manage_setting');
    await changeRole('PUT', 'user', 'manage_api_key');
    await changeRole('DELETE', 'user', 'basic_user_action');
    // The API key's bound user is an inactive_user: the key gains what that role gains.
    await changeRole('PUT', 'inactive_user', 'basic_user_action');
    await changeRole('DELETE', 'consignee', 'login');
    await expectServedMatrix();

    const { wrong, allowed } = await runMatrix(gw.baseUrl);
    expect(wrong).toEqual([]);
    const changed = [...new Set([...allowed, ...defaultAllowed])].filter(
      (e) => allowed.has(e) !== defaultAllowed.has(e),
    );
    const who = new Set(changed.map((entry) => entry.split(' ')[0]));
    expect(who).toEqual(new Set(['user', 'inactive_user', 'api_key', 'consignee']));
    expect(changed).toContain('user PUT /settings/:name/:value');
    expect(changed).toContain('api_key GET /settings');

    if (second) {
      const other = await runMatrix(second.baseUrl);
      expect(other.wrong).toEqual([]);
    }

    // Back to the defaults: the matrix of the start holds again.
    await changeRole('DELETE', 'user', 'manage_setting');
    await changeRole('DELETE', 'user', 'manage_api_key');
    await changeRole('PUT', 'user', 'basic_user_action');
    await changeRole('DELETE', 'inactive_user', 'basic_user_action');
    await changeRole('PUT', 'consignee', 'login');
    await expectServedMatrix();
    const again = await runMatrix(gw.baseUrl);
    expect(again.wrong).toEqual([]);
    expect(again.allowed).toEqual(defaultAllowed);
  });
});

describe('another gateway process', () => {
  it('applies a role-permission change on its very next request', async (ctx) => {
    if (!second) ctx.skip();
    const userId = (callers.find((c) => c.kind === 'role' && c.role === 'user') as { userId: number }).userId;
    const onSecond = new ApiClient(second!.baseUrl).withSession(await gw.sessions.create(userId));
    expect((await onSecond.get('/roles')).status).toBe(200);
    await changeRole('DELETE', 'user', 'basic_user_action');
    expect(await onSecond.get('/roles')).toMatchObject({ status: 403, body: { error: 'Invalid access' } });
    expect((await onSecond.get('/session')).body.user.permissions).not.toContain('basic_user_action');
    await changeRole('PUT', 'user', 'basic_user_action');
    expect((await onSecond.get('/roles')).status).toBe(200);
  });
});

describe('modules', () => {
  const TITLES: Record<ModuleName, string> = {
    activity: 'Activity',
    logistics: 'Logistics',
    queue: 'Queue',
    map: 'Map',
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
