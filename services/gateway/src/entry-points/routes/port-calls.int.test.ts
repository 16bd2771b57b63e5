// The port-call queries over HTTP on real PostgreSQL, through the real gateway (sessions, API keys, permissions):
// rows seeded straight into the projector's read-model tables (which the gateway's start prepares, as it does every
// owner's tables),
// then the shapes, filters, order, pagination, sort and search, named sources, the CSV, and the original's error
// messages. The whole path through the real projector is e2e/port-calls*.e2e.test.ts.

import { get, type IncomingHttpHeaders } from 'node:http';
import { gunzipSync } from 'node:zlib';
import type { ApiClient } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/gateway-harness.ts';

const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
const HOUR = 3_600_000;
const NOW = Date.now();

let gw: TestGateway;
let admin: ApiClient;
let user: ApiClient;
let userSession: string;
let exporter: ApiClient;
let sourceUser: number;
let personUser: number;
let personEmail: string;

interface Seed {
  id: number;
  imo: number;
  name: string;
  status?: string;
  nextEvent?: number | null;
  eta?: number;
  atd?: number | null;
  toPort?: string;
  shown?: boolean;
  berthName?: string;
}

/** A filled timeline slot as the projector writes it: `source` left "". */
/** An it.each case: the user's GET `path` with the query is refused with 400 and the error. */
const refusedBy = (path: string) => async (query: Record<string, unknown>, error: string) => {
  expect(await user.get(path, query)).toMatchObject({ status: 400, body: { error } });
};

const slot = (time_type: string, state: string, at: number, createdBy: number | null, extra = {}) => ({
  time_type,
  state,
  time: iso(at),
  created_at: iso(at - HOUR),
  created_by: createdBy,
  weight: 1,
  source: '',
  ...extra,
});

function timelineOf(s: Seed) {
  return {
    id: 1,
    events: [
      {
        id: 1,
        location: 'sea',
        timestamps: [
          slot('Estimated', 'Arrival_Vessel_PortArea', s.eta ?? NOW, sourceUser, { payload: { berth_name: 'B1' } }),
          { time_type: 'Planned', state: 'Arrival_Vessel_PortArea' },
        ],
      },
      {
        id: 2,
        location: 'port',
        timestamps: [slot('Actual', 'Arrival_Vessel_Berth', (s.eta ?? NOW) + HOUR, personUser)],
      },
      {
        id: 3,
        location: 'sea',
        timestamps: [{ time_type: 'Actual', state: 'Pilotage_Commenced', payload: { direction: 'outbound' } }],
      },
    ],
  };
}

async function seed(s: Seed): Promise<void> {
  const status = s.status ?? 'arriving';
  const eta = s.eta ?? NOW;
  const next = s.nextEvent === undefined ? eta : s.nextEvent;
  const ship = {
    id: s.id,
    status,
    vessel_name: s.name,
    imo: s.imo,
    to_port: s.toPort ?? '',
    current_eta: iso(eta).replace('T', ' ').replace('+00:00', '+00'),
    atd: s.atd ? iso(s.atd).replace('T', ' ').replace('+00:00', '+00') : '',
    nationality: 'FI',
    from_port: 'SEGVX',
    next_port: '',
    berth_name: s.berthName ?? '',
    badges: [{ type: 'success', value: status }],
    next_event: { title: 'ETA', ts: next === null ? null : iso(next) },
  };
  const doc = { id: s.id, imo: s.imo, status, vessel_name: s.name, seq: 1, payload_key_weights: { berth_name: 2 } };
  await gw.db.query(
    `INSERT INTO portcall.port_calls (id, imo, seq, vessel_name, status, current_eta, atd, next_event_title,
       next_event_ts, to_port, shown, doc, ship, timeline)
     VALUES ($1, $2, 1, $3, $4, $5, $6, 'ETA', $7, $8, $9, $10, $11, $12)`,
    [
      s.id,
      s.imo,
      s.name,
      status,
      iso(eta),
      s.atd ? iso(s.atd) : null,
      next === null ? null : iso(next),
      s.toPort ?? null,
      s.shown ?? true,
      JSON.stringify(doc),
      JSON.stringify(ship),
      JSON.stringify(timelineOf(s)),
    ],
  );
}

beforeAll(async () => {
  gw = await startTestGateway('gw_port_calls');
  admin = await gw.as(gw.adminId);
  userSession = await gw.sessions.create(await gw.createUser('user'));
  user = gw.anonymous.withSession(userSession);
  const key = await gw.createApiKey('Portnet');
  exporter = gw.anonymous.withApiKey(key.key);
  const bound = await gw.db.query<{ bound_user_id: number }>(
    'SELECT bound_user_id FROM gateway.api_keys WHERE id = $1',
    [key.id],
  );
  sourceUser = bound.rows[0].bound_user_id;
  personUser = await gw.createUser('user');
  await gw.db.query("UPDATE gateway.users SET first_name = 'Ann', last_name = 'Berg' WHERE id = $1", [personUser]);
  personEmail = (await gw.db.query<{ email: string }>('SELECT email FROM gateway.users WHERE id = $1', [personUser]))
    .rows[0].email;
});

afterAll(async () => {
  await gw?.stop();
});

describe('before the projector has created its tables', () => {
  it('the activity timeline is empty and a port call is unknown, not an error', async () => {
    expect(await user.get('/ongoing-port-calls')).toMatchObject({
      status: 200,
      body: { portcalls: [], pinned_vessels: [] },
    });
    expect(await user.get('/port-call', { id: 5 })).toMatchObject({
      status: 400,
      body: { error: 'Invalid port call ID: 5' },
    });
    expect((await user.get('/port-calls', { limit: 10, offset: 0 })).body).toEqual({
      data: [],
      pagination: { start: 0, limit: 10, total: 0 },
    });
  });
});

describe('with port calls', () => {
  beforeAll(async () => {
    await seed({ id: 101, imo: 9074729, name: 'Alpha One', eta: NOW + 5 * HOUR });
    await seed({ id: 102, imo: 9176187, name: 'Bravo', eta: NOW + 2 * HOUR, berthName: 'Quay 2' });
    await seed({ id: 103, imo: 9321483, name: 'alphabet soup', eta: NOW + 9 * HOUR, nextEvent: null });
    // Done within the last two hours: still shown; done earlier: gone.
    await seed({ id: 104, imo: 9201827, name: 'Lady Carina', status: 'done', atd: NOW - HOUR, nextEvent: NOW - HOUR });
    await seed({
      id: 105,
      imo: 9201827,
      name: 'Lady Carina',
      status: 'done',
      atd: NOW - 3 * HOUR,
      eta: NOW - 9 * HOUR,
    });
    // Not shown (hidden vessel, or bound elsewhere).
    await seed({ id: 106, imo: 9074729, name: 'Alpha One', shown: false, eta: NOW + HOUR });
    await seed({ id: 107, imo: 9176187, name: 'Bravo', eta: NOW + 2 * HOUR, nextEvent: NOW + 2 * HOUR });
    await gw.db.query(
      `INSERT INTO portcall.timestamps (id, imo, vessel_name, time_type, state, time, payload, port_call_id, is_trash,
         weight, created_by, created_at, version)
       VALUES (101, 9074729, 'Alpha One', 'Estimated', 'Arrival_Vessel_PortArea', now(), '{"a":1}', 101, false, 1, $1,
               now(), 101),
              (108, 9074729, 'Alpha One', 'Actual', 'Arrival_Vessel_Berth', now(), '{}', 101, true, 999, $2, now(), 108),
              (109, 9074729, 'Alpha One', 'Estimated', 'Departure_Vessel_Berth', now(), '{}', NULL, false, 1, $1,
               now(), 109),
              (110, 9074729, 'Alpha One', 'Estimated', 'Departure_Vessel_Berth', now(), '{}', NULL, true, 1, $1,
               now(), 110),
              (111, 9176187, 'Bravo', 'Estimated', 'Departure_Vessel_Berth', now(), '{}', NULL, false, 1, $1, now(), 111)`,
      [sourceUser, personUser],
    );
    for (const [imo, name] of [
      [9074729, 'Alpha One'],
      [9176187, 'Bravo'],
    ] as const) {
      await gw.db.query('INSERT INTO ingest.vessels (imo, vessel_name) VALUES ($1, $2)', [imo, name]);
    }
    await gw.db.query(`INSERT INTO portcall.vessels (imo, revision, visible, version, stream_position, next_seq)
       VALUES (9074729, '', false, 0, 0, 0), (9176187, '', true, 0, 0, 0)`);
  });

  describe('GET /ongoing-port-calls', () => {
    it('lists shown port calls, not done or done in the last two hours, by next event (none first), ETA, id', async () => {
      const res = await user.get('/ongoing-port-calls');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body.pinned_vessels).toEqual([]);
      expect(res.body.portcalls.map((p: any) => p.ship.id)).toEqual([103, 104, 102, 107, 101]);
    });

    it('gives each card its ship and one timeline whose filled slots name their source', async () => {
      const { body } = await user.get('/ongoing-port-calls');
      const card = body.portcalls.find((p: any) => p.ship.id === 102);
      expect(card.ship).toMatchObject({ id: 102, imo: 9176187, vessel_name: 'Bravo', berth_name: 'Quay 2' });
      expect(card.portcalls).toHaveLength(1);
      const [sea, port, departing] = card.portcalls[0].events;
      expect(sea).toMatchObject({ id: 1, location: 'sea' });
      expect(sea.timestamps[0]).toMatchObject({ state: 'Arrival_Vessel_PortArea', source: 'Portnet' });
      expect(sea.timestamps[1]).toEqual({ time_type: 'Planned', state: 'Arrival_Vessel_PortArea' });
      expect(port.timestamps[0].source).toBe(`Ann Berg (${personEmail})`);
      expect(departing.timestamps[0]).toEqual({
        time_type: 'Actual',
        state: 'Pilotage_Commenced',
        payload: { direction: 'outbound' },
      });
    });

    it('is gzipped for callers that accept it, plain JSON otherwise, the same document', async () => {
      const raw = (encoding: string | undefined) =>
        new Promise<{ headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
          const headers: Record<string, string> = { Authorization: `Bearer ${userSession}` };
          if (encoding) headers['Accept-Encoding'] = encoding;
          get(`${gw.baseUrl}/ongoing-port-calls`, { headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          }).on('error', reject);
        });
      const plain = await raw(undefined);
      const zipped = await raw('gzip, deflate, br');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toBe('Accept-Encoding');
      expect(zipped.body.length).toBeLessThan(plain.body.length);
      const document = JSON.parse(plain.body.toString());
      expect(JSON.parse(gunzipSync(zipped.body).toString())).toEqual(document);
      expect(document.portcalls.map((p: any) => p.ship.id)).toEqual([103, 104, 102, 107, 101]);
      expect((await raw('gzip;q=0')).headers['content-encoding']).toBeUndefined();
    });

    it('answers concurrent callers alike', async () => {
      const bodies = await Promise.all(Array.from({ length: 8 }, () => user.get('/ongoing-port-calls')));
      expect(new Set(bodies.map((b) => JSON.stringify(b.body))).size).toBe(1);
    });

    it('is refused to a caller without basic_user_action', async () => {
      expect((await gw.anonymous.get('/ongoing-port-calls')).status).toBe(403);
    });
  });

  describe('GET /port-calls', () => {
    it('pages ship objects sorted by next event by default', async () => {
      const res = await user.get('/port-calls', { limit: 3, offset: 1 });
      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ start: 1, limit: 3, total: 7 });
      // next_event_ts ascending, NULLs last as PostgreSQL sorts them.
      expect(res.body.data.map((s: any) => s.id)).toEqual([104, 106, 102]);
      expect(res.body.data[0]).toMatchObject({ id: 104, imo: 9201827, status: 'done', vessel_name: 'Lady Carina' });
    });

    it('sorts as the UI asks (atd DESC, lower(vessel_name), several tokens)', async () => {
      const ids = async (sort: string) =>
        (await user.get('/port-calls', { limit: 100, offset: 0, sort })).body.data.map((s: any) => s.id);
      expect((await ids('atd DESC')).slice(-2)).toEqual([104, 105]);
      expect(await ids('lower(vessel_name),id DESC')).toEqual([106, 101, 103, 107, 102, 105, 104]);
    });

    it('searches by IMO (7+ digits), name prefix (^) and part of the name, case-insensitively', async () => {
      const ids = async (search: string) =>
        (await user.get('/port-calls', { limit: 100, offset: 0, sort: 'id', search })).body.data.map((s: any) => s.id);
      expect(await ids('9201827')).toEqual([104, 105]);
      expect(await ids('^ALPHA')).toEqual([101, 103, 106]);
      expect(await ids('^one')).toEqual([]);
      expect(await ids('one')).toEqual([101, 106]);
      expect(await ids('%')).toEqual([]);
    });

    it.each([
      [{ offset: 0 }, 'Missing parameter: limit'],
      [{ limit: 10 }, 'Missing parameter: offset'],
      [{ limit: -1, offset: 0 }, 'Limit cannot be negative. Given limit: -1'],
      [{ limit: 'x', offset: 0 }, "Wrong parameter type: limit should be int but got 'x'"],
      [{ limit: 10, offset: 0, sort: '-id' }, 'Invalid orderBy: -id'],
      [{ limit: 10, offset: 0, sort: 'lower(atd)' }, 'Invalid orderBy: lower(atd)'],
      [{ limit: 10, offset: 0, sort: 'doc' }, 'Invalid orderBy: doc'],
      [{ limit: 10, offset: 0, sort: 'id ASC' }, 'Invalid orderBy: id ASC'],
    ])('%j → 400 %s', refusedBy('/port-calls'));
  });

  describe('GET /port-call', () => {
    it('gives the ship and every slot of the timeline in order, sources named', async () => {
      const res = await user.get('/port-call', { id: 101 });
      expect(res.status).toBe(200);
      expect(res.body.ship).toMatchObject({ id: 101, imo: 9074729, vessel_name: 'Alpha One' });
      expect(res.body.timestamps.map((t: any) => [t.time_type, t.state, t.source])).toEqual([
        ['Estimated', 'Arrival_Vessel_PortArea', 'Portnet'],
        ['Planned', 'Arrival_Vessel_PortArea', undefined],
        ['Actual', 'Arrival_Vessel_Berth', `Ann Berg (${personEmail})`],
        ['Actual', 'Pilotage_Commenced', undefined],
      ]);
      expect(res.body.timestamps[0].payload).toEqual({ berth_name: 'B1' });
    });

    it.each([
      [{ id: 999 }, 'Invalid port call ID: 999'],
      [{}, 'Missing parameter: id'],
      [{ id: 'abc' }, "Wrong parameter type: id should be int but got 'abc'"],
      [{ id: -3 }, "Wrong parameter type: id should be int but got '-3'"],
      [{ id: '99999999999999999999' }, "Wrong parameter type: id should be int but got '99999999999999999999'"],
    ])('%j → 400 %s', refusedBy('/port-call'));
  });

  describe('a port call and its vessel: timestamps', () => {
    it("GET /port-call-timestamps pages the port call's timestamps, trashed ones included", async () => {
      const res = await user.get('/port-call-timestamps', { port_call_id: 101, limit: 10, offset: 0, sort: 'id' });
      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ start: 0, limit: 10, total: 2 });
      expect(res.body.data.map((r: any) => [r.id, r.port_call_id, r.is_trash])).toEqual([
        [101, 101, 'f'],
        [108, 101, 't'],
      ]);
      expect(res.body.data[0]).toMatchObject({ payload: '{"a": 1}', time_type: 'Estimated', created_by: sourceUser });
    });

    it("GET /non-port-call-timestamps pages the vessel's orphans", async () => {
      const res = await user.get('/non-port-call-timestamps', { imo: 9074729, limit: 1, offset: 1, sort: 'id' });
      expect(res.body.pagination).toEqual({ start: 1, limit: 1, total: 2 });
      expect(res.body.data.map((r: any) => [r.id, r.port_call_id])).toEqual([[110, null]]);
    });

    it.each([
      ['/port-call-timestamps', { limit: 1, offset: 0, sort: 'id' }, 'Missing parameter: port_call_id'],
      ['/port-call-timestamps', { port_call_id: 101, limit: 1, offset: 0 }, 'Missing parameter: sort'],
      [
        '/port-call-timestamps',
        { port_call_id: 'x', limit: 1, offset: 0, sort: 'id' },
        "Wrong parameter type: port_call_id should be int but got 'x'",
      ],
      ['/non-port-call-timestamps', { imo: 9074729, offset: 0, sort: 'id' }, 'Missing parameter: limit'],
      ['/non-port-call-timestamps', { imo: 9074729, limit: 1, offset: 0, sort: 'nope' }, 'Invalid orderBy: nope'],
    ])('%s %j → 400 %s', async (path, query, error) => {
      expect(await user.get(path, query)).toMatchObject({ status: 400, body: { error } });
    });
  });

  describe('GET /port-call-csv', () => {
    it("downloads the timesheet in the caller's zone, named <id>-<imo>-<name>.csv", async () => {
      const res = await fetch(`${gw.baseUrl}/port-call-csv?id=101&time_zone=Europe/Helsinki`, {
        headers: { Authorization: `Bearer ${userSession}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/csv');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="101-9074729-Alpha+One.csv"');
      const lines = (await res.text()).split('\n');
      expect(lines[0]).toBe('"IMO","Name","Nationality","From","To","Next","Berth","Event","Time"');
      expect(lines).toHaveLength(6);
      expect(lines[1]).toMatch(
        /^"9074729","Alpha One","FI","SEGVX","","","","Estimated .+","\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0[23]:00"$/,
      );
      expect(lines[2]).toMatch(/,""$/);
      expect(lines[5]).toBe('');
    });

    it.each([
      [{ id: 101, time_zone: 'Europe/Atlantis' }, 'Invalid time zone: Europe/Atlantis'],
      [{ id: 101, time_zone: '' }, 'Invalid time zone: '],
      [{ id: 999, time_zone: 'UTC' }, 'Invalid port call ID: 999'],
      [{ id: 101 }, 'Missing parameter: time_zone'],
    ])('%j → 400 %s', refusedBy('/port-call-csv'));
  });

  describe('GET /export/port-calls', () => {
    it('pages the port-call records for API keys, without the projector bookkeeping', async () => {
      const res = await exporter.get('/export/port-calls', { imo: 9201827 });
      expect(res.status).toBe(200);
      expect(res.body.pagination).toEqual({ start: 0, limit: 100, total: 2 });
      expect(res.body.data).toEqual([
        { id: 104, imo: 9201827, status: 'done', vessel_name: 'Lady Carina' },
        { id: 105, imo: 9201827, status: 'done', vessel_name: 'Lady Carina' },
      ]);
      expect((await exporter.get('/export/port-calls', { id: 101 })).body.data.map((d: any) => d.id)).toEqual([101]);
      expect(
        (await exporter.get('/export/port-calls', { limit: 2, sort: 'id DESC' })).body.data.map((d: any) => d.id),
      ).toEqual([107, 106]);
    });

    it('is for API keys only, and refuses bad paging', async () => {
      expect((await admin.get('/export/port-calls')).status).toBe(403);
      expect(await exporter.get('/export/port-calls', { limit: 101 })).toMatchObject({
        status: 400,
        body: { error: 'Maximum limit is 100 records. Given limit: 101' },
      });
    });
  });

  it('GET /ongoing-port-calls follows every change of the read model and of the creators at once', async () => {
    const ids = async () => (await user.get('/ongoing-port-calls')).body.portcalls.map((p: any) => p.ship.id);
    await ids();
    await gw.db.query(
      `UPDATE portcall.port_calls SET ship = jsonb_set(ship, '{vessel_name}', '"Bravo II"') WHERE id = 107`,
    );
    const renamed = (await user.get('/ongoing-port-calls')).body.portcalls.find((p: any) => p.ship.id === 107);
    expect(renamed.ship.vessel_name).toBe('Bravo II');
    await gw.db.query(
      "UPDATE portcall.port_calls SET status = 'done', atd = now() - interval '3 hours' WHERE id = 102",
    );
    expect(await ids()).toEqual([103, 104, 107, 101]);
    await gw.db.query('UPDATE portcall.port_calls SET shown = false WHERE id = 103');
    expect(await ids()).toEqual([104, 107, 101]);
    await seed({ id: 112, imo: 9176187, name: 'Bravo', eta: NOW + 20 * HOUR });
    expect(await ids()).toEqual([104, 107, 101, 112]);
    await gw.db.query('DELETE FROM portcall.port_calls WHERE id = 112');
    expect(await ids()).toEqual([104, 107, 101]);
    await gw.db.query("UPDATE gateway.users SET first_name = 'Anna' WHERE id = $1", [personUser]);
    const card = (await user.get('/ongoing-port-calls')).body.portcalls[0];
    expect(card.portcalls[0].events[1].timestamps[0].source).toBe(`Anna Berg (${personEmail})`);
    await gw.db.query("UPDATE gateway.api_keys SET name = 'Portnet 2' WHERE bound_user_id = $1", [sourceUser]);
    const again = (await user.get('/ongoing-port-calls')).body.portcalls[0];
    expect(again.portcalls[0].events[0].timestamps[0].source).toBe('Portnet 2');
  });

  it('GET /vessels shows the visibility POST /vessel-visibility set', async () => {
    const res = await user.get('/vessels', { limit: 10, offset: 0, sort: 'imo' });
    expect(res.body.data.map((v: any) => [v.imo, v.visible])).toEqual([
      [9074729, false],
      [9176187, true],
    ]);
    const hidden = await user.get('/vessels', { limit: 10, offset: 0, sort: 'visible,imo' });
    expect(hidden.body.data.map((v: any) => v.imo)).toEqual([9074729, 9176187]);
  });
});

describe('the template and the manual-entry definitions', () => {
  it('GET /port-call-template lists the namespace template as parsed', async () => {
    const res = await user.get('/port-call-template', { namespace: 'gavle' });
    expect(res.status).toBe(200);
    expect(res.body[0]).toEqual({
      group: 'seaArriving',
      time_type: 'Estimated',
      state: 'Arrival_Vessel_PortArea',
      payload: {},
    });
    expect(res.body).toContainEqual({
      group: 'seaDeparting',
      time_type: 'Actual',
      state: 'Pilotage_Commenced',
      payload: { direction: 'outbound' },
    });
    expect((await user.get('/port-call-template', { namespace: 'rauma' })).body).toHaveLength(18);
    expect(await user.get('/port-call-template', { namespace: 'atlantis' })).toMatchObject({
      status: 400,
      body: { error: 'No port call template for namespace atlantis' },
    });
  });

  it('GET /timestamp-definitions lists the 18 definitions', async () => {
    const res = await admin.get('/timestamp-definitions');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(18);
    expect(res.body[7]).toEqual({
      id: 8,
      name: 'Estimated Arrival Vessel PortArea',
      time_type_id: 2,
      state_id: 55,
      created_by: null,
      created_at: null,
      modified_by: null,
      modified_at: null,
      time_type: 'Estimated',
      state: 'Arrival_Vessel_PortArea',
    });
  });
});
