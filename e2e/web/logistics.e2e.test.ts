// Gate logistics in a browser, against `pnpm start` (embedded): a gate system (a data source with an API key) posts
// truck passages, the view lists them newest first with plates as painted; another passage appears live, without
// a reload; a licence-plate search; the logistics module switched off over the API takes the menu entry
// away and the view says so; axe on the view, and the view at a phone's width without sideways scrolling.

import type { ApiClient, RunningSystem } from '@pcas/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, adminAndDataSource, isoSecondsAgo } from '../timestamps.ts';
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

function passage(overrides: Record<string, unknown> = {}) {
  return {
    time: isoSecondsAgo(600),
    external_id: 1001,
    checkpoint: 'Gate 1',
    direction: 'In',
    front_license_plates: [{ number: 'ABC123', nationality: 'FIN' }],
    rear_license_plates: [{ number: 'TRL55', nationality: 'FIN' }],
    containers: [{ identification: 'MSCU1234565' }],
    ...overrides,
  };
}

describe.skipIf(!chromiumAvailable)('gate logistics in the web UI', () => {
  let system: RunningSystem;
  let browser: Browser;
  let admin: ApiClient;
  let gate: ApiClient;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  const passages = () => page.getByRole('list', { name: 'Gate passages' }).getByRole('listitem');

  async function post(body: Record<string, unknown>) {
    const res = await gate.post('/agent/rest/logistics-timestamps', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }

  beforeAll(async () => {
    [system, browser] = await startEmbeddedAndBrowser();
    const source = await adminAndDataSource(system.baseUrl);
    admin = source.admin;
    // A gate system posts with an API key, as every data source does.
    gate = source.api.withApiKey(source.apiKey.key);
    ({ context, page, problems } = await newPage(browser));
    await signIn(page, system.baseUrl, ADMIN.email, ADMIN.password);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await system?.stop();
  });

  it('lists the gate passages newest first, and a new one appears live without a reload', async () => {
    const postedFirst = Date.now();
    await post(passage());
    await post(
      passage({
        time: isoSecondsAgo(300),
        external_id: 1002,
        checkpoint: 'Gate 2',
        direction: 'Out',
        front_license_plates: [{ number: 'XYZ987', nationality: 'SWE' }],
        rear_license_plates: [],
        containers: [],
      }),
    );

    await page
      .getByRole('navigation', { name: 'Port logistics' })
      .getByRole('link', { name: 'Gate logistics' })
      .click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe('Gate logistics');
    expect(await page.title()).toContain('Gate logistics');
    await expect.poll(() => passages().count(), WAIT).toBe(2);
    const [newest, oldest] = await passages().allTextContents();
    expect(newest).toContain('Departed');
    expect(newest).toContain('Gate 2');
    expect(newest).toContain('XYZ-987 (SWE)');
    expect(oldest).toContain('Arrived');
    expect(oldest).toContain('ABC-123 (FIN)');
    expect(oldest).toContain('TRL-55 (FIN)');
    expect(oldest).toContain('MSCU1234565');
    // Posted 10 minutes ago; the page rounds to minutes and moves its clock on every half minute, and the machine
    // may have been slow since the post.
    const ago = Number(/(\d+) min\.? ago/.exec(oldest)?.[1]);
    expect(ago).toBeGreaterThanOrEqual(10);
    expect(ago).toBeLessThanOrEqual(10 + Math.ceil((Date.now() - postedFirst) / 60_000));
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    await page.evaluate(() => Object.assign(window, { notReloaded: true }));
    // Only a subscription the server has confirmed gets the message of the passage.
    await subscribed(page, 'logistics-changed');
    await post(
      passage({
        time: isoSecondsAgo(5),
        external_id: 1003,
        front_license_plates: [{ number: 'LIV321', nationality: 'EST' }],
      }),
    );
    // How fast is bench/'s business; here only that it shows without a reload.
    await passages().first().filter({ hasText: 'LIV-321 (EST)' }).waitFor(WAIT);
    expect(await passages().count()).toBe(3);
    expect(await page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true);

    // The newest 500: the limit travels in the path.
    const asked = page.waitForRequest((request) => request.url().endsWith('/api/v1/logistics-timestamps/500'));
    await page.getByLabel('Passages shown').selectOption('500');
    await asked;
    await expect.poll(() => passages().count(), WAIT).toBe(3);
    expect(problems).toEqual([]);
  });

  it('finds the passages of one licence plate', async () => {
    const asked = page.waitForRequest((request) =>
      request.url().endsWith('/api/v1/logistics-timestamps/by-license-plate/ABC123'),
    );
    await page.getByLabel('Licence plate', { exact: true }).fill('abc-123');
    await page.getByLabel('Licence plate', { exact: true }).press('Enter');
    await asked;
    await page.getByRole('heading', { name: 'Passages of ABC-123' }).waitFor(WAIT);
    const found = page.getByRole('list', { name: 'Passages of the licence plate' }).getByRole('listitem');
    // ABC123 passed once; the live passage shares only the trailer (TRL55), which is not what was searched.
    await expect.poll(() => found.count(), WAIT).toBe(1);
    expect(await found.first().textContent()).toContain('Gate 1');
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    await page.getByLabel('Licence plate', { exact: true }).fill('NOSUCH1');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No passages of this licence plate').waitFor(WAIT);

    await page.getByRole('button', { name: 'Show all passages' }).click();
    await expect.poll(() => passages().count(), WAIT).toBe(3);
    expect(problems).toEqual([]);
  });

  it('fits a phone: no sideways scrolling, axe clean', async () => {
    const phone = await newPage(browser, { phone: true });
    await signIn(phone.page, system.baseUrl, ADMIN.email, ADMIN.password);
    await phone.page.goto(`${system.baseUrl}/logistics`);
    await phone.page.getByRole('list', { name: 'Gate passages' }).getByRole('listitem').first().waitFor(WAIT);
    const overflow = await phone.page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousAccessibilityFindings(phone.page)).toEqual([]);
    expect(phone.problems).toEqual([]);
    await phone.context.close();
  });

  it('leaves the menu and says so when the logistics module is switched off', async () => {
    const off = await admin.put('/settings/logistics_module/disabled');
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    try {
      // The API refuses, naming the module.
      const refused = await admin.get('/logistics-timestamps/100');
      expect(refused.status).toBe(403);
      expect(JSON.stringify(refused.body)).toMatch(/logistics.module/i);

      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Gate logistics' }).waitFor(WAIT);
      await page.getByText('Gate logistics is switched off').waitFor(WAIT);
      await expect.poll(() => page.getByRole('link', { name: 'Gate logistics', exact: true }).count(), WAIT).toBe(0);
      expect(await seriousAccessibilityFindings(page)).toEqual([]);
    } finally {
      await admin.put('/settings/logistics_module/enabled');
    }
    await page.reload();
    await expect.poll(() => page.getByRole('link', { name: 'Gate logistics', exact: true }).count(), WAIT).toBe(1);
    await expect.poll(() => passages().count(), WAIT).toBe(3);
    expect(problems).toEqual([]);
  });
});
