// The activity timeline in a browser, against `pnpm start` (embedded): a data source seeds three port calls and
// the operator sees them as cards in arrival order; a new timestamp from the data source changes its card, and a
// new vessel's card appears, live and without a reload (how fast is logged); a pinned vessel moves first and stays
// pinned after a reload; a timestamp added through the form shows on its card; search; axe on the view and the
// form; the view at a phone's width; with `realtime_anonymous` off, the page's socket signs in and still follows live.

import { imoWithCheckDigit } from '@pcas/values';
import { describe, expect, it } from 'vitest';
import { HOUR, iso, postTimestamps, timestamp, waitForOngoingPortCalls } from '../timestamps.ts';
import {
  browserSuite,
  cardNames,
  cardTime,
  chromiumAvailable,
  seriousAccessibilityFindings,
  subscribed,
  WAIT,
} from './browser.ts';

/** A valid IMO number from six digits (the seventh is the check digit the service verifies). */
const imoOf = imoWithCheckDigit;

const ALPHA = { imo: imoOf(930001), vessel_name: 'Activity Alpha' };
const BRAVO = { imo: imoOf(930002), vessel_name: 'Activity Bravo' };
const CHARLIE = { imo: imoOf(930003), vessel_name: 'Activity Charlie' };
const DELTA = { imo: imoOf(930004), vessel_name: 'Activity Delta' };
const ECHO = { imo: imoOf(930005), vessel_name: 'Activity Echo' };

describe.skipIf(!chromiumAvailable)('the activity timeline (embedded mode)', () => {
  const start = Math.floor(Date.now() / 1000) * 1000;

  const post = (vessel: { imo: number; vessel_name: string }, time: number, id: string) =>
    postTimestamps(
      ui.source,
      timestamp({ ...vessel, time: iso(time), payload: { external_id: id, from_port: 'SESTO', next_port: 'DEHAM' } }),
    );

  const ui = browserSuite({
    clients: 'dataSource',
    allowEtas: true,
    prepare: async () => {
      await post(ALPHA, start + 2 * HOUR, 'a-1');
      await post(BRAVO, start + 4 * HOUR, 'b-1');
      await post(CHARLIE, start + 6 * HOUR, 'c-1');
      // The projection has placed all three before the browser looks.
      await waitForOngoingPortCalls(ui.admin, (count) => count === 3);
    },
  });

  it('shows the port calls as cards and follows a data source live, without a reload', async () => {
    const { context, page, problems } = await ui.signedInPage();
    await expect.poll(() => cardNames(page), WAIT).toEqual([ALPHA.vessel_name, BRAVO.vessel_name, CHARLIE.vessel_name]);

    const alpha = page.getByRole('article', { name: ALPHA.vessel_name });
    await expect.poll(() => alpha.textContent(), WAIT).toContain('Estimated Arrival Vessel Port Area');
    const text = (await alpha.textContent()) ?? '';
    expect(text).toContain(`IMO ${ALPHA.imo}`);
    expect(text).toContain('arriving');
    expect(text).toContain('Estimated arrival');
    expect(text).toMatch(/From SESTO/);
    expect(await alpha.locator('[data-now]').count()).toBe(1);
    expect(await alpha.getByRole('link', { name: `IMO ${ALPHA.imo}` }).getAttribute('href')).toMatch(
      /^\/port-calls\/\d+$/,
    );
    // A timestamp received just now is marked new.
    expect(await alpha.locator('li[data-fresh]').count()).toBe(1);

    // The page is never reloaded: a mark on its window would be lost.
    await page.evaluate(() => {
      (window as unknown as { stillThisPage: boolean }).stillThisPage = true;
    });
    // Only a subscription the server has confirmed gets the messages of the changes below.
    await subscribed(page, 'portcalls-changed');
    // The data source moves Bravo's ETA: the card shows the new time.
    const moved = start + 3 * HOUR + 30 * 60_000;
    const before = Date.now();
    await post(BRAVO, moved, 'b-2');
    await cardTime(page, BRAVO.vessel_name, moved).waitFor(WAIT);
    const changedMs = Date.now() - before;

    // A new vessel's card appears.
    const appearing = Date.now();
    await post(DELTA, start + 8 * HOUR, 'd-1');
    await page.getByRole('article', { name: DELTA.vessel_name }).waitFor(WAIT);
    const appearedMs = Date.now() - appearing;
    // How fast is bench/'s business (a busy machine may be slow); here only that it shows without a reload.
    console.log(`activity timeline: a changed card shown after ${changedMs} ms, a new card after ${appearedMs} ms`);
    expect(await page.evaluate(() => (window as unknown as { stillThisPage?: boolean }).stillThisPage)).toBe(true);

    // Search by name, then by IMO.
    const search = page.getByLabel('Search vessels');
    await search.fill('bravo');
    await expect.poll(() => cardNames(page), WAIT).toEqual([BRAVO.vessel_name]);
    await search.fill(String(CHARLIE.imo));
    await expect.poll(() => cardNames(page), WAIT).toEqual([CHARLIE.vessel_name]);
    await search.fill('');
    await expect.poll(async () => (await cardNames(page)).length, WAIT).toBe(4);

    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('pins a vessel: it moves first and stays pinned after a reload, and unpins', async () => {
    const { context, page, problems } = await ui.signedInPage();
    await expect.poll(async () => (await cardNames(page)).length, WAIT).toBe(4);
    expect((await cardNames(page))[0]).not.toBe(CHARLIE.vessel_name);

    await page.getByRole('button', { name: `Pin ${CHARLIE.vessel_name}` }).click();
    await expect.poll(async () => (await cardNames(page))[0], WAIT).toBe(CHARLIE.vessel_name);
    // The API has it (the whole list replaced).
    await expect.poll(async () => (await ui.admin.get('/pinned-vessel-ids')).body, WAIT).toEqual([CHARLIE.imo]);

    await page.reload();
    await expect.poll(async () => (await cardNames(page))[0], WAIT).toBe(CHARLIE.vessel_name);
    const unpin = page.getByRole('button', { name: `Unpin ${CHARLIE.vessel_name}` });
    expect(await unpin.getAttribute('aria-pressed')).toBe('true');

    // By keyboard: the card moves back, and the focus stays on its pin button.
    await unpin.focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await cardNames(page))[0], WAIT).not.toBe(CHARLIE.vessel_name);
    await page.getByRole('button', { name: `Pin ${CHARLIE.vessel_name}` }).waitFor(WAIT);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), WAIT)
      .toBe(`Pin ${CHARLIE.vessel_name}`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('adds a timestamp through the form and shows it on the card', async () => {
    const { context, page, problems } = await ui.signedInPage();
    const alpha = page.getByRole('article', { name: ALPHA.vessel_name });
    // The form's own refetch may come before the projection has placed the timestamp; the message after it then
    // brings it, to a subscription the server has confirmed.
    await subscribed(page, 'portcalls-changed');
    await alpha.getByRole('button', { name: `Add timestamp for ${ALPHA.vessel_name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Add a timestamp for ${ALPHA.vessel_name}` });
    await dialog.getByLabel('Timestamp').selectOption({ label: 'Actual Arrival Vessel Berth' });
    // The time picker holds this minute already (in the browser's zone).
    expect(await dialog.locator('input[name="time"]').inputValue()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d$/);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Add timestamp' }).click();
    await dialog.waitFor({ state: 'detached', ...WAIT });

    await expect.poll(() => alpha.textContent(), WAIT).toContain('Actual Arrival Vessel Berth');
    // An actual time is past: above "now", and new.
    const row = alpha.locator('li', { hasText: 'Actual Arrival Vessel Berth' });
    expect(await row.getAttribute('data-past')).not.toBeNull();
    expect(await row.getAttribute('data-fresh')).not.toBeNull();
    expect(await row.textContent()).toContain('Admin');
    await expect.poll(() => alpha.textContent(), WAIT).toContain('at berth');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('works at a phone width: the cards stack and the page does not scroll sideways', async () => {
    const { context, page, problems } = await ui.signedInPage({ phone: true });
    await expect.poll(async () => (await cardNames(page)).length, WAIT).toBe(4);
    const layout = await page.evaluate(() => {
      const cards = [...document.querySelectorAll('article')].slice(0, 2).map((card) => card.getBoundingClientRect());
      return {
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        stacked: cards[1].top >= cards[0].bottom,
        within: cards.every((card) => card.left >= 0 && card.right <= window.innerWidth),
      };
    });
    expect(layout).toEqual({ overflow: 0, stacked: true, within: true });
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('with realtime_anonymous off, the page signs its socket in and still follows live, notifications included', async () => {
    expect((await ui.admin.put('/settings/realtime_anonymous/off')).status).toBe(200);
    try {
      const { context, page, problems } = await ui.signedInPage();
      await expect.poll(async () => (await cardNames(page)).length, WAIT).toBe(4);
      // Both confirmed by the server: an anonymous socket would be refused both under `off`.
      await subscribed(page, 'portcalls-changed');
      await subscribed(page, 'notifications-changed');
      await post(ECHO, start + 10 * HOUR, 'e-1');
      await page.getByRole('article', { name: ECHO.vessel_name }).waitFor(WAIT);
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      expect((await ui.admin.put('/settings/realtime_anonymous/signals')).status).toBe(200);
    }
  });
});
