// The priority routes over HTTP on real PostgreSQL: input checks in the original's order and messages (nothing
// reaches ingest on bad input), the command sent to ingest, and the GET shapes read from ingest's weight tables
// joined with the API keys. Ingest is faked on the bus and its tables are a minimal copy of their shape; the
// whole path through the real ingest is e2e/priorities.e2e.test.ts.

import { ApiError, INGEST, IngestCommands } from '@pcas/contracts';
import type { RequestContext } from '@pcas/http-kit';
import type { ApiClient } from '@pcas/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/gateway-harness.ts';
import { priorityRoutes } from './priorities.ts';

let gw: TestGateway;
let admin: ApiClient;
let user: ApiClient;
let source: ApiClient;
let k1: { id: number; key: string };
let k2: { id: number; key: string };
let k3: { id: number; key: string };
let calls: { command: string; payload: any }[] = [];
let ingestError: ApiError | undefined;

const INGEST_TABLES = [
  'CREATE SCHEMA IF NOT EXISTS ingest',
  `CREATE TABLE IF NOT EXISTS ingest.timestamp_api_key_weights (
    time_type text NOT NULL, state text NOT NULL, api_key_id integer NOT NULL, weight integer NOT NULL,
    PRIMARY KEY (time_type, state, api_key_id))`,
  `CREATE TABLE IF NOT EXISTS ingest.payload_key_api_key_weights (
    payload_key text NOT NULL, api_key_id integer NOT NULL, weight integer NOT NULL,
    PRIMARY KEY (payload_key, api_key_id))`,
];

beforeAll(async () => {
  // The Gävle template; a namespace of this test's own, so its session keys are its own too (the lookup, like
  // the original's PORT_CALL_TEMPLATE_<NAMESPACE>, ignores case).
  gw = await startTestGateway('gw_priorities', { namespace: 'GAVLE' });
  admin = await gw.as(gw.adminId);
  user = await gw.as(await gw.createUser('user'));
  k1 = await gw.createApiKey('Bravo source');
  k2 = await gw.createApiKey('alpha source');
  k3 = await gw.createApiKey('Charlie source');
  source = gw.anonymous.withApiKey(k1.key);
  await gw.deps.bus.serveRpc(INGEST, async (command, payload) => {
    calls.push({ command, payload });
    if (ingestError) throw ingestError;
    return { result: 'OK' };
  });
});

afterAll(async () => {
  await gw?.stop();
});

beforeEach(() => {
  calls = [];
  ingestError = undefined;
});

describe('POST /timestamp-api-key-weights', () => {
  const body = (overrides: Record<string, unknown> = {}) => ({
    timestamp_time_type: 'Estimated',
    timestamp_state: 'Departure_Vessel_Berth',
    api_key_ids: [k2.id, k1.id],
    ...overrides,
  });

  it('sends the ordered ids to ingest with the acting user and answers {"result":"OK"}', async () => {
    expect(await admin.post('/timestamp-api-key-weights', body())).toMatchObject({
      status: 200,
      body: { result: 'OK' },
    });
    expect(calls).toEqual([
      {
        command: IngestCommands.setTimestampApiKeyWeights,
        payload: {
          actor: { user_id: gw.adminId, api_key_id: null },
          input: { time_type: 'Estimated', state: 'Departure_Vessel_Berth', api_key_ids: [k2.id, k1.id] },
        },
      },
    ]);
  });

  it('accepts ids as digit strings, an object of ids (a PHP array), an empty list, and disabled keys', async () => {
    expect(await admin.put('/api-keys/disable', { id: k3.id })).toMatchObject({ status: 200 });
    for (const ids of [[String(k3.id)], { a: k1.id, b: k3.id }, []]) {
      expect((await admin.post('/timestamp-api-key-weights', body({ api_key_ids: ids }))).status).toBe(200);
    }
    expect(calls.map((c) => c.payload.input.api_key_ids)).toEqual([[k3.id], [k1.id, k3.id], []]);
    await admin.put('/api-keys/enable', { id: k3.id });
  });

  it.each([
    [{ api_key_ids: 'all' }, "Wrong parameter type: api_key_ids should be array but got 'all'"],
    [{ timestamp_state: 14 }, "Wrong parameter type: timestamp_state should be string but got '14'"],
    [{ timestamp_time_type: undefined }, 'Missing parameter: timestamp_time_type'],
    [{ api_key_ids: [1, 1] }, 'Duplicate API key ID values not allowed'],
    [{ api_key_ids: [1, '1'] }, 'Duplicate API key ID values not allowed'],
    // Duplicates first, then the pair, then the ids.
    [{ timestamp_time_type: 'Guess', api_key_ids: [7, 7] }, 'Duplicate API key ID values not allowed'],
    [{ timestamp_time_type: 'Guess', api_key_ids: [999999] }, 'Invalid timestamp time type: Guess'],
    [{ timestamp_time_type: 'Required' }, 'Invalid timestamp time type: Required'],
    [
      { timestamp_time_type: 'LiveEstimated', timestamp_state: 'Arrival_Vessel_PortArea' },
      'Invalid timestamp time type: LiveEstimated',
    ],
    [{ timestamp_state: 'Arrival_Vessel_LOC', api_key_ids: [999999] }, 'Invalid timestamp state: Arrival_Vessel_LOC'],
    [{ timestamp_state: 'Departure_Vessel_Moon' }, 'Invalid timestamp state: Departure_Vessel_Moon'],
    [{ api_key_ids: [999999] }, 'Invalid api key ID: 999999'],
    [{ api_key_ids: ['x'] }, 'Invalid api key ID: x'],
    [{ api_key_ids: [0] }, 'Invalid api key ID: 0'],
    [{ api_key_ids: [-1] }, 'Invalid api key ID: -1'],
    [{ api_key_ids: [1.5] }, 'Invalid api key ID: 1.5'],
    [{ api_key_ids: [null] }, 'Invalid api key ID: null'],
    [{ api_key_ids: [99999999999] }, 'Invalid api key ID: 99999999999'],
  ])('refuses %j with 400 before reaching ingest: %s', async (overrides, error) => {
    const res = await admin.post('/timestamp-api-key-weights', body(overrides));
    expect([res.status, res.body]).toEqual([400, { error }]);
    expect(calls).toEqual([]);
  });

  it('names the first unknown id of the list', async () => {
    const res = await admin.post('/timestamp-api-key-weights', body({ api_key_ids: [k1.id, 424242, 'zz'] }));
    expect(res.body).toEqual({ error: 'Invalid api key ID: 424242' });
  });

  it('passes an error from ingest through unchanged', async () => {
    ingestError = ApiError.badRequest('Invalid timestamp state: X');
    const res = await admin.post('/timestamp-api-key-weights', body());
    expect([res.status, res.body]).toEqual([400, { error: 'Invalid timestamp state: X' }]);
  });

  it('needs manage_api_key: a user and an API key get "Invalid access"', async () => {
    for (const client of [user, source, gw.anonymous]) {
      const res = await client.post('/timestamp-api-key-weights', body());
      expect([res.status, res.body]).toEqual([403, { error: 'Invalid access' }]);
    }
    expect(calls).toEqual([]);
  });
});

describe('POST /payload-key-api-key-weights', () => {
  it('sends any payload key with its ordered ids to ingest', async () => {
    for (const payload_key of ['berth_name', 'not mapped anywhere']) {
      expect(
        await admin.post('/payload-key-api-key-weights', { payload_key, api_key_ids: [k2.id, k1.id] }),
      ).toMatchObject({ status: 200, body: { result: 'OK' } });
    }
    expect(calls.map((c) => [c.command, c.payload.input])).toEqual([
      [IngestCommands.setPayloadKeyApiKeyWeights, { payload_key: 'berth_name', api_key_ids: [k2.id, k1.id] }],
      [IngestCommands.setPayloadKeyApiKeyWeights, { payload_key: 'not mapped anywhere', api_key_ids: [k2.id, k1.id] }],
    ]);
  });

  it.each([
    [{ payload_key: 'berth_name', api_key_ids: [1, 1] }, 'Duplicate API key ID values not allowed'],
    [{ payload_key: 'berth_name', api_key_ids: [31337] }, 'Invalid api key ID: 31337'],
    [
      { payload_key: ['berth_name'], api_key_ids: [] },
      // Names ending in `_key` are never echoed back (libs/http-kit).
      "Wrong parameter type: payload_key should be string but got '<hidden>'",
    ],
    [{ api_key_ids: [] }, 'Missing parameter: payload_key'],
  ])('refuses %j with 400 before reaching ingest', async (input, error) => {
    const res = await admin.post('/payload-key-api-key-weights', input);
    expect([res.status, res.body]).toEqual([400, { error }]);
    expect(calls).toEqual([]);
  });

  it('needs manage_api_key', async () => {
    expect((await user.post('/payload-key-api-key-weights', { payload_key: 'x', api_key_ids: [] })).status).toBe(403);
    expect((await user.get('/payload-key-api-key-weights')).status).toBe(403);
    expect((await user.get('/timestamp-api-key-weights')).status).toBe(403);
  });
});

describe('GET lists', () => {
  const allKeys = () => [
    { id: k2.id, name: 'alpha source', is_active: true },
    { id: k1.id, name: 'Bravo source', is_active: true },
    { id: k3.id, name: 'Charlie source', is_active: true },
  ];

  it('before any weight is set: every template pair, no weights', async () => {
    const res = await admin.get('/timestamp-api-key-weights');
    expect(res.status).toBe(200);
    expect(res.body.timestamps).toHaveLength(18);
    expect(res.body.timestamps.every((t: any) => t.api_keys.length === 0)).toBe(true);
    expect((await admin.get('/payload-key-api-key-weights')).body.payload_keys).toEqual([]);
  });

  it('GET /timestamp-api-key-weights: the keys sorted by name, one entry per template pair, weights highest first', async () => {
    for (const statement of INGEST_TABLES) await gw.db.query(statement);
    await gw.db.query(
      `INSERT INTO ingest.timestamp_api_key_weights (time_type, state, api_key_id, weight) VALUES
         ('Estimated', 'Departure_Vessel_Berth', $1, 1), ('Estimated', 'Departure_Vessel_Berth', $2, 2),
         ('Actual', 'Arrival_Vessel_Berth', $1, 1),
         ('Estimated', 'Arrival_Vessel_Berth', $1, 1)`,
      [k1.id, k2.id],
    );
    await gw.db.query('UPDATE gateway.api_keys SET is_active = false WHERE id = $1', [k3.id]);
    const res = await admin.get('/timestamp-api-key-weights', { limit: 10, offset: 0, sort: 'x', search: 'y' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['api_keys', 'timestamps']);
    expect(res.body.api_keys).toEqual(allKeys().map((k) => (k.id === k3.id ? { ...k, is_active: false } : k)));
    expect(res.body.timestamps.slice(0, 2)).toEqual([
      { time_type: 'Estimated', state: 'Arrival_Vessel_PortArea', api_keys: [] },
      { time_type: 'Recommended', state: 'Arrival_Vessel_PortArea', api_keys: [] },
    ]);
    expect(
      res.body.timestamps.find((t: any) => t.state === 'Departure_Vessel_Berth' && t.time_type === 'Estimated'),
    ).toEqual({
      time_type: 'Estimated',
      state: 'Departure_Vessel_Berth',
      api_keys: [
        { api_key_id: k2.id, api_key_name: 'alpha source', weight: 2 },
        { api_key_id: k1.id, api_key_name: 'Bravo source', weight: 1 },
      ],
    });
    expect(res.body.timestamps.find((t: any) => t.state === 'Arrival_Vessel_Berth')).toEqual({
      time_type: 'Actual',
      state: 'Arrival_Vessel_Berth',
      api_keys: [{ api_key_id: k1.id, api_key_name: 'Bravo source', weight: 1 }],
    });
    // A pair outside the template is not listed; no LiveEstimated either.
    expect(res.body.timestamps).toHaveLength(18);
    expect(res.body.timestamps.some((t: any) => t.time_type === 'LiveEstimated')).toBe(false);
    await gw.db.query('UPDATE gateway.api_keys SET is_active = true WHERE id = $1', [k3.id]);
  });

  it('GET /payload-key-api-key-weights: only keys with weights, by key, weights highest first', async () => {
    await gw.db.query(
      `INSERT INTO ingest.payload_key_api_key_weights (payload_key, api_key_id, weight) VALUES
         ('berth_name', $1, 1), ('berth_name', $2, 2), ('a_key', $3, 1)`,
      [k1.id, k2.id, k3.id],
    );
    const res = await admin.get('/payload-key-api-key-weights');
    expect(res).toMatchObject({ status: 200 });
    expect(res.body).toEqual({
      api_keys: allKeys(),
      payload_keys: [
        { key: 'a_key', api_keys: [{ api_key_id: k3.id, api_key_name: 'Charlie source', weight: 1 }] },
        {
          key: 'berth_name',
          api_keys: [
            { api_key_id: k2.id, api_key_name: 'alpha source', weight: 2 },
            { api_key_id: k1.id, api_key_name: 'Bravo source', weight: 1 },
          ],
        },
      ],
    });
  });

  it('a namespace without a template: 400 with the original message', async () => {
    const routes = priorityRoutes({ ...gw.deps, config: { ...gw.config, namespace: 'atlantis' } });
    const ctx = { params: {} } as RequestContext;
    const get = routes.find((r) => r.method === 'GET' && r.path === '/timestamp-api-key-weights')!;
    await expect(get.handle(ctx)).rejects.toMatchObject({
      status: 400,
      message: 'No port call template for namespace atlantis',
    });
    const post = routes.find((r) => r.method === 'POST' && r.path === '/timestamp-api-key-weights')!;
    await expect(
      post.handle({ ...ctx, params: { timestamp_time_type: 'Estimated', timestamp_state: 'x', api_key_ids: [] } }),
    ).rejects.toMatchObject({ status: 400, message: 'No port call template for namespace atlantis' });
  });
});
