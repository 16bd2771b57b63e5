import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SessionContext } from '../../session/session.tsx';
import { ADMIN, firstCall, renderView, sessionOf, stubApi } from '../../test/render.tsx';
import { withRoles } from './fixtures.ts';
import RolesView, { grantsOf } from './roles.tsx';

const PERMISSIONS = [
  { id: 1, name: 'login', readable_name: 'Login' },
  { id: 21, name: 'manage_port', readable_name: 'Manage ports' },
];

const MATRIX = [
  { admin: ['login', 'manage_port'] },
  { second_admin: ['login'] },
  { first_user: ['login'] },
  { user: ['login', 'manage_port'] },
  { inactive_user: [] },
  { consignee: ['login'] },
];

const MANAGER = {
  ...ADMIN,
  role: 'second_admin',
  permissions: [
    'manage_permission',
    'manage_user_second_admin',
    'manage_user_first_user',
    'manage_user_user',
    'manage_user_inactive_user',
  ],
};

const answer = withRoles({ 'GET permissions': PERMISSIONS, 'GET role-permissions': MATRIX });

describe('the roles and permissions view', () => {
  it('reads the role → permissions answer without trusting its shape', () => {
    const grants = grantsOf([{ user: ['login', 3] }, null, 'x', { admin: null }]);
    expect([...(grants.get('user') ?? [])]).toEqual(['login']);
    expect(grants.get('admin')?.size).toBe(0);
    expect(grantsOf({}).size).toBe(0);
  });

  it('shows the matrix with labelled checkboxes; admin and roles the manager may not manage are read-only', async () => {
    stubApi(answer());
    renderView(<RolesView />, { user: MANAGER });
    const userPorts = (await screen.findByRole('checkbox', { name: 'Manage ports for User' })) as HTMLInputElement;
    expect(userPorts.checked).toBe(true);
    expect(userPorts.disabled).toBe(false);
    const adminPorts = screen.getByRole('checkbox', { name: 'Manage ports for Administrator' }) as HTMLInputElement;
    expect(adminPorts.checked).toBe(true);
    expect(adminPorts.disabled).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Login for Consignee' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('checkbox', { name: 'Manage ports for First user' }) as HTMLInputElement).checked).toBe(
      false,
    );
  });

  it('grants with PUT and revokes with DELETE, each after a confirmation', async () => {
    const calls = stubApi(answer((call) => (call.method !== 'GET' ? { result: 'OK' } : undefined)));
    const user = userEvent.setup();
    renderView(<RolesView />, { user: MANAGER });
    await user.click(await screen.findByRole('checkbox', { name: 'Manage ports for First user' }));
    const grant = await screen.findByRole('dialog', { name: 'Grant this permission?' });
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
    await user.click(within(grant).getByRole('button', { name: 'Grant' }));
    expect((await firstCall(calls, 'PUT')).path).toBe('role-permissions/first_user/manage_port');

    await user.click(screen.getByRole('checkbox', { name: 'Manage ports for User' }));
    const revoke = await screen.findByRole('dialog', { name: 'Revoke this permission?' });
    await user.click(within(revoke).getByRole('button', { name: 'Revoke' }));
    expect((await firstCall(calls, 'DELETE')).path).toBe('role-permissions/user/manage_port');
  });

  it('cancelling the confirmation calls nothing', async () => {
    const calls = stubApi(answer());
    const user = userEvent.setup();
    renderView(<RolesView />, { user: MANAGER });
    await user.click(await screen.findByRole('checkbox', { name: 'Manage ports for First user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Grant this permission?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it("reads the session again when the signed-in user's own role changes", async () => {
    stubApi(answer((call) => (call.method !== 'GET' ? { result: 'OK' } : undefined)));
    const reload = vi.fn(async () => {});
    const user = userEvent.setup();
    renderView(
      <SessionContext.Provider value={{ ...sessionOf(MANAGER), reload }}>
        <RolesView />
      </SessionContext.Provider>,
      { user: MANAGER },
    );
    await user.click(await screen.findByRole('checkbox', { name: 'Manage ports for First user' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Grant' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(reload).not.toHaveBeenCalled();

    await user.click(screen.getByRole('checkbox', { name: 'Manage ports for Second administrator' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Grant' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });
});
