// The web UI's main flows, once against `pnpm start` (embedded) and once against the fleet (each service its own
// process on PostgreSQL, RabbitMQ and Redis), in headless Chromium: sign in; port calls seeded by a data source on
// the activity view; another timestamp changes a card and a new vessel's card appears live, no reload; pin a
// vessel; a notification sent in one signed-in browser reaches another; a timesheet CSV downloaded and read; a user
// and an API key with priorities created through the admin views; a module switched off and its view gone; axe
// on each view visited. Each area's own browser test (e2e/web/<area>.e2e.test.ts) goes further on embedded.

import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { HOUR, iso, postTimestamps, RUN_MODES, timestamp } from '../timestamps.ts';
import {
  browserSuite,
  cardNames,
  cardTime,
  chromiumAvailable,
  heading,
  seriousAccessibilityFindings,
  subscribed,
  WAIT,
} from './browser.ts';

const FIRST = { imo: 9074729, vessel_name: 'Scenario First' };
const SECOND = { imo: 9321483, vessel_name: 'Scenario Second' };
const THIRD = { imo: 9247455, vessel_name: 'Scenario Third' };

describe.skipIf(!chromiumAvailable).each(RUN_MODES)('the web UI, %s', (_mode, start) => {
  const now = Math.floor(Date.now() / 1000) * 1000;

  const post = (vessel: { imo: number; vessel_name: string }, time: number) =>
    postTimestamps(ui.source, timestamp({ ...vessel, time: iso(time) }));

  const ui = browserSuite({
    start,
    clients: 'dataSource',
    allowEtas: true,
    prepare: async () => {
      await post(FIRST, now + 2 * HOUR);
      await post(SECOND, now + 4 * HOUR);
    },
  });

  it('shows the port calls live, pins a vessel and downloads a timesheet', async () => {
    const { context, page, problems } = await ui.signedInPage();
    await expect.poll(() => cardNames(page), WAIT).toEqual([FIRST.vessel_name, SECOND.vessel_name]);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    await page.evaluate(() => {
      (window as unknown as { stillThisPage: boolean }).stillThisPage = true;
    });

    // A new ETA moves the second vessel ahead of the first; then a third vessel arrives. Only a subscription the
    // server has confirmed gets their messages.
    await subscribed(page, 'portcalls-changed');
    const moved = now + HOUR;
    let before = Date.now();
    await post(SECOND, moved);
    await cardTime(page, SECOND.vessel_name, moved).waitFor(WAIT);
    const changedMs = Date.now() - before;
    before = Date.now();
    await post(THIRD, now + 6 * HOUR);
    await page.getByRole('article', { name: THIRD.vessel_name }).waitFor(WAIT);
    const appearedMs = Date.now() - before;
    // How fast is bench/'s business (a busy machine may be slow); here only that it shows without a reload.
    console.log(`web UI (${_mode}): a changed card shown after ${changedMs} ms, a new card after ${appearedMs} ms`);
    expect(await page.evaluate(() => (window as unknown as { stillThisPage?: boolean }).stillThisPage)).toBe(true);

    await page.getByRole('button', { name: `Pin ${THIRD.vessel_name}` }).click();
    await expect.poll(async () => (await cardNames(page))[0], WAIT).toBe(THIRD.vessel_name);
    await expect.poll(async () => (await ui.admin.get('/pinned-vessel-ids')).body, WAIT).toEqual([THIRD.imo]);

    // The timesheet of the first vessel's port call, from its card, downloaded as CSV.
    await page
      .getByRole('article', { name: FIRST.vessel_name })
      .getByRole('link', { name: `IMO ${FIRST.imo}` })
      .click();
    await page.getByRole('table', { name: 'Timesheet' }).waitFor(WAIT);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    const [download] = await Promise.all([
      page.waitForEvent('download', WAIT),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^\\d+-${FIRST.imo}-${FIRST.vessel_name}\\.csv$`));
    const rows = (await readFile((await download.path())!, 'utf8')).trim().split('\n');
    expect(rows[0]).toBe('"IMO","Name","Nationality","From","To","Next","Berth","Event","Time"');
    expect(rows.some((row) => row.startsWith(`"${FIRST.imo}","${FIRST.vessel_name}"`))).toBe(true);
    expect(rows.some((row) => row.includes('"Estimated Arrival Vessel Port Area"'))).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('delivers a notification sent in one browser to another signed-in one', async () => {
    const [a, b] = await Promise.all([ui.signedInPage(), ui.signedInPage()]);
    await a.page.goto(`${ui.system.baseUrl}/notifications`);
    await b.page.goto(`${ui.system.baseUrl}/notifications`);
    await expect.poll(() => heading(b.page), WAIT).toBe('Notifications');
    expect(await seriousAccessibilityFindings(b.page)).toEqual([]);
    // Only a subscription the server has confirmed gets the message of what A sends.
    await subscribed(b.page, 'notifications-changed');

    await a.page.getByRole('button', { name: 'Send port notification' }).click();
    const dialog = a.page.getByRole('dialog', { name: 'Send port notification' });
    await dialog.getByLabel('Message').fill(`Fairway closed (${_mode})`);
    await dialog.getByRole('button', { name: 'Send' }).click();
    await b.page.getByRole('article', { name: `Fairway closed (${_mode})` }).waitFor(WAIT);
    expect(a.problems).toEqual([]);
    expect(b.problems).toEqual([]);
    await a.context.close();
    await b.context.close();
  });

  it('creates a user, an API key with a priority, and switches a module off and on', async () => {
    const { context, page, problems } = await ui.signedInPage();

    await page.goto(`${ui.system.baseUrl}/admin/users`);
    await page.getByRole('button', { name: 'Add user' }).click();
    const form = page.getByRole('dialog', { name: 'Add user' });
    await form.getByLabel('E-mail').fill(`pilot.${_mode}@port.local`);
    await form.getByLabel('First name').fill('Petra');
    await form.getByLabel('Last name').fill('Pilot');
    await form.getByLabel('Role').selectOption('user');
    await form.getByRole('button', { name: 'Add user' }).click();
    const userAdded = page.getByRole('dialog', { name: 'User added' });
    await userAdded.getByRole('button', { name: 'Done' }).click();
    // Checked once the dialog has faded out (half-transparent text fails any contrast check).
    await Promise.all([userAdded, form].map((dialog) => dialog.waitFor({ state: 'hidden', ...WAIT })));
    await page.getByRole('cell', { name: `pilot.${_mode}@port.local` }).waitFor(WAIT);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    const keyName = `Pilot station (${_mode})`;
    await page.goto(`${ui.system.baseUrl}/admin/api-keys`);
    await page.getByRole('button', { name: 'Add API key' }).click();
    const keyForm = page.getByRole('dialog', { name: 'Add API key' });
    await keyForm.getByRole('textbox').fill(keyName);
    await keyForm.getByRole('button', { name: 'Add', exact: true }).click();
    const added = page.getByRole('dialog', { name: 'API key added' });
    const key = ((await added.locator('pre').textContent()) ?? '').trim();
    await added.getByRole('button', { name: 'Done' }).click();
    await Promise.all([added, keyForm].map((dialog) => dialog.waitFor({ state: 'hidden', ...WAIT })));
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    await page.goto(`${ui.system.baseUrl}/admin/priorities`);
    await page.getByRole('button', { name: 'Edit the priority of Estimated Departure Vessel Berth' }).click();
    const dialog = page.getByRole('dialog', { name: 'Priority of Estimated Departure Vessel Berth' });
    await dialog.getByLabel('Add an API key').selectOption({ label: keyName });
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden', ...WAIT });
    // The key may now post that timestamp.
    const station = ui.admin.withApiKey(key);
    const departure = timestamp({ ...FIRST, time_type: 'Estimated', state: 'Departure_Vessel_Berth' });
    await expect.poll(async () => (await station.post('/agent/rest/timestamps', departure)).status, WAIT).toBe(200);

    await page.goto(`${ui.system.baseUrl}/admin/settings`);
    const menu = page.getByRole('navigation', { name: 'Port activity' });
    await menu.getByRole('link', { name: 'Port calls', exact: true }).waitFor(WAIT);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    const toggle = page.getByRole('switch', { name: /Activity timeline and port calls/ });
    await toggle.click();
    await expect.poll(() => menu.getByRole('link', { name: 'Port calls', exact: true }).count(), WAIT).toBe(0);
    await toggle.click();
    await menu.getByRole('link', { name: 'Port calls', exact: true }).waitFor(WAIT);
    expect(problems).toEqual([]);
    await context.close();
  });
});
