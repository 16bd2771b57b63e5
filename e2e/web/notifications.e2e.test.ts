// The notifications view in a browser, against `pnpm start` (embedded): an admin sends a port notification
// through the UI and a second signed-in user (another browser context) sees it in the list and as a popup, live
// without a reload; a ship notification picked among the ongoing port calls; a decision created
// through the API answered in the UI, the answer and who gave it reaching the other user live; axe on the view
// and its decisions tab; the view at a phone's width.

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN, HOUR, iso, waitForOngoingPortCalls } from '../timestamps.ts';
import { browserSuite, chromiumAvailable, seriousAccessibilityFindings, subscribed, WAIT } from './browser.ts';

const IMO = 9074729;
const VESSEL = 'Notified Star';
const WATCHER = 'watcher@notifications.test';

/** The popup (a Mantine notification, bottom right) with this text. */
const popup = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text });

describe.skipIf(!chromiumAvailable)('notifications in the web UI (embedded mode)', () => {
  let watcherPassword: string;

  const ui = browserSuite({
    env: { PORT_CALL_MASTER_SOURCE: 'master_source' },
    clients: 'dataSource',
    prepare,
  });

  async function prepare() {
    // A plain user: sees notifications, may not send or answer.
    const created = await ui.admin.post('/users', {
      email: WATCHER,
      first_name: 'Wendy',
      last_name: 'Watcher',
      role: 'user',
    });
    expect(created.status).toBe(200);
    watcherPassword = created.body.password;

    // A port call with a master id, so that a decision can be asked about it.
    for (const [state, at] of [
      ['Arrival_Vessel_PortArea', Date.now() + HOUR],
      ['Departure_Vessel_Berth', Date.now() + 2 * HOUR],
    ] as const) {
      const weight = await ui.admin.post('/timestamp-api-key-weights', {
        timestamp_time_type: 'Estimated',
        timestamp_state: state,
        api_key_ids: [ui.apiKey.id],
      });
      expect(weight.body).toEqual({ result: 'OK' });
      const posted = await ui.source.post('/agent/rest/timestamps', {
        imo: IMO,
        vessel_name: VESSEL,
        time_type: 'Estimated',
        state,
        time: iso(at),
        payload: { source: 'master_source', external_id: 'web-decision', berth_name: 'berth' },
      });
      expect(posted.body).toEqual({ result: 'OK' });
    }
    // The port call is there once the projection has placed the timestamps.
    await waitForOngoingPortCalls(ui.admin, (count) => count > 0);
  }

  it('sends through the UI and the other user sees it in the list and as a popup, live', async () => {
    const [a, b] = await Promise.all([
      ui.signedInPage(),
      ui.signedInPage({}, { email: WATCHER, password: watcherPassword }),
    ]);
    await Promise.all([
      a.page.goto(`${ui.system.baseUrl}/notifications`),
      b.page.goto(`${ui.system.baseUrl}/notifications`),
    ]);
    await b.page.getByText('No notifications').waitFor();
    // The plain user may not send.
    expect(await b.page.getByRole('button', { name: 'Send port notification' }).count()).toBe(0);
    // Only subscriptions the server has confirmed get the messages of what is sent below.
    await Promise.all([subscribed(a.page, 'notifications-changed'), subscribed(b.page, 'notifications-changed')]);

    await a.page.getByRole('button', { name: 'Send port notification' }).click();
    const dialog = a.page.getByRole('dialog', { name: 'Send port notification' });
    await dialog.getByLabel('Message').fill('Fairway closed for dredging');
    const sent = a.page.waitForResponse(
      (r) => r.url().endsWith('/api/v1/notifications') && r.request().method() === 'POST',
    );
    await dialog.getByRole('button', { name: 'Send' }).click();
    expect((await sent).status()).toBe(200);

    // B: no reload, the list and the popup (how fast is bench/'s business).
    await b.page.getByText('Fairway closed for dredging').first().waitFor(WAIT);
    await popup(b.page, `${ADMIN.email}: Fairway closed for dredging`).waitFor(WAIT);
    await b.page.getByText(`Sent by ${ADMIN.email} (Port)`).waitFor();
    // A sees it in its own list, but no popup of its own message.
    await a.page.getByRole('article', { name: 'Fairway closed for dredging' }).waitFor();
    expect(await popup(a.page, 'Fairway closed for dredging').count()).toBe(0);

    // A ship notification, the vessel picked among the ongoing port calls.
    await a.page.getByRole('button', { name: 'Send ship notification' }).click();
    const shipDialog = a.page.getByRole('dialog', { name: 'Send ship notification' });
    await shipDialog.getByLabel('Vessel (IMO)').fill(String(IMO).slice(0, 4));
    await a.page.getByRole('option', { name: `${IMO} · ${VESSEL}` }).click();
    await shipDialog.getByLabel('Message').fill('Pilot boards at 14');
    await shipDialog.getByRole('button', { name: 'Send' }).click();
    await b.page.getByText(`Sent by ${ADMIN.email} (${VESSEL})`).waitFor(WAIT);
    // Both were listed before the tab is chosen: the other one leaves once the tab's list is shown.
    await b.page.getByRole('tab', { name: /^Port/ }).click();
    await b.page.getByText('Fairway closed for dredging').first().waitFor();
    await expect.poll(() => b.page.getByRole('article', { name: 'Pilot boards at 14' }).count(), WAIT).toBe(0);
    await b.page.getByRole('tab', { name: /^Ship/ }).click();
    await b.page.getByRole('article', { name: 'Pilot boards at 14' }).waitFor();
    await expect.poll(() => b.page.getByRole('article', { name: 'Fairway closed for dredging' }).count(), WAIT).toBe(0);
    await b.page.getByRole('tab', { name: /^All/ }).click();
    await b.page.getByRole('article', { name: 'Fairway closed for dredging' }).waitFor();

    // A decision asked through the API: A answers it in the UI, B sees the answer and who gave it (both pages still
    // subscribed, whatever the tabs mounted and unmounted).
    await Promise.all([subscribed(a.page, 'notifications-changed'), subscribed(b.page, 'notifications-changed')]);
    const asked = await ui.admin.post('/notifications', {
      type: 'port_call_decision',
      message: 'Ready to berth?',
      ship_imo: String(IMO),
      port_call_master_id: 'web-decision',
      decisions: ['Pilot', 'Tugs'],
    });
    expect(asked.status).toBe(200);
    const aCard = a.page.getByRole('article', { name: 'Ready to berth?' });
    await aCard.getByRole('button', { name: 'Accept: Pilot' }).click();
    await expect
      .poll(() => aCard.getByRole('button', { name: 'Accept: Pilot' }).getAttribute('aria-pressed'), WAIT)
      .toBe('true');
    const bCard = b.page.getByRole('article', { name: 'Ready to berth?' });
    await bCard.getByText(`by ${ADMIN.email}`, { exact: true }).waitFor(WAIT);
    await bCard.getByText('Accept for Pilot at Ready to berth?').waitFor();
    await popup(b.page, `${ADMIN.email}: Accept for Pilot at Ready to berth?`).waitFor(WAIT);
    // B may not answer.
    expect(await bCard.getByRole('button', { name: 'Reject: Tugs' }).count()).toBe(0);

    // A's "Notification sent" toasts come from the shared mutation hook, whose close button has no name
    // (reported); the check waits until they have gone. B's popups name theirs.
    await expect.poll(() => a.page.locator('.mantine-Notification-root').count(), WAIT).toBe(0);
    expect(await seriousAccessibilityFindings(a.page)).toEqual([]);
    // B with its popups: asked again while one is still fading in or out (axe counts the opacity).
    await expect.poll(() => seriousAccessibilityFindings(b.page), WAIT).toEqual([]);

    // The decisions tab: paged by the server, open ones; answering there too.
    await a.page.getByRole('tab', { name: 'Decisions' }).click();
    const table = a.page.getByRole('table');
    await table.getByRole('cell', { name: 'web-decision' }).waitFor();
    await table.getByText('1 of 2').waitFor();
    await table.getByRole('button', { name: 'Reject: Tugs' }).click();
    await table.getByText('2 of 2').waitFor(WAIT);
    expect(await seriousAccessibilityFindings(a.page)).toEqual([]);
    // Closing it, after asking: it leaves the open decisions.
    await table.getByRole('button', { name: 'Close decision' }).click();
    await a.page
      .getByRole('dialog', { name: 'Close this decision?' })
      .getByRole('button', { name: 'Close decision' })
      .click();
    await a.page.getByText('No open decisions').waitFor(WAIT);

    expect(a.problems).toEqual([]);
    expect(b.problems).toEqual([]);
    await a.context.close();
    await b.context.close();
  });

  it('fits a phone’s width', async () => {
    const { context, page, problems } = await ui.signedInPage({ phone: true });
    await page.goto(`${ui.system.baseUrl}/notifications`);
    await page.getByRole('article', { name: 'Ready to berth?' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
