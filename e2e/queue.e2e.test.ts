// Issue 15, the JIT arrival queue, black-box over HTTP on the fleet (separate processes, PostgreSQL, RabbitMQ):
// berths, nominations in the consignee's own scope and for a consignee, a slot request without a nomination
// resolved when one comes, offered on the best slot with its RTA window, accepted with a JIT ETA from the vessel,
// updated by the port, port blocks, cancellation (the nomination open again, the generated timestamps gone from
// the vessel's timeline), the dashboard, every validation message of the original (each refusal stores nothing),
// and the module switch.

import { type ApiClient, connectRealtime, type RealtimeClient, type RunningSystem, startFleet } from '@pcas/testing';
import { imoWithCheckDigit } from '@pcas/values';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR, iso, MIN, pg, vesselSlotRequest, W0 } from './queue-fleet.ts';
import { ADMIN, adminAndDataSource, waitForTimestamps } from './timestamps.ts';

/** A valid IMO from six digits (the check digit appended). */
const imo = imoWithCheckDigit;
const IMO_A = imo(941_001);
const IMO_B = imo(941_002);

const nomination = (over: Record<string, unknown> = {}) => ({
  company_name: 'Cargo Oy',
  email: 'consignee@cargo.example',
  imo: IMO_A,
  vessel_name: 'Alpha',
  window_start: iso(W0),
  window_end: iso(W0 + 12 * HOUR),
  berth_ids: [] as number[],
  ...over,
});

const slotRequest = (over: Record<string, unknown> = {}) =>
  vesselSlotRequest({
    email: 'master@alpha.example',
    imo: IMO_A,
    vessel_name: 'Alpha',
    eta: iso(W0 + 2 * HOUR),
    ...over,
  });

describe('JIT arrival queue (fleet)', () => {
  let system: RunningSystem;
  let admin: ApiClient;
  let vessel: ApiClient;
  let consignee: ApiClient;
  let other: ApiClient;
  let consigneeId: number;
  let adminId: number;
  let b1: number;
  let b2: number;
  let socket: RealtimeClient | undefined;

  beforeAll(async () => {
    system = await startFleet();
    const made = await adminAndDataSource(system.baseUrl, ADMIN);
    admin = made.admin;
    vessel = made.api.withApiKey(made.apiKey.key);
    adminId = (await admin.get('/session')).body.user.id;
    const user = async (name: string) => {
      const email = `${name}-${Date.now()}@cargo.example`;
      const res = await admin.post('/users', {
        email,
        first_name: name,
        last_name: `Consignee ${name}`,
        role: 'consignee',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { id: res.body.id as number, client: await made.api.login(email, res.body.password) };
    };
    const c1 = await user('Carla');
    const c2 = await user('Otto');
    consignee = c1.client;
    consigneeId = c1.id;
    other = c2.client;
  }, 180_000);

  afterAll(async () => {
    socket?.close();
    await system?.stop();
  });

  const ok = (res: { status: number; body: unknown }) => expect(res.status, JSON.stringify(res.body)).toBe(200);
  const refused = async (
    res: Promise<{ status: number; body: any }>,
    message: string | RegExp,
    status = 400,
  ): Promise<void> => {
    const answer = await res;
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    if (typeof message === 'string') expect(answer.body).toEqual({ error: message });
    else expect(answer.body.error).toMatch(message);
  };
  const slots = async () => (await admin.get('/slot-reservations', { limit: 100, sort: 'id' })).body.data as any[];
  const slotOf = async (imoNumber: number) => (await slots()).filter((s) => s.imo === imoNumber);
  const snapshot = async () =>
    JSON.stringify([
      (await admin.get('/berths', { limit: 100 })).body,
      (await admin.get('/nominations', { limit: 100 })).body,
      await slots(),
      (await admin.get('/berth-reservations', { berth_id: b1, limit: 100 })).body,
    ]);

  it('berths: created, listed and searched; an unknown id refused', async () => {
    ok(await admin.post('/berths', { code: 'B1', name: 'North quay', nominatable: true }));
    ok(await admin.post('/berths', { code: 'B2', name: 'Oil pier', nominatable: 'yes' }));
    const list = (await admin.get('/berths', { limit: 10, sort: 'id' })).body;
    expect(list.pagination).toEqual({ start: 0, limit: 10, total: 2 });
    expect(list.data.map((b: any) => [b.code, b.name, b.nominatable])).toEqual([
      ['B1', 'North quay', true],
      ['B2', 'Oil pier', false], // only JSON true or 1 makes a berth nominatable
    ]);
    [b1, b2] = list.data.map((b: any) => b.id);
    expect((await admin.get('/berths', { search: 'pier' })).body.data.map((b: any) => b.code)).toEqual(['B2']);
    expect((await admin.get('/berths', { sort: 'lower(name) DESC' })).body.data.map((b: any) => b.code)).toEqual([
      'B2',
      'B1',
    ]);
    await refused(admin.get('/berths', { sort: 'lower(id)' }), 'Invalid orderBy: lower(id)');
    await refused(admin.get('/berths', { sort: 'secret' }), 'Invalid orderBy: secret');
    expect((await admin.get('/berth-by-id', { id: b1 })).body).toMatchObject({ code: 'B1', nominatable: true });
    expect((await consignee.get('/all-nominatable-berths')).body.map((b: any) => b.name)).toEqual(['North quay']);
    await refused(
      admin.put('/berths', { id: 999, code: 'X', name: 'X', nominatable: 1 }),
      'Cannot find berth instance with given id: 999',
    );
    await refused(admin.delete('/berths', { id: 999 }), 'Cannot find berth instance with given id: 999');
  });

  it('refuses bad nominations with the original messages and stores nothing', async () => {
    const before = await snapshot();
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [nomination({ berth_ids: [b1], email: 'not-an-address' }), 'Given email address is not valid: not-an-address'],
      [nomination({ berth_ids: [b1], imo: 1234568 }), 'Given IMO is not valid: 1234568'],
      [nomination({ berth_ids: [b1], window_start: '2026-12-01 10:00' }), /^Given window start is not in ISO format/],
      [
        nomination({ berth_ids: [b1], window_start: iso(W0 + HOUR), window_end: iso(W0) }),
        'Window start must be before window end',
      ],
      [
        nomination({ berth_ids: [b1], window_start: iso(W0 - 5 * 24 * HOUR) }),
        'Window start must be after current date',
      ],
      [
        nomination({ berth_ids: [b1], window_end: iso(W0 + 40 * 24 * HOUR) }),
        'Window end can be maximum one month in advance',
      ],
      [nomination({ berth_ids: [b1, 999] }), 'Given berth ID is invalid: 999'],
      [nomination({ berth_ids: [b2] }), `Given berth ID cannot be nominated: ${b2}`],
    ];
    for (const [body, message] of cases) {
      await refused(consignee.post('/own-nominations', body), message).catch((error) => {
        throw new Error(`${JSON.stringify(body)}: ${error}`);
      });
    }
    await refused(
      admin.post('/nomination-for-consignee', { consignee_user_id: adminId, ...nomination({ berth_ids: [b1] }) }),
      `Invalid user ID: ${adminId}`,
    );
    expect(await snapshot()).toBe(before);
  });

  it("a consignee's nominations are its own; the port sees all, with their owners", async () => {
    ok(await consignee.post('/own-nominations', nomination({ berth_ids: [b1, b1] })));
    const own = (await consignee.get('/own-nominations')).body;
    expect(own.pagination.total).toBe(1);
    const n1 = own.data[0];
    expect(n1).toMatchObject({
      imo: IMO_A,
      nomination_status: 'open',
      readable_nomination_status: 'Open',
      window_start: pg(W0),
      window_end: pg(W0 + 12 * HOUR),
      berth_ids: [b1], // duplicates dropped
      berth_names: ['North quay'],
      created_by: consigneeId,
    });
    expect((await other.get('/own-nominations')).body.pagination.total).toBe(0);
    await refused(other.get('/own-nomination-by-id', { id: n1.id }), 'No permission for given nomination', 403);
    await refused(
      other.put('/own-nominations', { ...nomination(), id: n1.id }),
      'No permission for given nomination',
      403,
    );
    await refused(other.delete('/own-nominations', { id: n1.id }), 'No permission for given nomination', 403);
    await refused(
      consignee.get('/own-nomination-by-id', { id: 999 }),
      'Cannot find nomination instance with given id: 999',
    );
    await refused(
      consignee.put('/own-nominations', { ...nomination(), id: n1.id, window_end: undefined }),
      'Only one window date given',
    );
    const all = (await admin.get('/nominations')).body.data;
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ owner_first_name: 'Carla', owner_last_name: 'Consignee Carla' });
    const consignees = (await admin.get('/consignee-users')).body.map((u: any) => u.name);
    expect(consignees).toEqual(['Consignee Carla, Carla', 'Consignee Otto, Otto']);
  });

  it('a slot request without a nomination waits (no_nomination) and is offered when one comes', async () => {
    ok(
      await vessel.post(
        '/agent/rest/slot-reservations',
        slotRequest({ imo: IMO_B, vessel_name: 'Bravo', eta: iso(W0 + 6 * HOUR) }),
      ),
    );
    expect((await slotOf(IMO_B))[0]).toMatchObject({
      slot_reservation_status: 'no_nomination',
      readable_slot_reservation_status: 'No nomination found',
      rta_window_start: null,
      laytime: 'PT2H',
    });
    ok(
      await admin.post('/nomination-for-consignee', {
        consignee_user_id: consigneeId,
        ...nomination({ imo: IMO_B, vessel_name: 'Bravo', berth_ids: [b1] }),
      }),
    );
    // ETA W0+6h, 30 min travel: berth from W0+6h30; the RTA window is [W0+6h, W0+6h30].
    expect((await slotOf(IMO_B))[0]).toMatchObject({
      slot_reservation_status: 'offered',
      berth_name: 'North quay',
      rta_window_start: pg(W0 + 6 * HOUR),
      rta_window_end: pg(W0 + 6 * HOUR + 30 * MIN),
    });
    const reserved = (await admin.get('/nominations', { search: String(IMO_B) })).body.data[0];
    expect(reserved.readable_nomination_status).toBe('Reserved');
    await refused(
      admin.put('/nominations', { ...nomination({ imo: IMO_B }), id: reserved.id }),
      'Only open nominations can be updated',
    );
    await refused(admin.delete('/nominations', { id: reserved.id }), 'Only open nominations can be deleted');
  });

  it('refuses bad slot requests with the original messages and stores nothing', async () => {
    const before = await snapshot();
    await refused(
      vessel.post('/agent/rest/slot-reservations', slotRequest({ email: 'x@' })),
      'Given email address is not valid: x@',
    );
    await refused(
      vessel.post('/agent/rest/slot-reservations', slotRequest({ imo: 1000000 })),
      'Given IMO is not valid: 1000000',
    );
    await refused(
      vessel.post('/agent/rest/slot-reservations', slotRequest({ laytime: 'PT2H' })),
      'Given laytime is not valid: PT2H',
    );
    await refused(
      admin.post('/slot-reservations', { ...slotRequest({ laytime: '02:00' }), loa: 1, beam: 1, draft: 1 }),
      'Given laytime is not valid: 02:00',
    );
    await refused(
      vessel.put('/agent/rest/slot-reservations', { id: 999, laytime: '02:00', jit_eta: iso(W0) }),
      'Cannot find slot reservation instance with given id: 999',
    );
    await refused(
      admin.delete('/slot-reservations', { id: 999 }),
      'Cannot find slot reservation instance with given id: 999',
    );
    await refused(
      vessel.post('/agent/rest/slot-reservations', slotRequest({ eta: 'tomorrow' })),
      'Given ETA is not in ISO format: tomorrow',
    );
    expect(await snapshot()).toBe(before);
  });

  it('offered on the best slot, accepted with a JIT ETA inside the RTA window, then moved by the port', async () => {
    ok(await vessel.post('/agent/rest/slot-reservations', slotRequest()));
    const [a] = await slotOf(IMO_A);
    expect(a).toMatchObject({
      slot_reservation_status: 'offered',
      rta_window_start: pg(W0 + 2 * HOUR),
      rta_window_end: pg(W0 + 2 * HOUR + 30 * MIN),
      eta: pg(W0 + 2 * HOUR),
    });
    // The timeline is projected from ingest's events a moment after the posts.
    const { rows: timeline } = await waitForTimestamps(
      admin,
      { imo: IMO_A, limit: 100 },
      (rows) => rows.length >= 3,
      30_000,
    );
    expect(timeline.map((t) => `${t.time_type} ${t.state} ${t.time}`).sort(), JSON.stringify(timeline)).toEqual([
      `Estimated Arrival_Vessel_PortArea ${pg(W0 + 2 * HOUR)}`,
      // ETA + 30 min travel + 2 h laytime
      `Estimated Departure_Vessel_Berth ${pg(W0 + 4 * HOUR + 30 * MIN)}`,
      `Recommended Arrival_Vessel_PortArea ${pg(W0 + 2 * HOUR)}`,
    ]);
    expect(JSON.parse(timeline[0].payload)).toMatchObject({ source: 'jit_eta_form', slot_reservation_id: a.id });

    const before = await snapshot();
    await refused(
      vessel.put('/agent/rest/slot-reservations', { id: a.id, laytime: '02:00', jit_eta: iso(W0 + 3 * HOUR) }),
      `Given JIT ETA is not within RTA window: ${iso(W0 + 2 * HOUR)} - ${iso(W0 + 2 * HOUR + 30 * MIN)}`,
    );
    await refused(
      vessel.put('/agent/rest/slot-reservations', { id: a.id, laytime: '2 hours', jit_eta: iso(W0 + 2 * HOUR) }),
      'Given laytime is not valid: 2 hours',
    );
    // The port's RTA window start must lie in the reserved nomination and leave the berth free.
    for (const [start, error] of [
      [W0 + 13 * HOUR, 'Reserved nomination not valid with given RTA window start'],
      [W0 + 5 * HOUR, 'Berth not free with given RTA window start'],
    ] as const) {
      await refused(
        admin.put('/slot-reservations', {
          id: a.id,
          laytime: 'PT2H',
          jit_eta: iso(start),
          rta_window_start: iso(start),
        }),
        `${error}: ${iso(start)}`,
      );
    }
    expect(await snapshot()).toBe(before);

    ok(
      await vessel.put('/agent/rest/slot-reservations', {
        id: a.id,
        laytime: '02:00',
        jit_eta: iso(W0 + 2 * HOUR + 10 * MIN),
      }),
    );
    // Bravo's berth slot starts at W0+6h30: this one may grow to 6h30 − 2h30 − 30 min − 30 min − 1 min.
    expect((await vessel.get('/agent/rest/slot-reservation-by-id', { id: a.id })).body).toMatchObject({
      slot_reservation_status: 'accepted',
      readable_slot_reservation_status: 'Accepted',
      jit_eta: pg(W0 + 2 * HOUR + 10 * MIN),
      laytime: '02:00',
      max_laytime: '02:59',
    });
    ok(
      await admin.put('/slot-reservations', {
        id: a.id,
        laytime: 'PT1H30M',
        jit_eta: iso(W0 + HOUR + 10 * MIN),
        rta_window_start: iso(W0 + HOUR),
      }),
    );
    expect((await admin.get('/slot-reservation-by-id', { id: a.id })).body).toMatchObject({
      slot_reservation_status: 'updated',
      readable_slot_reservation_status: 'Updated by port',
      rta_window_start: pg(W0 + HOUR),
      laytime: '01:30',
    });
    // The PTD reaches the port call a moment later (posted after the reply, then projected): the whole expected
    // dashboard is waited for. From the vessel's port call: no live ETA yet; the PTD is the Planned departure the
    // JIT ETA put there.
    await expect
      .poll(async () => (await admin.get('/dashboard-slot-reservations')).body.data, { timeout: 30_000 })
      .toMatchObject([
        {
          imo: IMO_A,
          slot_reservation_status: 'updated',
          live_eta: null,
          ptd: expect.stringContaining(iso(W0 + 4 * HOUR + 40 * MIN).slice(0, 16)),
        },
        { imo: IMO_B, slot_reservation_status: 'offered' },
      ]);
  });

  it('port blocks: refused when not free or not a port block; listed with the vessels on the calendar', async () => {
    const block = (start: number, end: number, type = 'port_blocked') => ({
      berth_id: b1,
      berth_reservation_type: type,
      reservation_start: iso(start),
      reservation_end: iso(end),
    });
    const before = await snapshot();
    await refused(
      admin.post('/berth-reservations', block(W0 + 7 * HOUR, W0 + 8 * HOUR)),
      `Given time slot is not free: ${iso(W0 + 7 * HOUR)} - ${iso(W0 + 8 * HOUR)}`,
    );
    await refused(
      admin.post('/berth-reservations', block(W0, W0 + HOUR, 'maintenance')),
      'Invalid berth reservation type: maintenance',
    );
    await refused(
      admin.post('/berth-reservations', block(W0 + 11 * HOUR, W0 + 10 * HOUR)),
      'Reservation start must be before reservation end',
    );
    await refused(
      admin.post('/berth-reservations', { ...block(W0, W0 + HOUR), slot_reservation_id: 999 }),
      'Invalid slot reservation ID: 999',
    );
    await refused(
      admin.post('/berth-reservations', { ...block(W0, W0 + HOUR), reservation_start: '2030-01-01 10:00' }),
      'Given reservation start is not in ISO format: 2030-01-01 10:00',
    );
    await refused(
      admin.put('/berth-reservations', { id: 999, reservation_start: iso(W0), reservation_end: iso(W0 + HOUR) }),
      'Cannot find berth reservation instance with given id: 999',
    );
    await refused(
      admin.delete('/berth-reservations', { id: 999 }),
      'Cannot find berth reservation instance with given id: 999',
    );
    await refused(
      admin.post('/berth-reservations', { ...block(W0, W0 + HOUR), berth_id: b2 }),
      `Given berth ID cannot be nominated: ${b2}`,
    );
    const calendar = (await admin.get('/berth-reservations', { berth_id: b1 })).body.data as any[];
    const vesselSlot = calendar.find((r) => r.vessel_name === 'Bravo');
    expect(vesselSlot).toMatchObject({
      readable_berth_reservation_type: 'Reserved for vessel',
      reservation_start: pg(W0 + 6 * HOUR + 30 * MIN),
    });
    await refused(
      admin.put('/berth-reservations', {
        id: vesselSlot.id,
        reservation_start: iso(W0),
        reservation_end: iso(W0 + HOUR),
      }),
      'Only port block reservations can be updated',
    );
    await refused(
      admin.delete('/berth-reservations', { id: vesselSlot.id }),
      'Only port block reservations can be deleted',
    );
    expect(await snapshot()).toBe(before);

    ok(await admin.post('/berth-reservations', block(W0 + 10 * HOUR, W0 + 11 * HOUR)));
    const after = (await admin.get('/berth-reservations', { berth_id: b1 })).body;
    expect(after.data.map((r: any) => r.readable_berth_reservation_type)).toEqual([
      'Reserved for vessel',
      'Reserved for vessel',
      'Blocked by port',
    ]);
    const portBlock = after.data[2];
    ok(
      await admin.put('/berth-reservations', {
        id: portBlock.id,
        reservation_start: iso(W0 + 10 * HOUR),
        reservation_end: iso(W0 + 11 * HOUR + 30 * MIN),
      }),
    );
    ok(await admin.delete('/berth-reservations', { id: portBlock.id }));
  });

  it('cancelled by the port: the nomination open again, the berth free, the generated timestamps gone', async () => {
    const [a] = await slotOf(IMO_A);
    ok(await admin.delete('/slot-reservations', { id: a.id, cancel_only: true, by_vessel: false }));
    const [after] = await slotOf(IMO_A);
    expect(after).toMatchObject({
      slot_reservation_status: 'cancelled_by_port',
      rta_window_start: null,
      jit_eta: null,
    });
    const n1 = (await consignee.get('/own-nominations')).body.data.find((n: any) => n.imo === IMO_A);
    expect(n1.readable_nomination_status).toBe('Open');
    const calendar = (await admin.get('/berth-reservations', { berth_id: b1 })).body.data as any[];
    expect(calendar.map((r) => r.vessel_name)).toEqual(['Bravo']);
    const { rows: timeline } = await waitForTimestamps(
      admin,
      { imo: IMO_A, limit: 100 },
      (rows) => rows.length > 0 && rows.every((t) => t.is_trash === 't'),
      30_000,
    );
    // Removed: in the trash, so off the port call's timeline.
    expect(timeline.filter((t) => String(t.payload).includes('jit_eta_form') && t.is_trash === 'f')).toEqual([]);
    expect(timeline.filter((t) => String(t.payload).includes('jit_eta_form'))).toHaveLength(6); // offer 3, JIT ETA 2, port's RTA 1
    await refused(
      vessel.put('/agent/rest/slot-reservations', { id: a.id, laytime: '02:00', jit_eta: iso(W0 + 2 * HOUR) }),
      'Invalid current slot reservation status: cancelled_by_port',
    );
    // The vessel cancels its own: cancelled by vessel.
    const [b] = await slotOf(IMO_B);
    ok(await vessel.delete('/agent/rest/slot-reservations', { id: b.id }));
    expect((await slotOf(IMO_B))[0].slot_reservation_status).toBe('cancelled_by_vessel');
    expect((await admin.get('/dashboard-slot-reservations')).body.data).toEqual([]);
  });

  it("a slot request's change reaches queue-portcalls-changed; changed settings shape the next offer", async () => {
    socket = await connectRealtime(system.baseUrl, 15);
    await socket.subscribe('queue-portcalls-changed');
    // A request without a nomination posts no timestamps: only its own event can send the message. The previous
    // test's last effect (Bravo's generated timestamps removed after its cancellation) is waited for first, then a
    // moment for its signal to pass, so that signal is not taken for this one.
    await waitForTimestamps(
      admin,
      { imo: IMO_B, limit: 100 },
      (rows) => rows.length > 0 && rows.every((t) => t.is_trash === 't'),
      30_000,
    );
    await new Promise((r) => setTimeout(r, 1000));
    const since = Date.now();
    ok(await vessel.post('/agent/rest/slot-reservations', slotRequest({ imo: imo(941_003), vessel_name: 'Charlie' })));
    expect((await socket.next('queue-portcalls-changed', 30_000, since)).data).toEqual([]);

    ok(await admin.put('/settings/queue_travel_duration_to_berth/PT1H'));
    ok(await admin.put('/settings/queue_rta_window_duration/PT1H'));
    try {
      ok(await vessel.post('/agent/rest/slot-reservations', slotRequest({ eta: iso(W0 + HOUR) })));
      const offered = (await slotOf(IMO_A)).find((s) => s.slot_reservation_status === 'offered');
      // Berth from ETA + 1 h travel; a one-hour RTA window.
      expect(offered).toMatchObject({ rta_window_start: pg(W0 + HOUR), rta_window_end: pg(W0 + 2 * HOUR) });
      const calendar = (await admin.get('/berth-reservations', { berth_id: b1 })).body.data as any[];
      expect(calendar.find((r) => r.slot_reservation_id === offered.id)).toMatchObject({
        reservation_start: pg(W0 + 2 * HOUR),
        reservation_end: pg(W0 + 2 * HOUR + 3 * HOUR + 30 * MIN), // laytime 2 h + buffer 30 min + RTA window 1 h
      });
    } finally {
      ok(await admin.put('/settings/queue_travel_duration_to_berth/PT30M'));
      ok(await admin.put('/settings/queue_rta_window_duration/PT30M'));
    }
  });

  it('with queue_module off every queue route answers 403 naming it', async () => {
    ok(await admin.put('/settings/queue_module/disabled'));
    const off = { status: 403, body: { error: 'Queue module is disabled' } };
    try {
      for (const res of [
        await admin.get('/berths'),
        await admin.get('/dashboard-slot-reservations'),
        await vessel.post('/agent/rest/slot-reservations', slotRequest()),
      ]) {
        expect({ status: res.status, body: res.body }).toEqual(off);
      }
    } finally {
      ok(await admin.put('/settings/queue_module/enabled'));
    }
    ok(await admin.get('/berths'));
  });
});
