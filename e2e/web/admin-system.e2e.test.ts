// System administration in a browser, against `pnpm start` (embedded): an API key created through the UI and given
// a priority for a timestamp through the priorities UI (checked over the API, and the key may then post it), a
// module switched off and on with its menu entries leaving and coming back without a reload, a translation
// uploaded and edited with the new words showing at once, and axe on the four views (settings at a phone's width).

import { ApiClient } from '@pcas/testing';
import { describe, expect, it } from 'vitest';
import { timestamp } from '../timestamps.ts';
import { browserSuite, chromiumAvailable, seriousAccessibilityFindings, WAIT } from './browser.ts';

describe.skipIf(!chromiumAvailable)('system administration in the web UI', () => {
  const ui = browserSuite({ page: {} });
  const keyName = `Pilot bookings ${Date.now()}`;
  let newKey = '';

  /** Opens a view through the menu (no page load) and waits for its heading. */
  async function openFromMenu(section: string, label: string, heading = label) {
    await ui.page.getByRole('navigation', { name: section }).getByRole('link', { name: label, exact: true }).click();
    await expect.poll(() => ui.page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe(heading);
  }

  /** Marks the page so a test can tell that it was not reloaded since. */
  const markPage = () => ui.page.evaluate(() => Object.assign(window, { notReloaded: true }));
  const stillSamePage = () => ui.page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded);

  it('creates an API key through the UI and shows it once', async () => {
    await openFromMenu('Administration', 'API keys');
    await ui.page.getByRole('button', { name: 'Add API key' }).click();
    const form = ui.page.getByRole('dialog', { name: 'Add API key' });
    await form.getByRole('textbox').fill(keyName);
    await form.getByRole('button', { name: 'Add', exact: true }).click();

    const added = ui.page.getByRole('dialog', { name: 'API key added' });
    await added.waitFor(WAIT);
    newKey = ((await added.locator('pre').textContent()) ?? '').trim();
    expect(newKey).toMatch(/^[0-9a-f]{50}$/);
    await added.getByRole('button', { name: 'Done' }).click();

    // In the list, masked until shown.
    await ui.page.getByRole('cell', { name: keyName, exact: true }).waitFor(WAIT);
    expect(await ui.page.getByText(newKey).count()).toBe(0);
    await ui.page.getByRole('button', { name: `Show the key of ${keyName}` }).click();
    await ui.page.getByText(newKey).waitFor(WAIT);
    expect(await ui.page.getByRole('switch', { name: `${keyName} is active` }).isChecked()).toBe(true);
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);
  });

  it('gives the key a priority for a timestamp through the priorities UI; the API has it and the key may post', async () => {
    const source = new ApiClient(ui.system.baseUrl).withApiKey(newKey);
    const departure = timestamp({ time_type: 'Estimated', state: 'Departure_Vessel_Berth' });
    expect((await source.post('/agent/rest/timestamps', departure)).status).toBe(403);

    await openFromMenu('Administration', 'API key priorities');
    await ui.page.getByRole('button', { name: 'Edit the priority of Estimated Departure Vessel Berth' }).click();
    const dialog = ui.page.getByRole('dialog', { name: 'Priority of Estimated Departure Vessel Berth' });
    await dialog.getByLabel('Add an API key').selectOption({ label: keyName });
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.getByRole('button', { name: `Move ${keyName} up` }).waitFor(WAIT);
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden', ...WAIT });

    const row = ui.page.getByRole('row', { name: /Estimated Departure Vessel Berth/ });
    await expect.poll(() => row.textContent(), WAIT).toContain(keyName);

    const weights = await ui.admin.get('/timestamp-api-key-weights');
    expect(weights.status).toBe(200);
    const id = weights.body.api_keys.find((k: { name: string }) => k.name === keyName)?.id;
    const pair = weights.body.timestamps.find(
      (t: { time_type: string; state: string }) => t.time_type === 'Estimated' && t.state === 'Departure_Vessel_Berth',
    );
    expect(pair.api_keys.map((k: { api_key_id: number }) => k.api_key_id)).toEqual([id]);
    expect((await source.post('/agent/rest/timestamps', departure)).status).toBe(200);

    await ui.page.getByRole('tab', { name: 'Payload keys' }).click();
    await ui.page.getByText('No payload key has a priority yet').waitFor(WAIT);
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);
  });

  it('switches the activity module off and on; its menu entries leave and come back without a reload', async () => {
    await openFromMenu('Administration', 'Settings and modules');
    await markPage();
    const activityMenu = ui.page.getByRole('navigation', { name: 'Port activity' });
    const entry = (name: string) => activityMenu.getByRole('link', { name, exact: true });
    expect(await entry('Activity timeline').count()).toBe(1);
    expect(await entry('Port calls').count()).toBe(1);
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);

    const toggle = ui.page.getByRole('switch', { name: /Activity timeline and port calls/ });
    // By keyboard: the switch is an ordinary checkbox input.
    await toggle.focus();
    await ui.page.keyboard.press('Space');
    await expect.poll(() => entry('Port calls').count(), WAIT).toBe(0);
    expect(await entry('Activity timeline').count()).toBe(0);
    expect(await toggle.isChecked()).toBe(false);
    expect((await ui.admin.get('/session')).body.modules.activity_module).toBe('disabled');

    await toggle.click();
    await expect.poll(() => entry('Port calls').count(), WAIT).toBe(1);
    expect(await entry('Activity timeline').count()).toBe(1);
    expect(await toggle.isChecked()).toBe(true);
    expect(await stillSamePage()).toBe(true);
  });

  it('uploads and edits translations; the new words show at once', async () => {
    await openFromMenu('Administration', 'Translations');
    await markPage();
    // Sorted by key, the e-mail phrases ([EMAIL …]) come first: the search finds a timestamp's name.
    await ui.page.getByRole('searchbox', { name: 'Search keys and texts' }).fill('Actual Arrival Agent Berth');
    await ui.page.getByRole('button', { name: 'Edit the text of Actual Arrival Agent Berth' }).waitFor(WAIT);
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);

    const [download] = await Promise.all([
      ui.page.waitForEvent('download'),
      ui.page.getByRole('button', { name: 'Download JSON' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('translations-common-en.json');
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const downloaded = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    expect(downloaded['Estimated Departure Vessel Berth']).toBe('Estimated Departure Vessel Berth');

    // An upload names a menu entry in the port's words.
    await ui.page.locator('input[type="file"]').setInputFiles({
      name: 'port-texts.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ 'API keys': 'Data source keys' })),
    });
    const replace = ui.page.getByRole('dialog', { name: 'Replace the texts?' });
    await replace.getByRole('button', { name: 'Replace' }).click();
    const adminMenu = ui.page.getByRole('navigation', { name: 'Administration' });
    await adminMenu.getByRole('link', { name: 'Data source keys', exact: true }).waitFor(WAIT);

    // An edit of a timestamp's name shows in the priorities view.
    await ui.page.getByRole('searchbox', { name: 'Search keys and texts' }).fill('Estimated Departure Vessel Berth');
    await ui.page.getByRole('button', { name: 'Edit the text of Estimated Departure Vessel Berth' }).click();
    const edit = ui.page.getByRole('dialog', { name: 'Edit a text' });
    await edit.getByRole('textbox', { name: 'Text' }).fill('ETD at berth');
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'hidden', ...WAIT });
    await ui.page.getByRole('cell', { name: 'ETD at berth', exact: true }).waitFor(WAIT);

    await openFromMenu('Administration', 'API key priorities');
    await ui.page.getByRole('button', { name: 'Edit the priority of ETD at berth' }).waitFor(WAIT);
    expect(await stillSamePage()).toBe(true);
    const stored = await ui.admin.get('/translations/common/en');
    expect(stored.body['Estimated Departure Vessel Berth']).toBe('ETD at berth');
    expect(stored.body['API keys']).toBe('Data source keys');

    // Another upload replaces the stored texts: a text it does not hold goes back to its default at once.
    await openFromMenu('Administration', 'Translations');
    await ui.page.locator('input[type="file"]').setInputFiles({
      name: 'other-texts.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify([{ key: 'Vessels', value: 'Ships' }])),
    });
    await ui.page.getByRole('dialog', { name: 'Replace the texts?' }).getByRole('button', { name: 'Replace' }).click();
    await ui.page.getByRole('navigation', { name: 'Port activity' }).getByRole('link', { name: 'Ships' }).waitFor(WAIT);
    await adminMenu.getByRole('link', { name: 'API keys', exact: true }).waitFor(WAIT);
    expect(await adminMenu.getByRole('link', { name: 'Data source keys' }).count()).toBe(0);
    expect(await stillSamePage()).toBe(true);
    expect(ui.problems).toEqual([]);
  });

  it('settings at a phone’s width: no sideways scrolling, no serious axe finding', async () => {
    const phone = await ui.signedInPage({ phone: true });
    await phone.page.goto(`${ui.system.baseUrl}/admin/settings`);
    await phone.page
      .getByRole('switch', { name: /Activity timeline and port calls/ })
      .waitFor({ state: 'attached', ...WAIT });
    await phone.page.getByRole('textbox', { name: /Port operator e-mail addresses/ }).waitFor(WAIT);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousAccessibilityFindings(phone.page)).toEqual([]);
    expect(phone.problems).toEqual([]);
    await phone.context.close();
  });
});
