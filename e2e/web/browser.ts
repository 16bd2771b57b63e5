// What the web UI's browser tests share: Debian's Chromium (@pcas/testing's launchBrowser) with the service,
// signing in through the sign-in page, the axe accessibility check, a record of the page's script errors, and the
// real-time channels the page's socket is subscribed to (so that a test changes something only once it can show live).
// Browser tests are skipped where no Chromium is installed, except under CI=true, where .ci/run installs it.

import AxeBuilder from '@axe-core/playwright';
import { ApiClient, CHROMIUM, chromiumAvailable, launchBrowser, type RunningSystem } from '@pcas/testing';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { ADMIN, adminAndDataSource, allowEstimatedArrivals, iso, startEmbeddedWithAdmin } from '../timestamps.ts';

export { chromiumAvailable, launchBrowser };

if (!chromiumAvailable && process.env.CI === 'true') {
  throw new Error(`CI=true but Chromium is not installed at ${CHROMIUM}`);
}

/**
 * Generous waits (vitest's poll gives up after 1 s): the page, the service and the browser share a machine that
 * may be small and busy.
 */
export const WAIT = { timeout: 30_000 };

interface PageOptions {
  phone?: boolean;
  timezoneId?: string;
}

interface OpenPage {
  context: BrowserContext;
  page: Page;
  problems: string[];
}

/** What a browser test file works with; filled in by the suite's beforeAll. */
export interface BrowserSuite extends OpenPage {
  system: RunningSystem;
  browser: Browser;
  /** The first administrator's API client. */
  admin: ApiClient;
  /** A data source's client (with its API key), where the suite asked for one. */
  source: ApiClient;
  apiKey: { id: number; name: string; key: string };
  /** A fresh page signed in as the administrator (or `user`). */
  signedInPage(options?: PageOptions, user?: { email: string; password: string }): Promise<OpenPage>;
  /** Loads the view at `path` (a page load) and waits for its heading. */
  open(page: Page, path: string, heading: string): Promise<void>;
  /**
   * Opens `path` at a phone's width, signed in, and once `ready` shows: the page does not scroll sideways, axe finds
   * nothing serious, and the page logged no script error.
   */
  fitsPhone(path: string, ready: (page: Page) => Locator): Promise<void>;
  /** Switches `module` off over the API while `whileOff` runs, and on again after (also when it fails). */
  withModuleOff(module: string, whileOff: () => Promise<void>): Promise<void>;
}

interface BrowserSuiteOptions {
  /** The system under test; `pnpm start` (embedded) with the tests' administrator by default. */
  start?: () => Promise<RunningSystem>;
  /** With the default start: more environment for the embedded service. */
  env?: Record<string, string>;
  /**
   * The API clients made before the tests: none, the administrator's, or that and a data source (an API key),
   * which with `allowEtas` may post ETAs.
   */
  clients?: 'none' | 'admin' | 'dataSource';
  allowEtas?: boolean;
  /** What the file sets up over the API once the clients are there. */
  prepare?: (ui: BrowserSuite) => Promise<void>;
  /** One page for the whole file, opened after `prepare`; signed in as the administrator unless `signIn` is false. */
  page?: PageOptions;
  signIn?: boolean;
  timeoutMs?: number;
}

/**
 * The set-up of a browser test file: the system and the browser started side by side, the API clients, what the
 * file prepares, the file's page if it has one; all stopped again after the file. Call it in the `describe`.
 */
export function browserSuite(options: BrowserSuiteOptions = {}): BrowserSuite {
  const { clients = 'admin', signIn: signInToPage = true } = options;
  const ui = {
    async signedInPage(pageOptions: PageOptions = {}, user = ADMIN) {
      const opened = await newPage(ui.browser, pageOptions);
      await signIn(opened.page, ui.system.baseUrl, user.email, user.password);
      return opened;
    },
    async open(page: Page, path: string, title: string) {
      await page.goto(`${ui.system.baseUrl}${path}`);
      await expect.poll(() => heading(page), WAIT).toBe(title);
    },
    async fitsPhone(path: string, ready: (page: Page) => Locator) {
      const phone = await ui.signedInPage({ phone: true });
      await phone.page.goto(`${ui.system.baseUrl}${path}`);
      await ready(phone.page).waitFor(WAIT);
      const overflow = await phone.page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await seriousAccessibilityFindings(phone.page)).toEqual([]);
      expect(phone.problems).toEqual([]);
      await phone.context.close();
    },
    async withModuleOff(module: string, whileOff: () => Promise<void>) {
      const off = await ui.admin.put(`/settings/${module}/disabled`);
      expect(off.status, JSON.stringify(off.body)).toBe(200);
      try {
        await whileOff();
      } finally {
        await ui.admin.put(`/settings/${module}/enabled`);
      }
    },
  } as BrowserSuite;
  beforeAll(async () => {
    [ui.system, ui.browser] = await Promise.all([
      options.start?.() ?? startEmbeddedWithAdmin(options.env),
      launchBrowser(),
    ]);
    if (clients === 'dataSource') {
      const made = await adminAndDataSource(ui.system.baseUrl);
      ui.admin = made.admin;
      ui.apiKey = made.apiKey;
      ui.source = made.api.withApiKey(made.apiKey.key);
      if (options.allowEtas) await allowEstimatedArrivals(ui.admin, made.apiKey.id);
    } else if (clients === 'admin') {
      ui.admin = await new ApiClient(ui.system.baseUrl).login(ADMIN.email, ADMIN.password);
    }
    await options.prepare?.(ui);
    if (options.page) {
      Object.assign(ui, signInToPage ? await ui.signedInPage(options.page) : await newPage(ui.browser, options.page));
    }
  }, options.timeoutMs);
  // A failed test prints what its pages asked and heard, and the service's warnings: a live update that never came
  // is otherwise a bare timeout.
  afterEach(({ task }) => {
    const traces = takePageTraces();
    if (task.result?.state !== 'fail') return;
    console.error(
      `[${task.name}] page traces:\n${traces.join('\n---\n')}\n[service output]\n${ui.system?.output().slice(-20_000)}`,
    );
  });
  afterAll(async () => {
    await ui.context?.close();
    await ui.browser?.close();
    await ui.system?.stop();
  });
  return ui;
}

/** The text of the view's heading. */
export const heading = (page: Page) => page.getByRole('heading', { level: 1 }).textContent();

/** The time `ms` on the activity card of the vessel named `vesselName` (its `datetime`, UTC as the API gives it). */
export const cardTime = (page: Page, vesselName: string, ms: number) =>
  page
    .getByRole('article', { name: vesselName })
    .locator(`time[datetime="${iso(ms)}"]`)
    .first();

/** The names of the activity view's cards, in their order. */
export const cardNames = (page: Page) =>
  page.locator('article').evaluateAll((cards) => cards.map((card) => card.getAttribute('aria-label')));

/** A fresh context (its own storage, so its own session) with a page at 1366×768, or a phone's width. */
export async function newPage(browser: Browser, options: PageOptions = {}): Promise<OpenPage> {
  const context = await browser.newContext({
    viewport: options.phone ? { width: 390, height: 844 } : { width: 1366, height: 768 },
    timezoneId: options.timezoneId ?? 'Europe/Helsinki',
    locale: 'en-GB',
    acceptDownloads: true,
    // No fades: the accessibility check must not read a colour halfway through a transition.
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  const problems = watchProblems(page);
  watchChannels(page);
  tracePage(page);
  return { context, page, problems };
}

/** Script errors and failed loads of the page, for a test to expect none. API refusals a test provokes are not. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    // The browser logs every 4xx answer of a fetch; those are the API's answers, which views show in words.
    if (/status of 4\d\d/.test(text)) return;
    problems.push(`console: ${text}`);
  });
  return problems;
}

const openTraces: string[][] = [];

/** The traces of the pages opened since the last call, each its lines; forgotten here. */
function takePageTraces(): string[] {
  return openTraces.splice(0).map((lines) => lines.join('\n'));
}

/**
 * Keeps the page's last API calls and real-time frames with their time, for the message of a failed test (its
 * last 300 lines; a ping is left out).
 */
function tracePage(page: Page): void {
  const lines: string[] = [];
  openTraces.push(lines);
  const started = Date.now();
  const note = (text: string) => {
    // Masked before it is cut, so no part of a token is left.
    const shown = text.replace(/"(authToken|jwt|session_id)":"[^"]*"/g, '"$1":"…"').slice(0, 300);
    lines.push(`${String(Date.now() - started).padStart(7)} ms ${shown}`);
    if (lines.length > 300) lines.shift();
  };
  page.on('request', (request) => {
    if (request.url().includes('/api/')) note(`-> ${request.method()} ${request.url()}`);
  });
  page.on('response', (response) => {
    if (!response.url().includes('/api/')) return;
    const head = `<- ${response.status()} ${response.request().method()} ${response.url()}`;
    response.text().then(
      (body) => note(`${head} ${body}`),
      () => note(head),
    );
  });
  page.on('requestfailed', (request) =>
    note(`x  ${request.method()} ${request.url()} ${request.failure()?.errorText}`),
  );
  page.on('websocket', (socket) => {
    note(`ws open ${socket.url()}`);
    socket.on('framesent', ({ payload }) => {
      if (typeof payload === 'string' && payload.length > 1) note(`ws >> ${payload}`);
    });
    socket.on('framereceived', ({ payload }) => {
      if (typeof payload === 'string' && payload.length > 1) note(`ws << ${payload}`);
    });
    socket.on('close', () => note('ws closed'));
  });
}

interface ChannelWatch {
  /** The channels the server confirmed on the page's current socket (none while it has none). */
  confirmed: Set<string>;
  changed: Set<() => void>;
}

const channelWatches = new WeakMap<Page, ChannelWatch>();

/** The SocketCluster packets of a WebSocket frame (one, or a batch), none for a ping or anything else. */
function packets(payload: string | Buffer): any[] {
  if (typeof payload !== 'string' || !/^[[{]/.test(payload)) return [];
  try {
    const parsed = JSON.parse(payload);
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return [];
  }
}

/**
 * Follows the page's real-time socket on the wire: a `#subscribe` it sends becomes a confirmed channel when the
 * server answers it without an error, an `#unsubscribe` (a view unmounted) or a closed socket takes it away again.
 */
function watchChannels(page: Page): void {
  const watch: ChannelWatch = { confirmed: new Set(), changed: new Set() };
  channelWatches.set(page, watch);
  const notify = () => {
    for (const wake of [...watch.changed]) wake();
  };
  page.on('websocket', (socket) => {
    if (!socket.url().includes('/socketcluster/')) return;
    // One socket per page at a time: a new one (after a reload or a reconnect) starts without subscriptions.
    const confirmed = new Set<string>();
    watch.confirmed = confirmed;
    const asked = new Map<number, string>();
    socket.on('framesent', ({ payload }) => {
      for (const packet of packets(payload)) {
        if (packet?.event === '#subscribe' && typeof packet.cid === 'number') {
          asked.set(packet.cid, String(packet.data?.channel));
        } else if (packet?.event === '#unsubscribe') {
          // An answer still to come for an earlier subscribe to it no longer counts.
          for (const [cid, channel] of asked) if (channel === packet.data) asked.delete(cid);
          confirmed.delete(packet.data);
          notify();
        }
      }
    });
    socket.on('framereceived', ({ payload }) => {
      for (const packet of packets(payload)) {
        const channel = typeof packet?.rid === 'number' ? asked.get(packet.rid) : undefined;
        if (channel === undefined) continue;
        asked.delete(packet.rid);
        if (!packet.error) confirmed.add(channel);
        notify();
      }
    });
    socket.on('close', () => {
      confirmed.clear();
      notify();
    });
  });
}

/**
 * Resolves once the server has confirmed the subscription of the page's socket (a page of newPage) to `channel`.
 * A change that a view should show live is made only after this: a message published before the subscription
 * stands reaches nobody, and the view would wait for it in vain.
 */
export function subscribed(page: Page, channel: string, timeoutMs = 30_000): Promise<void> {
  const watch = channelWatches.get(page);
  if (!watch) return Promise.reject(new Error('subscribed() follows pages made by newPage() only'));
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      watch.changed.delete(check);
    };
    const check = () => {
      if (!watch.confirmed.has(channel)) return;
      done();
      resolve();
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`the page's socket was not subscribed to ${channel} within ${timeoutMs} ms`));
    }, timeoutMs);
    watch.changed.add(check);
    check();
  });
}

/** Signs in through the sign-in page and waits for the first view. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel('E-mail').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
}

export interface AxeFinding {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/** The serious and critical findings of axe (WCAG 2 A and AA rules) on the page as it is now. */
export async function seriousAccessibilityFindings(page: Page): Promise<AxeFinding[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
}
