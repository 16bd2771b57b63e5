// The sea chart in a browser, against `pnpm start` (embedded) with MAP_TILE_SERVER set to a small tile server of the
// test's own on another origin: an AIS agent (a data source with an API key) posts a vessel's position, the chart
// shows it coloured by its type's marker class beside the port's places and outline, tiles come from the tile
// server (the page's Content-Security-Policy allows its origin); a newer position moves the vessel without a
// reload; a keyboard reaches the vessel through the list; a fixed vessel added through the admin (and a refused
// one, in words) shows on the chart by MMSI alone; without tiles nothing is asked of another host and everything
// is still drawn, at a phone's width too, where the opened menu lies above the chart and takes its taps; axe; the map_module switch takes the menu entries away.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  isoSecondsAgo,
  postTimestamps,
  startEmbeddedWithAdmin,
  timestamp,
  waitForOngoingPortCalls,
} from '../timestamps.ts';
import { browserSuite, chromiumAvailable, seriousAccessibilityFindings, subscribed, WAIT } from './browser.ts';

const IMO = 9074729;
const TUG_MMSI = 230999000;

/** A 256×256 PNG of one colour (a tile the screenshot shows as land-coloured, not as the plain sea background). */
function tilePng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(256, 0);
  header.writeUInt32BE(256, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(256 * 3, Buffer.from([0xee, 0xe8, 0xd5]))]);
  const pixels = Buffer.concat(Array.from({ length: 256 }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function startTileServer(): Promise<{ server: Server; url: string; requests: string[] }> {
  const png = tilePng();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(/^\/\d+\/\d+\/\d+\.png$/.test(req.url ?? '') ? 200 : 404, { 'Content-Type': 'image/png' });
    res.end(png);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }),
    ),
  );
}

describe.skipIf(!chromiumAvailable)('the sea chart in the web UI', () => {
  let tiles: Awaited<ReturnType<typeof startTileServer>>;

  // Registered first, so it runs last: the tile server outlives the service that names it.
  afterAll(async () => {
    await new Promise((resolve) => tiles?.server.close(resolve));
  });

  // The data source is the AIS agent.
  const ui = browserSuite({
    start: async () => {
      tiles = await startTileServer();
      return startEmbeddedWithAdmin({ MAP_TILE_SERVER: tiles.url });
    },
    clients: 'dataSource',
    allowEtas: true,
    prepare: async (ui) => {
      // A vessel with an ongoing port call (the chart shows those), a container ship: green.
      await postTimestamps(ui.source, timestamp({ imo: IMO, vessel_name: 'Aurora' }));
      const typed = await ui.source.post('/agent/rest/vessel-type', { imo: IMO, vessel_type: 4 });
      expect(typed.status, JSON.stringify(typed.body)).toBe(200);
      await waitForOngoingPortCalls(ui.admin, (count) => count > 0);
    },
    page: {},
  });

  const vessel = (p: Page, key: string) => p.locator(`.leaflet-marker-pane [data-vessel-key="${key}"]`);

  async function postPositions(locations: Record<string, unknown>[]) {
    const res = await ui.source.post('/sea-chart/vessels', { locations });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.failed, JSON.stringify(res.body)).toEqual([]);
  }

  const position = (over: Record<string, unknown> = {}) => ({
    imo: IMO,
    latitude: 60.69,
    longitude: 17.25,
    headingDegrees: 90,
    speedKnots: 8.5,
    courseOverGroundDegrees: 92,
    locationTimestamp: isoSecondsAgo(120),
    ...over,
  });

  it('shows the vessel coloured by its type among the places, on tiles from the tile server, and moves it live', async () => {
    await postPositions([position()]);
    await ui.page.getByRole('navigation', { name: 'Port logistics' }).getByRole('link', { name: 'Sea chart' }).click();
    await expect.poll(() => ui.page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe('Sea chart');
    await vessel(ui.page, `imo-${IMO}`).waitFor(WAIT);
    expect(await vessel(ui.page, `imo-${IMO}`).getAttribute('data-marker-class')).toBe('vessel_green');
    expect(await vessel(ui.page, `imo-${IMO}`).getAttribute('aria-label')).toBe('Aurora, Cargo vessel');
    // The Gävle marker file: places as buttons, the outer port area and the channel line as outlines.
    await ui.page.getByRole('button', { name: 'Port of Gävle, Port' }).waitFor(WAIT);
    expect(await ui.page.locator('.leaflet-overlay-pane path').count()).toBeGreaterThanOrEqual(2);
    // Tiles from the tile server, which the page's policy lets in (our own build carries the policy).
    await expect.poll(() => ui.page.locator('img.leaflet-tile-loaded').count(), WAIT).toBeGreaterThan(0);
    expect(tiles.requests.length).toBeGreaterThan(0);
    if (!process.env.WEB_UI_DIR) {
      const served = await fetch(`${ui.system.baseUrl}/sea-chart`, { headers: { Accept: 'text/html' } });
      expect(served.headers.get('content-security-policy')).toContain(`img-src 'self' data: blob: ${tiles.url}`);
    }
    // A newer position: the same marker moves, without a reload (the message reaches a subscription the server has
    // confirmed).
    await ui.page.evaluate(() => Object.assign(window, { notReloaded: true }));
    await subscribed(ui.page, 'sea-chart-vessels-changed');
    const before = await vessel(ui.page, `imo-${IMO}`).boundingBox();
    await postPositions([position({ latitude: 60.7, longitude: 17.3, locationTimestamp: isoSecondsAgo(5) })]);
    await expect.poll(() => vessel(ui.page, `imo-${IMO}`).getAttribute('data-position'), WAIT).toBe('60.7,17.3');
    const after = await vessel(ui.page, `imo-${IMO}`).boundingBox();
    expect(after!.x).toBeGreaterThan(before!.x + 10);
    expect(after!.y).toBeLessThan(before!.y - 2);
    expect(await ui.page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded)).toBe(true);
    // A picture to look at: SEA_CHART_SCREENSHOT=/tmp/sea-chart.png.
    if (process.env.SEA_CHART_SCREENSHOT) await ui.page.screenshot({ path: process.env.SEA_CHART_SCREENSHOT });
    expect(ui.problems).toEqual([]);
  });

  it('brings a keyboard from the list to the vessel and its popup; axe finds nothing serious', async () => {
    const show = ui.page.getByRole('button', { name: 'Show Aurora on the chart' });
    await show.focus();
    await ui.page.keyboard.press('Enter');
    const popup = ui.page.locator('.leaflet-popup-content');
    await popup.waitFor(WAIT);
    const text = await popup.textContent();
    expect(text).toContain('Aurora');
    expect(text).toContain('Container Ship');
    expect(text).toContain(String(IMO));
    expect(text).toContain('8.5 kn');
    const focused = () => ui.page.evaluate(() => document.activeElement?.getAttribute('data-vessel-key'));
    expect(await focused()).toBe(`imo-${IMO}`);
    // A newer position with another speed and heading: the open popup says so, the focus stays on the vessel.
    await subscribed(ui.page, 'sea-chart-vessels-changed');
    await postPositions([
      position({
        latitude: 60.7,
        longitude: 17.3,
        speedKnots: 10.5,
        headingDegrees: 180,
        locationTimestamp: isoSecondsAgo(2),
      }),
    ]);
    await expect.poll(() => popup.textContent(), WAIT).toContain('10.5 kn');
    expect(await focused()).toBe(`imo-${IMO}`);
    expect(await vessel(ui.page, `imo-${IMO}`).locator('svg').getAttribute('style')).toContain('rotate(180deg)');
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);
    expect(ui.problems).toEqual([]);
  });

  it('adds a fixed vessel through the admin; a refused one is said in words; the tug shows by MMSI alone', async () => {
    await ui.page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'Fixed vessels' })
      .click();
    await ui.page.getByRole('heading', { level: 1, name: 'Fixed vessels' }).waitFor(WAIT);

    const add = async (name: string) => {
      await ui.page.getByRole('button', { name: 'Add fixed vessel' }).click();
      const dialog = ui.page.getByRole('dialog', { name: 'Add fixed vessel' });
      await dialog.getByLabel('Vessel name').fill(name);
      await dialog.getByRole('combobox', { name: 'Vessel type' }).fill('Tug');
      await ui.page.getByRole('option', { name: 'Tug', exact: true }).click();
      await dialog.getByLabel('MMSI').fill(String(TUG_MMSI));
      await dialog.getByRole('button', { name: 'Add' }).click();
      return dialog;
    };
    const first = await add('Hector');
    await first.waitFor({ state: 'hidden', ...WAIT });
    const row = ui.page.getByRole('row').filter({ hasText: 'Hector' });
    await row.waitFor(WAIT);
    expect(await row.textContent()).toContain('Tug');
    expect(await row.textContent()).toContain(String(TUG_MMSI));

    const refused = await add('Hector II');
    expect(await refused.getByRole('alert').textContent()).toContain('MMSI belongs to another vessel');
    // The same words as a notification, gone by itself after a few seconds (its grey text is the shared theme's):
    // first shown, then gone, so that the check below never meets it.
    await expect.poll(() => ui.page.getByText('MMSI belongs to another vessel').count(), WAIT).toBe(2);
    await expect.poll(() => ui.page.getByText('MMSI belongs to another vessel').count(), WAIT).toBe(1);
    expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);
    await refused.getByRole('button', { name: 'Cancel' }).click();

    await postPositions([{ ...position({ imo: undefined, mmsi: TUG_MMSI }), latitude: 60.68, longitude: 17.2 }]);
    await ui.page.goto(`${ui.system.baseUrl}/sea-chart`);
    await vessel(ui.page, `mmsi-${TUG_MMSI}`).waitFor(WAIT);
    expect(await vessel(ui.page, `mmsi-${TUG_MMSI}`).getAttribute('data-marker-class')).toBe('vessel_cyan');
    expect(ui.problems).toEqual([]);
  });

  it('without a tile server asks no other host and still draws everything, at a phone width too', async () => {
    // The same system as if MAP_TILE_SERVER were unset: the setting's answer says no tile server.
    const settings = '**/api/v1/sea-chart/map-settings';
    await ui.page.route(settings, (route) => route.fulfill({ json: { tile_server: null } }));
    const elsewhere: string[] = [];
    const watch = (request: { url(): string }) => {
      if (!request.url().startsWith(ui.system.baseUrl) && !request.url().startsWith('data:'))
        elsewhere.push(request.url());
    };
    // The previous test's map is left first: resized, it would fetch more tiles from its tile server (seen in a CI
    // run, counted as this page's).
    await ui.page.goto('about:blank');
    await ui.page.setViewportSize({ width: 390, height: 844 });
    ui.page.on('request', watch);
    try {
      await ui.page.goto(`${ui.system.baseUrl}/sea-chart`);
      await vessel(ui.page, `imo-${IMO}`).waitFor(WAIT);
      await ui.page.getByRole('button', { name: 'Port of Gävle, Port' }).waitFor(WAIT);
      expect(await ui.page.locator('.leaflet-overlay-pane path').count()).toBeGreaterThanOrEqual(2);
      // Once the page has the settings' answer, no tile layer comes any more.
      await ui.page.getByText(/No map tiles are set/).waitFor(WAIT);
      expect(await ui.page.locator('.leaflet-tile').count()).toBe(0);
      expect(elsewhere).toEqual([]);
      const overflow = await ui.page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await seriousAccessibilityFindings(ui.page)).toEqual([]);
      if (process.env.SEA_CHART_SCREENSHOT) {
        await ui.page.screenshot({ path: process.env.SEA_CHART_SCREENSHOT.replace(/\.png$/, '-phone.png') });
      }

      // The phone's menu opens over the chart, and the chart takes none of its taps (Leaflet's panes have
      // z-indexes of 400 and more): a link lying over the map is the topmost element at its centre, and goes.
      await ui.page.getByRole('button', { name: 'Menu', exact: true }).click();
      const link = ui.page.getByRole('navigation', { name: 'Port activity' }).getByRole('link', { name: 'Vessels' });
      await link.waitFor(WAIT);
      const [linkBox, mapBox] = [await link.boundingBox(), await ui.page.locator('.leaflet-container').boundingBox()];
      expect(linkBox && mapBox && linkBox.y > mapBox.y && linkBox.y < mapBox.y + mapBox.height).toBe(true);
      // Polled: the drawer slides in.
      const topmost = () =>
        link.evaluate((element) => {
          const box = element.getBoundingClientRect();
          const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
          return hit !== null && element.contains(hit);
        });
      await expect.poll(topmost, WAIT).toBe(true);
      await link.click();
      await ui.page.waitForURL(/\/vessels$/, WAIT);
      await expect.poll(() => ui.page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe('Vessels');
      expect(ui.problems).toEqual([]);
    } finally {
      ui.page.off('request', watch);
      await ui.page.unroute(settings);
      await ui.page.setViewportSize({ width: 1366, height: 768 });
    }
  });

  it('leaves the menu and says so when the map module is switched off', async () => {
    await ui.page.goto(`${ui.system.baseUrl}/sea-chart`);
    await vessel(ui.page, `imo-${IMO}`).waitFor(WAIT);
    await ui.withModuleOff('map_module', async () => {
      await ui.page.reload();
      await ui.page.getByText('The sea chart is switched off').waitFor(WAIT);
      await expect.poll(() => ui.page.getByRole('link', { name: 'Sea chart', exact: true }).count(), WAIT).toBe(0);
      expect(await ui.page.getByRole('link', { name: 'Fixed vessels', exact: true }).count()).toBe(0);
    });
    await ui.page.reload();
    await expect.poll(() => ui.page.getByRole('link', { name: 'Sea chart', exact: true }).count(), WAIT).toBe(1);
    await vessel(ui.page, `imo-${IMO}`).waitFor(WAIT);
    expect(ui.problems).toEqual([]);
  });
});
