// Issue 15's flow end to end, black-box over HTTP on the fleet (separate processes, PostgreSQL, RabbitMQ, Redis),
// with every mail captured by an SMTP server the test starts: a nomination, the vessel's slot request offered on
// the RTA window computed here by hand, the offer mail's link opening the JIT ETA form (a forged one refused), the
// JIT ETA sent through the form's token route (accepted, the timestamps on the port call), a longer laytime before
// a port block pushing the block and the vessel forward (updated with the shifted RTA, the berth block mail), a
// late live ETA (orange, then red after the delay with one alert mail), the vessel's cancellation through the form
// with the newest mail's link (the older links only show the request now; the nomination open again, the generated
// timestamps gone), and the RTA web form: its refusal, its mail, its link's claims, the port call's RTA. The
// refusals of links and laytimes, each storing nothing: queue-limits.e2e.test.ts.

import {
  type ApiClient,
  pollUntil,
  type ReceivedMail,
  type RunningSystem,
  type SmtpServerForTest,
} from '@pcas/testing';
import { imoWithCheckDigit } from '@pcas/values';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  etaFormToken,
  HOUR,
  iso,
  MIN,
  ok,
  pg,
  type QueueFleet,
  startQueueFleet,
  vesselSlotRequest,
  W0,
} from './queue-fleet.ts';
import { ADMIN, allowEstimatedArrivals } from './timestamps.ts';

/** A valid IMO from six digits (the check digit appended). */
const imo = imoWithCheckDigit;
const IMO_X = imo(952_001);
const IMO_V = imo(952_002);
const MASTER = 'master@victor.example';
const OPS = 'ops@port.example';
const CONSIGNEE = 'consignee@cargo.example';

describe('JIT arrival flow with its e-mails and forms (fleet)', () => {
  let fleet: QueueFleet;
  let system: RunningSystem;
  let slot: QueueFleet['slot'];
  let smtp: SmtpServerForTest;
  let admin: ApiClient;
  let agent: ApiClient;
  let anonymous: ApiClient;
  let berth: number;
  let x: number;
  let v: number;
  let token: string;
  /** The link of the newest mail to Victor's master (each mail's link supersedes the ones before). */
  let newestToken: string;
  let apiKeyId: number;

  beforeAll(async () => {
    fleet = await startQueueFleet({ PORT_DEFAULT_TIME_ZONE: 'Europe/Helsinki' });
    ({ system, smtp, admin, agent, anonymous, apiKeyId, slot } = fleet);
  }, 180_000);

  afterAll(() => fleet?.stop());
  const count = (match: (m: ReceivedMail) => boolean) => smtp.messages.filter(match).length;

  it('a nomination, then the slot request offered on the hand-computed RTA window, with a link that works', async () => {
    ok(await admin.put(`/settings/port_operator_emails/${OPS}`));
    ok(await admin.put('/settings/queue_live_eta_alert_delay_duration/PT3S'));
    ok(await admin.post('/berths', { code: 'B1', name: 'North quay', nominatable: true }));
    berth = (await admin.get('/berths')).body.data[0].id;
    // A consignee's nominations for both vessels, made by the port.
    const created = await admin.post('/users', {
      email: `carla-${Date.now()}@cargo.example`,
      first_name: 'Carla',
      last_name: 'Consignee',
      role: 'consignee',
    });
    ok(created);
    for (const [n, name] of [
      [IMO_X, 'Xray'],
      [IMO_V, 'Victor'],
    ] as const) {
      ok(
        await admin.post('/nomination-for-consignee', {
          consignee_user_id: created.body.id,
          company_name: 'Cargo Oy',
          email: CONSIGNEE,
          imo: n,
          vessel_name: name,
          window_start: iso(W0),
          window_end: iso(W0 + 12 * HOUR),
          berth_ids: [berth],
        }),
      );
    }
    // Xray: ETA W0+1h, laytime 1 h → berth [W0+1h30, W0+3h30] (laytime + 30 min buffer + 30 min RTA window).
    ok(
      await agent.post('/agent/rest/slot-reservations', {
        email: 'master@xray.example',
        imo: IMO_X,
        vessel_name: 'Xray',
        loa: '100',
        beam: '18',
        draft: '6',
        laytime: '01:00',
        eta: iso(W0 + HOUR),
      }),
    );
    ok(
      await admin.post('/berth-reservations', {
        berth_id: berth,
        berth_reservation_type: 'port_blocked',
        reservation_start: iso(W0 + 3 * HOUR + 35 * MIN),
        reservation_end: iso(W0 + 4 * HOUR),
      }),
    );
    // Victor: ETA W0+3h, laytime 2 h, needs 3 h at the berth from W0+3h30. Xray ends W0+3h30, the block takes
    // [3h35, 4h], so the first free start is a minute after the block: W0+4h01; the RTA window is 30 min of
    // travel before it: [W0+3h31, W0+4h01].
    ok(await agent.post('/agent/rest/slot-reservations', vesselSlotRequest({ email: MASTER, imo: IMO_V })));
    const all = (await admin.get('/slot-reservations', { sort: 'id' })).body.data as any[];
    x = all.find((s) => s.imo === IMO_X).id;
    v = all.find((s) => s.imo === IMO_V).id;
    expect(await slot(v)).toMatchObject({
      slot_reservation_status: 'offered',
      rta_window_start: pg(W0 + 3 * HOUR + 31 * MIN),
      rta_window_end: pg(W0 + 4 * HOUR + MIN),
    });

    const offer = await smtp.waitForMail((m) => m.to.includes(MASTER) && m.subject === `Slot request #${v} offer`);
    expect(offer.text).toContain('Please send your JIT ETA to outer port area based on RTA window given by port.');
    expect(offer.html).toContain('<a href=');
    const link = /(http\S+\/agent\/eta-form\/\?token=([\w.-]+))/.exec(offer.text);
    expect(link, offer.text).not.toBeNull();
    token = link![2];
    expect(offer.text).toMatch(/This link is valid until: \d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[23]:00/);

    // The link is a page for a browser, and the form's API answers JSON for its token.
    const page = await fetch(`${system.baseUrl}/agent/eta-form/?token=${token}`, { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const viewed = await anonymous.get('/agent/rest/eta-form/slot-reservation', { token });
    expect(viewed.status, JSON.stringify(viewed.body)).toBe(200);
    expect(viewed.body).toMatchObject({ id: v, slot_reservation_status: 'offered', laytime: '02:00', imo: IMO_V });
    const forged = `${token.slice(0, -4)}AAAA`;
    expect(await anonymous.get('/agent/rest/eta-form/slot-reservation', { token: forged })).toMatchObject({
      status: 403,
      body: { error: 'This link is not valid' },
    });
    expect(
      await anonymous.put('/agent/rest/eta-form/slot-reservations', {
        token: forged,
        laytime: '02:00',
        jit_eta: iso(W0 + 3 * HOUR + 40 * MIN),
      }),
    ).toMatchObject({ status: 403, body: { error: 'This link is not valid' } });
  });

  it('the JIT ETA through the form: accepted, confirmed by mail, the timestamps on the port call', async () => {
    ok(
      await anonymous.put('/agent/rest/eta-form/slot-reservations', {
        token,
        laytime: '02:00',
        jit_eta: iso(W0 + 3 * HOUR + 40 * MIN),
      }),
    );
    expect(await slot(v)).toMatchObject({ slot_reservation_status: 'accepted', jit_eta: pg(W0 + 3 * HOUR + 40 * MIN) });
    const confirmation = await smtp.waitForMail(
      (m) => m.to.includes(MASTER) && m.subject === `Slot request #${v} confirmation`,
    );
    // The confirmation's link is the newest now: the offer's only shows the request.
    expect(etaFormToken(confirmation)).not.toBe(token);
    expect((await anonymous.get('/agent/rest/eta-form/slot-reservation', { token })).body).toMatchObject({
      id: v,
      slot_reservation_status: 'accepted',
      link_read_only: 'This link has been replaced by a newer one; use the link in the latest e-mail',
    });
    expect(
      (await anonymous.get('/agent/rest/eta-form/slot-reservation', { token: etaFormToken(confirmation) })).body,
    ).toMatchObject({ id: v, link_read_only: null });
    const rows = await pollUntil(
      async () => (await admin.get('/timestamps', { imo: IMO_V, limit: 100 })).body.data as any[],
      (r) => r.some((t) => t.time_type === 'Planned'),
    );
    expect(rows.map((t) => `${t.time_type} ${t.state}`)).toEqual(
      expect.arrayContaining(['Recommended Arrival_Vessel_PortArea', 'Planned Arrival_Vessel_PortArea']),
    );
  });

  it('a longer laytime before the port block pushes it and the vessel forward: updated, and the berth block mail', async () => {
    const before = await slot(v);
    ok(await admin.put('/slot-reservations', { id: x, laytime: 'PT2H', jit_eta: iso(W0 + HOUR + 10 * MIN) }));
    const after = await slot(v);
    expect(after.slot_reservation_status).toBe('updated');
    expect(Date.parse(after.rta_window_start)).toBeGreaterThan(Date.parse(before.rta_window_start));
    const moved = await smtp.waitForMail((m) => m.to.includes(OPS) && /^Berth B1 block #\d+ shifted$/.test(m.subject));
    expect(moved.text).toContain('has been shifted due to laytime change');
    newestToken = etaFormToken(
      await smtp.waitForMail((m) => m.to.includes(MASTER) && m.subject === `Slot request #${v} updated by port`),
    );
  });

  it('a late live ETA: orange, red after the delay, one alert mail', async () => {
    const jit = Date.parse((await slot(v)).jit_eta);
    ok(await agent.post('/agent/rest/live-eta', { imo: IMO_V, time: iso(jit + 2 * HOUR), payload: { source: 'ais' } }));
    const orange = await pollUntil(
      () => slot(v),
      (s) => s.jit_eta_alert_state !== 'green',
    );
    expect(['orange', 'red']).toContain(orange.jit_eta_alert_state);
    const red = await pollUntil(
      () => slot(v),
      (s) => s.jit_eta_alert_state === 'red',
    );
    expect(red.jit_eta_alert_state).toBe('red');
    // The live ETA is on the port call's timeline too, as Live Estimated (the port call projection applies it
    // apart from the queue's alert: waited for).
    const call = (
      (await admin.get('/port-calls', { limit: 10, offset: 0, sort: 'id', search: String(IMO_V) })).body.data as any[]
    )[0];
    const liveEstimated = async () =>
      ((await admin.get('/port-call', { id: call.id })).body.timestamps as any[]).find(
        (t) => t.time_type === 'LiveEstimated',
      );
    await expect.poll(liveEstimated, { timeout: 30_000 }).toMatchObject({ time: iso(jit + 2 * HOUR) });
    const alert = await smtp.waitForMail((m) => m.subject === 'Live ETA alert for Victor');
    expect(alert.to.sort()).toEqual([CONSIGNEE, OPS].sort());
    expect(alert.text).toContain(`Ship Victor (IMO: ${IMO_V}) JIT ETA differs from Live ETA`);
    // Still late: red stays red and nobody is mailed again.
    ok(await agent.post('/agent/rest/live-eta', { imo: IMO_V, time: iso(jit + 3 * HOUR), payload: {} }));
    await expect.poll(liveEstimated, { timeout: 30_000 }).toMatchObject({ time: iso(jit + 3 * HOUR) });
    expect((await slot(v)).jit_eta_alert_state).toBe('red');
    // Barrier: an on-time live ETA after it, on the same ordered path (the queue's live-ETA projection), turns the
    // state green; once it has, the late one before it has been evaluated (and any mail it made recorded).
    ok(await agent.post('/agent/rest/live-eta', { imo: IMO_V, time: iso(jit), payload: {} }));
    await expect.poll(async () => (await slot(v)).jit_eta_alert_state, { timeout: 30_000 }).toBe('green');
    // A recorded mail is delivered just after its commit: a moment for it to arrive, were there one.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(count((m) => m.subject === 'Live ETA alert for Victor')).toBe(1);
    expect(await anonymous.post('/agent/rest/live-eta', { imo: IMO_V, time: iso(jit), payload: {} })).toMatchObject({
      status: 403,
    });
    expect(await agent.post('/agent/rest/live-eta', { imo: imo(952_009), time: iso(jit), payload: {} })).toEqual(
      expect.objectContaining({ status: 400, body: { error: `Cannot set live eta for imo: ${imo(952_009)}` } }),
    );
  });

  it('cancelled through the newest link: confirmed by mail, the nomination open again, the generated timestamps gone', async () => {
    expect(await anonymous.delete('/agent/rest/eta-form/slot-reservations', { token })).toMatchObject({
      status: 403,
      body: { error: 'This link has been replaced by a newer one; use the link in the latest e-mail' },
    });
    expect((await slot(v)).slot_reservation_status).toBe('updated');
    ok(await anonymous.delete('/agent/rest/eta-form/slot-reservations', { token: newestToken }));
    expect((await slot(v)).slot_reservation_status).toBe('cancelled_by_vessel');
    const cancelled = await smtp.waitForMail(
      (m) => m.to.includes(MASTER) && m.subject === `Slot request #${v} cancellation confirmation`,
    );
    // Its link shows the cancelled request and changes nothing.
    expect(
      (await anonymous.get('/agent/rest/eta-form/slot-reservation', { token: etaFormToken(cancelled) })).body,
    ).toMatchObject({
      slot_reservation_status: 'cancelled_by_vessel',
      link_read_only: 'This link no longer allows changes: the slot request is cancelled',
    });
    const nomination = (await admin.get('/nominations', { search: String(IMO_V) })).body.data[0];
    expect(nomination.nomination_status).toBe('open');
    // Removed: in the trash, so off the port call's timeline.
    const generated = (rows: any[]) => rows.filter((t) => String(t.payload).includes('jit_eta_form'));
    const rows = await pollUntil(
      async () => (await admin.get('/timestamps', { imo: IMO_V, limit: 100 })).body.data as any[],
      (r) => generated(r).every((t) => t.is_trash === 't'),
    );
    expect(generated(rows).length).toBeGreaterThan(0);
    expect(generated(rows).filter((t) => t.is_trash !== 't')).toEqual([]);
  });

  it('the RTA web form: refused without the port call’s e-mail; else the RTA stored and the link mailed', async () => {
    await allowEstimatedArrivals(admin, apiKeyId);
    const IMO_R = imo(952_003);
    const IMO_Q = imo(952_004);
    const arrival = (n: number, payload: Record<string, unknown>) =>
      agent.post('/agent/rest/timestamps', {
        imo: n,
        vessel_name: n === IMO_R ? 'Romeo' : 'Quebec',
        time_type: 'Estimated',
        state: 'Arrival_Vessel_PortArea',
        time: iso(W0 + 20 * HOUR),
        payload: { berth: 'B1', vessel_loa: 99, vessel_beam: 15, vessel_draft: 5, ...payload },
      });
    const portCallOf = async (n: number) =>
      ((await admin.get('/port-calls', { limit: 10, offset: 0, sort: 'id', search: String(n) })).body.data as any[])[0];
    ok(await arrival(IMO_R, { email: 'master@romeo.example' }));
    ok(await arrival(IMO_Q, {}));
    const portCall = await pollUntil(
      () => portCallOf(IMO_R),
      (p) => p !== undefined,
    );
    await pollUntil(
      () => portCallOf(IMO_Q),
      (p) => p !== undefined,
    );
    const form = (n: number) => ({
      port_call_id: n === IMO_R ? portCall.id : undefined,
      port: 'Gävle',
      imo: n,
      rta: iso(W0 + 20 * HOUR),
      eta_min: iso(W0 + 19 * HOUR + 30 * MIN),
      eta_max: iso(W0 + 20 * HOUR + 30 * MIN),
      payload: { email: ADMIN.email },
    });
    expect(await admin.post('/rta-web-form', form(IMO_Q))).toMatchObject({
      status: 400,
      body: { error: `Arriving status port call for given IMO ${IMO_Q} does not have required value eta_form_email` },
    });
    expect(await anonymous.post('/rta-web-form', form(IMO_R))).toMatchObject({ status: 403 });

    ok(await admin.post('/rta-web-form', form(IMO_R)));
    const sent = await smtp.waitForMail((m) => m.to.includes('master@romeo.example'));
    expect(sent.subject).toBe('Port Activity App / Link to RTA form');
    const rtaToken = /\/agent\/eta-form\/rta\/\?token=([\w.-]+)/.exec(sent.text)![1];
    expect((await anonymous.get('/agent/rest/eta-form/rta', { token: rtaToken })).body).toMatchObject({
      port: 'Gävle',
      imo: IMO_R,
      vessel_name: 'Romeo',
      rta: iso(W0 + 20 * HOUR),
      eta_min: iso(W0 + 19 * HOUR + 30 * MIN),
      berth: 'B1',
    });
    const stored = await pollUntil(
      () => portCallOf(IMO_R),
      (p) => Boolean(p?.rta),
    );
    expect(stored.rta).toBe(pg(W0 + 20 * HOUR));
    const slots = (await admin.get('/port-call', { id: stored.id })).body.timestamps as any[];
    expect(slots.find((t) => t.time_type === 'Recommended')).toMatchObject({ time: iso(W0 + 20 * HOUR) });
    // Nothing was mailed for the refused one.
    expect(count((m) => m.subject === 'Port Activity App / Link to RTA form')).toBe(1);
  });
});
