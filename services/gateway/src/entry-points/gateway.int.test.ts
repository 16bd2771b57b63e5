// The gateway's access core over real HTTP: real PostgreSQL (event store + read models), real Redis for
// sessions (the SQL store when no Redis can be had outside CI) and the in-process bus.

import { randomBytes } from 'node:crypto';
import { type Config, loadConfig } from '@pcas/config';
import { INGEST, IngestCommands, type PostTimestampsCommand } from '@pcas/contracts';
import { createEventStore, type EventStore } from '@pcas/eventstore';
import type { Route } from '@pcas/http-kit';
import { type Bus, startProjection, startRelay } from '@pcas/messaging';
import type { Logger } from '@pcas/observability';
import { type Db, openDb } from '@pcas/sql';
import { freshPostgres, uniqueName } from '@pcas/testing';
import type { Redis } from 'ioredis';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../adapters/password.ts';
import { createSqlSessionStore, type SessionStore } from '../adapters/session-store.ts';
import { loadSigningKeys } from '../adapters/signing-key.ts';
import { createUser } from '../adapters/users.ts';
import { SESSION_PAYLOAD_KEYS } from '../testing/session-payload-keys.ts';
import { createAccess } from './auth.ts';
import type { GatewayDeps } from './deps.ts';
import { startGateway } from './service.ts';
import { gatewayGround, testSessions } from './testing/gateway-harness.ts';

const ADMIN_EMAIL = 'Admin@Test.Local';
// Distinctive, so a search of the log and the events table for it cannot match anything by accident.
const ADMIN_PASSWORD = `pw-${randomBytes(12).toString('hex')}`;
const USER_PASSWORD = `pw-${randomBytes(12).toString('hex')}`;

interface Answer {
  status: number;
  body: any;
}

let ground: Awaited<ReturnType<typeof gatewayGround>>;
let db: Db;
let store: EventStore;
let bus: Bus;
let redisClient: Redis | undefined;
let closeSessions: () => Promise<void>;
let sessions: SessionStore;
let config: Config;
let log: Logger;
let logLines: string[];
let gateway: { port: number; stop(): Promise<void> };
let base: string;
const redisPrefix = `${uniqueName('gateway-test')}:`;
const ingestCalls: { command: string; payload: any }[] = [];

async function call(
  method: string,
  urlPath: string,
  options: {
    auth?: string;
    body?: unknown;
    query?: Record<string, string | number>;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.auth) headers.Authorization = options.auth;
  let url = `${base}${urlPath}`;
  if (options.query) url += `?${new URLSearchParams(Object.entries(options.query).map(([k, v]) => [k, String(v)]))}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json;charset=utf-8';
    body = JSON.stringify(options.body);
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

async function login(email: string, password: string): Promise<string> {
  const res = await call('POST', '/login', { body: { email, password } });
  expect(res.status).toBe(200);
  return res.body.session_id;
}

/** A timestamp posted with an API key on the agent route (ingest is faked below). */
const postTimestamp = (key: string) =>
  call('POST', '/agent/rest/timestamps', {
    auth: `ApiKey ${key}`,
    body: {
      imo: 1234567,
      vessel_name: 'Unikieship',
      time_type: 'Estimated',
      state: 'Arrival_Vessel_PortArea',
      time: '2030-01-01T00:00:00Z',
      payload: {},
    },
  });

const deps = (): Omit<GatewayDeps, 'mailer' | 'seaChartVessels' | 'horizonWatch'> => ({
  config,
  db,
  store,
  bus,
  log,
  sessions,
});

beforeAll(async () => {
  ground = await gatewayGround('gateway_it');
  ({ db, store, bus, log, logLines } = ground);
  // Stands in for the ingest service, so an API-key-only route can be called end to end.
  // Timestamp posts come as batches (postTimestamps): one call is recorded per item.
  await bus.serveRpc(INGEST, async (command, payload) => {
    if (command === IngestCommands.postTimestamps) {
      const { items } = payload as PostTimestampsCommand;
      for (const item of items) ingestCalls.push({ command: IngestCommands.postTimestamp, payload: item.body });
      return items.map(() => ({ ok: true, result: { result: 'OK', id: 1 } }));
    }
    ingestCalls.push({ command, payload });
    return { result: 'OK', id: 1 };
  });
  config = loadConfig(
    {},
    {
      ...ground.settings(ADMIN_EMAIL, ADMIN_PASSWORD),
    },
  );
  ({ sessions, redisClient, close: closeSessions } = await testSessions(db, config.sessionTtlSeconds, redisPrefix));
  gateway = await startGateway(deps());
  base = `http://127.0.0.1:${gateway.port}`;
});

afterAll(async () => {
  await gateway?.stop();
  await closeSessions?.();
  await ground?.close();
});

describe('login, session, logout', () => {
  it('logs the seeded admin in (e-mail case-insensitive) with the full payload', async () => {
    const res = await call('POST', '/login', { body: { email: 'admin@test.LOCAL', password: ADMIN_PASSWORD } });
    expect(res.status).toBe(200);
    const body = res.body;
    expect(Object.keys(body)).toEqual(SESSION_PAYLOAD_KEYS);
    expect(body.session_id).toMatch(/^[A-Za-z0-9_-]{26,}$/);
    expect(body.user).toMatchObject({ email: ADMIN_EMAIL, first_name: 'Admin', last_name: 'User', role: 'admin' });
    expect(typeof body.user.id).toBe('number');
    expect(body.user.permissions).toHaveLength(36);
    expect(body.user.permissions).toContain('manage_api_key');
    expect(body.modules).toEqual({
      activity_module: 'enabled',
      logistics_module: 'enabled',
      queue_module: 'enabled',
      map_module: 'enabled',
      codeless_registration_module: 'disabled',
      vis_module: 'enabled',
    });
    expect(body.session.ttl).toBe(3600);
    expect(body.session.expires_ts).toBe(body.session.time + 3600);
    expect(Math.abs(body.session.time - Date.now() / 1000)).toBeLessThan(60);
    expect(body.map_default_coordinates).toBe('60.699083,17.328354');
    expect(body.map_default_zoom).toBe('10');
    expect(body.rta_point_coordinates).toBe('');

    // The JWT is RS256 with the stored key pair, 24 h, data.user_id.
    const keys = await db.query<{ public_key_pem: string }>('SELECT public_key_pem FROM gateway.signing_keys');
    const claims = jwt.verify(body.jwt, keys.rows[0].public_key_pem, { algorithms: ['RS256'] }) as any;
    expect(claims.data).toEqual({ user_id: body.user.id });
    expect(claims.exp - claims.iat).toBe(86_400);
    expect(claims.nbf).toBe(claims.iat);
  });

  it('answers 403 Invalid access for a wrong password or an unknown user', async () => {
    const wrong = await call('POST', '/login', { body: { email: ADMIN_EMAIL, password: `${ADMIN_PASSWORD}x` } });
    expect(wrong).toEqual({ status: 403, body: { error: 'Invalid access' } });
    const unknown = await call('POST', '/login', { body: { email: 'nobody@test.local', password: ADMIN_PASSWORD } });
    expect(unknown).toEqual({ status: 403, body: { error: 'Invalid access' } });
  });

  it('answers 440 for an unknown session even on /login (Bearer null)', async () => {
    const res = await call('POST', '/login', {
      auth: 'Bearer null',
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    expect(res).toEqual({ status: 440, body: { error: 'Session expired' } });
    const health = await call('GET', '/health-check', { auth: 'Bearer null' });
    expect(health.status).toBe(440);
  });

  it('gives a new session id on every login and records UserLoggedIn with the actor', async () => {
    const a = await login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const b = await login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(a).not.toBe(b);
    const admin = await db.query<{ id: number; last_login_time: Date | null }>(
      'SELECT id, last_login_time FROM gateway.users WHERE lower(email) = lower($1)',
      [ADMIN_EMAIL],
    );
    const adminId = admin.rows[0].id;
    expect(admin.rows[0].last_login_time).not.toBeNull();
    const events = await store.readStream(`user-${adminId}`);
    expect(events[0].type).toBe('UserCreated');
    const logins = events.filter((e) => e.type === 'UserLoggedIn');
    expect(logins.length).toBeGreaterThanOrEqual(2);
    expect(logins.at(-1)!.metadata.user_id).toBe(adminId);
    expect((logins.at(-1)!.data as any).last_login_data).toHaveProperty('remote_addr');
  });

  it('GET /session returns the payload without session_id', async () => {
    const sessionId = await login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const res = await call('GET', '/session', { auth: `Bearer ${sessionId}` });
    expect(res.status).toBe(200);
    expect('session_id' in res.body).toBe(false);
    expect(res.body.user.permissions).toHaveLength(36);
    expect(res.body.user.role).toBe('admin');
    expect(res.body.session.ttl).toBe(3600);
  });

  it('GET /session without a session is refused', async () => {
    expect(await call('GET', '/session')).toEqual({ status: 403, body: { error: 'Invalid access' } });
  });

  it('logout answers true, and the id then gives 440', async () => {
    const sessionId = await login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const out = await call('POST', '/logout', { auth: `Bearer ${sessionId}`, body: {} });
    expect(out).toEqual({ status: 200, body: true });
    expect(await call('GET', '/session', { auth: `Bearer ${sessionId}` })).toEqual({
      status: 440,
      body: { error: 'Session expired' },
    });
    expect((await call('POST', '/logout', { auth: `Bearer ${sessionId}`, body: {} })).status).toBe(440);
  });

  it('stores the ClientTimeZone only when it changes', async () => {
    const sessionId = await login(ADMIN_EMAIL, ADMIN_PASSWORD);
    const headers = { ClientTimeZone: 'Europe/Helsinki' };
    for (let i = 0; i < 3; i++) {
      expect((await call('GET', '/session', { auth: `Bearer ${sessionId}`, headers })).status).toBe(200);
    }
    // An invalid zone is ignored, not stored.
    await call('GET', '/session', { auth: `Bearer ${sessionId}`, headers: { ClientTimeZone: 'Mars/Base' } });
    const row = await db.query<{ id: number; time_zone: string }>(
      'SELECT id, time_zone FROM gateway.users WHERE lower(email) = lower($1)',
      [ADMIN_EMAIL],
    );
    expect(row.rows[0].time_zone).toBe('Europe/Helsinki');
    const changes = (await store.readStream(`user-${row.rows[0].id}`)).filter((e) => e.type === 'UserTimeZoneChanged');
    expect(changes).toHaveLength(1);
    expect(changes[0].data).toMatchObject({ time_zone: 'Europe/Helsinki', previous_time_zone: null });
  });

  it('refuses login to a role without the login permission', async () => {
    await db.transaction((tx) =>
      hashPassword(USER_PASSWORD).then((password_hash) =>
        createUser(
          tx,
          store,
          {
            email: 'inactive@test.local',
            first_name: 'In',
            last_name: 'Active',
            role: 'inactive_user',
            status: 'active',
            registration_type: 'manual',
            password_hash,
            created_by: null,
          },
          { user_id: null, api_key_id: null },
        ),
      ),
    );
    const res = await call('POST', '/login', { body: { email: 'inactive@test.local', password: USER_PASSWORD } });
    expect(res).toEqual({ status: 403, body: { error: 'Invalid access' } });
  });
});

describe('API keys', () => {
  let adminSession: string;
  let adminId: number;
  let created: { id: number; name: string; key: string };

  beforeAll(async () => {
    adminSession = await login(ADMIN_EMAIL, ADMIN_PASSWORD);
    adminId = (await call('GET', '/session', { auth: `Bearer ${adminSession}` })).body.user.id;
  });

  const admin = () => `Bearer ${adminSession}`;

  it('refuses /api-keys without credentials or without manage_api_key', async () => {
    const anonymous = await call('GET', '/api-keys', { query: { limit: 10, offset: 0, sort: 'id' } });
    expect(anonymous).toEqual({ status: 403, body: { error: 'Invalid access' } });
    expect((await call('POST', '/api-keys', { body: { name: 'x' } })).status).toBe(403);

    await db.transaction(async (tx) =>
      createUser(
        tx,
        store,
        {
          email: 'plain@test.local',
          first_name: 'Plain',
          last_name: 'User',
          role: 'user',
          status: 'active',
          registration_type: 'manual',
          password_hash: await hashPassword(USER_PASSWORD),
          created_by: null,
        },
        { user_id: null, api_key_id: null },
      ),
    );
    const userSession = await login('plain@test.local', USER_PASSWORD);
    const asUser = await call('GET', '/api-keys', {
      auth: `Bearer ${userSession}`,
      query: { limit: 10, offset: 0, sort: 'id' },
    });
    expect(asUser).toEqual({ status: 403, body: { error: 'Invalid access' } });
  });

  it('creates a key with a hidden bound user that cannot log in', async () => {
    const res = await call('POST', '/api-keys', { auth: admin(), body: { name: 'Alpha feed' } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['id', 'name', 'key']);
    expect(res.body.name).toBe('Alpha feed');
    expect(res.body.key).toMatch(/^[0-9a-f]{50}$/);
    created = res.body;

    const row = await db.query<any>(
      `SELECT u.email, u.first_name, u.last_name, u.status, u.created_by, r.name AS role,
         EXISTS (SELECT 1 FROM gateway.credentials c WHERE c.kind = 'password' AND c.id = u.id) AS has_password
       FROM gateway.api_keys k JOIN gateway.users u ON u.id = k.bound_user_id JOIN gateway.roles r ON r.id = u.role_id
       WHERE k.id = $1`,
      [created.id],
    );
    const bound = row.rows[0];
    expect(bound.email).toMatch(/^\d{10}-[0-9a-f]{13}@api\.key$/);
    expect(bound).toMatchObject({
      first_name: 'ApiKey',
      last_name: 'ApiKey',
      status: 'api_user',
      role: 'inactive_user',
      has_password: false,
      created_by: adminId,
    });
    expect(await call('POST', '/login', { body: { email: bound.email, password: '' } })).toMatchObject({ status: 403 });
  });

  it('lists keys with the original row shape, paging, search and sort', async () => {
    await call('POST', '/api-keys', { auth: admin(), body: { name: 'Beta' } });
    const all = await call('GET', '/api-keys', { auth: admin(), query: { limit: 10, offset: 0, sort: 'id' } });
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ start: 0, limit: 10, total: 2 });
    const first = all.body.data[0];
    expect(Object.keys(first).sort()).toEqual(
      [
        'bound_user_id',
        'created_at',
        'created_by',
        'id',
        'is_active',
        'key',
        'modified_at',
        'modified_by',
        'name',
        'permissions',
      ].sort(),
    );
    expect(first).toMatchObject({
      id: created.id,
      name: 'Alpha feed',
      key: created.key,
      is_active: true,
      created_by: adminId,
    });
    expect(first.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?\+00$/);

    const searched = await call('GET', '/api-keys', {
      auth: admin(),
      query: { limit: 10, offset: 0, sort: 'id', search: 'alp' },
    });
    expect(searched.body.data.map((r: any) => r.name)).toEqual(['Alpha feed']);
    expect(searched.body.pagination.total).toBe(1);

    const byName = await call('GET', '/api-keys', { auth: admin(), query: { limit: 1, offset: 1, sort: 'name DESC' } });
    expect(byName.body.data.map((r: any) => r.name)).toEqual(['Alpha feed']);
    expect(byName.body.pagination).toEqual({ start: 1, limit: 1, total: 2 });

    expect(await call('GET', '/api-keys', { auth: admin(), query: { limit: 10, offset: 0, sort: 'secret' } })).toEqual({
      status: 400,
      body: { error: 'Invalid orderBy: secret' },
    });
    expect(await call('GET', '/api-keys', { auth: admin(), query: { offset: 0, sort: 'id' } })).toEqual({
      status: 400,
      body: { error: 'Missing parameter: limit' },
    });
  });

  it('authenticates the key: bound user, API-key permissions, nothing more', async () => {
    const access = createAccess(deps());
    const auth = await access.authenticate({ authorization: `ApiKey ${created.key}` });
    const bound = await db.query<{ bound_user_id: number }>(
      'SELECT bound_user_id FROM gateway.api_keys WHERE id = $1',
      [created.id],
    );
    expect(auth).toMatchObject({
      kind: 'api_key',
      apiKeyId: created.id,
      userId: bound.rows[0].bound_user_id,
      sessionId: null,
    });
    const route = (permission: string) => ({ permission }) as Route;
    await expect(access.authorize(auth, route('timestamp'), {})).resolves.toBeUndefined();
    await expect(access.authorize(auth, route('export_api'), {})).resolves.toBeUndefined();
    await expect(access.authorize(auth, route('basic_user_action'), {})).rejects.toMatchObject({ status: 403 });
    // A session, even an admin's, never holds an API-key-only permission.
    const adminAuth = await access.authenticate({ authorization: admin() });
    await expect(access.authorize(adminAuth, route('timestamp'), {})).rejects.toMatchObject({ status: 403 });
    // Unknown keys are anonymous, not an error.
    const unknown = await access.authenticate({ authorization: `ApiKey ${'0'.repeat(50)}` });
    expect(unknown.kind).toBe('anonymous');

    // Over HTTP: a public route, then the API-key-only timestamp route (ingest is faked above).
    expect((await call('GET', '/health-check', { auth: `ApiKey ${created.key}` })).status).toBe(200);
    const posted = await postTimestamp(created.key);
    expect(posted.status).toBe(200);
    expect(ingestCalls.at(-1)?.payload.actor).toEqual({ user_id: bound.rows[0].bound_user_id, api_key_id: created.id });
    expect(
      (await call('GET', '/api-keys', { auth: `ApiKey ${created.key}`, query: { limit: 1, offset: 0, sort: 'id' } }))
        .status,
    ).toBe(403);
  });

  it('a disabled key is refused at once; enabling restores it', async () => {
    const access = createAccess(deps());
    const timestamp = () => postTimestamp(created.key);

    expect(await call('PUT', '/api-keys/disable', { auth: admin(), body: { id: created.id } })).toEqual({
      status: 200,
      body: true,
    });
    expect((await access.authenticate({ authorization: `ApiKey ${created.key}` })).kind).toBe('anonymous');
    expect(await timestamp()).toEqual({ status: 403, body: { error: 'Invalid access' } });
    const listed = await call('GET', '/api-keys', { auth: admin(), query: { limit: 10, offset: 0, sort: 'id' } });
    expect(listed.body.data.find((r: any) => r.id === created.id)).toMatchObject({
      is_active: false,
      modified_by: adminId,
    });

    // Disabling twice changes nothing and appends nothing.
    expect((await call('PUT', '/api-keys/disable', { auth: admin(), body: { id: created.id } })).body).toBe(true);

    expect(await call('PUT', '/api-keys/enable', { auth: admin(), body: { id: created.id } })).toEqual({
      status: 200,
      body: true,
    });
    expect((await access.authenticate({ authorization: `ApiKey ${created.key}` })).kind).toBe('api_key');
    expect((await timestamp()).status).toBe(200);
  });

  it('holds the API-key permissions an administrator chose, all of them without a list; refusals store nothing', async () => {
    const all = ['timestamp', 'translation', 'push_notification_token', 'export_api', 'update_sea_chart_location'];
    const listed = async (id: number) =>
      (await call('GET', '/api-keys', { auth: admin(), query: { limit: 100, offset: 0, sort: 'id' } })).body.data.find(
        (r: any) => r.id === id,
      );
    expect((await listed(created.id)).permissions).toEqual(all);
    const gate = await call('POST', '/api-keys', {
      auth: admin(),
      body: { name: 'Gate system', permissions: ['timestamp'] },
    });
    expect(gate.status).toBe(200);
    expect((await listed(gate.body.id)).permissions).toEqual(['timestamp']);
    const gateKey = { authorization: `ApiKey ${gate.body.key}` };
    expect([...(await createAccess(deps()).authenticate(gateKey)).permissions].filter((p) => all.includes(p))).toEqual([
      'timestamp',
    ]);
    const exported = () =>
      call('GET', '/export/timestamps', { auth: `ApiKey ${gate.body.key}`, query: { limit: 1, offset: 0 } });
    expect(await exported()).toEqual({ status: 403, body: { error: 'Invalid access' } });

    const events = async () => (await store.readStream(`apikey-${gate.body.id}`)).length;
    const before = await events();
    for (const permissions of [[], ['manage_user'], [1]]) {
      const refused = await call('PUT', '/api-keys/permissions', {
        auth: admin(),
        body: { id: gate.body.id, permissions },
      });
      expect(refused.status, JSON.stringify(permissions)).toBe(400);
      expect(refused.body.error).toMatch(/^Invalid permission/);
    }
    expect(
      (
        await call('PUT', '/api-keys/permissions', {
          auth: admin(),
          body: { id: gate.body.id, permissions: 'timestamp' },
        })
      ).status,
    ).toBe(400);
    expect(
      (await call('POST', '/api-keys', { auth: admin(), body: { name: 'Nothing', permissions: [] } })).status,
    ).toBe(400);
    expect(await events()).toBe(before);

    expect(
      (
        await call('PUT', '/api-keys/permissions', {
          auth: admin(),
          body: { id: gate.body.id, permissions: ['timestamp', 'export_api'] },
        })
      ).body,
    ).toBe(true);
    expect((await listed(gate.body.id)).permissions).toEqual(['timestamp', 'export_api']);
    expect(
      (await call('PUT', '/api-keys/permissions', { auth: admin(), body: { id: gate.body.id, permissions: null } }))
        .body,
    ).toBe(true);
    expect((await listed(gate.body.id)).permissions).toEqual(all);
    // The same set again appends nothing.
    const now = await events();
    await call('PUT', '/api-keys/permissions', { auth: admin(), body: { id: gate.body.id, permissions: null } });
    expect(await events()).toBe(now);
    expect((await store.readStream(`apikey-${gate.body.id}`)).map((e) => e.data).slice(-2)).toEqual([
      { id: gate.body.id, permissions: ['timestamp', 'export_api'] },
      { id: gate.body.id, permissions: null },
    ]);
    expect(
      (await call('PUT', '/api-keys/permissions', { auth: admin(), body: { id: 999_999, permissions: null } })).body,
    ).toEqual({ error: 'Invalid API key id: 999999' });
  });

  it('answers 400 for an unknown key id', async () => {
    const res = await call('PUT', '/api-keys/enable', { auth: admin(), body: { id: 999_999 } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/999999/);
  });

  it('appended the events with the actor in metadata', async () => {
    const events = await store.readStream(`apikey-${created.id}`);
    expect(events.map((e) => e.type)).toEqual(['ApiKeyCreated', 'ApiKeyDisabled', 'ApiKeyEnabled']);
    for (const event of events) expect(event.metadata).toMatchObject({ user_id: adminId, api_key_id: null });
    // The key is a credential, never in an event (the relay publishes them all).
    expect(events[0].data).toEqual({
      id: created.id,
      name: 'Alpha feed',
      bound_user_id: expect.any(Number),
      permissions: null,
    });
    const boundId = (events[0].data as any).bound_user_id;
    const userEvents = await store.readStream(`user-${boundId}`);
    expect(userEvents.map((e) => e.type)).toEqual(['UserCreated']);
    expect(userEvents[0].data).toMatchObject({ status: 'api_user', role: 'inactive_user', created_by: adminId });
    expect(userEvents[0].metadata).toMatchObject({ user_id: adminId });
  });
});

describe('health and secrets', () => {
  it('reports dependencies and projection lag', async () => {
    const res = await call('GET', '/health-check');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'OK',
      dependencies: { postgres: 'ok', rabbitmq: 'not used', redis: redisClient ? 'ok' : 'not used' },
      projections: expect.any(Array),
      event_log: { held_back_by: [] },
    });

    // A projection fed by the relay shows up with its lag, which reaches 0 once it has caught up.
    const applied: string[] = [];
    const projection = await startProjection({
      bus,
      db,
      log,
      name: 'gateway-it',
      bindings: ['apikey.*'],
      apply: async (_tx, events) => {
        applied.push(...events.map((e) => e.type));
      },
    });
    const relay = await startRelay({ store, db, bus, log, pollIntervalMs: 20 });
    try {
      await call('POST', '/api-keys', {
        auth: `Bearer ${await login(ADMIN_EMAIL, ADMIN_PASSWORD)}`,
        body: { name: 'Lag' },
      });
      await expect
        .poll(
          async () => (await call('GET', '/health-check')).body.projections.find((p: any) => p.name === 'gateway-it'),
          { timeout: 30_000, interval: 50 },
        )
        .toEqual({ name: 'gateway-it', lag_seconds: 0 });
      expect(applied).toContain('ApiKeyCreated');
    } finally {
      await relay.stop();
      await projection.stop();
    }
  });

  it('answers 503 with the same shape when a dependency is down', async () => {
    const downSessions: SessionStore = { ...sessions, health: async () => 'down' };
    const degraded = await startGateway({ ...deps(), sessions: downSessions });
    try {
      const res = await fetch(`http://127.0.0.1:${degraded.port}/health-check`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        status: 'ERROR',
        dependencies: { postgres: 'ok', rabbitmq: 'not used', redis: 'down' },
        projections: expect.any(Array),
        event_log: { held_back_by: [] },
      });
    } finally {
      await degraded.stop();
    }
  });

  it('never stores or logs a password, only its scrypt hash, outside the event log', async () => {
    const leaks = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM eventstore.events
       WHERE data::text LIKE '%' || $1 || '%' OR metadata::text LIKE '%' || $1 || '%'
          OR data::text LIKE '%' || $2 || '%' OR metadata::text LIKE '%' || $2 || '%'`,
      [ADMIN_PASSWORD, USER_PASSWORD],
    );
    expect(leaks.rows[0].n).toBe(0);
    const admin = await db.query<{ id: number }>('SELECT id FROM gateway.users WHERE lower(email) = lower($1)', [
      ADMIN_EMAIL,
    ]);
    const created = (await store.readStream(`user-${admin.rows[0].id}`))[0];
    expect(created.data).not.toHaveProperty('password_hash');
    const hash = await db.query<{ secret: string }>(
      `SELECT secret FROM gateway.credentials WHERE kind = 'password' AND id = $1`,
      [admin.rows[0].id],
    );
    expect(hash.rows[0].secret).toMatch(/^\$scrypt\$/);

    expect(logLines.length).toBeGreaterThan(10);
    const log = logLines.join('');
    expect(log).toContain('"path":"/login"');
    expect(log).not.toContain(ADMIN_PASSWORD);
    expect(log).not.toContain(USER_PASSWORD);
  });
});

describe('startup', () => {
  it('is idempotent when several gateway processes start at once: one admin, one matrix', async () => {
    const fresh = await freshPostgres('gateway_seed');
    const dbs: Db[] = [];
    try {
      if (!fresh.url) return; // PGlite is one process: nothing concurrent to prove.
      for (let i = 0; i < 3; i++) dbs.push(await openDb({ url: fresh.url, poolSize: 2 }));
      const stores = dbs.map((d) => createEventStore(d));
      await stores[0].init();
      const running = await Promise.all(
        dbs.map((d, i) =>
          startGateway({
            config,
            db: d,
            store: stores[i],
            bus,
            log,
            sessions: createSqlSessionStore(d, { ttlSeconds: 60 }),
          }),
        ),
      );
      await Promise.all(running.map((r) => r.stop()));
      const users = await dbs[0].query<{ n: number }>('SELECT count(*)::int AS n FROM gateway.users');
      expect(users.rows[0].n).toBe(1);
      const matrix = await dbs[0].query<{ role: string; n: number }>(
        `SELECT r.name AS role, count(rp.permission_id)::int AS n FROM gateway.roles r
         LEFT JOIN gateway.role_permissions rp ON rp.role_id = r.id GROUP BY r.name`,
      );
      expect(Object.fromEntries(matrix.rows.map((r) => [r.role, r.n]))).toEqual({
        admin: 36,
        second_admin: 30,
        first_user: 10,
        user: 3,
        inactive_user: 0,
        consignee: 3,
      });
      const settings = await dbs[0].query<{ n: number }>('SELECT count(*)::int AS n FROM gateway.settings');
      expect(settings.rows[0].n).toBe(14);
      const keys = await dbs[0].query<{ n: number }>('SELECT count(*)::int AS n FROM gateway.signing_keys');
      expect(keys.rows[0].n).toBe(0); // generated lazily, on the first login
      // Processes generating the JWT key pair at once all end up signing with the same one.
      const pairs = await Promise.all(
        dbs.map((d) => loadSigningKeys(d, { privateKeyPem: undefined, publicKeyPem: undefined })),
      );
      expect(new Set(pairs.map((p) => p.privateKeyPem)).size).toBe(1);
    } finally {
      await Promise.all(dbs.map((d) => d.close()));
      await fresh.drop();
    }
  });

  it('keeps an edited role matrix across restarts', async () => {
    await db.query(
      `DELETE FROM gateway.role_permissions WHERE role_id = (SELECT id FROM gateway.roles WHERE name = 'user')
       AND permission_id = (SELECT id FROM gateway.permissions WHERE name = 'view_vis_information')`,
    );
    const again = await startGateway(deps());
    await again.stop();
    const left = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM gateway.role_permissions rp JOIN gateway.roles r ON r.id = rp.role_id WHERE r.name = 'user'`,
    );
    expect(left.rows[0].n).toBe(2);
  });
});
