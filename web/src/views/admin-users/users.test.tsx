import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ADMIN, apiError, firstCall, openDialog, pageOf, renderView, stubApi } from '../../test/render.tsx';
import { ROLES, withRoles } from './fixtures.ts';
import UsersView, { USERS_DEFAULT_SORT } from './users.tsx';

const USERS = [
  {
    id: 1,
    first_name: 'Ada',
    last_name: 'Admin',
    email: 'admin@port.local',
    role_id: 1,
    registration_type: 'seed',
    created_by_email: null,
    suspended: false,
    locked: false,
  },
  {
    id: 7,
    first_name: 'Pia',
    last_name: 'Pilot',
    email: 'pia@port.local',
    role_id: 4,
    registration_type: 'manual',
    created_by_email: 'admin@port.local',
    suspended: false,
    locked: true,
  },
];

const MANAGER = {
  ...ADMIN,
  permissions: [
    'basic_user_action',
    'manage_all_user',
    ...ROLES.map((role) => `manage_user_${role.name}`),
    'manage_registration_code',
    'manage_permission',
  ],
};

const answer = withRoles({ 'GET users': pageOf(USERS), 'GET users/7': USERS[1] });

/** Fills the "Add user" form of the view as a manager and sends it; gives the dialog. */
async function addUser(fields: { email: string; first: string; last: string; role?: string }) {
  const user = userEvent.setup();
  renderView(<UsersView />, { user: MANAGER });
  const dialog = await openDialog('Add user');
  await user.type(within(dialog).getByLabelText(/E-mail/), fields.email);
  await user.type(within(dialog).getByLabelText(/First name/), fields.first);
  await user.type(within(dialog).getByLabelText(/Last name/), fields.last);
  if (fields.role) await user.selectOptions(within(dialog).getByLabelText(/Role/), fields.role);
  await user.click(within(dialog).getByRole('button', { name: 'Add user' }));
  return dialog;
}

describe('the users view', () => {
  it('lists users with readable roles and registration types, sorted by name on the server', async () => {
    const calls = stubApi(answer());
    renderView(<UsersView />, { user: MANAGER });
    expect(await screen.findByText('Pia Pilot')).toBeTruthy();
    const row = screen.getByText('Pia Pilot').closest('tr')!;
    await waitFor(() => expect(within(row).getByText('User')).toBeTruthy());
    expect(within(row).getByText('Added by a manager')).toBeTruthy();
    expect(within(row).getByText('Locked')).toBeTruthy();
    const list = calls.find((call) => call.path === 'users')!;
    expect(list.query.get('sort')).toBe(USERS_DEFAULT_SORT);
    expect(list.query.get('limit')).toBe('25');
    expect(list.query.get('offset')).toBe('0');
  });

  it('adds a user with the fields and role the API takes, then shows the initial password once', async () => {
    const calls = stubApi(
      answer((call) =>
        call.method === 'POST' && call.path === 'users' ? { id: 9, password: 'abc123secret' } : undefined,
      ),
    );
    await addUser({ email: ' new@port.local ', first: 'Nina', last: 'New', role: 'first_user' });

    const post = await firstCall(calls, 'POST');
    expect(post.path).toBe('users');
    expect(post.body).toEqual({ email: 'new@port.local', first_name: 'Nina', last_name: 'New', role: 'first_user' });
    const added = await screen.findByRole('dialog', { name: 'User added' });
    expect(within(added).getByText('abc123secret')).toBeTruthy();
  });

  it('shows the API refusal in words', async () => {
    stubApi(
      answer((call) =>
        call.method === 'POST' && call.path === 'users'
          ? apiError('User with email pia@port.local already exists')
          : undefined,
      ),
    );
    const dialog = await addUser({ email: 'pia@port.local', first: 'Pia', last: 'Pilot' });
    expect((await within(dialog).findByRole('alert')).textContent).toContain(
      'User with email pia@port.local already exists',
    );
  });

  it('suspends and unlocks with the bodies the API expects', async () => {
    const calls = stubApi(answer((call) => (call.method === 'POST' ? 7 : undefined)));
    const user = userEvent.setup();
    renderView(<UsersView />, { user: MANAGER });
    await user.click(await screen.findByRole('button', { name: 'Suspend Pia Pilot' }));
    await user.click(screen.getByRole('button', { name: 'Unlock Pia Pilot' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(2));
    const posts = calls.filter((call) => call.method === 'POST');
    expect(posts[0]).toMatchObject({ path: 'user-suspend', body: { id: 7, suspended: true } });
    expect(posts[1]).toMatchObject({ path: 'user-lock', body: { id: 7, locked: false } });
  });

  it('changes a role with updateRole, as the API keeps the role otherwise', async () => {
    const calls = stubApi(answer((call) => (call.method === 'PUT' ? USERS[1] : undefined)));
    const user = userEvent.setup();
    renderView(<UsersView />, { user: MANAGER });
    const dialog = await openDialog('Edit Pia Pilot', 'Edit user');
    const role = await within(dialog).findByLabelText(/Role/);
    expect((role as HTMLSelectElement).value).toBe('user');
    await user.selectOptions(role, 'consignee');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const put = await firstCall(calls, 'PUT');
    expect(put.path).toBe('users/7');
    expect(put.body).toEqual({
      email: 'pia@port.local',
      first_name: 'Pia',
      last_name: 'Pilot',
      role: 'consignee',
      updateRole: true,
    });
  });

  it('hides the actions on users whose role the manager may not manage, and offers only the roles it may give', async () => {
    stubApi(answer());
    renderView(<UsersView />, {
      user: { ...ADMIN, id: 3, role: 'first_user', permissions: ['manage_all_user', 'manage_user_user'] },
    });
    expect(await screen.findByRole('button', { name: 'Suspend Pia Pilot' })).toBeTruthy();
    const adminRow = screen.getByText('Ada Admin').closest('tr')!;
    expect(within(adminRow).queryAllByRole('button')).toHaveLength(0);

    const dialog = await openDialog('Add user');
    const options = within(dialog).getAllByRole('option');
    expect(options.map((option) => (option as HTMLOptionElement).value)).toEqual(['user']);
  });

  it('sorts a column on the server, ascending then descending', async () => {
    const calls = stubApi(answer());
    const user = userEvent.setup();
    renderView(<UsersView />, { user: MANAGER });
    await screen.findByText('Pia Pilot');
    await user.click(screen.getByRole('button', { name: /^E-mail/ }));
    await waitFor(() => expect(calls.at(-1)?.query.get('sort')).toBe('lower(email)'));
    await user.click(screen.getByRole('button', { name: /^E-mail/ }));
    await waitFor(() => expect(calls.at(-1)?.query.get('sort')).toBe('lower(email) DESC'));
  });

  it('says why the list is empty for a manager with neither level of user management', async () => {
    stubApi(answer());
    renderView(<UsersView />, { user: { ...ADMIN, permissions: ['manage_user_user'] } });
    expect(await screen.findByText(/so the list shows nobody/)).toBeTruthy();
  });

  it('tells a user without any manage_user permission that the view is not for them', async () => {
    const calls = stubApi(answer());
    renderView(<UsersView />, { user: { ...ADMIN, permissions: ['basic_user_action'] } });
    expect(await screen.findByText('You have no permission to manage users.')).toBeTruthy();
    expect(calls.some((call) => call.path === 'users')).toBe(false);
  });

  it('deletes after asking, and never offers to delete oneself', async () => {
    const calls = stubApi(answer((call) => (call.method === 'DELETE' ? true : undefined)));
    const user = userEvent.setup();
    renderView(<UsersView />, { user: MANAGER });
    await screen.findByText('Pia Pilot');
    expect(screen.queryByRole('button', { name: 'Delete Ada Admin' })).toBeNull();
    const dialog = await openDialog('Delete Pia Pilot', 'Delete Pia Pilot?');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await firstCall(calls, 'DELETE')).path).toBe('users/7');
  });
});
