// What the web UI's browser tests share: Debian's Chromium (@pcas/testing's launchBrowser) with the service,
// signing in through the sign-in page, the axe accessibility check, and a record of the page's script errors.
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
