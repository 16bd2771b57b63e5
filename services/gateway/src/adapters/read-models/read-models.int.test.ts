// The timestamp and vessel read models against real PostgreSQL, directly and through the HTTP kit with the
// route declarations of routes/timestamps.ts and routes/vessels.ts (authentication stubbed, bus faked): row
// shape, PG text formats, filters, pagination, sorting and the original's error messages.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiError, INGEST, IngestCommands, type PostTimestampsCommand } from '@pcas/contracts';
import { type AuthContext, createHttpApp } from '@pcas/http-kit';
import { createVesselQueries } from '@pcas/ingest/queries';
import type { Bus } from '@pcas/messaging';
import { createLogger } from '@pcas/observability';
import { listTimestamps, vesselVisibility } from '@pcas/portcall-projector/queries';
import { type Db, openDb, pgTimestampText } from '@pcas/sql';
import { freshPostgres, type PostgresForTest } from '@pcas/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GatewayDeps } from '../../entry-points/deps.ts';
import { timestampRoutes } from '../../entry-points/routes/timestamps.ts';
import { vesselRoutes } from '../../entry-points/routes/vessels.ts';

const log = createLogger('read-models-test', 'silent');
const { listVessels } = createVesselQueries(vesselVisibility);

// The projector and ingest own these tables; a minimal copy of their shape stands in for them here.
const TABLES = [
  'CREATE SCHEMA IF NOT EXISTS portcall',
  `CREATE TABLE IF NOT EXISTS portcall.timestamps (
    id bigint PRIMARY KEY, imo bigint NOT NULL, vessel_name text NOT NULL, time_type text NOT NULL,
    state text NOT NULL, time timestamptz NOT NULL, payload jsonb NOT NULL, port_call_id bigint,
    is_trash boolean NOT NULL, weight int NOT NULL, created_by int, created_at timestamptz NOT NULL,
    modified_by int, modified_at timestamptz, version bigint NOT NULL DEFAULT 0)`,
  // Rows per IMO (kept by the projector's trigger; filled below from the rows inserted).
  'CREATE TABLE IF NOT EXISTS portcall.timestamp_counts (imo bigint PRIMARY KEY, timestamps bigint NOT NULL)',
  // GET /vessels reads `visible` from here (POST /vessel-visibility); no row means the ingest default.
  'CREATE TABLE IF NOT EXISTS portcall.vessels (imo bigint PRIMARY KEY, visible boolean NOT NULL DEFAULT true)',
  'CREATE SCHEMA IF NOT EXISTS ingest',
  `CREATE TABLE IF NOT EXISTS ingest.vessels (
    id serial PRIMARY KEY, imo bigint UNIQUE, vessel_name text NOT NULL DEFAULT '',
    visible boolean NOT NULL DEFAULT true, vessel_type integer NOT NULL DEFAULT 1,
    created_at timestamptz NOT NULL DEFAULT now(), created_by integer,
    modified_at timestamptz NOT NULL DEFAULT now(), modified_by integer)`,
  // GET /timestamps names each creator (a user, or the API key bound to it) from the gateway's own tables.
  'CREATE SCHEMA IF NOT EXISTS gateway',
  `CREATE TABLE IF NOT EXISTS gateway.users (
    id serial PRIMARY KEY, first_name text NOT NULL DEFAULT '', last_name text NOT NULL DEFAULT '',
    email text NOT NULL DEFAULT '')`,
  'CREATE TABLE IF NOT EXISTS gateway.api_keys (id serial PRIMARY KEY, name text NOT NULL, bound_user_id integer)',
];

const A = 9074729;
const B = 9176187;

// id, imo, time_type, state, time, payload, port_call_id, is_trash, weight, created_at
const TIMESTAMPS: [number, number, string, string, string, object, number | null, boolean, number, string][] = [
  [
    11,
    A,
    'Estimated',
    'Arrival_Vessel_PortArea',
    '2020-02-23T20:15:00Z',
    { source: 'a', n: 1 },
    5,
    false,
    0,
    '2020-02-20T10:00:00.12Z',
  ],
  [
    12,
    A,
    'Actual',
    'Departure_Vessel_Berth',
    '2020-02-25T06:00:00Z',
    { direction: 'outbound' },
    5,
    true,
    999,
    '2020-02-25T06:01:00Z',
  ],
  [13, A, 'Actual', 'Pilotage_Commenced', '2020-02-24T01:00:00.5Z', {}, null, false, 0, '2020-02-24T01:00:01Z'],
  [
    14,
    B,
    'Planned',
    'Arrival_Vessel_PortArea',
    '2020-03-01T00:00:00Z',
    { x: 'ü "q"' },
    null,
    false,
    0,
    '2020-02-28T00:00:00Z',
  ],
];

let pg: PostgresForTest;
let db: Db;
let server: Server;
let base: string;
const rpcCalls: { service: string; command: string; payload: any }[] = [];

const fakeBus = {
  async rpc(service: string, command: string, payload: unknown) {
    // Timestamp posts travel in batches; each item is recorded (and answered) as the post it stands for.
    if (command === IngestCommands.postTimestamps) {
      return (payload as PostTimestampsCommand).items.map(({ body }) => {
        rpcCalls.push({ service, command: IngestCommands.postTimestamp, payload: body });
        return (body.input as { imo?: unknown }).imo === 1
          ? { ok: false, status: 400, error: 'IMO number is not valid (automatic check calculation)' }
          : { ok: true, result: { result: 'OK', id: 99 } };
      });
    }
    rpcCalls.push({ service, command, payload });
    if ((payload as any)?.input?.imo === 1)
      throw ApiError.badRequest('IMO number is not valid (automatic check calculation)');
    return { result: 'OK', id: 99 };
  },
} as unknown as Bus;

const everyone: AuthContext = {
  kind: 'api_key',
  sessionId: null,
  userId: 7,
  apiKeyId: 3,
  role: 'admin',
  permissions: new Set(),
};

beforeAll(async () => {
  pg = await freshPostgres('pcas_gateway_read');
  db = await openDb(pg.url ? { url: pg.url } : { dataDir: 'memory://' });
  for (const statement of TABLES) await db.query(statement);
  for (const [id, imo, timeType, state, time, payload, portCallId, isTrash, weight, createdAt] of TIMESTAMPS) {
    await db.query(
      `INSERT INTO portcall.timestamps (id, imo, vessel_name, time_type, state, time, payload, port_call_id, is_trash,
         weight, created_by, created_at, modified_by, modified_at, version)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 7, $11, 8, $11, $1)`,
      [
        id,
        imo,
        imo === A ? 'Alpha One' : 'Bravo',
        timeType,
        state,
        time,
        JSON.stringify(payload),
        portCallId,
        isTrash,
        weight,
        createdAt,
      ],
    );
  }
  await db.query('INSERT INTO portcall.timestamp_counts SELECT imo, count(*) FROM portcall.timestamps GROUP BY imo');
  const vessels: [number, string, boolean, string][] = [
    [A, 'Alpha One', true, '2020-01-01T00:00:00Z'],
    [B, 'Bravo', false, '2020-01-02T00:00:00.25Z'],
    [9321483, 'alphabet soup', true, '2020-01-03T00:00:00Z'],
    [100000004, 'Nameless Alpha', true, '2020-01-04T00:00:00Z'],
  ];
  for (const [imo, name, visible, at] of vessels) {
    await db.query(
      'INSERT INTO ingest.vessels (imo, vessel_name, visible, created_at, created_by, modified_at) VALUES ($1, $2, $3, $4, 1, $4)',
      [imo, name, visible, at],
    );
  }

  const deps = { db, bus: fakeBus, log } as unknown as GatewayDeps;
  const app = createHttpApp({
    routes: [...timestampRoutes(deps), ...vesselRoutes(deps)],
    logger: log,
    authenticate: async () => everyone,
    authorize: async () => {},
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await db?.close();
  await pg?.drop();
});

beforeEach(() => {
  rpcCalls.length = 0;
});

async function call(method: string, path: string, params?: Record<string, unknown>) {
  let url = `${base}${path}`;
  let body: string | undefined;
  if (method === 'GET' && params)
    url += `?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;
  else if (params) body = JSON.stringify(params);
  const res = await fetch(url, { method, body, headers: body ? { 'Content-Type': 'application/json' } : {} });
  return { status: res.status, body: await res.json() };
}

const ids = (page: { data: { id: number }[] }) => page.data.map((r) => r.id);
const all = { offset: 0, limit: 100 };

describe('pgTimestampText', () => {
  it("matches PostgreSQL's own text output at UTC", async () => {
    const values = [
      '2020-02-23T20:15:00Z',
      '2020-02-23T20:15:00.1Z',
      '2020-02-23T20:15:00.120Z',
      '2020-02-23T20:15:00.000001Z',
      '2020-02-23T20:15:00.123456Z',
      '1999-12-31T23:59:59.999999+05:30',
      '2026-07-01T00:00:00-03:00',
    ];
    const rows = await db.transaction(async (tx) => {
      await tx.query("SET LOCAL TimeZone = 'UTC'");
      return (
        await tx.query<{ ours: string; pg: string }>(
          `SELECT ${pgTimestampText('v')} AS ours, v::text AS pg FROM unnest($1::timestamptz[]) AS v`,
          [values],
        )
      ).rows;
    });
    expect(rows).toHaveLength(values.length);
    for (const row of rows) expect(row.ours).toBe(row.pg);
    const none = await db.query(`SELECT ${pgTimestampText('NULL::timestamptz')} AS v`);
    expect(none.rows[0]).toEqual({ v: null });
  });
});

describe('listTimestamps', () => {
  it('gives the original row shape: PG text times, payload as a JSON string, is_trash t/f, catalogue ids', async () => {
    const page = await listTimestamps(db, { id: 11 }, all);
    expect(page.pagination).toEqual({ start: 0, limit: 100, total: 1 });
    const [row] = page.data;
    // The keys in the original's order.
    expect(Object.keys(row).join(' ')).toBe(
      'id port_call_id imo vessel_name time_type_id state_id time payload is_trash weight created_by created_at ' +
        'modified_by modified_at time_type state',
    );
    expect(row).toEqual({
      id: 11,
      port_call_id: 5,
      imo: A,
      vessel_name: 'Alpha One',
      time_type_id: 2,
      state_id: 55,
      time: '2020-02-23 20:15:00+00',
      payload: '{"n": 1, "source": "a"}',
      is_trash: 'f',
      weight: 0,
      created_by: 7,
      created_at: '2020-02-20 10:00:00.12+00',
      modified_by: 8,
      modified_at: '2020-02-20 10:00:00.12+00',
      time_type: 'Estimated',
      state: 'Arrival_Vessel_PortArea',
    });
    const trashed = (await listTimestamps(db, { id: 12 }, all)).data[0];
    expect(trashed).toMatchObject({ is_trash: 't', time_type_id: 3, state_id: 14, weight: 999 });
    expect(JSON.parse(trashed.payload)).toEqual({ direction: 'outbound' });
    expect((await listTimestamps(db, { id: 13 }, all)).data[0]).toMatchObject({
      time: '2020-02-24 01:00:00.5+00',
      payload: '{}',
      port_call_id: null,
      state_id: 105,
    });
    expect(JSON.parse((await listTimestamps(db, { id: 14 }, all)).data[0].payload)).toEqual({ x: 'ü "q"' });
  });

  it('filters by id, imo, port_call_id and an inclusive time range, AND-ed; includes trashed rows', async () => {
    expect(ids(await listTimestamps(db, {}, all))).toEqual([11, 13, 12, 14]);
    expect(ids(await listTimestamps(db, { imo: A }, all))).toEqual([11, 13, 12]);
    expect(ids(await listTimestamps(db, { port_call_id: 5 }, all))).toEqual([11, 12]);
    expect(ids(await listTimestamps(db, { imo: B, port_call_id: 5 }, all))).toEqual([]);
    const range = { start_date_time: '2020-02-23T20:15:00+00:00', end_date_time: '2020-02-25T06:00:00+00:00' };
    expect(ids(await listTimestamps(db, range, all))).toEqual([11, 13, 12]);
    // Offsets are honoured: 22:15+02:00 is 20:15 UTC.
    expect(ids(await listTimestamps(db, { start_date_time: '2020-02-23T22:15:01+02:00' }, all))).toEqual([13, 12, 14]);
    expect(ids(await listTimestamps(db, { id: 99 }, all))).toEqual([]);
  });

  it('paginates with the total of all matching rows and sorts by any row column', async () => {
    const page = await listTimestamps(db, {}, { offset: 1, limit: 2 });
    expect(page.pagination).toEqual({ start: 1, limit: 2, total: 4 });
    expect(ids(page)).toEqual([13, 12]);
    expect(ids(await listTimestamps(db, {}, { ...all, sort: 'time DESC' }))).toEqual([14, 12, 13, 11]);
    expect(ids(await listTimestamps(db, {}, { ...all, sort: 'state_id DESC,id' }))).toEqual([13, 11, 14, 12]);
    expect(ids(await listTimestamps(db, {}, { ...all, sort: 'is_trash DESC,lower(vessel_name) DESC' }))).toEqual([
      12, 14, 11, 13,
    ]);
    expect((await listTimestamps(db, {}, { offset: 10, limit: 2 })).data).toEqual([]);
    // Totals by IMO alone come from the per-vessel counts, others from the rows; both agree.
    expect((await listTimestamps(db, { imo: A }, { offset: 0, limit: 1 })).pagination.total).toBe(3);
    expect((await listTimestamps(db, { imo: 1234567 }, all)).pagination.total).toBe(0);
    expect((await listTimestamps(db, { imo: A, port_call_id: 5 }, { offset: 0, limit: 1 })).pagination.total).toBe(2);
    expect((await listTimestamps(db, { port_call_id: 5 }, { offset: 0, limit: 1 })).pagination.total).toBe(2);
    for (const bad of ['-time', 'time ASC', 'nope', 'lower(imo)']) {
      await expect(listTimestamps(db, {}, { ...all, sort: bad })).rejects.toMatchObject({
        status: 400,
        message: `Invalid orderBy: ${bad}`,
      });
    }
  });
});

describe('GET /timestamps and /export/timestamps', () => {
  it('answer the same paginated rows, default limit 100 and sort time', async () => {
    for (const path of ['/timestamps', '/export/timestamps']) {
      const res = await call('GET', path, { imo: A });
      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ start: 0, limit: 100, total: 3 });
      expect(res.body.data.map((r: any) => r.id)).toEqual([11, 13, 12]);
      expect(res.body.data[0].payload).toBe('{"n": 1, "source": "a"}');
    }
    const res = await call('GET', '/timestamps', { imo: A, limit: 1, offset: 1, sort: 'time DESC' });
    expect(res.body).toMatchObject({ data: [{ id: 13 }], pagination: { start: 1, limit: 1, total: 3 } });
  });

  it("reject bad limits, dates and sorts with the original's messages", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ limit: 101 }, 'Maximum limit is 100 records. Given limit: 101'],
      [{ limit: -1 }, 'Limit cannot be negative. Given limit: -1'],
      [{ limit: 'ten' }, "Wrong parameter type: limit should be int but got 'ten'"],
      [{ imo: 'x' }, "Wrong parameter type: imo should be int but got 'x'"],
      [{ start_date_time: '2020-01-01T00:00:00Z' }, 'Given start date time is not in ISO format: 2020-01-01T00:00:00Z'],
      [
        { start_date_time: '2020-02-30T00:00:00+00:00' },
        'Given start date time is not in ISO format: 2020-02-30T00:00:00+00:00',
      ],
      [{ end_date_time: '2020-01-01 00:00:00+00' }, 'Given end date time is not in ISO format: 2020-01-01 00:00:00+00'],
      [
        { end_date_time: '2020-01-01T00:00:00.5+00:00' },
        'Given end date time is not in ISO format: 2020-01-01T00:00:00.5+00:00',
      ],
      [{ sort: 'time asc' }, 'Invalid orderBy: time asc'],
    ];
    for (const [params, error] of cases) {
      const res = await call('GET', '/export/timestamps', params);
      expect({ params, status: res.status, body: res.body }).toEqual({ params, status: 400, body: { error } });
    }
    const ok = await call('GET', '/timestamps', { start_date_time: '2020-02-24T03:00:00+02:00', limit: 0 });
    expect(ok).toEqual({ status: 200, body: { data: [], pagination: { start: 0, limit: 0, total: 3 } } });
  });
});

describe('timestamp commands', () => {
  const post = {
    imo: A,
    vessel_name: 'Alpha One',
    time_type: 'Actual',
    state: 'Arrival_Vessel_Berth',
    time: '2020-02-24T10:00:00+00:00',
  };

  it('post agent and manual timestamps to ingest and answer {"result":"OK"}', async () => {
    expect(await call('POST', '/agent/rest/timestamps', { ...post, payload: { source: 'x' } })).toEqual({
      status: 200,
      body: { result: 'OK' },
    });
    expect(await call('POST', '/timestamps', { ...post, payload: '{"source":"vis"}' })).toEqual({
      status: 200,
      body: { result: 'OK' },
    });
    expect(rpcCalls).toEqual([
      {
        service: INGEST,
        command: IngestCommands.postTimestamp,
        payload: { actor: { user_id: 7, api_key_id: 3 }, input: { ...post, payload: { source: 'x' }, manual: false } },
      },
      {
        service: INGEST,
        command: IngestCommands.postTimestamp,
        payload: {
          actor: { user_id: 7, api_key_id: 3 },
          input: { ...post, payload: '{"source":"vis"}', manual: true },
        },
      },
    ]);
  });

  it('check parameters before calling ingest, and pass ingest errors through', async () => {
    expect(await call('POST', '/agent/rest/timestamps', { ...post })).toEqual({
      status: 400,
      body: { error: 'Missing parameter: payload' },
    });
    expect(await call('POST', '/agent/rest/timestamps', { ...post, imo: '12a', payload: {} })).toEqual({
      status: 400,
      body: { error: "Wrong parameter type: imo should be int but got '12a'" },
    });
    expect(rpcCalls).toEqual([]);
    expect(await call('POST', '/agent/rest/timestamps', { ...post, imo: 1, payload: {} })).toEqual({
      status: 400,
      body: { error: 'IMO number is not valid (automatic check calculation)' },
    });
  });

  it('delete and restore through ingest, answering true', async () => {
    expect(await call('DELETE', '/timestamps', { id: 12 })).toEqual({ status: 200, body: true });
    expect(await call('POST', '/restore-timestamp', { id: '12' })).toEqual({ status: 200, body: true });
    expect(await call('DELETE', '/timestamps', {})).toEqual({ status: 400, body: { error: 'Missing parameter: id' } });
    expect(rpcCalls.map((c) => [c.service, c.command, c.payload])).toEqual([
      [INGEST, IngestCommands.deleteTimestamp, { actor: { user_id: 7, api_key_id: 3 }, input: { id: 12 } }],
      [INGEST, IngestCommands.restoreTimestamp, { actor: { user_id: 7, api_key_id: 3 }, input: { id: 12 } }],
    ]);
  });
});

describe('vessels', () => {
  it('lists vessels in the original shape, default sort id', async () => {
    const page = await listVessels(db, { offset: 0, limit: 2 });
    expect(page.pagination).toEqual({ start: 0, limit: 2, total: 4 });
    expect(page.data).toEqual([
      {
        id: 1,
        imo: A,
        vessel_name: 'Alpha One',
        visible: true,
        vessel_type: 1,
        created_at: '2020-01-01 00:00:00+00',
        created_by: 1,
        modified_at: '2020-01-01 00:00:00+00',
        modified_by: null,
      },
      expect.objectContaining({ id: 2, imo: B, visible: false, created_at: '2020-01-02 00:00:00.25+00' }),
    ]);
  });

  it('searches as the original: ≥7 digits exact IMO, ^prefix, else substring, case-insensitive', async () => {
    const names = async (search: string, sort?: string) =>
      (await listVessels(db, { offset: 0, limit: 100, search, sort })).data.map((v) => v.vessel_name);
    expect(await names(String(B))).toEqual(['Bravo']);
    expect(await names('917618')).toEqual([]); // 6 digits: a name search
    expect(await names('^alpha')).toEqual(['Alpha One', 'alphabet soup']);
    expect(await names('alpha')).toEqual(['Alpha One', 'alphabet soup', 'Nameless Alpha']);
    expect(await names('alpha', 'lower(vessel_name) DESC')).toEqual(['Nameless Alpha', 'alphabet soup', 'Alpha One']);
    expect(await names('100%')).toEqual([]); // wildcards match literally
  });

  it('serves GET /vessels with limit, offset, sort, search', async () => {
    const res = await call('GET', '/vessels', { limit: 1, offset: 1, sort: 'vessel_name', search: 'a' });
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ start: 1, limit: 1, total: 4 });
    expect(res.body.data.map((v: any) => v.vessel_name)).toEqual(['Bravo']);
    const defaults = await call('GET', '/vessels');
    expect(defaults.body.pagination).toEqual({ start: 0, limit: 100, total: 4 });
    expect(await call('GET', '/vessels', { sort: 'lower(imo)' })).toEqual({
      status: 400,
      body: { error: 'Invalid orderBy: lower(imo)' },
    });
  });
});
