// Every view at a laptop's size (1366×768) and a phone's (390×844), with a port call in the lists: the page never
// scrolls sideways (a wide table scrolls inside itself), the actions of a table's first row are on screen (the
// action column stays at the table's right edge), and axe finds nothing serious. Set LAYOUT_SCREENSHOTS=<folder>
// to keep a screenshot of each view.

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { eventually } from '@pcas/testing';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { postTimestamps, timestamp } from '../timestamps.ts';
import { browserSuite, chromiumAvailable, seriousAccessibilityFindings, WAIT } from './browser.ts';

const VESSEL = { imo: 9074729, vessel_name: 'Layout E2E' };

const VIEWS = [
  '/',
  '/berth-board',
  '/port-calls',
  '/vessels',
  '/notifications',
  '/logistics',
  '/sea-chart',
  '/vis',
  '/inbound-vessels',
  '/ports',
  '/queue/dashboard',
  '/queue/slot-requests',
  '/queue/berth-calendar',
  '/queue/nominations',
  '/queue/berths',
  '/admin/users',
  '/admin/registration-codes',
  '/admin/roles',
  '/admin/api-keys',
  '/admin/priorities',
  '/admin/settings',
  '/admin/translations',
  '/admin/fixed-vessels',
  '/profile',
];

interface Layout {
  pageWidth: number;
  viewport: number;
  /** The first body row of each table with its action cell's buttons and links: where they are. */
  actions: Array<{ table: string; name: string; left: number; right: number }>;
}

/** How wide the page is against the window, and where the first row's actions of each table are. */
function measure(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const actions: Layout['actions'] = [];
    for (const table of document.querySelectorAll('main table')) {
      const headers = [...table.querySelectorAll('thead th')].map((th) => th.textContent?.trim() ?? '');
      const column = headers.indexOf('Actions');
      if (column === -1) continue;
      const row = table.querySelector('tbody tr');
      const cell = row?.children[column];
      if (!cell) continue;
      for (const control of cell.querySelectorAll('button, a')) {
        const box = control.getBoundingClientRect();
        actions.push({
          table: table.querySelector('caption')?.textContent ?? '',
          name: control.textContent?.trim() ?? '',
          left: box.left,
          right: box.right,
        });
      }
    }
    return { pageWidth: document.documentElement.scrollWidth, viewport: window.innerWidth, actions };
  });
}

describe.skipIf(!chromiumAvailable)('every view fits a laptop and a phone (embedded mode)', () => {
  const ui = browserSuite({
    clients: 'dataSource',
    allowEtas: true,
    prepare: async (ui) => {
      for (const module of ['activity_module', 'logistics_module', 'map_module', 'vis_module', 'queue_module']) {
        expect((await ui.admin.put(`/settings/${module}/enabled`)).status).toBe(200);
      }
      await postTimestamps(ui.source, timestamp(VESSEL));
      await eventually(
        async () => (await ui.admin.get('/port-calls', { limit: 1, offset: 0 })).body?.data?.length,
        (length) => length === 1,
        'the port call',
      );
    },
  });

  for (const phone of [false, true]) {
    it(`at ${phone ? 'a phone’s 390' : 'a laptop’s 1366'} px: no sideways page, actions on screen, axe clean`, async () => {
      const { context, page, problems } = await ui.signedInPage({ phone });
      const shots = process.env.LAYOUT_SCREENSHOTS;
      if (shots) await mkdir(shots, { recursive: true });
      const found: Record<string, unknown> = {};
      for (const view of VIEWS) {
        await page.goto(`${ui.system.baseUrl}${view}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor(WAIT);
        await page.waitForLoadState('networkidle');
        // A list's first page is in (or said to be empty).
        await page.waitForFunction(
          () => !document.querySelector('main [aria-busy="true"], main .mantine-Loader-root'),
          null,
          WAIT,
        );
        if (shots) {
          const name = `${phone ? 'phone' : 'laptop'}${view.replaceAll('/', '_') || '_home'}.png`;
          await page.screenshot({ path: path.join(shots, name), fullPage: true });
        }
        const layout = await measure(page);
        const offScreen = layout.actions.filter((a) => a.left < 0 || a.right > layout.viewport + 0.5);
        const findings = await seriousAccessibilityFindings(page);
        if (layout.pageWidth > layout.viewport || offScreen.length > 0 || findings.length > 0) {
          found[view] = { pageWidth: layout.pageWidth, viewport: layout.viewport, offScreen, findings };
        }
      }
      expect(found).toEqual({});
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
