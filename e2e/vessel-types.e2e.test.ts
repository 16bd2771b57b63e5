// Issue 14, vessel types (docs/domain.md#vessels), black-box in both run modes: GET /vessel-types as the original's
// bare array of 73 rows; a vessel's type set by a data source (POST /agent/rest/vessel-type) and by an operator
// (PUT /vessel {id, vesselType}), each change one VesselTypeSet on the vessel's stream (fleet: read from the event
// store) and shown in GET /vessels; the same type again records nothing; refusals answer 400 with the original's
// messages and store nothing; without manage_vessel, PUT /vessel is 403.

import { type Db, openDb } from '@pcas/sql';
import type { ApiClient, RunningSystem } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAndDataSource, allowEstimatedArrivals, RUN_MODES, timestamp } from './timestamps.ts';

const IMO = 9074729;

describe.each(RUN_MODES)('%s mode', (_mode, start) => {
  let system: RunningSystem;
  let admin: ApiClient;
  let source: ApiClient;
  let plainUser: ApiClient;
  /** The event store, in the fleet (embedded keeps it in its own process). */
  let db: Db | undefined;

  const vesselRow = async () => {
    const res = await admin.get('/vessels', { search: String(IMO) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data[0] as { id: number; imo: number; vessel_type: number };
  };
  const typeEvents = async () =>
    db
      ? (
          await db.query<{ data: unknown }>(
            "SELECT data FROM eventstore.events WHERE stream_id = $1 AND event_type = 'VesselTypeSet' ORDER BY stream_position",
            [`vessel-${IMO}`],
          )
        ).rows.map((r) => r.data)
      : undefined;

  beforeAll(async () => {
    system = await start();
    if (system.env.DATABASE_URL) db = await openDb({ url: system.env.DATABASE_URL, poolSize: 1 });
    const setup = await adminAndDataSource(system.baseUrl);
    admin = setup.admin;
    await allowEstimatedArrivals(admin, setup.apiKey.id);
    source = setup.api.withApiKey(setup.apiKey.key);
    const posted = await source.post('/agent/rest/timestamps', timestamp({ imo: IMO, vessel_name: 'Typed One' }));
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    const email = `vtypes-${Date.now()}@port.local`;
    const created = await admin.post('/users', { email, first_name: 'Plain', last_name: 'User', role: 'user' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    plainUser = await setup.api.login(email, created.body.password);
  });
  afterAll(async () => {
    await db?.close();
    await system?.stop();
  });

  it('lists the 73 vessel types as a bare array of the original rows', async () => {
    const res = await plainUser.get('/vessel-types');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toHaveLength(73);
    expect(res.body[0]).toEqual({
      id: 1,
      name: 'Unknown Vessel Type',
      sea_chart_marker_type_id: 1,
      created_at: null,
      created_by: null,
      modified_at: null,
      modified_by: null,
    });
    expect(res.body.find((t: { id: number }) => t.id === 41)).toMatchObject({ name: 'Pilot Boat' });
    expect(res.body.at(-1)).toMatchObject({ id: 73, name: 'Other Pleasure Craft', sea_chart_marker_type_id: 4 });
  });

  it('gives a new vessel type 1, and a data source sets the type it knows', async () => {
    expect((await vesselRow()).vessel_type).toBe(1);
    const res = await source.post('/agent/rest/vessel-type', { imo: IMO, vessel_type: 3 });
    expect([res.status, res.body]).toEqual([200, { result: 'OK' }]);
    expect((await vesselRow()).vessel_type).toBe(3);
    const events = await typeEvents();
    if (events) expect(events).toEqual([{ imo: IMO, vessel_type: 3, previous_vessel_type: 1 }]);
  });

  it('lets an operator change it with PUT /vessel {id, vesselType}; the same type again records nothing', async () => {
    const { id } = await vesselRow();
    expect(await admin.put('/vessel', { id, vesselType: 36 })).toMatchObject({ status: 200, body: { result: 'OK' } });
    expect((await vesselRow()).vessel_type).toBe(36);
    expect(await admin.put('/vessel', { id, vesselType: 36 })).toMatchObject({ status: 200, body: { result: 'OK' } });
    const events = await typeEvents();
    if (events) {
      expect(events).toEqual([
        { imo: IMO, vessel_type: 3, previous_vessel_type: 1 },
        { imo: IMO, vessel_type: 36, previous_vessel_type: 3 },
      ]);
    }
    // A timestamp after the change keeps the type.
    const again = await source.post('/agent/rest/timestamps', timestamp({ imo: IMO, vessel_name: 'Typed Renamed' }));
    expect(again.status).toBe(200);
    expect((await vesselRow()).vessel_type).toBe(36);
  });

  it('refuses with the original messages and changes nothing', async () => {
    const { id } = await vesselRow();
    const before = await typeEvents();
    const refusals: [ApiClient, string, string, Record<string, unknown>, number, unknown][] = [
      [admin, 'put', '/vessel', { id: 999_999, vesselType: 2 }, 400, { error: 'Vessel does not exist' }],
      [admin, 'put', '/vessel', { id, vesselType: 74 }, 400, { error: 'Invalid vessel type' }],
      [admin, 'put', '/vessel', { id, vesselType: 0 }, 400, { error: 'Invalid vessel type' }],
      [admin, 'put', '/vessel', { id }, 400, { error: 'Missing parameter: vesselType' }],
      [
        admin,
        'put',
        '/vessel',
        { id, vesselType: 'tug' },
        400,
        { error: "Wrong parameter type: vesselType should be int but got 'tug'" },
      ],
      [
        source,
        'post',
        '/agent/rest/vessel-type',
        { imo: 9176187, vessel_type: 2 },
        400,
        { error: 'Vessel does not exist' },
      ],
      [source, 'post', '/agent/rest/vessel-type', { imo: IMO, vessel_type: 99 }, 400, { error: 'Invalid vessel type' }],
      [plainUser, 'put', '/vessel', { id, vesselType: 2 }, 403, { error: 'Invalid access' }],
      [admin, 'post', '/agent/rest/vessel-type', { imo: IMO, vessel_type: 2 }, 403, { error: 'Invalid access' }],
    ];
    for (const [client, method, path, body, status, answer] of refusals) {
      const res = method === 'put' ? await client.put(path, body) : await client.post(path, body);
      expect([res.status, res.body], `${method} ${path} ${JSON.stringify(body)}`).toEqual([status, answer]);
    }
    expect((await vesselRow()).vessel_type).toBe(36);
    expect(await typeEvents()).toEqual(before);
  });
});
