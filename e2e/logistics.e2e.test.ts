// Issue 14, truck gate logistics, black-box over HTTP: on the fleet (separate processes, PostgreSQL, RabbitMQ) a
// gate system posts passages with an API key through the gateway to the logistics service; every validation
// message, exact duplicates ignored (also posted at once), times in UTC, the list newest first with its limit,
// by licence plate, the module switch, and `logistics-changed` reaching a socket. On the embedded process, the
// LICENSE_PLATES_FILTER and CHECKPOINTS_FILTER settings.

import {
  type ApiClient,
  connectRealtime,
  type RealtimeClient,
  type RunningSystem,
  startEmbedded,
  startFleet,
} from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatePassage } from '../services/logistics/src/testing/gate-passages.ts';
import { ADMIN, addUser, adminAndDataSource } from './timestamps.ts';

const PATH = '/agent/rest/logistics-timestamps';
// How long a real-time message may take: generous, the machine may be small and busy.
const LIVE_MS = 30_000;

describe('gate logistics (fleet)', () => {
  let system: RunningSystem;
  let admin: ApiClient;
  let gate: ApiClient;
  let user: ApiClient;
  let socket: RealtimeClient | undefined;

  beforeAll(async () => {
    system = await startFleet();
    const made = await adminAndDataSource(system.baseUrl, ADMIN);
    admin = made.admin;
    gate = made.api.withApiKey(made.apiKey.key);
    const email = `viewer-${Date.now()}@port.local`;
    const { password } = await addUser(admin, { email, first_name: 'Gate', last_name: 'Viewer', role: 'user' });
    user = await made.api.login(email, password);
  }, 180_000);

  afterAll(async () => {
    socket?.close();
    await system?.stop();
  });

  const list = async (limit: number | string = 100) => {
    const res = await user.get(`/logistics-timestamps/${limit}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as any[];
  };

  it('refuses bad posts with the original messages and stores nothing', async () => {
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [gatePassage({ direction: 'Inbound' }), 'Invalid direction value: Inbound'],
      [
        gatePassage({ time: '2026-11-25 12:00' }),
        /^Invalid date format: 2026-11-25 12:00\. Use format YYYY-MM-DDThh:mm:ssZ/,
      ],
      [gatePassage({ time: '2026-11-25T12:00:00' }), /^Invalid date format: 2026-11-25T12:00:00\. /],
      [
        gatePassage({ front_license_plates: [{ number: 'ABC123' }] }),
        'Missing parameter(s) from front_license_plates: nationality',
      ],
      [
        gatePassage({ rear_license_plates: [{ number: 'A', nationality: 'FI', colour: 'red' }] }),
        'Invalid parameter(s) in rear_license_plates: colour',
      ],
      [gatePassage({ containers: [{}] }), 'Missing parameter(s) from containers: identification'],
      [gatePassage({ containers: [{ identification: 'X', seal: 'S1' }] }), 'Invalid parameter(s) in containers: seal'],
      [
        gatePassage({ front_license_plates: [{ number: 123, nationality: 'FI' }] }),
        'Invalid parameter(s) in front_license_plates: number must be text of at most 255',
      ],
      [gatePassage({ external_id: 'abc' }), "Wrong parameter type: external_id should be int but got 'abc'"],
      [gatePassage({ containers: 'MSCU1' }), "Wrong parameter type: containers should be array but got 'MSCU1'"],
      [{ ...gatePassage(), checkpoint: undefined }, 'Missing parameter: checkpoint'],
      [{ ...gatePassage(), time: undefined }, 'Missing parameter: time'],
    ];
    for (const [body, error] of cases) {
      const res = await gate.post(PATH, body);
      expect([res.status, res.body.error], JSON.stringify([body, res.body])).toEqual([
        400,
        typeof error === 'string' ? error : expect.stringMatching(error),
      ]);
    }
    expect(await list()).toEqual([]);
    // A person's session is not a gate system.
    expect((await user.post(PATH, gatePassage())).status).toBe(403);
  });

  it('stores a passage with its time in UTC and announces it on logistics-changed', async () => {
    socket = await connectRealtime(system.baseUrl, 15);
    await socket.subscribe('logistics-changed');
    const posted = Date.now();
    expect(await gate.post(PATH, gatePassage())).toMatchObject({ status: 200, body: { result: 'OK' } });
    const message = await socket.next('logistics-changed', LIVE_MS, posted);
    expect(message.data).toEqual([]);
    const [item] = await list();
    // As posted, the time in UTC.
    expect(item).toMatchObject({ ...gatePassage(), time: '2026-11-25T10:00:00+00:00' });
    expect(Object.keys(item).sort()).toEqual(
      [
        'time',
        'checkpoint',
        'direction',
        'created_by',
        'created_at',
        'modified_by',
        'modified_at',
        'external_id',
        'front_license_plates',
        'rear_license_plates',
        'containers',
      ].sort(),
    );
    expect(item.created_by).toEqual(expect.any(Number));
    expect(item.created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?\+00$/);
  });

  it('ignores exact duplicates, also posted at once, and sends nothing for them', async () => {
    // Let the first message's coalescing window pass.
    await new Promise((r) => setTimeout(r, 400));
    const since = Date.now();
    const same = gatePassage({
      time: '2026-11-25T10:00:00Z',
      rear_license_plates: [{ nationality: 'FI', number: 'TRL77' }],
    });
    expect((await gate.post(PATH, same)).body).toEqual({ result: 'OK' });
    const twice = gatePassage({ time: '2026-11-25T11:30:00Z', direction: 'Out', external_id: 502 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => gate.post(PATH, twice)));
    expect(answers.map((a) => [a.status, a.body])).toEqual(Array.from({ length: 8 }, () => [200, { result: 'OK' }]));
    expect((await list()).map((p) => [p.time, p.direction, p.external_id])).toEqual([
      ['2026-11-25T11:30:00+00:00', 'Out', 502],
      ['2026-11-25T10:00:00+00:00', 'In', 501],
    ]);
    // The one new passage was announced; a duplicate alone announces nothing.
    await socket!.next('logistics-changed', LIVE_MS, since);
    // Past that message's coalescing window (250 ms), so that a message for the duplicate would go out at once.
    await new Promise((r) => setTimeout(r, 400));
    // Notifications need a signed-in socket with basic_user_action (GET /notifications's permission).
    await socket!.authenticate((await user.get('/session')).body.jwt);
    await socket!.subscribe('notifications-changed');
    const quiet = Date.now();
    expect((await gate.post(PATH, twice)).body).toEqual({ result: 'OK' });
    // A barrier on the same path: a notification, appended after the duplicate, reaches the socket through the same
    // relay, queue and feed, so a message for the duplicate would have come before it.
    expect(await admin.post('/notifications', { type: 'port', message: 'barrier' })).toMatchObject({ status: 200 });
    await socket!.next('notifications-changed', LIVE_MS, quiet);
    expect(socket!.received.get('logistics-changed')!.filter((m) => m.at >= quiet)).toEqual([]);
  });

  it('lists newest time first up to the limit, which is checked', async () => {
    // Posted out of order: an older passage after newer ones.
    for (const [time, id] of [
      ['2026-11-26T08:00:00+00:00', 601],
      ['2026-11-24T08:00:00+00:00', 602],
      ['2026-11-26T09:00:00+02:00', 603],
    ] as const) {
      expect((await gate.post(PATH, gatePassage({ time, external_id: id }))).status).toBe(200);
    }
    expect((await list()).map((p) => p.external_id)).toEqual([601, 603, 502, 501, 602]);
    expect((await list(2)).map((p) => p.external_id)).toEqual([601, 603]);
    expect(await list(0)).toEqual([]);
    for (const [limit, error] of [
      ['-1', 'Limit cannot be negative. Given limit: -1'],
      ['1001', 'Maximum limit is 1000 records. Given limit: 1001'],
      ['many', "Wrong parameter type: limit should be int but got 'many'"],
    ]) {
      expect(await user.get(`/logistics-timestamps/${limit}`)).toMatchObject({ status: 400, body: { error } });
    }
  });

  it('finds the newest passages of a plate, front or rear, exact', async () => {
    expect(
      (await gate.post(PATH, gatePassage({ external_id: 701, front_license_plates: [], time: '2026-11-27T00:00:00Z' })))
        .status,
    ).toBe(200);
    const rear = await user.get('/logistics-timestamps/by-license-plate/TRL77');
    expect(rear.status).toBe(200);
    expect(rear.body.license_plate).toBe('TRL77');
    expect(rear.body.timestamps.map((p: any) => p.external_id)).toEqual([701, 601, 603, 502, 501, 602]);
    const front = await user.get('/logistics-timestamps/by-license-plate/ABC123');
    expect(front.body.timestamps.map((p: any) => p.external_id)).toEqual([601, 603, 502, 501, 602]);
    expect((await user.get('/logistics-timestamps/by-license-plate/ABC12')).body).toEqual({
      license_plate: 'ABC12',
      timestamps: [],
    });
  });

  it('with logistics_module off every route answers 403 naming it; on, they answer again at once', async () => {
    expect((await admin.put('/settings/logistics_module/disabled')).status).toBe(200);
    const off = { status: 403, body: { error: 'Logistics module is disabled' } };
    expect(await gate.post(PATH, gatePassage({ external_id: 801 }))).toMatchObject(off);
    expect(await user.get('/logistics-timestamps/100')).toMatchObject(off);
    expect(await user.get('/logistics-timestamps/by-license-plate/ABC123')).toMatchObject(off);
    expect((await admin.put('/settings/logistics_module/enabled')).status).toBe(200);
    expect(await gate.post(PATH, gatePassage({ external_id: 801 }))).toMatchObject({ status: 200 });
    expect((await list(1)).map((p) => p.external_id)).toEqual([701]);
    expect((await user.get('/logistics-timestamps/by-license-plate/ABC123')).status).toBe(200);
  });
});

describe('gate logistics list filters (embedded)', () => {
  let system: RunningSystem;
  let gate: ApiClient;
  let admin: ApiClient;

  beforeAll(async () => {
    system = await startEmbedded({
      ADMIN_PASSWORD: ADMIN.password,
      LICENSE_PLATES_FILTER: 'ABC-123, XY-Z9',
      CHECKPOINTS_FILTER: 'Gate 1,Gate 3',
    });
    const made = await adminAndDataSource(system.baseUrl, ADMIN);
    admin = made.admin;
    gate = made.api.withApiKey(made.apiKey.key);
  }, 120_000);

  afterAll(async () => {
    await system?.stop();
  });

  it('lists only passages with a listed plate (dashes removed), front or rear, at a listed checkpoint', async () => {
    const posts = [
      gatePassage({ external_id: 1, checkpoint: 'Gate 1' }),
      gatePassage({ external_id: 2, checkpoint: 'Gate 2' }),
      gatePassage({ external_id: 3, front_license_plates: [{ number: 'OTHER1', nationality: 'SE' }] }),
      gatePassage({
        external_id: 4,
        checkpoint: 'Gate 3',
        front_license_plates: [],
        rear_license_plates: [{ number: 'XYZ9', nationality: 'SE' }],
      }),
    ];
    for (const [i, body] of posts.entries()) {
      const res = await gate.post(PATH, { ...body, time: `2026-11-25T10:0${i}:00Z` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect((await admin.get('/logistics-timestamps/100')).body.map((p: any) => p.external_id)).toEqual([4, 1]);
    // The plate lookup is not filtered.
    const other = await admin.get('/logistics-timestamps/by-license-plate/OTHER1');
    expect(other.body.timestamps.map((p: any) => p.external_id)).toEqual([3]);
  });
});
