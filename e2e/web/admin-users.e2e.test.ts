// People administration in a browser, against `pnpm start` (embedded): an administrator adds a user through the
// form, finds them by searching, suspends and unsuspends them; adds a registration code and switches it off;
// grants a permission to a role and revokes it again. Axe on each of the three views, and the users view at a
// phone's width without a horizontal page scroll.

import { describe, expect, it } from 'vitest';
import { ADMIN } from '../timestamps.ts';
import { browserSuite, chromiumAvailable, seriousAccessibilityFindings, WAIT } from './browser.ts';

describe.skipIf(!chromiumAvailable)('people administration in the web UI (embedded mode)', () => {
  const ui = browserSuite();

  it('adds a user through the form, finds them, suspends and unsuspends them', async () => {
    const { context, page, problems } = await ui.signedInPage();
    await ui.open(page, '/admin/users', 'Users');
    await page.getByRole('cell', { name: ADMIN.email }).first().waitFor();
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    await page.getByRole('button', { name: 'Add user' }).click();
    const form = page.getByRole('dialog', { name: 'Add user' });
    await form.getByLabel('E-mail').fill('nina.nordqvist@port.local');
    await form.getByLabel('First name').fill('Nina');
    await form.getByLabel('Last name').fill('Nordqvist');
    await form.getByLabel('Role').selectOption('first_user');
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    await form.getByRole('button', { name: 'Add user' }).click();
    const added = page.getByRole('dialog', { name: 'User added' });
    await added.waitFor();
    // The initial password the API made is shown once (30 hex characters).
    expect(await added.locator('code').textContent()).toMatch(/^[0-9a-f]{30}$/);
    await added.getByRole('button', { name: 'Done' }).click();

    await page.getByLabel('Search by name or e-mail').fill('nordq');
    const row = page.getByRole('row').filter({ hasText: 'nina.nordqvist@port.local' });
    await row.waitFor();
    await expect.poll(() => page.getByRole('row').count(), WAIT).toBe(2); // the header and Nina
    expect(await row.textContent()).toContain('First user');

    await page.getByRole('button', { name: 'Suspend Nina Nordqvist' }).click();
    await page.getByRole('button', { name: 'Unsuspend Nina Nordqvist' }).waitFor();
    await expect.poll(() => row.getByText('Suspended', { exact: true }).count(), WAIT).toBe(1);
    const listed = async () => {
      const res = await ui.admin.get('/users?limit=10&offset=0&sort=id&search=nordqvist');
      return (res.body as { data: Array<{ suspended: boolean }> }).data[0]?.suspended;
    };
    await expect.poll(listed, WAIT).toBe(true);

    await page.getByRole('button', { name: 'Unsuspend Nina Nordqvist' }).click();
    await page.getByRole('button', { name: 'Suspend Nina Nordqvist' }).waitFor();
    await expect.poll(listed, WAIT).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('fits a phone: no horizontal page scroll, the table scrolls in its own box', async () => {
    const { context, page, problems } = await ui.signedInPage({ phone: true });
    await ui.open(page, '/admin/users', 'Users');
    await page.getByRole('cell', { name: ADMIN.email }).first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Add user' }).waitFor({ state: 'visible' });
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('adds a registration code and switches it off', async () => {
    const { context, page, problems } = await ui.signedInPage();
    await ui.open(page, '/admin/registration-codes', 'Registration codes');
    await page.getByText('No registration codes yet').waitFor();
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    await page.getByRole('button', { name: 'Add registration code' }).click();
    const form = page.getByRole('dialog', { name: 'Add registration code' });
    await form.getByLabel('Description').fill('Pilots of the e2e season');
    await form.getByLabel('Role of who registers with it').selectOption('user');
    await form.getByRole('button', { name: 'Add code' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Pilots of the e2e season' });
    await row.waitFor();
    const code = (await row.locator('code').textContent()) ?? '';
    expect(code).toMatch(/^[A-HJ-NP-Z]{6}-[1-9][0-9]{5}$/);
    expect(await seriousAccessibilityFindings(page)).toEqual([]);

    // By keyboard: the switch takes focus and Space turns it off.
    const enabled = page.getByRole('switch', { name: `Code ${code} enabled` });
    expect(await enabled.isChecked()).toBe(true);
    await enabled.focus();
    await page.keyboard.press('Space');
    await expect.poll(() => enabled.isChecked(), WAIT).toBe(false);
    await expect
      .poll(async () => {
        const res = await ui.admin.get('/registration-codes?limit=10&offset=0&sort=id');
        return (res.body as { data: Array<{ code: string; enabled: boolean }> }).data.find((c) => c.code === code)
          ?.enabled;
      }, WAIT)
      .toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('grants a permission to a role and revokes it again, each after asking', async () => {
    const { context, page, problems } = await ui.signedInPage();
    await ui.open(page, '/admin/roles', 'Roles and permissions');
    const box = page.getByRole('checkbox', { name: 'Manage ports for User' });
    await box.waitFor();
    expect(await seriousAccessibilityFindings(page)).toEqual([]);
    expect(await page.getByRole('checkbox', { name: 'Manage ports for Administrator' }).isDisabled()).toBe(true);
    const held = async () => {
      const res = await ui.admin.get('/role-permissions/by-role/user');
      return (res.body as { user: string[] }).user.includes('manage_port');
    };
    expect(await held()).toBe(false);

    await box.click();
    await page.getByRole('dialog', { name: 'Grant this permission?' }).getByRole('button', { name: 'Grant' }).click();
    await expect.poll(() => box.isChecked(), WAIT).toBe(true);
    await expect.poll(held, WAIT).toBe(true);

    await box.click();
    await page.getByRole('dialog', { name: 'Revoke this permission?' }).getByRole('button', { name: 'Revoke' }).click();
    await expect.poll(() => box.isChecked(), WAIT).toBe(false);
    await expect.poll(held, WAIT).toBe(false);
    expect(problems).toEqual([]);
    await context.close();
  });
});
