import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ADMIN, firstCall, openDialog, pageOf, renderView, stubApi } from '../../test/render.tsx';
import { withRoles } from './fixtures.ts';
import RegistrationCodesView from './registration-codes.tsx';

const CODES = [
  {
    id: 4,
    code: 'ABCDEF-123456',
    enabled: true,
    role: 'user',
    description: 'Pilots',
    created_at: '2026-11-25 16:20:42.121+00',
    readable_name: 'User',
    email: 'admin@port.local',
  },
  {
    id: 5,
    code: 'GHJKLM-654321',
    enabled: false,
    role: 'admin',
    description: 'Night shift',
    created_at: null,
    readable_name: null,
    email: null,
  },
];

const MANAGER = {
  ...ADMIN,
  permissions: ['manage_registration_code', 'manage_all_user', 'manage_user_user', 'manage_user_consignee'],
};

const answer = withRoles({ 'GET registration-codes': pageOf(CODES) });

describe('the registration codes view', () => {
  it('lists the newest codes first, with the code to copy', async () => {
    const calls = stubApi(answer());
    renderView(<RegistrationCodesView />, { user: MANAGER });
    expect(await screen.findByText('ABCDEF-123456')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy code ABCDEF-123456' })).toBeTruthy();
    expect(calls.find((call) => call.path === 'registration-codes')!.query.get('sort')).toBe('created_at DESC');
  });

  it('adds a code with a description and one of the roles the manager may give', async () => {
    const calls = stubApi(answer((call) => (call.method === 'POST' ? { id: 6 } : undefined)));
    const user = userEvent.setup();
    renderView(<RegistrationCodesView />, { user: MANAGER });
    const dialog = await openDialog('Add registration code');
    const role = within(dialog).getByLabelText(/Role/);
    await waitFor(() =>
      expect(
        within(role)
          .getAllByRole('option')
          .map((option) => (option as HTMLOptionElement).value),
      ).toEqual(['user', 'consignee']),
    );
    await user.type(within(dialog).getByLabelText(/Description/), 'Agents of the summer');
    await user.selectOptions(role, 'consignee');
    await user.click(within(dialog).getByRole('button', { name: 'Add code' }));
    expect(await firstCall(calls, 'POST')).toMatchObject({
      path: 'registration-codes',
      body: { description: 'Agents of the summer', role: 'consignee' },
    });
  });

  it('switches a code off with enabled 0 and its role, and leaves codes of roles it may not manage alone', async () => {
    const calls = stubApi(answer((call) => (call.method === 'PUT' ? 4 : undefined)));
    const user = userEvent.setup();
    renderView(<RegistrationCodesView />, { user: MANAGER });
    const own = await screen.findByRole('switch', { name: 'Code ABCDEF-123456 enabled' });
    expect((screen.getByRole('switch', { name: 'Code GHJKLM-654321 enabled' }) as HTMLInputElement).disabled).toBe(
      true,
    );
    expect(screen.queryByRole('button', { name: 'Delete code GHJKLM-654321' })).toBeNull();
    await user.click(own);
    expect(await firstCall(calls, 'PUT')).toMatchObject({
      path: 'registration-codes/4',
      body: { id: 4, enabled: 0, role: 'user' },
    });
  });

  it('deletes a code after asking', async () => {
    const calls = stubApi(answer((call) => (call.method === 'DELETE' ? {} : undefined)));
    const user = userEvent.setup();
    renderView(<RegistrationCodesView />, { user: MANAGER });
    const dialog = await openDialog('Delete code ABCDEF-123456', 'Delete registration code ABCDEF-123456?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await firstCall(calls, 'DELETE')).path).toBe('registration-codes/4');
  });

  it('is not shown without manage_registration_code', async () => {
    const calls = stubApi(answer());
    renderView(<RegistrationCodesView />, { user: { ...ADMIN, permissions: ['basic_user_action'] } });
    expect(await screen.findByText('You have no permission to manage registration codes.')).toBeTruthy();
    expect(calls.some((call) => call.path === 'registration-codes')).toBe(false);
  });
});
