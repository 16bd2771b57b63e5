// What the web UI's browser tests share: Debian's Chromium (@pcas/testing's launchBrowser) with the service,
// signing in through the sign-in page, the axe accessibility check, a record of the page's script errors, and the
// real-time channels the page's socket is subscribed to (so that a test changes something only once it can show live).
// Browser tests are skipped where no Chromium is installed, except under CI=true, where .ci/run installs it.

import AxeBuilder from '@axe-core/playwright';
import { CHROMIUM, chromiumAvailable, launchBrowser, type RunningSystem, startEmbedded } from '@pcas/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN } from '../timestamps.ts';

export { chromiumAvailable, launchBrowser };

if (!chromiumAvailable && process.env.CI === 'true') {
  throw new Error(`CI=true but Chromium is not installed at ${CHROMIUM}`);
}

/** `pnpm start` (embedded) with the tests' first administrator, and the browser, started side by side. */
export function startEmbeddedAndBrowser(env: Record<string, string> = {}): Promise<[RunningSystem, Browser]> {
  return Promise.all([
    startEmbedded({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...env }),
    launchBrowser(),
  ]);
}

/** A fresh context (its own storage, so its own session) with a page at 1366×768, or a phone's width. */
export async function newPage(
  browser: Browser,
  options: { phone?: boolean; timezoneId?: string } = {},
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
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
