// The status page (/status) as a person sees it: `pnpm start` with nothing set, opened in a real browser (headless
// Chromium). Skipped where no Chromium is installed, except under CI=true, where .ci/run installs it.

import { type RunningSystem, startEmbedded } from '@pcas/testing';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, launchBrowser } from './web/browser.ts';

// Generous (vitest's poll gives up after 1 s): the page, the service and the browser share a machine that may be
// small and busy.
const WAIT = { timeout: 30_000 };

describe.skipIf(!chromiumAvailable)('the status page in a browser (embedded mode)', () => {
  let system: RunningSystem;
  let browser: Browser;

  beforeAll(async () => {
    // No ADMIN_EMAIL / ADMIN_PASSWORD: the newcomer's start, with the default first administrator.
    [system, browser] = await Promise.all([startEmbedded(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await system?.stop();
  });

  it('shows the service, its health, the projections and how to log in, and leads to the API description', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));

    const answer = await page.goto(`${system.baseUrl}/status`);
    expect(answer?.status()).toBe(200);
    expect(await page.title()).toBe('Port Call Activity Service');
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT)
      .toBe('Port Call Activity Service');
    expect(await page.locator('.sub').textContent()).toMatch(/^Version \d+\.\d+\.\d+ · embedded mode · healthy$/);
    const row = (name: string) => page.getByRole('row', { name: new RegExp(`^${name}`) }).textContent();
    expect(await row('Database')).toMatch(/ok$/);
    expect(await row('Message broker')).toMatch(/not used$/);
    const hint = await page.locator('.hint').textContent();
    expect(hint).toContain('Log in as admin@port.local.');
    // The page is public: it never names the password, it says where to change it.
    expect(hint).not.toContain('port-admin-change-me');
    expect(await page.locator('.hint a').getAttribute('href')).toBe('/profile');

    // Nothing the page asks for is refused (its style by the Content-Security-Policy, say), no script error.
    expect(problems).toEqual([]);

    await page.getByRole('link', { name: '/openapi.json' }).click();
    await page.waitForURL(/\/api\/v1\/openapi\.json$/);
    const doc = JSON.parse((await page.locator('body').textContent()) ?? '');
    expect(doc.openapi).toBe('3.1.0');

    // And back to the web UI, which asks a visitor to sign in.
    await page.goBack();
    await page.getByRole('link', { name: 'Open the web UI' }).click();
    await page.waitForURL(/\/sign-in$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe('Sign in');
  });
});
