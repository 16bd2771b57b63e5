// The port-call views in a browser, against `pnpm start` (embedded): a data source posts an ETA and an ETD, so a
// port call exists; the operator finds it in the list, opens its timesheet, downloads the CSV through the button
// (its rows hold both times in the browser's zone), closes the port call through the list and sees its status
// become done without a reload; axe on the list and on the port call, and the list at a phone's width.

import { readFile } from 'node:fs/promises';
import { eventually } from '@pcas/testing';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { allowTimestamps, HOUR, iso, postTimestamps, timestamp } from '../timestamps.ts';
import { browserSuite, chromiumAvailable, seriousAccessibilityFindings, subscribed, WAIT } from './browser.ts';

const VESSEL = { imo: 9074729, vessel_name: 'Timesheet E2E' };
const ZONE = 'Europe/Helsinki';

/** The instant as the timesheet writes it: local time of the zone with its offset, `2026-11-25T22:00:00+02:00`. */
function inZone(ms: number, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    })
      .formatToParts(new Date(ms))
      .map((part) => [part.type, part.value]),
  );
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : parts.timeZoneName.replace('GMT', '');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

describe.skipIf(!chromiumAvailable)('the port-call views (embedded mode)', () => {
  let portCallId: number;
  const eta = Math.floor(Date.now() / 1000) * 1000 + 5 * HOUR;
  const etd = eta + 25 * HOUR;

  const ui = browserSuite({
    clients: 'dataSource',
    allowEtas: true,
    prepare: async (ui) => {
      await allowTimestamps(ui.admin, [ui.apiKey.id], 'Estimated', 'Departure_Vessel_Berth');
      await postTimestamps(
        ui.source,
        timestamp({ ...VESSEL, time: iso(eta) }),
        timestamp({ ...VESSEL, state: 'Departure_Vessel_Berth', time: iso(etd) }),
      );
      // The projector has made the port call of both once its ETD is known.
      const list = await eventually(
        () => ui.admin.get('/port-calls', { limit: 10, offset: 0, search: String(VESSEL.imo) }),
        (found) => Boolean(found.body?.data?.[0]?.current_etd),
        'the port call with both times',
      );
      portCallId = list.body.data[0].id;
    },
  });

  const rowOf = (page: Page) =>
    page.getByRole('row').filter({ has: page.getByRole('link', { name: VESSEL.vessel_name }) });

  it('lists the port call, opens its timesheet and downloads it as CSV in the browser’s zone', async () => {
    const { context, page, problems } = await ui.signedInPage({ timezoneId: ZONE });
    await page.getByRole('link', { name: 'Port calls' }).click();
    await page.waitForURL(/\/port-calls$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe('Port calls');
    await rowOf(page).waitFor(WAIT);
    expect(await rowOf(page).textContent()).toContain(String(VESSEL.imo));
    expect(await rowOf(page).textContent()).toContain('arriving');

    // The expanded row: the two timestamps behind the port call.
    await page.getByRole('button', { name: `Show timestamps of ${VESSEL.vessel_name}` }).click();
    await page.getByText(`Timestamps of port call ${portCallId}: 1–2 of 2`).waitFor(WAIT);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    await rowOf(page).getByRole('link', { name: VESSEL.vessel_name }).click();
    await page.waitForURL(new RegExp(`/port-calls/${portCallId}$`));
    const sheet = page.getByRole('table', { name: 'Timesheet' });
    const etaRow = sheet.getByRole('row').filter({ hasText: /^Estimated Arrival Vessel Port Area/ });
    await etaRow.waitFor(WAIT);
    // 25.11.2026 22:00 in Helsinki for 20:00 UTC (the browser's zone, the page's en-GB order).
    const [date, time] = inZone(eta, ZONE).split('T');
    const [year, month, day] = date.split('-');
    expect(await etaRow.textContent()).toContain(`${day}/${month}/${year} ${time.slice(0, 5)}`);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    const [download] = await Promise.all([
      page.waitForEvent('download', WAIT),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${portCallId}-${VESSEL.imo}-${VESSEL.vessel_name}.csv`);
    const csv = await readFile((await download.path())!, 'utf8');
    const rows = csv.trim().split('\n');
    expect(rows[0]).toBe('"IMO","Name","Nationality","From","To","Next","Berth","Event","Time"');
    const ship = `"${VESSEL.imo}","${VESSEL.vessel_name}"`;
    expect(rows).toContain(`${ship},"","","","","","Estimated Arrival Vessel Port Area","${inZone(eta, ZONE)}"`);
    expect(rows).toContain(`${ship},"","","","","","Estimated Departure Vessel Berth","${inZone(etd, ZONE)}"`);

    // A new ETA from the data source shows on the open timesheet without a reload (portcalls-changed), to a
    // subscription the server has confirmed.
    await subscribed(page, 'portcalls-changed');
    const later = eta + HOUR;
    const posted = await ui.source.post('/agent/rest/timestamps', timestamp({ ...VESSEL, time: iso(later) }));
    expect(posted.status).toBe(200);
    const [laterDate, laterTime] = inZone(later, ZONE).split('T');
    const [y, m, d] = laterDate.split('-');
    await expect.poll(() => etaRow.textContent(), WAIT).toContain(`${d}/${m}/${y} ${laterTime.slice(0, 5)}`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('closes the port call through the list and shows it done without a reload', async () => {
    const { context, page, problems } = await ui.signedInPage();
    await page.goto(`${ui.system.baseUrl}/port-calls`);
    await rowOf(page).waitFor(WAIT);
    // The list's own refetch after the close may come before the projection has applied it; the message after it
    // then brings it, to a subscription the server has confirmed.
    await subscribed(page, 'portcalls-changed');
    await rowOf(page)
      .getByRole('button', { name: `Close port call ${portCallId} of ${VESSEL.vessel_name}` })
      .click();
    const dialog = page.getByRole('dialog', { name: `Close port call ${portCallId} of ${VESSEL.vessel_name}?` });
    await dialog.getByRole('button', { name: 'Close port call' }).click();
    await expect.poll(() => rowOf(page).textContent(), WAIT).toContain('done');
    expect(
      await rowOf(page)
        .getByRole('button', { name: `Close port call ${portCallId} of ${VESSEL.vessel_name}` })
        .isDisabled(),
    ).toBe(true);
    const stored = await ui.admin.get('/port-call', { id: portCallId });
    expect(stored.body.ship.status).toBe('done');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('fits a phone: the list scrolls in its own box, not the page', async () => {
    const { context, page, problems } = await ui.signedInPage({ phone: true });
    await page.goto(`${ui.system.baseUrl}/port-calls`);
    await rowOf(page).waitFor(WAIT);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
