// The operator's timeline and the berth board in a browser, against `pnpm start` (embedded), with 25 port calls from
// a data source and the port's own entries: the compact timeline holds at least 20 port calls on one laptop screen,
// in the default order (next arrivals and departures in time order, vessels at berth grouped) or the one the user
// chose, kept after a reload; a card's header shows ETA/ATA and ETD/ATD and the route without placeholder dashes,
// and "New" marks only what arrived since the user last looked; the DEPARTING badge is legible and IMO links are
// underlined. The berth board draws a bar per port call on its berth at its time, a port block, the conflict of two
// vessels on one berth, opens a bar's timesheet, and follows a data source live. Axe finds nothing serious at either
// size. GET /timestamps names the data source by its API key. Set OPERATOR_SCREENSHOTS=<folder> to keep screenshots.

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { imoWithCheckDigit } from '@pcas/values';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HOUR, iso, waitForOngoingPortCalls } from '../timestamps.ts';
import { browserSuite, chromiumAvailable, seriousAccessibilityFindings, subscribed, WAIT } from './browser.ts';

const SHOTS = process.env.OPERATOR_SCREENSHOTS;

const HARBOUR = Array.from({ length: 22 }, (_, i) => ({
  imo: imoWithCheckDigit(940100 + i),
  vessel_name: `Harbour ${String(i).padStart(2, '0')}`,
}));
const MOORED = { imo: imoWithCheckDigit(940201), vessel_name: 'Moored One' };
const OVERLAP = { imo: imoWithCheckDigit(940202), vessel_name: 'Overlap Two' };
const LEAVING = { imo: imoWithCheckDigit(940203), vessel_name: 'Leaving Three' };
const LATE = { imo: imoWithCheckDigit(940204), vessel_name: 'Late Comer' };
const SOURCE_PAIRS: Array<[string, string]> = [
  ['Estimated', 'Arrival_Vessel_PortArea'],
  ['Estimated', 'Arrival_Vessel_Berth'],
  ['Estimated', 'Departure_Vessel_Berth'],
];

const rowNames = (page: Page) =>
  page.locator('tr[data-row] th button').evaluateAll((buttons) => buttons.map((b) => b.textContent));

/** WCAG's contrast ratio of two `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (rgb: string) => {
    const [r, g, bl] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [luminance(a), luminance(b)].sort((m, n) => n - m);
  return (x + 0.05) / (y + 0.05);
}

/**
 * A zone, whole hours east of UTC, in which the board's default window (from 12 hours back, ticks every 6 hours)
 * starts less than an hour before its first tick, so that tick's label sits at the axis's left edge.
 */
function zoneWithTickAtTheEdge(now = Date.now()): string {
  const fromHour = new Date(now - 12 * HOUR).getUTCHours();
  return `Etc/GMT-${6 + ((5 - fromHour + 24) % 6)}`;
}

describe.skipIf(!chromiumAvailable)('the operator’s timeline and berth board (embedded mode)', () => {
  const start = Math.floor(Date.now() / 60_000) * 60_000;

  /** A timestamp from the data source (its route added to `payload`), or one the port enters by hand. */
  const post = async (
    by: 'source' | 'manual',
    vessel: { imo: number; vessel_name: string },
    time_type: string,
    state: string,
    at: number,
    payload: Record<string, unknown> = {},
  ) => {
    const body = { ...vessel, time_type, state, time: iso(at) };
    const res =
      by === 'source'
        ? await ui.source.post('/agent/rest/timestamps', {
            ...body,
            payload: { from_port: 'GBIMM', next_port: 'PLGDN', ...payload },
          })
        : await ui.admin.post('/timestamps', { ...body, payload });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  const ui = browserSuite({ clients: 'dataSource', prepare, timeoutMs: 180_000 });

  async function prepare() {
    for (const [timestamp_time_type, timestamp_state] of SOURCE_PAIRS) {
      const res = await ui.admin.post('/timestamp-api-key-weights', {
        timestamp_time_type,
        timestamp_state,
        api_key_ids: [ui.apiKey.id],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    expect((await ui.admin.put('/settings/queue_module/enabled')).status).toBe(200);
    expect((await ui.admin.post('/berths', { code: 'B1', name: 'North quay', nominatable: true })).status).toBe(200);
    const berths = await ui.admin.get('/berths', { limit: 10, offset: 0 });
    const north = (berths.body?.data ?? []).find((b: { code: string }) => b.code === 'B1');
    const block = await ui.admin.post('/berth-reservations', {
      berth_id: north.id,
      berth_reservation_type: 'port_blocked',
      reservation_start: iso(start + 20 * HOUR),
      reservation_end: iso(start + 22 * HOUR),
    });
    expect(block.status, JSON.stringify(block.body)).toBe(200);

    for (const [i, vessel] of HARBOUR.entries()) {
      const berth = { berth: `K${i}`, berth_name: `Quay ${i}` };
      await post('source', vessel, 'Estimated', 'Arrival_Vessel_PortArea', start + (1.5 + i) * HOUR, berth);
      await post('source', vessel, 'Estimated', 'Arrival_Vessel_Berth', start + (2 + i) * HOUR, berth);
      await post('source', vessel, 'Estimated', 'Departure_Vessel_Berth', start + (10 + i) * HOUR, berth);
    }
    const b1 = { berth: 'B1', berth_name: 'North quay', from_port: 'GBIMM', next_port: 'PLGDN' };
    // At berth since three hours, leaving within the hour as planned.
    await post('manual', MOORED, 'Actual', 'Arrival_Vessel_Berth', start - 3 * HOUR, b1);
    await post('manual', MOORED, 'Planned', 'Departure_Vessel_Berth', start + HOUR, b1);
    // Due at the same berth before Moored One has left: a conflict.
    await post('source', OVERLAP, 'Estimated', 'Arrival_Vessel_Berth', start + 0.5 * HOUR, b1);
    await post('source', OVERLAP, 'Estimated', 'Departure_Vessel_Berth', start + 6 * HOUR, b1);
    // Cargo done: departing.
    const b2 = { berth: 'B2', berth_name: 'Oil pier' };
    await post('manual', LEAVING, 'Actual', 'Arrival_Vessel_Berth', start - 8 * HOUR, b2);
    await post('manual', LEAVING, 'Actual', 'CargoOp_Completed', start - HOUR, b2);
    await post('source', LEAVING, 'Estimated', 'Departure_Vessel_Berth', start + 0.75 * HOUR, b2);
    await waitForOngoingPortCalls(ui.admin, (count) => count === HARBOUR.length + 3, 60_000);
    if (SHOTS) await mkdir(SHOTS, { recursive: true });
  }

  const shot = async (page: Page, name: string) => {
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, name) });
  };

  it('GET /timestamps names a data source by its API key', async () => {
    const res = await ui.admin.get('/timestamps', { imo: OVERLAP.imo, limit: 10, offset: 0 });
    expect(res.status).toBe(200);
    expect(res.body.data.map((row: { created_by_name: string }) => row.created_by_name)).toEqual([
      ui.apiKey.name,
      ui.apiKey.name,
    ]);
    // The original's fields are all still there.
    expect(Object.keys(res.body.data[0])).toEqual(
      expect.arrayContaining(['created_by', 'payload', 'is_trash', 'time']),
    );
  });

  it('compact: 20 and more port calls on one laptop screen, in the default order, the choice kept per user', async () => {
    const { context, page, problems } = await ui.signedInPage();
    await page.getByRole('article').first().waitFor(WAIT);
    await page.getByText('Compact', { exact: true }).click();
    await page
      .locator('tr[data-row]')
      .nth(HARBOUR.length + 2)
      .waitFor(WAIT);
    const onScreen = await page.evaluate(
      () =>
        [...document.querySelectorAll('tr[data-row]')].filter((row) => {
          const box = row.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }).length,
    );
    expect(onScreen).toBeGreaterThanOrEqual(20);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // Next movements in time order (Overlap Two's berth arrival in half an hour, Leaving Three's departure in 45
    // minutes, then the Harbour vessels' arrivals), then the vessel at berth.
    const expected = [
      OVERLAP.vessel_name,
      LEAVING.vessel_name,
      ...HARBOUR.map((v) => v.vessel_name),
      MOORED.vessel_name,
    ];
    expect(await rowNames(page)).toEqual(expected);
    const groups = await page.locator('tr th[scope="colgroup"]').allTextContents();
    expect(groups).toEqual([`Next arrivals and departures (${HARBOUR.length + 2})`, 'At berth (1)']);
    // Each row: vessel, status, berth, next event, ETA/ATA, ETD/ATD, newest.
    const moored = page.locator('tr[data-row]', { hasText: MOORED.vessel_name });
    const cells = await moored.locator('th, td').allTextContents();
    expect(cells[1]).toBe('at berth');
    expect(cells[2]).toBe('North quay');
    expect(cells[4]).toMatch(/^ATA \d\d\/\d\d \d\d:\d\d$/);
    expect(cells[5]).toMatch(/^PTD \d\d\/\d\d \d\d:\d\d$/);
    expect(cells[6]).toMatch(/ago|now|sec/);
    await shot(page, 'laptop-timeline-compact.png');
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    // A click on the row opens its full card.
    await moored.locator('td').nth(1).click();
    await page.getByRole('article', { name: MOORED.vessel_name }).waitFor(WAIT);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    // Another order, kept after a reload (and the layout too).
    await page.getByLabel('Order').selectOption('name');
    await expect.poll(async () => (await rowNames(page))[0], WAIT).toBe(HARBOUR[0].vessel_name);
    await page.reload();
    await page
      .locator('tr[data-row]')
      .nth(HARBOUR.length + 2)
      .waitFor(WAIT);
    expect(await rowNames(page)).toEqual([...expected].sort((a, b) => a.localeCompare(b)));
    await page.getByLabel('Order').selectOption('movements');
    await page.getByText('Cards', { exact: true }).click();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the header: ETA/ATA and ETD/ATD, the route without dashes, New only since the last look; badges legible', async () => {
    const { context, page, problems } = await ui.signedInPage();
    const moored = page.getByRole('article', { name: MOORED.vessel_name });
    await moored.waitFor(WAIT);
    // Leaving within the hour: its planned departure is in the header, beside its actual arrival.
    expect(await moored.locator('[data-arrival]').textContent()).toMatch(
      /^ATA \d\d\/\d\d\/\d{4} \d\d:\d\d \(3 hr\. ago\)$/,
    );
    expect(await moored.locator('[data-departure]').textContent()).toMatch(/^PTD .*\(in \d+ (min|hr)\.\)$/);
    const harbour = page.getByRole('article', { name: HARBOUR[3].vessel_name });
    expect(await harbour.locator('[data-arrival]').textContent()).toMatch(/^ETA /);
    expect(await harbour.locator('[data-departure]').textContent()).toMatch(/^ETD /);
    const route = (await harbour.locator('p', { hasText: 'From' }).first().textContent()) ?? '';
    expect(route).toContain('From GBIMM');
    expect(route).toContain('Next port PLGDN');
    expect(route).not.toContain('—');
    // A first look in this browser: what came in the last ten minutes is new.
    expect(await harbour.locator('[data-new-count]').count()).toBe(1);

    // The DEPARTING badge reads at AA contrast; the IMO link is underlined, not told apart by colour alone.
    const badge = page.getByRole('article', { name: LEAVING.vessel_name }).locator('[data-status="departing"]');
    const colours = await badge.evaluate((el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]);
    expect(contrast(colours[0], colours[1])).toBeGreaterThanOrEqual(4.5);
    const link = moored.getByRole('link', { name: `IMO ${MOORED.imo}` });
    expect(await link.evaluate((el) => getComputedStyle(el).textDecorationLine)).toContain('underline');
    await shot(page, 'laptop-timeline-cards.png');

    // Looked again: nothing is new, until a data source moves an ETA.
    await page.reload();
    await moored.waitFor(WAIT);
    await subscribed(page, 'portcalls-changed');
    expect(await page.locator('[data-new-count], li[data-fresh]').count()).toBe(0);
    await post('source', HARBOUR[5], 'Estimated', 'Arrival_Vessel_PortArea', start + 7 * HOUR, { berth: 'K5' });
    const moved = page.getByRole('article', { name: HARBOUR[5].vessel_name });
    await moved.locator('[data-new-count]').waitFor(WAIT);
    expect(await page.locator('article [data-new-count]').count()).toBe(1);
    expect(await moved.locator('li[data-fresh]').count()).toBe(1);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the berth board: a bar per port call at its berth and time, a port block, a conflict, live, to the timesheet', async () => {
    const { context, page, problems } = await ui.signedInPage();
    await page.goto(`${ui.system.baseUrl}/berth-board`);
    const calls = HARBOUR.length + 3;
    await page
      .locator('[data-bar="portcall"]')
      .nth(calls - 1)
      .waitFor(WAIT);
    expect(await page.locator('[data-bar="portcall"]').count()).toBe(calls);

    // Moored One on North quay from three hours ago (the window starts 12 hours back and spans 60).
    const north = page.locator('[data-berth-name="North quay"]');
    const mooredBar = north.locator('[data-bar="portcall"]', { hasText: MOORED.vessel_name });
    const place = await mooredBar.evaluate((bar) => {
      const track = bar.parentElement!.getBoundingClientRect();
      const box = bar.getBoundingClientRect();
      return { left: (box.left - track.left) / track.width, width: box.width / track.width };
    });
    expect(place.left).toBeCloseTo(9 / 60, 1);
    expect(place.width).toBeCloseTo(4 / 60, 1);
    expect(await mooredBar.getAttribute('data-kind')).toBe('at-berth');
    // Each Harbour vessel on its own quay, expected.
    const harbour = page.locator('[data-berth-name="Quay 4"] [data-bar="portcall"]');
    expect(await harbour.textContent()).toBe(HARBOUR[4].vessel_name);
    expect(await harbour.getAttribute('data-kind')).toBe('expected');
    expect(await north.locator('[data-bar="block"]').count()).toBe(1);
    // The conflict, drawn and said.
    const overlapBar = north.locator('[data-bar="portcall"]', { hasText: OVERLAP.vessel_name });
    expect(await mooredBar.getAttribute('data-conflict')).not.toBeNull();
    expect(await overlapBar.getAttribute('data-conflict')).not.toBeNull();
    expect(await page.locator('[data-bar][data-conflict]').count()).toBe(2);
    expect(await page.getByRole('heading', { name: '1 conflict' }).count()).toBe(1);
    expect(await page.locator('[data-conflict-row]').textContent()).toContain(
      `${MOORED.vessel_name} and ${OVERLAP.vessel_name} overlap on North quay`,
    );
    expect(await page.locator('[data-now]').count()).toBeGreaterThan(0);
    await shot(page, 'laptop-berth-board.png');
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    // Live: a new vessel's bar appears without a reload.
    await subscribed(page, 'portcalls-changed');
    await post('source', LATE, 'Estimated', 'Arrival_Vessel_Berth', start + 30 * HOUR, {
      berth: 'K0',
      berth_name: 'Quay 0',
    });
    await page.locator('[data-berth-name="Quay 0"] [data-bar="portcall"]', { hasText: LATE.vessel_name }).waitFor(WAIT);

    // A bar opens its port call's timesheet.
    await mooredBar.click();
    await page.waitForURL(/\/port-calls\/\d+$/, WAIT);
    await page.getByText(MOORED.vessel_name).first().waitFor(WAIT);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('at a phone’s width: the timeline and the board fit, axe clean', async () => {
    const { context, page, problems } = await ui.signedInPage({ phone: true, timezoneId: zoneWithTickAtTheEdge() });
    await page.getByRole('article').first().waitFor(WAIT);
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await fits()).toBe(true);
    await shot(page, 'phone-timeline-cards.png');
    await page.getByText('Compact', { exact: true }).click();
    await page.locator('tr[data-row]').first().waitFor(WAIT);
    expect(await fits()).toBe(true);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    await shot(page, 'phone-timeline-compact.png');
    await page.goto(`${ui.system.baseUrl}/berth-board`);
    await page.locator('[data-bar="portcall"]').first().waitFor(WAIT);
    expect(await fits()).toBe(true);
    // The time axis clips its labels: the first and the last lie wholly inside it (none cut at an edge).
    const labels = await page.evaluate(() => {
      const track = document.querySelector('[data-axis-track]')!.getBoundingClientRect();
      const ticks = [...document.querySelectorAll('[data-tick]')].map((tick) => tick.getBoundingClientRect());
      const inside = (box: DOMRect) => box.left >= track.left - 0.5 && box.right <= track.right + 0.5;
      return { count: ticks.length, first: inside(ticks[0]!), last: inside(ticks.at(-1)!) };
    });
    expect(labels).toEqual({ count: expect.any(Number), first: true, last: true });
    expect(labels.count).toBeGreaterThan(5);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    await shot(page, 'phone-berth-board.png');
    expect(problems).toEqual([]);
    await context.close();
  });
});
