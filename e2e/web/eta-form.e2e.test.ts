// The vessel's JIT ETA form in a browser, against `pnpm start` (embedded) with its mail going to an SMTP server the
// test starts: a slot request is offered, the link is taken from the captured offer mail and opened at a phone's
// width without signing in, the JIT ETA sent, the slot request accepted (on the page and over the API); the offer's
// link then only shows the request (the confirmation mail's link is the newest) and the confirmation's link opens the
// form again; a forged link shows the clear page; axe on both.

import { ApiClient, type RunningSystem, type SmtpServerForTest, startEmbedded, startSmtpServer } from '@pcas/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN } from '../timestamps.ts';
import { chromiumAvailable, launchBrowser, newPage, seriousAccessibilityFindings } from './browser.ts';

// Generous: the page, the service and the browser share a machine that may be small and busy.
const WAIT = { timeout: 30_000 };
const HOUR = 3_600_000;
const W0 = Math.ceil(Date.now() / (24 * HOUR)) * 24 * HOUR + 24 * HOUR;
const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
const IMO = 9520027;
const MASTER = 'master@victor.example';

describe.skipIf(!chromiumAvailable)('the JIT ETA form in the web UI', () => {
  let system: RunningSystem;
  let smtp: SmtpServerForTest;
  let browser: Browser;
  let admin: ApiClient;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let link: string;
  let slotId: number;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    [system, browser] = await Promise.all([
      startEmbedded({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, SMTP_URL: smtp.url }),
      launchBrowser(),
    ]);
    const api = new ApiClient(system.baseUrl);
    admin = await api.login(ADMIN.email, ADMIN.password);
    const key = await admin.post('/api-keys', { name: 'ETA form agent' });
    const agent = api.withApiKey(key.body.key);
    const ok = (res: { status: number; body: unknown }) => expect(res.status, JSON.stringify(res.body)).toBe(200);
    ok(await admin.post('/berths', { code: 'B1', name: 'North quay', nominatable: true }));
    const berth = (await admin.get('/berths')).body.data[0].id;
    const consignee = await admin.post('/users', {
      email: 'carla@cargo.example',
      first_name: 'Carla',
      last_name: 'Consignee',
      role: 'consignee',
    });
    ok(consignee);
    ok(
      await admin.post('/nomination-for-consignee', {
        consignee_user_id: consignee.body.id,
        company_name: 'Cargo Oy',
        email: 'carla@cargo.example',
        imo: IMO,
        vessel_name: 'Victor',
        window_start: iso(W0),
        window_end: iso(W0 + 12 * HOUR),
        berth_ids: [berth],
      }),
    );
    ok(
      await agent.post('/agent/rest/slot-reservations', {
        email: MASTER,
        imo: IMO,
        vessel_name: 'Victor',
        loa: '120.5',
        beam: '20',
        draft: '7.5',
        laytime: '02:00',
        eta: iso(W0 + 3 * HOUR),
      }),
    );
    slotId = (await admin.get('/slot-reservations')).body.data[0].id;
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
    link = `${system.baseUrl}${mailed.pathname}${mailed.search}`;
    ({ context, page, problems } = await newPage(browser, { phone: true }));
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await system?.stop();
    await smtp?.close();
  });

  it('opens the link from the offer mail on a phone, sends the JIT ETA, and the slot request is accepted', async () => {
    await page.goto(link);
    await page.getByText('Offered', { exact: true }).waitFor(WAIT);
    await expect(page.getByText('Victor (IMO 9520027)').isVisible()).resolves.toBe(true);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    // No sideways scrolling at a phone's width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.getByRole('button', { name: 'Send JIT ETA' }).click();
    await page.getByText('Your JIT ETA has been sent to the port.').waitFor(WAIT);
    await page.getByText('Accepted', { exact: true }).waitFor(WAIT);
    const slot = (await admin.get('/slot-reservation-by-id', { id: slotId })).body;
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
    await page.goto(link);
    await page.getByText('This link has been replaced by a newer one; use the link in the latest e-mail').waitFor(WAIT);
    expect(await page.getByRole('button', { name: /JIT ETA/ }).count()).toBe(0);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    const newest = new URL(/(http\S+\/agent\/eta-form\/\?token=[\w.-]+)/.exec(confirmation.text)![1]);
    await page.goto(`${system.baseUrl}${newest.pathname}${newest.search}`);
    await page.getByRole('button', { name: 'Update JIT ETA' }).waitFor(WAIT);
    expect(problems).toEqual([]);
  });

  it('a forged link gets the clear page, and nothing else', async () => {
    const forged = link.replace(/.{6}$/, 'AAAAAA');
    await page.goto(forged);
    await page.getByText('This link is not valid').waitFor(WAIT);
    expect(await page.getByRole('button', { name: /JIT ETA/ }).count()).toBe(0);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
  });
});
