// `pnpm bench:web [-- --portcalls 300 --runs 5]`: the web UI's activity view in headless Chromium (Debian's
// chromium, driven by playwright-core) against `pnpm start` (embedded) holding PORTCALLS ongoing port calls, each
// with four timestamps from a data source. Each run is a first visit (a new browser context: empty cache) by a
// signed-in user. Prints one JSON line with the medians over the runs:
// - first_render_ms: the first contentful paint;
// - cards_ms: every port call's card on screen;
// - interactive_ms: cards on screen and the main thread quiet (no task over 50 ms for 500 ms after), counted to
//   the end of the last long task;
// - search_ms: typing an IMO in the search box until only that vessel's card is left;
// - js_gzip_kb / js_kb: the JavaScript of the first view as transferred (compressed) and as parsed;
// - board_render_ms: a first visit to the berth board (/berth-board) until every port call's bar is drawn (the
//   port calls are spread over 40 berths, each with an estimated arrival at and departure from its berth);
// - insert_16: bench:append's bare INSERT rate, measured after the runs, to read the figures beside.
// Targets (issue 28): activity interactive under 1 s, the board under 1 s, under 300 kB of JavaScript gzipped.

import { ApiClient, launchBrowser, startEmbedded } from '@pcas/testing';
import { Pool } from 'undici';
import { benchOptions, insertBaseline, round, validImo } from './support.ts';

const { portcalls: PORTCALLS, runs: RUNS } = benchOptions({ portcalls: 300, runs: 5 });
const ADMIN = { email: 'bench@port.local', password: 'bench-admin-password' };

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const isoIn = (hours: number) => `${new Date(Date.now() + hours * 3_600_000).toISOString().slice(0, 19)}+00:00`;

/** The berths the port calls are spread over (the berth board's rows). */
const BERTHS = 40;

const TIMESTAMPS: Array<[string, string, number]> = [
  ['Estimated', 'Arrival_Vessel_PortArea', 6],
  ['Estimated', 'Arrival_Vessel_Berth', 8],
  ['Estimated', 'Departure_Vessel_Berth', 30],
  ['Planned', 'Arrival_Vessel_Berth', 8.5],
];

async function seed(baseUrl: string, admin: ApiClient): Promise<number[]> {
  const key = (await admin.post('/api-keys', { name: 'bench-web' })).body as { id: number; key: string };
  for (const [timeType, state] of TIMESTAMPS) {
    const res = await admin.post('/timestamp-api-key-weights', {
      timestamp_time_type: timeType,
      timestamp_state: state,
      api_key_ids: [key.id],
    });
    if (res.status !== 200) throw new Error(`weights: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const imos = Array.from({ length: PORTCALLS }, (_, i) => validImo(500000 + i * 11));
  const pool = new Pool(baseUrl, { connections: 8 });
  const headers = { 'content-type': 'application/json', authorization: `ApiKey ${key.key}` };
  const bodies = imos.flatMap((imo, i) =>
    TIMESTAMPS.map(([time_type, state, hours]) =>
      JSON.stringify({
        imo,
        vessel_name: `Bench Vessel ${i}`,
        time_type,
        state,
        time: isoIn(hours + i / 10),
        payload: { source: 'bench-web', berth: `B${i % BERTHS}`, berth_name: `Berth ${i % BERTHS}` },
      }),
    ),
  );
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        const res = await pool.request({ path: '/agent/rest/timestamps', method: 'POST', headers, body });
        const text = await res.body.text();
        if (res.statusCode !== 200) throw new Error(`post timestamp: ${res.statusCode} ${text}`);
      }
    }),
  );
  await pool.close();
  // Until the projections have every port call.
  for (let i = 0; i < 600; i++) {
    const res = await admin.get('/ongoing-port-calls');
    if ((res.body?.portcalls?.length ?? 0) >= PORTCALLS) return imos;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the port calls did not all appear');
}

const system = await startEmbedded({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn' });
const browser = await launchBrowser();
try {
  const login = await new ApiClient(system.baseUrl).post('/login', ADMIN);
  const sessionId = login.body?.session_id as string;
  if (!sessionId) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
  const admin = new ApiClient(system.baseUrl).withSession(sessionId);
  const imos = await seed(system.baseUrl, admin);

  const samples: Record<string, number[]> = {
    first_render_ms: [],
    cards_ms: [],
    interactive_ms: [],
    search_ms: [],
    js_gzip_kb: [],
    js_kb: [],
    board_render_ms: [],
  };
  for (let run = 0; run < RUNS + 1; run++) {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    await context.addInitScript((id) => {
      localStorage.setItem('sessionId', id);
      const longTasks: Array<{ start: number; end: number }> = [];
      (window as unknown as { __longTasks: typeof longTasks }).__longTasks = longTasks;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          longTasks.push({ start: entry.startTime, end: entry.startTime + entry.duration });
        }
      }).observe({ type: 'longtask', buffered: true });
    }, sessionId);
    const page = await context.newPage();
    await page.goto(`${system.baseUrl}/`, { waitUntil: 'commit' });
    await page.waitForFunction((n) => document.querySelectorAll('article').length >= n, PORTCALLS, {
      timeout: 60_000,
      polling: 'raf',
    });
    const cards = await page.evaluate(() => performance.now());
    // Quiet: no long task in the last 500 ms.
    await page.waitForFunction(
      () => {
        const tasks = (window as unknown as { __longTasks: Array<{ end: number }> }).__longTasks;
        const last = tasks.length ? tasks[tasks.length - 1].end : 0;
        return performance.now() - last > 500;
      },
      undefined,
      { timeout: 60_000, polling: 100 },
    );
    const timings = await page.evaluate(() => {
      const tasks = (window as unknown as { __longTasks: Array<{ end: number }> }).__longTasks;
      const paint = performance.getEntriesByName('first-contentful-paint')[0];
      const scripts = performance
        .getEntriesByType('resource')
        .filter((e) => e.name.endsWith('.js')) as PerformanceResourceTiming[];
      return {
        fcp: paint?.startTime ?? Number.NaN,
        lastLongTask: tasks.length ? tasks[tasks.length - 1].end : 0,
        gzip: scripts.reduce((sum, e) => sum + e.encodedBodySize, 0),
        raw: scripts.reduce((sum, e) => sum + e.decodedBodySize, 0),
      };
    });
    const target = imos[Math.floor(imos.length / 2)];
    const search = page.getByLabel('Search vessels');
    const t0 = await page.evaluate(() => performance.now());
    await search.fill(String(target));
    await page.waitForFunction(() => document.querySelectorAll('article').length === 1, undefined, {
      timeout: 30_000,
      polling: 'raf',
    });
    const searched = (await page.evaluate(() => performance.now())) - t0;
    await context.close();

    // The berth board, a first visit of its own.
    const boardContext = await browser.newContext({ viewport: { width: 1366, height: 768 } });
    await boardContext.addInitScript((id) => localStorage.setItem('sessionId', id), sessionId);
    const boardPage = await boardContext.newPage();
    await boardPage.goto(`${system.baseUrl}/berth-board`, { waitUntil: 'commit' });
    await boardPage.waitForFunction((n) => document.querySelectorAll('[data-bar="portcall"]').length >= n, PORTCALLS, {
      timeout: 60_000,
      polling: 'raf',
    });
    const board = await boardPage.evaluate(() => performance.now());
    await boardContext.close();
    if (run === 0) continue; // the first run warms the service's caches and the disk
    samples.first_render_ms.push(timings.fcp);
    samples.cards_ms.push(cards);
    samples.interactive_ms.push(Math.max(cards, timings.lastLongTask));
    samples.search_ms.push(searched);
    samples.js_gzip_kb.push(timings.gzip / 1024);
    samples.js_kb.push(timings.raw / 1024);
    samples.board_render_ms.push(board);
  }
  const result: Record<string, unknown> = { bench: 'web', portcalls: PORTCALLS, runs: RUNS };
  for (const [name, xs] of Object.entries(samples)) result[name] = round(median(xs));
  // Machines differ: the bare INSERT rate measured in this run is the figure to read the others beside.
  await browser.close();
  await system.stop();
  result.insert_16 = await insertBaseline();
  console.log(JSON.stringify(result));
} finally {
  await browser.close().catch(() => {});
  await system.stop().catch(() => {});
}
