// Issue "Fleet foundation": the first slice, black-box, in both run modes. A newcomer's path (start, log in as
// admin, create an API key, post a timestamp, see it), and the refusals that must change nothing.

import { ApiClient, type RunningSystem } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  adminAndDataSource,
  allowEstimatedArrivals,
  isoSecondsAgo,
  RUN_MODES,
  timestamp,
  waitForTimestamps,
} from './timestamps.ts';

// How long a projection may take to show a change: generous, the machine may be small and busy.
const PROJECTED_MS = 30_000;

describe.each(RUN_MODES)('%s mode', (_mode, start) => {
  let system: RunningSystem;
  let setup: Awaited<ReturnType<typeof adminAndDataSource>>;

  beforeAll(async () => {
    system = await start();
    setup = await adminAndDataSource(system.baseUrl);
    await allowEstimatedArrivals(setup.admin, setup.apiKey.id);
  });
  afterAll(async () => {
    await system?.stop();
  });

  it('reports health with dependencies and projection lag', async () => {
    const res = await new ApiClient(system.baseUrl).get('/health-check');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('OK');
    expect(res.body.dependencies.postgres).toBe('ok');
    expect(Array.isArray(res.body.projections)).toBe(true);
  });

  /**
   * Posts a timestamp of its own and waits until the projection shows it: anything appended before it has been
   * projected by then (the projection takes the log in order).
   */
  const barrier = async (imo: number) => {
    const marker = `barrier-${Date.now()}-${Math.random()}`;
    const source = setup.api.withApiKey(setup.apiKey.key);
    expect((await source.post('/agent/rest/timestamps', timestamp({ imo, payload: { marker } }))).status).toBe(200);
    await waitForTimestamps(
      setup.admin,
      { imo, limit: 100 },
      (r) => r.some((row) => JSON.parse(row.payload).marker === marker),
      PROJECTED_MS,
    );
  };

  it('shows a timestamp posted with an API key in GET /timestamps', async () => {
    const source = setup.api.withApiKey(setup.apiKey.key);
    const n = Date.now();
    const body = timestamp({ imo: 9074729, vessel_name: 'Fast Ship', payload: { source: 'agent', n } });
    const posted = await source.post('/agent/rest/timestamps', body);
    expect(posted.status).toBe(200);
    expect(posted.body).toEqual({ result: 'OK' });
    // How fast is bench/'s business; here only that it shows.
    const { rows } = await waitForTimestamps(
      setup.admin,
      { imo: 9074729, sort: 'id DESC' },
      (r) => r.some((row) => JSON.parse(row.payload).n === n),
      PROJECTED_MS,
    );
    const row = rows.find((r) => JSON.parse(r.payload).n === n);
    expect(row).toMatchObject({
      imo: 9074729,
      vessel_name: 'Fast Ship',
      time_type: 'Estimated',
      state: 'Arrival_Vessel_PortArea',
      is_trash: 'f',
      time_type_id: 2,
      state_id: 55,
    });
    expect(row.time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\+00$/);
    const vessels = await setup.admin.get('/vessels', { limit: 10, offset: 0, search: '9074729' });
    expect(vessels.status).toBe(200);
    expect(vessels.body.data[0]).toMatchObject({ imo: 9074729, vessel_name: 'Fast Ship', visible: true });
  });

  it('accepts a manual timestamp from a user with add_manual_timestamp', async () => {
    const body = timestamp({ imo: 1234567, vessel_name: 'Manual Ship', time_type: 'Actual', time: isoSecondsAgo(60) });
    const posted = await setup.admin.post('/timestamps', body);
    expect(posted.status).toBe(200);
    const { rows } = await waitForTimestamps(setup.admin, { imo: 1234567 }, (r) => r.length === 1, PROJECTED_MS);
    expect(rows[0]).toMatchObject({ time_type: 'Actual', weight: 999 });
  });

  it('refuses bad credentials and bad input, appending nothing', async () => {
    const anonymous = new ApiClient(system.baseUrl);
    const before = await setup.admin.get('/timestamps', { limit: 1 });
    const total = before.body.pagination.total;

    const unknownBearer = await anonymous.withSession('no-such-session-id-000000000').get('/timestamps');
    expect(unknownBearer.status).toBe(440);
    expect(unknownBearer.body).toEqual({ error: 'Session expired' });

    const noCredentials = await anonymous.post('/agent/rest/timestamps', timestamp());
    expect(noCredentials.status).toBe(403);
    expect(noCredentials.body).toEqual({ error: 'Invalid access' });

    // An admin session lacks the API-key-only permission `timestamp`.
    const wrongPermission = await setup.admin.post('/agent/rest/timestamps', timestamp());
    expect(wrongPermission.status).toBe(403);
    expect(wrongPermission.body).toEqual({ error: 'Invalid access' });

    const source = setup.api.withApiKey(setup.apiKey.key);
    const { imo: _imo, ...withoutImo } = timestamp();
    const missingImo = await source.post('/agent/rest/timestamps', withoutImo);
    expect(missingImo.status).toBe(400);
    expect(missingImo.body).toEqual({ error: 'Missing parameter: imo' });

    const unknownState = await source.post('/agent/rest/timestamps', timestamp({ state: 'Arrival_Vessel_Moon' }));
    expect(unknownState.status).toBe(400);
    expect(unknownState.body.error).toMatch(/^Timestamp state is not valid: Arrival_Vessel_Moon/);

    const badCheckDigit = await source.post('/agent/rest/timestamps', timestamp({ imo: 9074728 }));
    expect(badCheckDigit.status).toBe(400);
    expect(badCheckDigit.body.error).toBe('IMO number is not valid (automatic check calculation)');

    const futureActual = await source.post(
      '/agent/rest/timestamps',
      timestamp({ time_type: 'Actual', time: isoSecondsAgo(-11 * 60) }),
    );
    expect(futureActual.status).toBe(400);
    expect(futureActual.body.error).toMatch(/^Time type is actual, but time is in future/);

    const badTime = await source.post('/agent/rest/timestamps', timestamp({ time: '22.11.2026 10:00' }));
    expect(badTime.status).toBe(400);

    // A disabled key is refused at once.
    const disabled = await setup.admin.put('/api-keys/disable', { id: setup.apiKey.id });
    expect(disabled.status).toBe(200);
    const refused = await source.post('/agent/rest/timestamps', timestamp());
    expect(refused.status).toBe(403);
    const enabled = await setup.admin.put('/api-keys/enable', { id: setup.apiKey.id });
    expect(enabled.status).toBe(200);

    // Anything (wrongly) appended came before the barrier, so it is projected by now: the barrier's row is the only
    // new one.
    await barrier(9074729);
    const after = await setup.admin.get('/timestamps', { limit: 1 });
    expect(after.body.pagination.total).toBe(total + 1);
  });

  it('stores a re-posted identical timestamp once', async () => {
    const source = setup.api.withApiKey(setup.apiKey.key);
    const body = timestamp({ imo: 9074729, payload: { dedupe: 'same' } });
    expect((await source.post('/agent/rest/timestamps', body)).status).toBe(200);
    expect((await source.post('/agent/rest/timestamps', body)).status).toBe(200);
    const { rows } = await waitForTimestamps(
      setup.admin,
      { imo: 9074729, limit: 100 },
      (r) => r.some((row) => JSON.parse(row.payload).dedupe === 'same'),
      PROJECTED_MS,
    );
    // A second copy, had it been appended, would be projected before the barrier.
    await barrier(9074729);
    const again = await setup.admin.get('/timestamps', { imo: 9074729, limit: 100 });
    const same = again.body.data.filter((row: any) => JSON.parse(row.payload).dedupe === 'same');
    expect(same).toHaveLength(1);
    expect(rows.length).toBeGreaterThan(0);
  });

  it('deletes and restores a timestamp as events', async () => {
    const page = await setup.admin.get('/timestamps', { imo: 1234567 });
    const id = page.body.data[0].id;
    expect((await setup.admin.delete('/timestamps', { id })).status).toBe(200);
    await waitForTimestamps(setup.admin, { id }, (r) => r[0]?.is_trash === 't', PROJECTED_MS);
    expect((await setup.admin.post('/restore-timestamp', { id })).status).toBe(200);
    await waitForTimestamps(setup.admin, { id }, (r) => r[0]?.is_trash === 'f', PROJECTED_MS);
    const unknown = await setup.admin.delete('/timestamps', { id: 999999999 });
    expect(unknown.status).toBe(400);
  });

  it('logs out: the session id then answers 440', async () => {
    const client = await new ApiClient(system.baseUrl).login(ADMIN.email, ADMIN.password);
    expect((await client.get('/session')).status).toBe(200);
    expect((await client.post('/logout')).status).toBe(200);
    expect((await client.get('/session')).status).toBe(440);
  });
});
