// The vessels and timestamps views in a browser, against `pnpm start` (embedded): a data source posts timestamps
// for two vessels; the operator sees both vessels, hides one from the timeline (it leaves GET ongoing-port-calls),
// opens its timestamps, deletes one and restores it through the UI, and reads it as stored; axe on each view and
// the list at a phone's width. Vessel types: a data source sets one vessel's type, the operator changes the other's
// in the type dialog by keyboard alone (its searchable list read from GET /vessel-types), both shown in the list.

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { isoSecondsAgo, postTimestamps, timestamp, waitForTimestamps } from '../timestamps.ts';
import { browserSuite, chromiumAvailable, seriousAccessibilityFindings, subscribed, WAIT } from './browser.ts';

const AURORA = { imo: 9074729, vessel_name: 'Aurora E2E' };
const BOREALIS = { imo: 9321483, vessel_name: 'Borealis E2E' };

describe.skipIf(!chromiumAvailable)('the vessels and timestamps views (embedded mode)', () => {
  let auroraIds: number[] = [];

  const ui = browserSuite({
    clients: 'dataSource',
    allowEtas: true,
    prepare: async ({ admin, source }) => {
      await postTimestamps(
        source,
        timestamp({ ...AURORA, payload: { source: 'e2e', external_id: 'a-1' } }),
        timestamp({ ...AURORA, time: isoSecondsAgo(-7200), payload: { external_id: 'a-2' } }),
        timestamp({ ...BOREALIS, payload: { source: 'e2e', external_id: 'b-1' } }),
      );
      const aurora = await waitForTimestamps(admin, { imo: AURORA.imo }, (rows) => rows.length === 2, WAIT.timeout);
      await waitForTimestamps(admin, { imo: BOREALIS.imo }, (rows) => rows.length === 1, WAIT.timeout);
      auroraIds = aurora.rows.map((row) => row.id);
    },
  });

  const rowOf = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

  const ongoingImos = async () => {
    const res = await ui.admin.get('/ongoing-port-calls');
    return ((res.body?.portcalls ?? []) as any[]).map((entry) => Number(entry.ship?.imo));
  };

  it('lists the vessels, hides one from the timeline, and deletes and restores its timestamp', async () => {
    const { context, page, problems } = await ui.signedInPage();
    await page.goto(`${ui.system.baseUrl}/vessels`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe('Vessels');
    await rowOf(page, BOREALIS.vessel_name).waitFor(WAIT);
    await expect.poll(() => rowOf(page, AURORA.vessel_name).textContent(), WAIT).toContain('Shown');
    expect(await rowOf(page, AURORA.vessel_name).textContent()).toContain(String(AURORA.imo));
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    expect(await ongoingImos()).toContain(AURORA.imo);

    // The search finds a vessel by its exact IMO.
    await page.getByLabel('Search by name or IMO').fill(String(BOREALIS.imo));
    await expect.poll(() => rowOf(page, AURORA.vessel_name).count(), WAIT).toBe(0);
    await page.getByLabel('Search by name or IMO').fill('');
    await rowOf(page, AURORA.vessel_name).waitFor(WAIT);

    // The list's own refetch after a change may come before the projection has applied it; the message after it
    // then brings it, to a subscription the server has confirmed.
    await subscribed(page, 'portcalls-changed');
    await page.getByRole('button', { name: `Hide ${AURORA.vessel_name} from the timeline` }).click();
    await expect.poll(() => rowOf(page, AURORA.vessel_name).textContent(), WAIT).toContain('Hidden');
    expect(await rowOf(page, BOREALIS.vessel_name).textContent()).toContain('Shown');
    await expect.poll(ongoingImos, WAIT).not.toContain(AURORA.imo);
    expect(await ongoingImos()).toContain(BOREALIS.imo);

    // Its timestamps: both, newest first, with the S-211 names and the payload decoded.
    await page.getByRole('link', { name: `Timestamps of ${AURORA.vessel_name}` }).click();
    await page.waitForURL(new RegExp(`/vessels/${AURORA.imo}/timestamps$`));
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT)
      .toBe(`Timestamps of ${AURORA.vessel_name} (IMO ${AURORA.imo})`);
    const [first] = [...auroraIds].sort((a, b) => a - b);
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: `Show timestamp ${first}` }) });
    await row.waitFor(WAIT);
    expect(await row.textContent()).toContain('Estimated Arrival Vessel Port Area');
    expect(await row.textContent()).toContain('source: e2e · external_id: a-1');
    expect(await page.getByRole('link', { name: /^Show timestamp/ }).count()).toBe(2);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    await subscribed(page, 'portcalls-changed');
    await row.getByRole('button', { name: new RegExp(`^Delete timestamp ${first}`) }).click();
    const dialog = page.getByRole('dialog', { name: `Delete timestamp ${first}?` });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    const restore = row.getByRole('button', { name: new RegExp(`^Restore timestamp ${first}`) });
    await restore.waitFor(WAIT);
    expect(await row.textContent()).toContain('Yes');
    await expect
      .poll(async () => (await ui.admin.get('/timestamps', { id: first })).body?.data?.[0]?.is_trash, WAIT)
      .toBe('t');

    await restore.click();
    await row.getByRole('button', { name: new RegExp(`^Delete timestamp ${first}`) }).waitFor(WAIT);
    await expect
      .poll(async () => (await ui.admin.get('/timestamps', { id: first })).body?.data?.[0]?.is_trash, WAIT)
      .toBe('f');

    // The timestamp as stored, its payload as JSON.
    await row.getByRole('link', { name: `Show timestamp ${first}` }).click();
    await page.waitForURL(new RegExp(`/vessels/timestamps/${first}$`));
    await expect.poll(() => page.locator('pre').textContent(), WAIT).toContain('"external_id": "a-1"');
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the types a data source and the operator set; the type dialog works by keyboard alone', async () => {
    const typeOf = async (imo: number) =>
      ((await ui.admin.get('/vessels', { search: String(imo) })).body?.data?.[0]?.vessel_type as number) ?? null;
    // A data source that knows the vessel's type sets it (Container Ship).
    const set = await ui.source.post('/agent/rest/vessel-type', { imo: AURORA.imo, vessel_type: 4 });
    expect([set.status, set.body]).toEqual([200, { result: 'OK' }]);

    const { context, page, problems } = await ui.signedInPage();
    await page.goto(`${ui.system.baseUrl}/vessels`);
    await expect.poll(() => rowOf(page, AURORA.vessel_name).textContent(), WAIT).toContain('Container Ship');
    await expect.poll(() => rowOf(page, BOREALIS.vessel_name).textContent(), WAIT).toContain('Unknown Vessel Type');

    // Keyboard only: focus the row's button, open, search, pick, save.
    await rowOf(page, BOREALIS.vessel_name)
      .getByRole('button', { name: `Change vessel type of ${BOREALIS.vessel_name}` })
      .focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Change vessel type of ${BOREALIS.vessel_name}` });
    await dialog.waitFor(WAIT);
    const select = dialog.getByLabel('Vessel type');
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    // The dialog holds the focus (its close button first); the list is the next stop.
    await page.keyboard.press('Tab');
    await expect.poll(() => select.evaluate((el) => el === document.activeElement), WAIT).toBe(true);
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('pilot');
    await page.getByRole('option', { name: 'Pilot Boat' }).waitFor(WAIT);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => select.inputValue(), WAIT).toBe('Pilot Boat');
    await page.keyboard.press('Tab'); // Cancel
    await page.keyboard.press('Tab'); // Save
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden', ...WAIT });
    await expect.poll(() => rowOf(page, BOREALIS.vessel_name).textContent(), WAIT).toContain('Pilot Boat');
    expect(await typeOf(BOREALIS.imo)).toBe(41);
    expect(await typeOf(AURORA.imo)).toBe(4);

    expect(problems).toEqual([]);
    await context.close();
  });

  it('fits a phone: no page scroll sideways, the table scrolls in its own box', async () => {
    const { context, page, problems } = await ui.signedInPage({ phone: true });
    await page.goto(`${ui.system.baseUrl}/vessels`);
    await rowOf(page, BOREALIS.vessel_name).waitFor(WAIT);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    // The wide timestamp table too.
    await page.getByRole('link', { name: `Timestamps of ${BOREALIS.vessel_name}` }).click();
    await page
      .getByRole('link', { name: /^Show timestamp/ })
      .first()
      .waitFor(WAIT);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(problems).toEqual([]);
    await context.close();
  });
});
