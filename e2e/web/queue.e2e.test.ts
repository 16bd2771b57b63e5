// The just-in-time queue in a browser, against `pnpm start` (embedded): the port adds a berth and a nomination for a
// consignee through the UI, a vessel's agent posts a slot request over HTTP and the dashboard shows it offered
// live, without a reload, then its JIT ETA and the alert in words; the port adds a block on the berth
// calendar beside the vessel's slot; axe on each view, and the dashboard and calendar at a phone's width.

import { describe, expect, it } from 'vitest';
import { HOUR, iso, vesselSlotRequest, W0 } from '../queue-fleet.ts';
import { addUser, CONSIGNEE } from '../timestamps.ts';
import { browserSuite, chromiumAvailable, seriousAccessibilityFindings, subscribed, WAIT } from './browser.ts';

/** A `datetime-local` value; the pages run in UTC, so local time is UTC. */
const local = (ms: number) => new Date(ms).toISOString().slice(0, 16);
const IMO = 9520027;

describe.skipIf(!chromiumAvailable)('the just-in-time queue in the web UI', () => {
  // The data source is the vessel's agent.
  const ui = browserSuite({
    clients: 'dataSource',
    prepare: async (ui) => {
      await addUser(ui.admin, CONSIGNEE);
    },
    page: { timezoneId: 'UTC' },
  });

  const queueMenu = () => ui.page.getByRole('navigation', { name: 'Just-in-time queue' });
  const dashboardRows = () => ui.page.getByRole('table').getByRole('row').filter({ hasText: 'Victor' });

  it('adds a berth and a nomination for a consignee through the UI', async () => {
    await queueMenu().getByRole('link', { name: 'Berths' }).click();
    await ui.page.getByRole('heading', { level: 1, name: 'Berths' }).waitFor(WAIT);
    await ui.page.getByRole('button', { name: 'Add berth' }).click();
    const berthDialog = ui.page.getByRole('dialog', { name: 'Add berth' });
    await berthDialog.getByLabel('Code').fill('B1');
    await berthDialog.getByLabel('Name').fill('North quay');
    expect(await berthDialog.getByLabel('Consignees may nominate this berth').isChecked()).toBe(true);
    await berthDialog.getByRole('button', { name: 'Add', exact: true }).click();
    await ui.page.getByRole('row').filter({ hasText: 'North quay' }).waitFor(WAIT);
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);

    await queueMenu().getByRole('link', { name: 'Nominations', exact: true }).click();
    await ui.page.getByRole('heading', { level: 1, name: 'Nominations' }).waitFor(WAIT);
    await ui.page.getByRole('button', { name: 'Add nomination' }).click();
    const dialog = ui.page.getByRole('dialog', { name: 'Add nomination for a consignee' });
    await dialog.getByRole('option', { name: 'Consignee, Carla' }).waitFor({ state: 'attached', ...WAIT });
    await dialog.getByLabel('Consignee').selectOption({ label: 'Consignee, Carla' });
    await dialog.getByLabel('Vessel name').fill('Victor');
    await dialog.getByLabel('IMO').fill(String(IMO));
    await dialog.getByLabel('Company').fill('Cargo Oy');
    await dialog.getByLabel('E-mail').fill('carla@cargo.example');
    await dialog.getByLabel('Window start').fill(local(W0));
    await dialog.getByLabel('Window end').fill(local(W0 + 12 * HOUR));
    await dialog.getByLabel('Add a berth').selectOption({ label: 'North quay (B1)' });
    await dialog.getByRole('button', { name: 'Add berth' }).click();
    await dialog.getByRole('list', { name: 'Berths in priority order' }).getByText('North quay').waitFor(WAIT);
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    const row = ui.page.getByRole('row').filter({ hasText: 'Victor' });
    await row.waitFor(WAIT);
    expect(await row.textContent()).toContain('Consignee, Carla');
    expect(await row.textContent()).toContain('1. North quay');
    expect(await row.textContent()).toContain('Open');

    const stored = await ui.admin.get('/nominations');
    expect(stored.body.data).toMatchObject([
      { imo: IMO, window_start: iso(W0).replace('T', ' ').replace('+00:00', '+00'), nomination_status: 'open' },
    ]);
    expect(ui.problems).toEqual([]);
  });

  it('shows a slot request posted over HTTP on the dashboard live, then its JIT ETA and the alert in words', async () => {
    await queueMenu().getByRole('link', { name: 'Queue dashboard' }).click();
    await ui.page.getByRole('heading', { level: 1, name: 'Queue dashboard' }).waitFor(WAIT);
    await ui.page.getByText('No offered, accepted or updated slot requests').waitFor(WAIT);
    await ui.page.evaluate(() => Object.assign(window, { notReloaded: true }));
    // Only a subscription the server has confirmed gets the messages of the slot request.
    await subscribed(ui.page, 'queue-portcalls-changed');

    const posted = await ui.source.post('/agent/rest/slot-reservations', vesselSlotRequest({ imo: IMO }));
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    // How fast is bench/'s business; here only that it shows without a reload.
    await dashboardRows().first().waitFor(WAIT);
    const offered = await dashboardRows().first().textContent();
    expect(offered).toContain('North quay');
    expect(offered).toContain('Offered');
    expect(offered).toContain('No JIT ETA yet');
    expect(offered).toContain('2 h');

    // The vessel answers with its JIT ETA inside the RTA window (ETA + travel − travel, 30 min long).
    const id = (await ui.admin.get('/slot-reservations')).body.data[0].id;
    const answered = await ui.source.put('/agent/rest/slot-reservations', {
      id,
      laytime: '02:00',
      jit_eta: iso(W0 + 3 * HOUR + 10 * 60_000),
    });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    await dashboardRows().filter({ hasText: 'Accepted' }).waitFor(WAIT);
    await expect.poll(() => dashboardRows().first().textContent(), WAIT).toContain('On time');
    expect(await ui.page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);
    expect(ui.problems).toEqual([]);
  });

  it('adds a port block on the berth calendar beside the vessel’s slot', async () => {
    await queueMenu().getByRole('link', { name: 'Berth calendar' }).click();
    await ui.page.getByRole('heading', { level: 1, name: 'Berth calendar' }).waitFor(WAIT);
    const timeline = ui.page.getByRole('region', { name: 'Time line of North quay' });
    await timeline.getByText('Victor (vessel slot)').waitFor(WAIT);

    await ui.page.getByRole('button', { name: 'Add port block' }).click();
    const dialog = ui.page.getByRole('dialog', { name: 'Add port block on North quay' });
    await dialog.getByLabel('Block start').fill(local(W0 + 8 * HOUR));
    await dialog.getByLabel('Block end').fill(local(W0 + 10 * HOUR));
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await timeline.getByRole('button', { name: /^Blocked by port, .*: move$/ }).waitFor(WAIT);
    const table = ui.page.getByRole('table', { name: /Reservations of North quay/ });
    await expect.poll(() => table.getByRole('row').filter({ hasText: 'Blocked by port' }).count(), WAIT).toBe(1);
    expect(await table.getByRole('row').filter({ hasText: 'Reserved for vessel' }).textContent()).toContain('Victor');

    const berth = (await ui.admin.get('/berths')).body.data[0].id;
    const blocks = await ui.admin.get(`/berth-reservations?berth_id=${berth}`);
    expect(blocks.body.data.map((r: { berth_reservation_type: string }) => r.berth_reservation_type)).toEqual([
      'vessel_reserved',
      'port_blocked',
    ]);
    expect(blocks.body.data[1].reservation_start).toBe(
      iso(W0 + 8 * HOUR)
        .replace('T', ' ')
        .replace('+00:00', '+00'),
    );
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);
    expect(ui.problems).toEqual([]);
  });

  it('fits a phone: the dashboard and the calendar without sideways scrolling, axe clean', async () => {
    const phone = await ui.signedInPage({ phone: true });
    for (const [path, ready] of [
      ['/queue/dashboard', 'Victor'],
      ['/queue/berth-calendar', 'Victor (vessel slot)'],
    ]) {
      await phone.page.goto(`${ui.system.baseUrl}${path}`);
      await phone.page.getByText(ready).first().waitFor(WAIT);
      const overflow = await phone.page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
      expect(await seriousAccessibilityFindings(phone.page), path).toEqual([]);
    }
    expect(phone.problems).toEqual([]);
    await phone.context.close();
  });
});
