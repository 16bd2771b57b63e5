// Issue 25 item 5, "the vessel's forms cannot push the whole berth", black-box over HTTP on the fleet (separate
// processes, PostgreSQL, RabbitMQ, Redis), the mails captured by an SMTP server the test starts. Each refusal is
// answered in words and stores nothing: the events of the queue's streams (slot requests, berths, nominations: the
// only ones a queue decision appends to) are counted before and after. The longest laytime (the setting
// queue_max_laytime_duration) on every way a laytime comes in; a push forward that would move another vessel past its
// nomination window; a JIT ETA form link superseded by a newer mail's, or of a cancelled or completed request, which
// still shows the request.

import { openDb } from '@pcas/sql';
import type { ApiClient, RunningSystem, SmtpServerForTest } from '@pcas/testing';
import { imoWithCheckDigit } from '@pcas/values';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etaFormToken, HOUR, iso, MIN, ok, type QueueFleet, startQueueFleet, W0 } from './queue-fleet.ts';

const DAY = 24 * HOUR;

/** A valid IMO from six digits (the check digit appended). */
const imo = imoWithCheckDigit;
const IMO_A = imo(953_001);
const IMO_X = imo(953_002);
const IMO_Y = imo(953_003);
const IMO_C = imo(953_004);
const MASTER_A = 'master@alpha.example';

const SUPERSEDED = 'This link has been replaced by a newer one; use the link in the latest e-mail';
const CANCELLED = 'This link no longer allows changes: the slot request is cancelled';
const COMPLETED = 'This link no longer allows changes: the slot request is completed';

describe('the queue’s limits on laytimes, pushes and form links (fleet)', () => {
  let fleet: QueueFleet;
  let system: RunningSystem;
  let slot: QueueFleet['slot'];
  let smtp: SmtpServerForTest;
  let db: Awaited<ReturnType<typeof openDb>>;
  let admin: ApiClient;
  let agent: ApiClient;
  let anonymous: ApiClient;
  let consigneeId: number;
  let a: number;
  let offerToken: string;

  beforeAll(async () => {
    fleet = await startQueueFleet();
    ({ system, smtp, admin, agent, anonymous, slot } = fleet);
    db = await openDb({ url: system.env.DATABASE_URL, poolSize: 1 });
    const consignee = await admin.post('/users', {
      email: `carla-${Date.now()}@cargo.example`,
      first_name: 'Carla',
      last_name: 'Consignee',
      role: 'consignee',
    });
    ok(consignee);
    consigneeId = consignee.body.id;
  }, 180_000);

  afterAll(async () => {
    await db?.close();
    await fleet?.stop();
  });

  const queueEvents = async () =>
    (
      await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM eventstore.events
          WHERE stream_id LIKE 'slotrequest-%' OR stream_id LIKE 'berth-%' OR stream_id LIKE 'nomination-%'`,
      )
    ).rows[0].n;
  /** The refusal answers `status {"error": error}` and the queue's streams hold as many events after it as before. */
  async function refusedStoringNothing(
    request: () => Promise<{ status: number; body: unknown }>,
    status: number,
    error: string,
  ): Promise<void> {
    const before = await queueEvents();
    const answer = await request();
    expect(answer, JSON.stringify(answer.body)).toMatchObject({ status, body: { error } });
    expect(await queueEvents()).toBe(before);
  }
  const berth = async (code: string) => {
    ok(await admin.post('/berths', { code, name: `Quay ${code}`, nominatable: true }));
    return ((await admin.get('/berths', { search: code })).body.data as any[]).find((b) => b.code === code)
      .id as number;
  };
  const nominate = async (n: number, berthId: number, start: number, end: number) =>
    ok(
      await admin.post('/nomination-for-consignee', {
        consignee_user_id: consigneeId,
        company_name: 'Cargo Oy',
        email: 'consignee@cargo.example',
        imo: n,
        vessel_name: `Vessel ${n}`,
        window_start: iso(start),
        window_end: iso(end),
        berth_ids: [berthId],
      }),
    );
  const request = (n: number, email: string, laytime: string, eta: number) => ({
    email,
    imo: n,
    vessel_name: `Vessel ${n}`,
    loa: '100',
    beam: '18',
    draft: '6',
    laytime,
    eta: iso(eta),
  });
  const idOf = async (n: number) =>
    ((await admin.get('/slot-reservations', { limit: 100, sort: 'id' })).body.data as any[]).find((s) => s.imo === n)
      .id as number;

  it('a laytime longer than the longest one is refused on every way in: API key, the port, the form, updates', async () => {
    const b1 = await berth('L1');
    await nominate(IMO_A, b1, W0, W0 + 5 * DAY);
    const tooLong = 'Given laytime is longer than maximum laytime: 72:00';
    await refusedStoringNothing(
      () => agent.post('/agent/rest/slot-reservations', request(IMO_A, MASTER_A, '72:01', W0 + HOUR)),
      400,
      tooLong,
    );
    await refusedStoringNothing(
      () => admin.post('/slot-reservations', request(IMO_A, MASTER_A, 'PT73H', W0 + HOUR)),
      400,
      'Given laytime is longer than maximum laytime: PT72H',
    );
    // 72 hours is still taken.
    ok(await agent.post('/agent/rest/slot-reservations', request(IMO_A, MASTER_A, '72:00', W0 + HOUR)));
    a = await idOf(IMO_A);
    const offered = await slot(a);
    expect(offered).toMatchObject({ slot_reservation_status: 'offered', laytime: '72:00' });
    offerToken = etaFormToken(
      await smtp.waitForMail((m) => m.to.includes(MASTER_A) && m.subject === `Slot request #${a} offer`),
    );
    const jitEta = iso(Date.parse(offered.rta_window_start.replace(' ', 'T').replace(/\+00$/, 'Z')) + 5 * MIN);
    await refusedStoringNothing(
      () => agent.put('/agent/rest/slot-reservations', { id: a, laytime: '100:00', jit_eta: jitEta }),
      400,
      'Given laytime is longer than maximum laytime: 72:00',
    );
    await refusedStoringNothing(
      () => admin.put('/slot-reservations', { id: a, laytime: 'P4D', jit_eta: jitEta }),
      400,
      'Given laytime is longer than maximum laytime: PT72H',
    );
    await refusedStoringNothing(
      () =>
        anonymous.put('/agent/rest/eta-form/slot-reservations', {
          token: offerToken,
          laytime: '73:00',
          jit_eta: jitEta,
        }),
      400,
      tooLong,
    );
    // The bound is the setting's: lowered, a shorter laytime is refused too (and the setting put back).
    ok(await admin.put('/settings/queue_max_laytime_duration/PT1H'));
    await refusedStoringNothing(
      () => agent.put('/agent/rest/slot-reservations', { id: a, laytime: '02:00', jit_eta: jitEta }),
      400,
      'Given laytime is longer than maximum laytime: 01:00',
    );
    ok(await admin.put('/settings/queue_max_laytime_duration/PT72H'));
    expect(await slot(a)).toMatchObject({ slot_reservation_status: 'offered', laytime: '72:00' });
  });

  it('a push forward that would move another vessel past its nomination window is refused; a shorter one pushes', async () => {
    const b2 = await berth('L2');
    await nominate(IMO_X, b2, W0, W0 + 12 * HOUR);
    // Y's window ends at W0+6h.
    await nominate(IMO_Y, b2, W0, W0 + 6 * HOUR);
    // X: ETA W0+1h, laytime 1 h → berth [W0+1h30, W0+3h30] (+ 30 min buffer and 30 min RTA window).
    ok(await agent.post('/agent/rest/slot-reservations', request(IMO_X, 'master@xray.example', '01:00', W0 + HOUR)));
    // Y: ETA W0+3h, laytime 1 h → the first free start a minute after X: berth [W0+3h31, W0+5h31].
    ok(
      await agent.post(
        '/agent/rest/slot-reservations',
        request(IMO_Y, 'master@yankee.example', '01:00', W0 + 3 * HOUR),
      ),
    );
    const [x, y] = [await idOf(IMO_X), await idOf(IMO_Y)];
    expect(await slot(y)).toMatchObject({ slot_reservation_status: 'offered' });
    const yBefore = await slot(y);
    const jitEta = iso(W0 + HOUR + 10 * MIN);
    // X's laytime 1h45 asks 45 min more than the gap: Y would end at W0+6h16, after its window end.
    await refusedStoringNothing(
      () => agent.put('/agent/rest/slot-reservations', { id: x, laytime: '01:45', jit_eta: jitEta }),
      400,
      'Given laytime not possible: 01:45 (it would push another vessel beyond its nomination window; the port can move it by hand)',
    );
    await refusedStoringNothing(
      () => admin.put('/slot-reservations', { id: x, laytime: 'PT1H45M', jit_eta: jitEta }),
      400,
      `Given laytime not possible: PT1H45M (it would push slot reservation ${y} beyond its nomination window; move or cancel it first)`,
    );
    expect(await slot(y)).toEqual(yBefore);
    // 1h20 asks 20 min more: Y ends at W0+5h51, inside its window, and is pushed.
    ok(await agent.put('/agent/rest/slot-reservations', { id: x, laytime: '01:20', jit_eta: jitEta }));
    const yAfter = await slot(y);
    expect(yAfter.slot_reservation_status).toBe('updated');
    expect(Date.parse(yAfter.rta_window_start.replace(' ', 'T').replace(/\+00$/, 'Z'))).toBe(W0 + 3 * HOUR + 21 * MIN);
  });

  it('a form link superseded by a newer mail’s shows the request and changes nothing; so does a cancelled one’s', async () => {
    // The offer's link names its kind and has an id.
    const claims = JSON.parse(Buffer.from(offerToken.split('.')[1], 'base64url').toString('utf8'));
    expect(claims).toMatchObject({ aud: 'pcas:jit-eta-form', jti: expect.any(String), data: { slot_request_id: a } });
    const rtaStart = Date.parse((await slot(a)).rta_window_start.replace(' ', 'T').replace(/\+00$/, 'Z'));
    ok(
      await anonymous.put('/agent/rest/eta-form/slot-reservations', {
        token: offerToken,
        laytime: '72:00',
        jit_eta: iso(rtaStart + 5 * MIN),
      }),
    );
    const confirmation = await smtp.waitForMail(
      (m) => m.to.includes(MASTER_A) && m.subject === `Slot request #${a} confirmation`,
    );
    const newest = etaFormToken(confirmation);
    expect(newest).not.toBe(offerToken);
    expect((await anonymous.get('/agent/rest/eta-form/slot-reservation', { token: offerToken })).body).toMatchObject({
      id: a,
      slot_reservation_status: 'accepted',
      link_read_only: SUPERSEDED,
    });
    const change = (token: string) =>
      anonymous.put('/agent/rest/eta-form/slot-reservations', {
        token,
        laytime: '71:00',
        jit_eta: iso(rtaStart + 10 * MIN),
      });
    const cancel = (token: string) => anonymous.delete('/agent/rest/eta-form/slot-reservations', { token });
    await refusedStoringNothing(() => change(offerToken), 403, SUPERSEDED);
    await refusedStoringNothing(() => cancel(offerToken), 403, SUPERSEDED);
    expect(await slot(a)).toMatchObject({ slot_reservation_status: 'accepted', laytime: '72:00' });

    // The newest link changes it; cancelled, even that link (and the cancellation mail's) only shows it.
    ok(await cancel(newest));
    const cancelled = await smtp.waitForMail(
      (m) => m.to.includes(MASTER_A) && m.subject === `Slot request #${a} cancellation confirmation`,
    );
    const last = etaFormToken(cancelled);
    expect((await anonymous.get('/agent/rest/eta-form/slot-reservation', { token: last })).body).toMatchObject({
      id: a,
      slot_reservation_status: 'cancelled_by_vessel',
      link_read_only: CANCELLED,
    });
    await refusedStoringNothing(() => change(last), 403, CANCELLED);
    await refusedStoringNothing(() => cancel(last), 403, CANCELLED);
    await refusedStoringNothing(() => cancel(newest), 403, CANCELLED);
  });

  it('a completed request’s link shows it and changes nothing', async () => {
    const b3 = await berth('L3');
    // A vessel whose slot is already over: ETA 3 hours ago, laytime 10 minutes (due 1h40 after its RTA start).
    const yesterday = Math.floor(Date.now() / DAY) * DAY - DAY;
    await nominate(IMO_C, b3, yesterday, Date.now() + 12 * HOUR);
    const eta = Math.floor(Date.now() / 1000) * 1000 - 3 * HOUR;
    ok(await agent.post('/agent/rest/slot-reservations', request(IMO_C, 'master@charlie.example', '00:10', eta)));
    const c = await idOf(IMO_C);
    const token = etaFormToken(
      await smtp.waitForMail(
        (m) => m.to.includes('master@charlie.example') && m.subject === `Slot request #${c} offer`,
      ),
    );
    // The completion job records it at once (its time has passed); waited for, so the count below is steady.
    const completed = async () =>
      (
        await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM eventstore.events WHERE stream_id = $1 AND event_type = 'SlotRequestCompleted'`,
          [`slotrequest-${c}`],
        )
      ).rows[0].n;
    await expect.poll(completed, { timeout: 30_000 }).toBe(1);
    expect((await anonymous.get('/agent/rest/eta-form/slot-reservation', { token })).body).toMatchObject({
      id: c,
      slot_reservation_status: 'completed',
      link_read_only: COMPLETED,
    });
    await refusedStoringNothing(
      () =>
        anonymous.put('/agent/rest/eta-form/slot-reservations', { token, laytime: '00:10', jit_eta: iso(eta + HOUR) }),
      403,
      COMPLETED,
    );
    await refusedStoringNothing(
      () => anonymous.delete('/agent/rest/eta-form/slot-reservations', { token }),
      403,
      COMPLETED,
    );
  });
});
