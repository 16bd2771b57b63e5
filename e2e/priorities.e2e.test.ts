// Issue 4, priorities, black-box in both run modes: the original's api-key.feature scenario 1 (create a
// key, give it the ETD weight, post the ETD twice), admission (a key without a weight for the pair gets 403 and
// nothing is stored), the GET shapes of payload_key_api_key_weight.feature step 3, and bad input
// answering 400 with the original's messages while changing nothing.

import type { ApiClient, RunningSystem } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAndDataSource, isoSecondsAgo, RUN_MODES, waitForTimestamps } from './timestamps.ts';

const NO_PERMISSION = { error: 'No permission to post given timestamp data' };
// How long a projection may take to show a change: generous, the machine may be small and busy.
const PROJECTED_MS = 30_000;

/** The agent's post of the feature files: IMO 1234567 "Unikieship", time now, empty payload. */
const agentTimestamp = (time_type: string, state: string, payload: unknown = []) => ({
  imo: 1234567,
  vessel_name: 'Unikieship',
  time_type,
  state,
  time: isoSecondsAgo(0),
  payload,
});

describe.each(RUN_MODES)('%s mode', (_mode, start) => {
  let system: RunningSystem;
  let admin: ApiClient;
  let api: ApiClient;

  const createKey = async (name: string) => {
    const res = await admin.post('/api-keys', { name });
    expect(res.status).toBe(200);
    expect(res.body.key.length).toBeGreaterThan(10);
    return res.body as { id: number; name: string; key: string };
  };
  const setTimestampPriorities = (time_type: string, state: string, ids: unknown[]) =>
    admin.post('/timestamp-api-key-weights', {
      timestamp_time_type: time_type,
      timestamp_state: state,
      api_key_ids: ids,
    });
  const total = async () => (await admin.get('/timestamps', { limit: 1 })).body.pagination.total as number;

  beforeAll(async () => {
    system = await start();
    ({ api, admin } = await adminAndDataSource(system.baseUrl));
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('api-key.feature "Creating new API KEY": with the ETD weight the key posts the ETD, twice, and it is stored', async () => {
    const key = await createKey('New API KEY');
    expect(await setTimestampPriorities('Estimated', 'Departure_Vessel_Berth', [key.id])).toMatchObject({
      status: 200,
      body: { result: 'OK' },
    });
    const source = api.withApiKey(key.key);
    const body = agentTimestamp('Estimated', 'Departure_Vessel_Berth');
    for (let i = 0; i < 2; i++) {
      const posted = await source.post('/agent/rest/timestamps', body);
      expect([posted.status, posted.body]).toEqual([200, { result: 'OK' }]);
    }
    const { rows } = await waitForTimestamps(
      admin,
      { imo: 1234567 },
      (r) => r.some((row) => row.state === 'Departure_Vessel_Berth'),
      PROJECTED_MS,
    );
    // The same content twice is one timestamp (the duplicate rule).
    expect(rows.filter((r) => r.state === 'Departure_Vessel_Berth')).toHaveLength(1);
    expect(rows[0]).toMatchObject({ vessel_name: 'Unikieship', time_type: 'Estimated', is_trash: 'f' });
  });

  it('admission: a key without a weight for the pair gets 403 and nothing is stored', async () => {
    const weighted = await createKey('ETA source');
    const unweighted = await createKey('Unknown source');
    expect((await setTimestampPriorities('Estimated', 'Arrival_Vessel_PortArea', [weighted.id])).status).toBe(200);
    const before = await total();

    const refused = await api
      .withApiKey(unweighted.key)
      .post('/agent/rest/timestamps', { ...agentTimestamp('Estimated', 'Arrival_Vessel_PortArea'), imo: 9074729 });
    expect([refused.status, refused.body]).toEqual([403, NO_PERMISSION]);
    // A weight for one pair is no permission for another.
    const otherPair = await api
      .withApiKey(weighted.key)
      .post('/agent/rest/timestamps', { ...agentTimestamp('Estimated', 'Departure_Vessel_Berth'), imo: 9074729 });
    expect([otherPair.status, otherPair.body]).toEqual([403, NO_PERMISSION]);
    // Bad input is still the 400 it was, before admission.
    const bad = await api
      .withApiKey(unweighted.key)
      .post('/agent/rest/timestamps', agentTimestamp('Estimated', 'Arrival_Vessel_Moon'));
    expect(bad.status).toBe(400);

    // A manual timestamp needs no weight.
    const manual = await admin.post('/timestamps', {
      ...agentTimestamp('Actual', 'Arrival_Vessel_Berth', { source: 'manual' }),
      imo: 9176187,
      time: isoSecondsAgo(60),
    });
    expect(manual.status).toBe(200);
    const { rows } = await waitForTimestamps(admin, { imo: 9176187 }, (r) => r.length === 1, PROJECTED_MS);
    expect(rows[0]).toMatchObject({ time_type: 'Actual', weight: 999 });

    // Anything (wrongly) appended by the refused posts came before the manual timestamp, which the projection (taking
    // the log in order) has shown: it would be counted by now.
    expect(await total()).toBe(before + 1);
    expect((await admin.get('/timestamps', { imo: 9074729 })).body.pagination.total).toBe(0);
    const vessels = await admin.get('/vessels', { limit: 10, offset: 0, search: '9074729' });
    expect(vessels.body.data ?? []).toEqual([]);

    // The weighted key posts; once its weight is removed (empty list), it is refused too.
    const ok = await api.withApiKey(weighted.key).post('/agent/rest/timestamps', {
      ...agentTimestamp('Estimated', 'Arrival_Vessel_PortArea', { n: 1 }),
      time: isoSecondsAgo(-3600),
    });
    expect(ok.status).toBe(200);
    expect((await setTimestampPriorities('Estimated', 'Arrival_Vessel_PortArea', [])).status).toBe(200);
    const afterRemoval = await api.withApiKey(weighted.key).post('/agent/rest/timestamps', {
      ...agentTimestamp('Estimated', 'Arrival_Vessel_PortArea', { n: 2 }),
      time: isoSecondsAgo(-3600),
    });
    expect([afterRemoval.status, afterRemoval.body]).toEqual([403, NO_PERMISSION]);
  });

  it('a pair the template lacks (Estimated Arrival_Vessel_Berth) is accepted and admits its key, as the original', async () => {
    const key = await createKey('Berth ETA source');
    expect(await setTimestampPriorities('Estimated', 'Arrival_Vessel_Berth', [key.id])).toMatchObject({
      status: 200,
      body: { result: 'OK' },
    });
    const posted = await api
      .withApiKey(key.key)
      .post('/agent/rest/timestamps', { ...agentTimestamp('Estimated', 'Arrival_Vessel_Berth'), imo: 9303807 });
    expect([posted.status, posted.body]).toEqual([200, { result: 'OK' }]);
    await waitForTimestamps(
      admin,
      { imo: 9303807 },
      (r) => r.some((row) => row.state === 'Arrival_Vessel_Berth'),
      PROJECTED_MS,
    );
    // A state that is in no entry of the template is still refused.
    const refused = await setTimestampPriorities('Estimated', 'Arrival_Vessel_LOC', [key.id]);
    expect([refused.status, refused.body]).toEqual([400, { error: 'Invalid timestamp state: Arrival_Vessel_LOC' }]);
  });

  it('payload_key_api_key_weight.feature step 3: the GET lists show the weights highest first, in the original shapes', async () => {
    const k1 = await createKey('K1');
    const k2 = await createKey('K2');
    for (const state of ['Arrival_Vessel_PortArea', 'Departure_Vessel_Berth']) {
      expect((await setTimestampPriorities('Estimated', state, [k2.id, k1.id])).body).toEqual({ result: 'OK' });
    }
    expect(
      (await admin.post('/payload-key-api-key-weights', { payload_key: 'berth_name', api_key_ids: [k2.id, k1.id] }))
        .body,
    ).toEqual({ result: 'OK' });

    const payload = await admin.get('/payload-key-api-key-weights');
    expect(payload.status).toBe(200);
    expect(payload.body.payload_keys).toEqual([
      {
        key: 'berth_name',
        api_keys: [
          { api_key_id: k2.id, api_key_name: 'K2', weight: 2 },
          { api_key_id: k1.id, api_key_name: 'K1', weight: 1 },
        ],
      },
    ]);
    expect(payload.body.api_keys).toContainEqual({ id: k1.id, name: 'K1', is_active: true });

    const timestamps = await admin.get('/timestamp-api-key-weights');
    expect(timestamps.status).toBe(200);
    const names = timestamps.body.api_keys.map((k: { name: string }) => k.name);
    expect(names).toEqual([...names].sort((a: string, b: string) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(timestamps.body.api_keys[0]).toEqual({ id: expect.any(Number), name: expect.any(String), is_active: true });
    // The Gävle template's 18 postable pairs, in template order (as the original: not the other pairs that have
    // weights, such as the test before's Estimated Arrival_Vessel_Berth).
    expect(timestamps.body.timestamps).toHaveLength(18);
    expect(timestamps.body.timestamps[0]).toEqual({
      time_type: 'Estimated',
      state: 'Arrival_Vessel_PortArea',
      api_keys: [
        { api_key_id: k2.id, api_key_name: 'K2', weight: 2 },
        { api_key_id: k1.id, api_key_name: 'K1', weight: 1 },
      ],
    });
    const etd = timestamps.body.timestamps.find(
      (t: any) => t.time_type === 'Estimated' && t.state === 'Departure_Vessel_Berth',
    );
    expect(etd.api_keys.map((k: any) => [k.api_key_name, k.weight])).toEqual([
      ['K2', 2],
      ['K1', 1],
    ]);
    // Both keys now post ETAs: the lower-priority one is stored too (priority decides what counts,
    // docs/domain.md#timestamp-priorities).
    for (const key of [k1, k2]) {
      const posted = await api.withApiKey(key.key).post('/agent/rest/timestamps', {
        ...agentTimestamp('Estimated', 'Arrival_Vessel_PortArea', { from: key.name }),
        time: isoSecondsAgo(-7200),
      });
      expect(posted.status).toBe(200);
    }
  });

  it('bad input answers 400 with the original messages and changes nothing', async () => {
    const k = await createKey('Checked');
    const before = [
      (await admin.get('/timestamp-api-key-weights')).body,
      (await admin.get('/payload-key-api-key-weights')).body,
    ];
    const cases: [string, Record<string, unknown>, string][] = [
      [
        '/timestamp-api-key-weights',
        { timestamp_time_type: 'Estimated', timestamp_state: 'Departure_Vessel_Berth', api_key_ids: [k.id, k.id] },
        'Duplicate API key ID values not allowed',
      ],
      [
        '/timestamp-api-key-weights',
        { timestamp_time_type: 'LiveEstimated', timestamp_state: 'Arrival_Vessel_PortArea', api_key_ids: [k.id] },
        'Invalid timestamp time type: LiveEstimated',
      ],
      [
        '/timestamp-api-key-weights',
        { timestamp_time_type: 'Estimated', timestamp_state: 'Arrival_Vessel_LOC', api_key_ids: [k.id] },
        'Invalid timestamp state: Arrival_Vessel_LOC',
      ],
      [
        '/timestamp-api-key-weights',
        { timestamp_time_type: 'Estimated', timestamp_state: 'Departure_Vessel_Berth', api_key_ids: [k.id, 987654] },
        'Invalid api key ID: 987654',
      ],
      [
        '/timestamp-api-key-weights',
        { timestamp_time_type: 'Estimated', timestamp_state: 'Departure_Vessel_Berth', api_key_ids: 'all' },
        "Wrong parameter type: api_key_ids should be array but got 'all'",
      ],
      [
        '/payload-key-api-key-weights',
        { payload_key: 'berth_name', api_key_ids: [k.id, String(k.id)] },
        'Duplicate API key ID values not allowed',
      ],
      ['/payload-key-api-key-weights', { payload_key: 'berth_name', api_key_ids: ['x'] }, 'Invalid api key ID: x'],
      ['/payload-key-api-key-weights', { api_key_ids: [k.id] }, 'Missing parameter: payload_key'],
    ];
    for (const [path, body, error] of cases) {
      const res = await admin.post(path, body);
      expect({ path, body, status: res.status, answer: res.body }).toEqual({
        path,
        body,
        status: 400,
        answer: { error },
      });
    }
    // Only administrators of API keys may set priorities.
    const keyCaller = await api.withApiKey(k.key).post('/payload-key-api-key-weights', {
      payload_key: 'berth_name',
      api_key_ids: [],
    });
    expect([keyCaller.status, keyCaller.body]).toEqual([403, { error: 'Invalid access' }]);
    expect([
      (await admin.get('/timestamp-api-key-weights')).body,
      (await admin.get('/payload-key-api-key-weights')).body,
    ]).toEqual(before);
  });
});
