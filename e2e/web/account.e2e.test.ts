// The account pages in a browser, against `pnpm start` (embedded): registering with a code an administrator made
// and landing signed in (at a phone's width), a forgotten password reset through the mail the service writes to
// its outbox folder (no SMTP_URL), changing the password on the profile page, the not-found page, and axe on
// each of them.

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiClient, parseMail } from '@pcas/testing';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN } from '../timestamps.ts';
import {
  browserSuite,
  chromiumAvailable,
  heading,
  newPage,
  seriousAccessibilityFindings,
  signIn,
  WAIT,
} from './browser.ts';

/** Whether the page scrolls sideways (a phone must not). */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** The text of the newest mail to `to` in the embedded service's outbox folder, once it is there. */
async function mailTo(outbox: string, to: string): Promise<string> {
  let text = '';
  await expect
    .poll(async () => {
      const files = (await readdir(outbox).catch(() => [] as string[])).filter((file) => file.endsWith('.eml'));
      for (const file of files.sort().reverse()) {
        const mail = await parseMail(await readFile(path.join(outbox, file)));
        if (mail.to.includes(to)) {
          text = mail.text;
          return true;
        }
      }
      return false;
    }, WAIT)
    .toBe(true);
  return text;
}

describe.skipIf(!chromiumAvailable)('the account pages (embedded mode)', () => {
  const ui = browserSuite({
    clients: 'none',
    prepare: async (ui) => {
      ui.admin = await new ApiClient(`${ui.system.baseUrl}/api/v1`).login(ADMIN.email, ADMIN.password);
    },
  });

  /** A user made by the administrator, with the random first password the API answers. */
  async function createUser(email: string, role: string): Promise<string> {
    const created = await ui.admin.post('/users', { email, first_name: 'Test', last_name: role, role });
    expect(created.status).toBe(200);
    return created.body.password as string;
  }

  it('registers with a code at a phone width and lands signed in; the profile and a wrong path read well', async () => {
    const made = await ui.admin.post('/registration-codes', { role: 'user', description: 'browser test' });
    expect(made.status).toBe(200);
    const codes = await ui.admin.get('/registration-codes', { limit: 100, offset: 0, sort: 'id', search: '' });
    const code = (codes.body.data as { id: number; code: string }[]).find((row) => row.id === made.body)?.code;
    expect(code).toMatch(/^[A-Z]{6}-\d{6}$/);

    const { context, page, problems } = await newPage(ui.browser, { phone: true });
    await page.goto(`${ui.system.baseUrl}/sign-in`);
    await expect.poll(() => heading(page), WAIT).toBe('Sign in');
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    await page.getByRole('link', { name: /^Register/ }).click();
    await page.waitForURL(/\/register$/);
    await expect.poll(() => heading(page), WAIT).toBe('Register');
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    // Refused in words first: a code that does not exist.
    await page.getByLabel('Registration code').fill('ABCDEF-111111');
    await page.getByLabel('First name').fill('Rita');
    await page.getByLabel('Last name').fill('Register');
    await page.getByLabel('E-mail').fill('rita@port.local');
    await page.getByLabel(/^Password/).fill('rita has a long password');
    await page.getByLabel('Repeat the password').fill('rita has a long password');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), WAIT)
      .toContain('This registration code is not valid');
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    await page.getByLabel('Registration code').fill(code!);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => localStorage.getItem('sessionId'))).toBeTruthy();

    // Signed in as the new user: the profile says who, with the role in words; a user changes the password by mail.
    await page.goto(`${ui.system.baseUrl}/profile`);
    await expect.poll(() => heading(page), WAIT).toBe('Profile and password');
    await expect.poll(() => page.getByText('rita@port.local').count(), WAIT).toBe(1);
    await expect.poll(() => page.getByText('User', { exact: true }).count(), WAIT).toBe(1);
    await expect.poll(() => page.getByRole('listitem').filter({ hasText: 'Basic user actions' }).count(), WAIT).toBe(1);
    await page.getByRole('button', { name: 'E-mail me a link' }).waitFor(WAIT);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    await page.goto(`${ui.system.baseUrl}/no/such/page`);
    await expect.poll(() => heading(page), WAIT).toBe('Page not found');
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    await page.getByRole('link', { name: 'Go to the activity timeline' }).click();
    await page.waitForURL((url) => url.pathname === '/');

    expect(problems).toEqual([]);
    await context.close();
  });

  it('resets a forgotten password through the link of the mail, which works once', async () => {
    const email = 'forgetful@port.local';
    const first = await createUser(email, 'user');
    const { context, page, problems } = await newPage(ui.browser);

    await page.goto(`${ui.system.baseUrl}/sign-in`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/forgot-password$/);
    await expect.poll(() => heading(page), WAIT).toBe('Reset your password');
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent(), WAIT).toContain('If the address is known');
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    const text = await mailTo(path.join(ui.system.env.DATA_DIR!, 'outbox'), email);
    const found = /https?:\/\/\S+\/reset-password\?\S+/.exec(text);
    expect(found).not.toBeNull();
    // The link names the service's BASE_URL (localhost); the browser reaches it at the test's address.
    const link = new URL(found![0]);
    expect(link.searchParams.get('username')).toBe(email);
    expect(link.searchParams.get('token')).toBeTruthy();
    const here = `${ui.system.baseUrl}${link.pathname}${link.search}`;

    await page.goto(here);
    await expect.poll(() => heading(page), WAIT).toBe('Choose a new password');
    expect(await page.getByLabel('E-mail').inputValue()).toBe(email);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    await page.getByLabel(/^New password/).fill('my brand new password');
    await page.getByLabel('Repeat the new password').fill('my brand new passwort');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect.poll(() => page.getByText('The passwords do not match').count(), WAIT).toBe(1);
    await page.getByLabel('Repeat the new password').fill('my brand new password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent(), WAIT).toContain('Your new password is set');
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    await page.getByRole('link', { name: 'Go to sign in' }).click();
    await page.waitForURL(/\/sign-in$/);
    await signIn(page, ui.system.baseUrl, email, 'my brand new password');
    expect(new URL(page.url()).pathname).toBe('/');
    const old = await new ApiClient(`${ui.system.baseUrl}/api/v1`).post('/login', { email, password: first });
    expect(old.status).toBe(403);

    // The same link again: spent, said in words, with the way to a new one.
    const other = await newPage(ui.browser);
    await other.page.goto(here);
    await other.page.getByLabel(/^New password/).fill('yet another password');
    await other.page.getByLabel('Repeat the new password').fill('yet another password');
    await other.page.getByRole('button', { name: 'Set the new password' }).click();
    await expect
      .poll(() => other.page.getByRole('alert').textContent(), WAIT)
      .toContain('This link is no longer valid');
    await other.page.getByRole('link', { name: 'Ask for a new link' }).waitFor(WAIT);

    expect(problems).toEqual([]);
    expect(other.problems).toEqual([]);
    await other.context.close();
    await context.close();
  });

  it('changes the password on the profile page; the new one signs in, the old one no longer', async () => {
    const email = 'second.admin@port.local';
    const first = await createUser(email, 'admin');
    const { context, page, problems } = await newPage(ui.browser);
    await signIn(page, ui.system.baseUrl, email, first);

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile and password' }).click();
    await page.waitForURL(/\/profile$/);
    await expect.poll(() => heading(page), WAIT).toBe('Profile and password');
    await expect.poll(() => page.getByText('Administrator', { exact: true }).count(), WAIT).toBe(1);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    // The rules are the server's: a password like the username is refused in words.
    await page.getByLabel(/^New password/).fill(email);
    await page.getByLabel('Repeat the new password').fill(email);
    await page.getByRole('button', { name: 'Change the password' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent(), WAIT)
      .toContain("Password can't be same as username");

    await page.getByLabel(/^New password/).fill('the changed password');
    await page.getByLabel('Repeat the new password').fill('the changed password');
    await page.getByRole('button', { name: 'Change the password' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent(), WAIT).toContain('Password changed');
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    // Sign-in with or without `?next=`: which one is the shared sign-out's business, not this page's.
    await page.waitForURL(/\/sign-in/);
    await signIn(page, ui.system.baseUrl, email, 'the changed password');
    expect(new URL(page.url()).pathname).toBe('/');
    const old = await new ApiClient(`${ui.system.baseUrl}/api/v1`).post('/login', { email, password: first });
    expect(old.status).toBe(403);

    expect(problems).toEqual([]);
    await context.close();
  });
});
