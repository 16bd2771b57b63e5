// STM / VIS in a browser, against `pnpm start` (embedded, direct mode): the VIS agent's posts (a VIS vessel, a
// text message, a voyage plan, an inbound vessel) through /agent/rest with an API key show in the views, and the
// agent's next text message appears on the open list without a reload (`vis-changed`); a text message sent from the
// UI to the vessel's service is listed as sent to it; a port's whitelist switched in the UI
// is what the API then serves; the VIS module switched off takes the menu entries away; axe on every view and the
// text messages at a phone's width; "Send RTA" on an STM vessel's port call page sends the RTA, its window and the
// port call's id to the vessel's service.

import { readFileSync } from 'node:fs';
import type { ApiClient, RunningSystem } from '@pcas/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, adminAndDataSource, allowEstimatedArrivals, timestamp } from '../timestamps.ts';
import {
  chromiumAvailable,
  newPage,
  seriousAccessibilityFindings,
  signIn,
  startEmbeddedAndBrowser,
  subscribed,
} from './browser.ts';

// Generous: the page, the service and the browser share a machine that may be small and busy.
const WAIT = { timeout: 30_000 };
// A route from Gävle to Rauma with a calculated schedule; Rauma's synchronisation point is on it.
const ROUTE = readFileSync(new URL('../../libs/stm/test-data/gavle-rauma.rtz', import.meta.url), 'utf8');
const RAUMA_SYNC_POINT = {
  VIS_SYNC_POINT_LAT: '61.11806',
  VIS_SYNC_POINT_LON: '21.16778',
  VIS_SYNC_POINT_RADIUS: '1852',
};
const SHIP = 'urn:mrn:stm:service:instance:web:aurora';
const PORT_B = 'urn:mrn:stm:service:instance:web:port-b';

const textXml = (id: string, body = 'We arrive at noon') =>
  '<?xml version="1.0" encoding="UTF-8"?><textMessage xmlns="http://stmvalidation.eu/schemas/textMessageSchema_1_3.xsd">' +
  `<textMessageId>${id}</textMessageId><author>Captain Ahab</author><from>${SHIP}</from>` +
  `<createdAt>2026-11-27T08:00:00Z</createdAt><subject>Arrival</subject><body>${body}</body></textMessage>`;

describe.skipIf(!chromiumAvailable)('STM / VIS in the web UI', () => {
  let system: RunningSystem;
  let browser: Browser;
  let admin: ApiClient;
  let agent: ApiClient;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  const menu = () => page.getByRole('navigation', { name: 'Port logistics' });
  const heading = () => page.getByRole('heading', { level: 1 });

  beforeAll(async () => {
    [system, browser] = await startEmbeddedAndBrowser(RAUMA_SYNC_POINT);
    const source = await adminAndDataSource(system.baseUrl);
    admin = source.admin;
    agent = source.api.withApiKey(source.apiKey.key);
    await allowEstimatedArrivals(admin, source.apiKey.id);
    const ok = async (res: Promise<{ status: number; body: unknown }>) => {
      const answer = await res;
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    };
    // Direct mode: the vessel's service is reachable through a peer link (nothing answers there; the outbox keeps
    // the message, which is enough for the list of sent messages).
    await ok(
      admin.post('/port-peer', {
        service_id: SHIP,
        url: 'http://127.0.0.1:9/vis',
        secret: 'a-shared-secret-for-the-web-ui-tests-2026',
      }),
    );
    await ok(
      agent.post('/agent/rest/vis-vessels', {
        imo: 9074729,
        vessel_name: 'Aurora',
        service_id: SHIP,
        service_url: 'http://127.0.0.1:9/vis',
      }),
    );
    const common = { time: '2026-11-27T08:00:00Z', from_service_id: SHIP, to_service_id: 'urn:mrn:stm:here' };
    await ok(
      agent.post('/agent/rest/vis-messages', {
        ...common,
        message_id: 'urn:mrn:stm:txt:web:1',
        message_type: 'TXT',
        payload: JSON.stringify({ stmMessage: { message: textXml('urn:mrn:stm:txt:web:1') } }),
      }),
    );
    await ok(
      agent.post('/agent/rest/vis-voyage-plans', {
        ...common,
        message_id: 'urn:mrn:stm:voyage:id:web:1',
        message_type: 'RTZ',
        rtz_state: 'SYNC_WITH_ETA_FOUND',
        rtz_parse_results: JSON.stringify({ route_name: 'Gävle to Rauma', eta: '2026-11-28T08:00:00+00:00' }),
        payload: JSON.stringify({ stmMessage: { message: ROUTE } }),
      }),
    );
    await ok(admin.post('/ports', { name: 'Port B', service_id: PORT_B, locodes: ['FIRAU'] }));
    await ok(
      agent.post('/agent/rest/inbound-vessels', {
        time: '2026-11-27T06:00:00Z',
        imo: 9074731,
        vessel_name: 'Borealis',
        from_service_id: PORT_B,
      }),
    );
    ({ context, page, problems } = await newPage(browser));
    await signIn(page, system.baseUrl, ADMIN.email, ADMIN.password);
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await system?.stop();
  });

  it("shows the agent's VIS vessel, text message and voyage plan", async () => {
    await menu().getByRole('link', { name: 'STM / VIS' }).click();
    await expect.poll(() => heading().textContent(), WAIT).toBe('STM / VIS');
    const vessel = page.getByRole('row').filter({ hasText: 'Aurora' });
    await vessel.waitFor(WAIT);
    expect(await vessel.textContent()).toContain('9074729');
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    await vessel.getByRole('link', { name: 'Text messages of Aurora' }).click();
    const message = page.getByRole('row').filter({ hasText: 'We arrive at noon' });
    await message.waitFor(WAIT);
    for (const text of ['Captain Ahab', 'Arrival', 'Not acknowledged'])
      expect(await message.textContent()).toContain(text);

    await page.getByRole('navigation', { name: 'STM / VIS pages' }).getByRole('link', { name: 'Voyage plans' }).click();
    const plan = page.getByRole('row').filter({ hasText: 'Gävle to Rauma' });
    await plan.waitFor(WAIT);
    expect(await plan.textContent()).toContain('Waypoint near the port with an ETA');
    await plan.getByRole('button', { name: 'Show RTZ of Gävle to Rauma' }).click();
    await page.getByText(/routeName="SEGVX-FIRAU 42"/).waitFor(WAIT);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("shows the agent's next text message on the open list without a reload (vis-changed)", async () => {
    await page.goto(`${system.baseUrl}/vis/text-messages`);
    await page.getByRole('row').filter({ hasText: 'We arrive at noon' }).waitFor(WAIT);
    // A mark on the page's window: a reload would take it away.
    await page.evaluate(() => Object.assign(window, { visLiveMark: true }));
    // Only a subscription the server has confirmed gets the message of the agent's post.
    await subscribed(page, 'vis-changed');
    const id = 'urn:mrn:stm:txt:web:live';
    const posted = await agent.post('/agent/rest/vis-messages', {
      time: '2026-11-27T09:00:00Z',
      from_service_id: SHIP,
      to_service_id: 'urn:mrn:stm:here',
      message_id: id,
      message_type: 'TXT',
      payload: JSON.stringify({ stmMessage: { message: textXml(id, 'Pilot on board at 09:30') } }),
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    // Nothing polls the list: only the channel's message makes it read the API again.
    await page.getByRole('row').filter({ hasText: 'Pilot on board at 09:30' }).waitFor(WAIT);
    expect(await page.evaluate(() => (window as { visLiveMark?: boolean }).visLiveMark)).toBe(true);
    expect(problems).toEqual([]);
  });

  it('sends a text message to the vessel from the UI, then lists it as sent to it', async () => {
    await page.goto(`${system.baseUrl}/vis`);
    const vessel = page.getByRole('row').filter({ hasText: 'Aurora' });
    await vessel.getByRole('button', { name: 'Send text message to Aurora' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send text message to Aurora' });
    await dialog.getByLabel('Subject').fill('Berth ready');
    await dialog.getByLabel('Text').fill('Berth 4 is ready for you at 10:00.');
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Send' }).click();
    await page.getByText('The text message was sent').waitFor(WAIT);
    await dialog.waitFor({ state: 'hidden', ...WAIT });

    await expect
      .poll(async () => (await admin.get('/vis-text-messages', { to_service_id: SHIP })).body.data, WAIT)
      .toEqual([expect.objectContaining({ subject: 'Berth ready', body: 'Berth 4 is ready for you at 10:00.' })]);
    await vessel.getByRole('link', { name: 'Text messages of Aurora' }).click();
    // The segmented control's radio is drawn by its label.
    await page.locator('label', { hasText: 'Sent to it' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Berth ready' });
    await row.waitFor(WAIT);
    expect(await row.textContent()).toContain('Berth 4 is ready for you at 10:00.');
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'We arrive at noon' }).count(), WAIT).toBe(0);
    expect(problems).toEqual([]);
  });

  it("switches a port's whitelist, and lists the vessels other ports announced", async () => {
    await menu().getByRole('link', { name: 'Other ports' }).click();
    await expect.poll(() => heading().textContent(), WAIT).toBe('Other ports');
    const departures = page.getByRole('switch', { name: 'Send our departures to Port B' });
    await departures.waitFor(WAIT);
    expect(await departures.isChecked()).toBe(true);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    await departures.click({ force: true });
    await expect
      .poll(async () => (await admin.get('/ports', { search: 'Port B' })).body.data[0]?.whitelist_out, WAIT)
      .toBe(false);
    await expect.poll(() => departures.isChecked(), WAIT).toBe(false);

    await menu().getByRole('link', { name: 'Inbound vessels' }).click();
    const inbound = page.getByRole('row').filter({ hasText: 'Borealis' });
    await inbound.waitFor(WAIT);
    expect(await inbound.textContent()).toContain('Port B');
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('fits a phone: no sideways scrolling, axe clean', async () => {
    const phone = await newPage(browser, { phone: true });
    await signIn(phone.page, system.baseUrl, ADMIN.email, ADMIN.password);
    await phone.page.goto(`${system.baseUrl}/vis/text-messages`);
    await phone.page.getByRole('row').filter({ hasText: 'We arrive at noon' }).waitFor(WAIT);
    const overflow = await phone.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousAccessibilityFindings(phone.page)).toEqual([]);
    expect(phone.problems).toEqual([]);
    await phone.context.close();
  });

  it('leaves the menu when the VIS module is switched off', async () => {
    expect((await admin.put('/settings/vis_module/disabled')).status).toBe(200);
    try {
      await page.reload();
      await page.getByText('STM / VIS is switched off').waitFor(WAIT);
      await expect.poll(() => page.getByRole('link', { name: 'STM / VIS', exact: true }).count(), WAIT).toBe(0);
      expect(await page.getByRole('link', { name: 'Other ports', exact: true }).count()).toBe(0);
    } finally {
      await admin.put('/settings/vis_module/enabled');
    }
    expect(problems).toEqual([]);
  });

  it("sends an RTA from an STM vessel's port call page", async () => {
    // The VIS agent's timestamp marks the port call as an STM vessel's.
    const posted = await agent.post(
      '/agent/rest/timestamps',
      timestamp({ vessel_name: 'Aurora', payload: { source: 'vis' } }),
    );
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    let portCallId = 0;
    await expect
      .poll(async () => {
        const found = await admin.get('/port-calls', { search: '9074729', limit: 1, offset: 0 });
        portCallId = found.body.data?.[0]?.id ?? 0;
        return portCallId;
      }, WAIT)
      .toBeGreaterThan(0);
    await page.goto(`${system.baseUrl}/port-calls/${portCallId}`);
    await page.getByRole('button', { name: 'Send RTA' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send RTA to Aurora' });
    await expect.poll(() => dialog.getByLabel('VIS service').inputValue(), WAIT).toBe(SHIP);
    await dialog.getByLabel('RTA', { exact: false }).first().fill('2026-11-28T10:00');
    await expect.poll(() => dialog.getByLabel(/Earliest arrival/).inputValue(), WAIT).toBe('2026-11-28T09:30');
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    const request = page.waitForRequest((sent) => sent.url().endsWith('/api/v1/vis-send-rta'));
    await dialog.getByRole('button', { name: 'Send RTA' }).click();
    // Helsinki is UTC+2 in November.
    expect((await request).postDataJSON()).toEqual({
      vis_service_id: SHIP,
      rta: '2026-11-28T08:00:00+00:00',
      eta_min: '2026-11-28T07:30:00+00:00',
      eta_max: '2026-11-28T08:30:00+00:00',
      port_call_id: portCallId,
    });
    await page.getByText('The RTA was sent').first().waitFor(WAIT);
    // The port call keeps the RTA: its timeline shows it as the Recommended arrival.
    await expect
      .poll(async () => JSON.stringify((await admin.get('/port-call', { id: portCallId })).body), WAIT)
      .toContain('2026-11-28T08:00:00');
    expect(problems).toEqual([]);
  });
});
