// Gate logistics in a browser, against `pnpm start` (embedded): a gate system (a data source with an API key) posts
// truck passages, the view lists them newest first with plates as painted; another passage appears live, without
// a reload; a licence-plate search; the logistics module switched off over the API takes the menu entry
// away and the view says so; axe on the view, and the view at a phone's width without sideways scrolling.

import { describe, expect, it } from 'vitest';
import { gatePassage } from '../../services/logistics/src/testing/gate-passages.ts';
import { isoSecondsAgo } from '../timestamps.ts';
import { browserSuite, chromiumAvailable, seriousAccessibilityFindings, subscribed, WAIT } from './browser.ts';

/** Ten minutes ago unless said: the view shows how long ago. */
const passage = (overrides: Record<string, unknown> = {}) => gatePassage({ time: isoSecondsAgo(600), ...overrides });

describe.skipIf(!chromiumAvailable)('gate logistics in the web UI', () => {
  // A gate system posts with an API key, as every data source does.
  const ui = browserSuite({ clients: 'dataSource', page: {} });

  const passages = () => ui.page.getByRole('list', { name: 'Gate passages' }).getByRole('listitem');

  async function post(body: Record<string, unknown>) {
    const res = await ui.source.post('/agent/rest/logistics-timestamps', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  it('lists the gate passages newest first, and a new one appears live without a reload', async () => {
    const postedFirst = Date.now();
    await post(passage());
    await post(
      passage({
        time: isoSecondsAgo(300),
        external_id: 502,
        checkpoint: 'Gate 2',
        direction: 'Out',
        front_license_plates: [{ number: 'XYZ987', nationality: 'SWE' }],
        rear_license_plates: [],
        containers: [],
      }),
    );

    await ui.page
      .getByRole('navigation', { name: 'Port logistics' })
      .getByRole('link', { name: 'Gate logistics' })
      .click();
    await expect.poll(() => ui.page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe('Gate logistics');
    expect(await ui.page.title()).toContain('Gate logistics');
    await expect.poll(() => passages().count(), WAIT).toBe(2);
    const [newest, oldest] = await passages().allTextContents();
    expect(newest).toContain('Departed');
    expect(newest).toContain('Gate 2');
    expect(newest).toContain('XYZ-987 (SWE)');
    expect(oldest).toContain('Arrived');
    expect(oldest).toContain('ABC-123 (FI)');
    expect(oldest).toContain('TRL-77 (FI)');
    expect(oldest).toContain('MSCU1234567');
    // Posted 10 minutes ago; the page rounds to minutes and moves its clock on every half minute, and the machine
    // may have been slow since the post.
    const ago = Number(/(\d+) min\.? ago/.exec(oldest)?.[1]);
    expect(ago).toBeGreaterThanOrEqual(10);
    expect(ago).toBeLessThanOrEqual(10 + Math.ceil((Date.now() - postedFirst) / 60_000));
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);

    await ui.page.evaluate(() => Object.assign(window, { notReloaded: true }));
    // Only a subscription the server has confirmed gets the message of the passage.
    await subscribed(ui.page, 'logistics-changed');
    await post(
      passage({
        time: isoSecondsAgo(5),
        external_id: 503,
        front_license_plates: [{ number: 'LIV321', nationality: 'EST' }],
      }),
    );
    // How fast is bench/'s business; here only that it shows without a reload.
    await passages().first().filter({ hasText: 'LIV-321 (EST)' }).waitFor(WAIT);
    expect(await passages().count()).toBe(3);
    expect(await ui.page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true);

    // The newest 500: the limit travels in the path.
    const asked = ui.page.waitForRequest((request) => request.url().endsWith('/api/v1/logistics-timestamps/500'));
    await ui.page.getByLabel('Passages shown').selectOption('500');
    await asked;
    await expect.poll(() => passages().count(), WAIT).toBe(3);
    expect(ui.problems).toEqual([]);
  });

  it('finds the passages of one licence plate', async () => {
    const asked = ui.page.waitForRequest((request) =>
      request.url().endsWith('/api/v1/logistics-timestamps/by-license-plate/ABC123'),
    );
    await ui.page.getByLabel('Licence plate', { exact: true }).fill('abc-123');
    await ui.page.getByLabel('Licence plate', { exact: true }).press('Enter');
    await asked;
    await ui.page.getByRole('heading', { name: 'Passages of ABC-123' }).waitFor(WAIT);
    const found = ui.page.getByRole('list', { name: 'Passages of the licence plate' }).getByRole('listitem');
    // ABC123 passed once; the live passage shares only the trailer (TRL77), which is not what was searched.
    await expect.poll(() => found.count(), WAIT).toBe(1);
    expect(await found.first().textContent()).toContain('Gate 1');
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);

    await ui.page.getByLabel('Licence plate', { exact: true }).fill('NOSUCH1');
    await ui.page.getByRole('button', { name: 'Search' }).click();
    await ui.page.getByText('No passages of this licence plate').waitFor(WAIT);

    await ui.page.getByRole('button', { name: 'Show all passages' }).click();
    await expect.poll(() => passages().count(), WAIT).toBe(3);
    expect(ui.problems).toEqual([]);
  });

  it('fits a phone: no sideways scrolling, axe clean', async () => {
    await ui.fitsPhone('/logistics', (page) =>
      page.getByRole('list', { name: 'Gate passages' }).getByRole('listitem').first(),
    );
  });

  it('leaves the menu and says so when the logistics module is switched off', async () => {
    await ui.withModuleOff('logistics_module', async () => {
      // The API refuses, naming the module.
      const refused = await ui.admin.get('/logistics-timestamps/100');
      expect(refused.status).toBe(403);
      expect(JSON.stringify(refused.body)).toMatch(/logistics.module/i);

      await ui.page.reload();
      await ui.page.getByRole('heading', { level: 1, name: 'Gate logistics' }).waitFor(WAIT);
      await ui.page.getByText('Gate logistics is switched off').waitFor(WAIT);
      await expect.poll(() => ui.page.getByRole('link', { name: 'Gate logistics', exact: true }).count(), WAIT).toBe(0);
      expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);
    });
    await ui.page.reload();
    await expect.poll(() => ui.page.getByRole('link', { name: 'Gate logistics', exact: true }).count(), WAIT).toBe(1);
    await expect.poll(() => passages().count(), WAIT).toBe(3);
    expect(ui.problems).toEqual([]);
  });
});
