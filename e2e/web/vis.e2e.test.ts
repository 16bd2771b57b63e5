// STM / VIS in a browser, against `pnpm start` (embedded, direct mode): the VIS agent's posts (a VIS vessel, a
// text message, a voyage plan, an inbound vessel) through /agent/rest with an API key show in the views, and the
// agent's next text message appears on the open list without a reload (`vis-changed`); a text message sent from the
// UI to the vessel's service is listed as sent to it; a port's whitelist switched in the UI
// is what the API then serves; the VIS module switched off takes the menu entries away; axe on every view and the
// text messages at a phone's width; "Send RTA" on an STM vessel's port call page sends the RTA, its window and the
// port call's id to the vessel's service.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stmTextMessage, timestamp } from '../timestamps.ts';
import { browserSuite, chromiumAvailable, seriousAccessibilityFindings, subscribed, WAIT } from './browser.ts';

// A route from Gävle to Rauma with a calculated schedule; Rauma's synchronisation point is on it.
const ROUTE = readFileSync(new URL('../../libs/stm/test-data/gavle-rauma.rtz', import.meta.url), 'utf8');
const RAUMA_SYNC_POINT = {
  VIS_SYNC_POINT_LAT: '61.11806',
  VIS_SYNC_POINT_LON: '21.16778',
  VIS_SYNC_POINT_RADIUS: '1852',
};
const SHIP = 'urn:mrn:stm:service:instance:web:aurora';
const PORT_B = 'urn:mrn:stm:service:instance:web:port-b';

const textXml = (id: string, body?: string) => stmTextMessage(id, SHIP, body);

describe.skipIf(!chromiumAvailable)('STM / VIS in the web UI', () => {
  // The data source is the VIS agent.
  const ui = browserSuite({
    env: RAUMA_SYNC_POINT,
    clients: 'dataSource',
    allowEtas: true,
    prepare,
    page: {},
    timeoutMs: 180_000,
  });

  const menu = () => ui.page.getByRole('navigation', { name: 'Port logistics' });
  const heading = () => ui.page.getByRole('heading', { level: 1 });

  async function prepare() {
    const ok = async (res: Promise<{ status: number; body: unknown }>) => {
      const answer = await res;
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    };
    // Direct mode: the vessel's service is reachable through a peer link (nothing answers there; the outbox keeps
    // the message, which is enough for the list of sent messages).
    await ok(
      ui.admin.post('/port-peer', {
        service_id: SHIP,
        url: 'http://127.0.0.1:9/vis',
        secret: 'a-shared-secret-for-the-web-ui-tests-2026',
      }),
    );
    await ok(
      ui.source.post('/agent/rest/vis-vessels', {
        imo: 9074729,
        vessel_name: 'Aurora',
        service_id: SHIP,
        service_url: 'http://127.0.0.1:9/vis',
      }),
    );
    const common = { time: '2026-11-27T08:00:00Z', from_service_id: SHIP, to_service_id: 'urn:mrn:stm:here' };
    await ok(
      ui.source.post('/agent/rest/vis-messages', {
        ...common,
        message_id: 'urn:mrn:stm:txt:web:1',
        message_type: 'TXT',
        payload: JSON.stringify({ stmMessage: { message: textXml('urn:mrn:stm:txt:web:1') } }),
      }),
    );
    await ok(
      ui.source.post('/agent/rest/vis-voyage-plans', {
        ...common,
        message_id: 'urn:mrn:stm:voyage:id:web:1',
        message_type: 'RTZ',
        rtz_state: 'SYNC_WITH_ETA_FOUND',
        rtz_parse_results: JSON.stringify({ route_name: 'Gävle to Rauma', eta: '2026-11-28T08:00:00+00:00' }),
        payload: JSON.stringify({ stmMessage: { message: ROUTE } }),
      }),
    );
    await ok(ui.admin.post('/ports', { name: 'Port B', service_id: PORT_B, locodes: ['FIRAU'] }));
    await ok(
      ui.source.post('/agent/rest/inbound-vessels', {
        time: '2026-11-27T06:00:00Z',
        imo: 9074731,
        vessel_name: 'Borealis',
        from_service_id: PORT_B,
      }),
    );
  }

  it("shows the agent's VIS vessel, text message and voyage plan", async () => {
    await menu().getByRole('link', { name: 'STM / VIS' }).click();
    await expect.poll(() => heading().textContent(), WAIT).toBe('STM / VIS');
    const vessel = ui.page.getByRole('row').filter({ hasText: 'Aurora' });
    await vessel.waitFor(WAIT);
    expect(await vessel.textContent()).toContain('9074729');
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);

    await vessel.getByRole('link', { name: 'Text messages of Aurora' }).click();
    const message = ui.page.getByRole('row').filter({ hasText: 'We arrive at noon' });
    await message.waitFor(WAIT);
    for (const text of ['Captain Ahab', 'Arrival', 'Not acknowledged'])
      expect(await message.textContent()).toContain(text);

    await ui.page
      .getByRole('navigation', { name: 'STM / VIS pages' })
      .getByRole('link', { name: 'Voyage plans' })
      .click();
    const plan = ui.page.getByRole('row').filter({ hasText: 'Gävle to Rauma' });
    await plan.waitFor(WAIT);
    expect(await plan.textContent()).toContain('Waypoint near the port with an ETA');
    await plan.getByRole('button', { name: 'Show RTZ of Gävle to Rauma' }).click();
    await ui.page.getByText(/routeName="SEGVX-FIRAU 42"/).waitFor(WAIT);
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);
    expect(ui.problems).toEqual([]);
  });

  it("shows the agent's next text message on the open list without a reload (vis-changed)", async () => {
    await ui.page.goto(`${ui.system.baseUrl}/vis/text-messages`);
    await ui.page.getByRole('row').filter({ hasText: 'We arrive at noon' }).waitFor(WAIT);
    // A mark on the page's window: a reload would take it away.
    await ui.page.evaluate(() => Object.assign(window, { visLiveMark: true }));
    // Only a subscription the server has confirmed gets the message of the agent's post.
    await subscribed(ui.page, 'vis-changed');
    const id = 'urn:mrn:stm:txt:web:live';
    const posted = await ui.source.post('/agent/rest/vis-messages', {
      time: '2026-11-27T09:00:00Z',
      from_service_id: SHIP,
      to_service_id: 'urn:mrn:stm:here',
      message_id: id,
      message_type: 'TXT',
      payload: JSON.stringify({ stmMessage: { message: textXml(id, 'Pilot on board at 09:30') } }),
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    // Nothing polls the list: only the channel's message makes it read the API again.
    await ui.page.getByRole('row').filter({ hasText: 'Pilot on board at 09:30' }).waitFor(WAIT);
    expect(await ui.page.evaluate(() => (window as { visLiveMark?: boolean }).visLiveMark)).toBe(true);
    expect(ui.problems).toEqual([]);
  });

  it('sends a text message to the vessel from the UI, then lists it as sent to it', async () => {
    await ui.page.goto(`${ui.system.baseUrl}/vis`);
    const vessel = ui.page.getByRole('row').filter({ hasText: 'Aurora' });
    await vessel.getByRole('button', { name: 'Send text message to Aurora' }).click();
    const dialog = ui.page.getByRole('dialog', { name: 'Send text message to Aurora' });
    await dialog.getByLabel('Subject').fill('Berth ready');
    await dialog.getByLabel('Text').fill('Berth 4 is ready for you at 10:00.');
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Send' }).click();
    await ui.page.getByText('The text message was sent').waitFor(WAIT);
    await dialog.waitFor({ state: 'hidden', ...WAIT });

    await expect
      .poll(async () => (await ui.admin.get('/vis-text-messages', { to_service_id: SHIP })).body.data, WAIT)
      .toEqual([expect.objectContaining({ subject: 'Berth ready', body: 'Berth 4 is ready for you at 10:00.' })]);
    await vessel.getByRole('link', { name: 'Text messages of Aurora' }).click();
    // The segmented control's radio is drawn by its label.
    await ui.page.locator('label', { hasText: 'Sent to it' }).click();
    const row = ui.page.getByRole('row').filter({ hasText: 'Berth ready' });
    await row.waitFor(WAIT);
    expect(await row.textContent()).toContain('Berth 4 is ready for you at 10:00.');
    await expect.poll(() => ui.page.getByRole('row').filter({ hasText: 'We arrive at noon' }).count(), WAIT).toBe(0);
    expect(ui.problems).toEqual([]);
  });

  it("switches a port's whitelist, and lists the vessels other ports announced", async () => {
    await menu().getByRole('link', { name: 'Other ports' }).click();
    await expect.poll(() => heading().textContent(), WAIT).toBe('Other ports');
    const departures = ui.page.getByRole('switch', { name: 'Send our departures to Port B' });
    await departures.waitFor(WAIT);
    expect(await departures.isChecked()).toBe(true);
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);
    await departures.click({ force: true });
    await expect
      .poll(async () => (await ui.admin.get('/ports', { search: 'Port B' })).body.data[0]?.whitelist_out, WAIT)
      .toBe(false);
    await expect.poll(() => departures.isChecked(), WAIT).toBe(false);

    await menu().getByRole('link', { name: 'Inbound vessels' }).click();
    const inbound = ui.page.getByRole('row').filter({ hasText: 'Borealis' });
    await inbound.waitFor(WAIT);
    expect(await inbound.textContent()).toContain('Port B');
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);
    expect(ui.problems).toEqual([]);
  });

  it('fits a phone: no sideways scrolling, axe clean', async () => {
    await ui.fitsPhone('/vis/text-messages', (page) => page.getByRole('row').filter({ hasText: 'We arrive at noon' }));
  });

  it('leaves the menu when the VIS module is switched off', async () => {
    await ui.withModuleOff('vis_module', async () => {
      await ui.page.reload();
      await ui.page.getByText('STM / VIS is switched off').waitFor(WAIT);
      await expect.poll(() => ui.page.getByRole('link', { name: 'STM / VIS', exact: true }).count(), WAIT).toBe(0);
      expect(await ui.page.getByRole('link', { name: 'Other ports', exact: true }).count()).toBe(0);
    });
    expect(ui.problems).toEqual([]);
  });

  it("sends an RTA from an STM vessel's port call page", async () => {
    // The VIS agent's timestamp marks the port call as an STM vessel's.
    const posted = await ui.source.post(
      '/agent/rest/timestamps',
      timestamp({ vessel_name: 'Aurora', payload: { source: 'vis' } }),
    );
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    let portCallId = 0;
    await expect
      .poll(async () => {
        const found = await ui.admin.get('/port-calls', { search: '9074729', limit: 1, offset: 0 });
        portCallId = found.body.data?.[0]?.id ?? 0;
        return portCallId;
      }, WAIT)
      .toBeGreaterThan(0);
    await ui.page.goto(`${ui.system.baseUrl}/port-calls/${portCallId}`);
    await ui.page.getByRole('button', { name: 'Send RTA' }).click();
    const dialog = ui.page.getByRole('dialog', { name: 'Send RTA to Aurora' });
    await expect.poll(() => dialog.getByLabel('VIS service').inputValue(), WAIT).toBe(SHIP);
    await dialog.getByLabel('RTA', { exact: false }).first().fill('2026-11-28T10:00');
    await expect.poll(() => dialog.getByLabel(/Earliest arrival/).inputValue(), WAIT).toBe('2026-11-28T09:30');
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);
    const request = ui.page.waitForRequest((sent) => sent.url().endsWith('/api/v1/vis-send-rta'));
    await dialog.getByRole('button', { name: 'Send RTA' }).click();
    // Helsinki is UTC+2 in November.
    expect((await request).postDataJSON()).toEqual({
      vis_service_id: SHIP,
      rta: '2026-11-28T08:00:00+00:00',
      eta_min: '2026-11-28T07:30:00+00:00',
      eta_max: '2026-11-28T08:30:00+00:00',
      port_call_id: portCallId,
    });
    await ui.page.getByText('The RTA was sent').first().waitFor(WAIT);
    // The port call keeps the RTA: its timeline shows it as the Recommended arrival.
    await expect
      .poll(async () => JSON.stringify((await ui.admin.get('/port-call', { id: portCallId })).body), WAIT)
      .toContain('2026-11-28T08:00:00');
    expect(ui.problems).toEqual([]);
  });
});
