// The web UI's frame in a browser, against `pnpm start` (embedded): served at / with history fallback, signing
// in and back out, a deep link that needs a session coming back after sign-in, an ended session (440) sending
// the user to sign in and back, the API under /api/v1 beside the original paths, and axe on the sign-in page.

import { describe, expect, it } from 'vitest';
import { ADMIN } from '../timestamps.ts';
import { browserSuite, chromiumAvailable, newPage, seriousAccessibilityFindings, WAIT } from './browser.ts';

describe.skipIf(!chromiumAvailable)('the web UI (embedded mode)', () => {
  const ui = browserSuite({ clients: 'none' });

  it('serves the app to browsers and the original answers to API clients on the same paths', async () => {
    const html = { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    const page = await fetch(`${ui.system.baseUrl}/port-calls`, { headers: html });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('<div id="root"></div>');

    // No text/html: the API, as before (440 without a session on a login route, 404 at /).
    const api = await fetch(`${ui.system.baseUrl}/port-calls`, { headers: { Accept: 'application/json' } });
    expect(api.status).toBe(403);
    expect(await api.json()).toEqual({ error: 'Invalid access' });
    const root = await fetch(`${ui.system.baseUrl}/`);
    expect(root.status).toBe(404);

    // Under /api/v1 the API answers even a browser's Accept, and never with the app.
    const health = await fetch(`${ui.system.baseUrl}/api/v1/health-check`, { headers: html });
    expect(health.status).toBe(200);
    expect((await health.json()).status).toBe('OK');
    const unknown = await fetch(`${ui.system.baseUrl}/api/v1/no-such-route`, { headers: html });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'Not found' });

    // The app's files are cached for good (their names change with their content); a missing one is a 404.
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(
      await (await fetch(`${ui.system.baseUrl}/`, { headers: html })).text(),
    );
    expect(asset).not.toBeNull();
    const script = await fetch(`${ui.system.baseUrl}${asset![1]}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${ui.system.baseUrl}/assets/missing.js`)).status).toBe(404);
  });

  it('signs in, comes back to the page asked for, and signs out', async () => {
    const { context, page, problems } = await newPage(ui.browser);
    await page.goto(`${ui.system.baseUrl}/notifications`);
    await page.waitForURL(/\/sign-in\?next=%2Fnotifications$/);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.locator('input[name="password"]').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent(), WAIT).toContain('Wrong e-mail or password');

    await page.locator('input[name="password"]').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/notifications$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe('Notifications');

    // A reload keeps the session.
    await page.reload();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe('Notifications');

    await page.getByRole('button', { name: /Account menu$/ }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in$/);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('sends a user whose session ended (440) to sign in, and back where they were', async () => {
    const { context, page, problems } = await ui.signedInPage();
    await page.goto(`${ui.system.baseUrl}/vessels`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe('Vessels');

    // The session ends elsewhere (signed out by another tab, or expired): the stored id is now unknown.
    const sessionId = await page.evaluate(() => localStorage.getItem('sessionId'));
    const out = await fetch(`${ui.system.baseUrl}/api/v1/logout`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${sessionId}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(out.status).toBe(200);
    await page.getByRole('link', { name: 'Notifications' }).click();
    await page.waitForURL(/\/sign-in\?next=%2Fnotifications$/);

    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.locator('input[name="password"]').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/notifications$/);
    expect(problems).toEqual([]);
    await context.close();
  });
});
