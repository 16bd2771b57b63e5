// The vessel's JIT ETA form in a browser, against `pnpm start` (embedded) with its mail going to an SMTP server the
// test starts: a slot request is offered, the link is taken from the captured offer mail and opened at a phone's
// width without signing in, the JIT ETA sent, the slot request accepted (on the page and over the API); the offer's
// link then only shows the request (the confirmation mail's link is the newest) and the confirmation's link opens the
// form again; a forged link shows the clear page; axe on both.

import { ApiClient, type SmtpServerForTest, startSmtpServer } from '@pcas/testing';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { HOUR, iso, vesselSlotRequest, W0 } from '../queue-fleet.ts';
import { addUser, CONSIGNEE, startEmbeddedWithAdmin } from '../timestamps.ts';
import { browserSuite, chromiumAvailable, seriousAccessibilityFindings, WAIT } from './browser.ts';

const IMO = 9520027;
const MASTER = 'master@victor.example';

describe.skipIf(!chromiumAvailable)('the JIT ETA form in the web UI', () => {
  let smtp: SmtpServerForTest;
  let link: string;
  let slotId: number;

  // Registered first, so it runs last: the mail server outlives the service that sends to it.
  afterAll(async () => {
    await smtp?.close();
  });

  const ui = browserSuite({
    start: async () => {
      smtp = await startSmtpServer();
      return startEmbeddedWithAdmin({ SMTP_URL: smtp.url });
    },
    prepare,
    // Opened without signing in: the vessel's master has no account.
    page: { phone: true },
    signIn: false,
    timeoutMs: 180_000,
  });

  async function prepare() {
    const key = await ui.admin.post('/api-keys', { name: 'ETA form agent' });
    const agent = new ApiClient(ui.system.baseUrl).withApiKey(key.body.key);
    const ok = (res: { status: number; body: unknown }) => expect(res.status, JSON.stringify(res.body)).toBe(200);
    ok(await ui.admin.post('/berths', { code: 'B1', name: 'North quay', nominatable: true }));
    const berth = (await ui.admin.get('/berths')).body.data[0].id;
    const consignee = await addUser(ui.admin, CONSIGNEE);
    ok(
      await ui.admin.post('/nomination-for-consignee', {
        consignee_user_id: consignee.id,
        company_name: 'Cargo Oy',
        email: CONSIGNEE.email,
        imo: IMO,
        vessel_name: 'Victor',
        window_start: iso(W0),
        window_end: iso(W0 + 12 * HOUR),
        berth_ids: [berth],
      }),
    );
    ok(await agent.post('/agent/rest/slot-reservations', vesselSlotRequest({ email: MASTER, imo: IMO })));
    slotId = (await ui.admin.get('/slot-reservations')).body.data[0].id;
    // The offer is mailed after the answer, beside any other mail: the one to the master is waited for.
    const offer = await vi.waitFor(
      () => {
        const found = smtp.messages.find((m) => m.to.includes(MASTER));
        if (!found) throw new Error(`no mail to ${MASTER} yet (${smtp.messages.length} others)`);
        return found;
      },
      { ...WAIT, interval: 100 },
    );
    expect(offer.subject).toBe(`Slot request #${slotId} offer`);
    // The mail names the service at BASE_URL (the environment may point it elsewhere): its path and token are
    // opened on the system under test.
    const mailed = new URL(/(http\S+\/agent\/eta-form\/\?token=[\w.-]+)/.exec(offer.text)![1]);
    link = `${ui.system.baseUrl}${mailed.pathname}${mailed.search}`;
  }

  it('opens the link from the offer mail on a phone, sends the JIT ETA, and the slot request is accepted', async () => {
    await ui.page.goto(link);
    await ui.page.getByText('Offered', { exact: true }).waitFor(WAIT);
    await expect(ui.page.getByText('Victor (IMO 9520027)').isVisible()).resolves.toBe(true);
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);
    // No sideways scrolling at a phone's width.
    expect(await ui.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await ui.page.getByRole('button', { name: 'Send JIT ETA' }).click();
    await ui.page.getByText('Your JIT ETA has been sent to the port.').waitFor(WAIT);
    await ui.page.getByText('Accepted', { exact: true }).waitFor(WAIT);
    const slot = (await ui.admin.get('/slot-reservation-by-id', { id: slotId })).body;
    expect(slot.slot_reservation_status).toBe('accepted');
    const confirmation = await vi.waitFor(
      () => {
        const found = smtp.messages.find((m) => m.subject === `Slot request #${slotId} confirmation`);
        if (!found) throw new Error('no confirmation mail yet');
        return found;
      },
      { ...WAIT, interval: 100 },
    );
    // The offer's link, opened again, only shows the request now.
    await ui.page.goto(link);
    await ui.page
      .getByText('This link has been replaced by a newer one; use the link in the latest e-mail')
      .waitFor(WAIT);
    expect(await ui.page.getByRole('button', { name: /JIT ETA/ }).count()).toBe(0);
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);
    const newest = new URL(/(http\S+\/agent\/eta-form\/\?token=[\w.-]+)/.exec(confirmation.text)![1]);
    await ui.page.goto(`${ui.system.baseUrl}${newest.pathname}${newest.search}`);
    await ui.page.getByRole('button', { name: 'Update JIT ETA' }).waitFor(WAIT);
    expect(ui.problems).toEqual([]);
  });

  it('a forged link gets the clear page, and nothing else', async () => {
    const forged = link.replace(/.{6}$/, 'AAAAAA');
    await ui.page.goto(forged);
    await ui.page.getByText('This link is not valid').waitFor(WAIT);
    expect(await ui.page.getByRole('button', { name: /JIT ETA/ }).count()).toBe(0);
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);
  });
});
