import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SessionContext } from '../../session/session.tsx';
import { apiError, callTo, posts, sessionOf } from '../../test/render.tsx';
import Profile from './profile.tsx';
import { ADMIN, renderView, type StubbedCall, stubApi, submitNewPassword } from './test-support.tsx';

const ADMIN_WITH_LEVEL = { ...ADMIN, permissions: [...ADMIN.permissions, 'manage_all_user'] };
const USER = {
  id: 9,
  email: 'user@port.local',
  first_name: 'Usko',
  last_name: 'User',
  role: 'user',
  permissions: ['login', 'basic_user_action', 'view_vis_information'],
};

function answers(change: (call: StubbedCall) => unknown = () => true) {
  return stubApi((call) => {
    if (call.path === 'roles') return [{ id: 1, name: 'admin', readable_name: 'Administrator' }];
    if (call.path === 'permissions') {
      return [
        { id: 2, name: 'basic_user_action', readable_name: 'Basic user actions' },
        { id: 12, name: 'manage_api_key', readable_name: 'Manage API keys' },
      ];
    }
    if (call.path === 'change-password') return change(call);
    if (call.path === 'request-password-reset') return { message: 'Password reset requested' };
    return undefined;
  });
}

const changePassword = (password: string, repeat: string) => submitNewPassword(password, repeat, 'Change the password');

describe('profile', () => {
  it('shows who is signed in, the role and the permissions in words', async () => {
    answers();
    renderView(<Profile />, { user: ADMIN_WITH_LEVEL });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Profile and password');
    expect(screen.getByText('Ada Admin')).toBeTruthy();
    expect(screen.getByText('admin@port.local')).toBeTruthy();
    expect(await screen.findByText('Administrator')).toBeTruthy();
    const list = screen.getByRole('list', { name: /What you may do/ });
    await waitFor(() => expect(within(list).getByText('Manage API keys')).toBeTruthy());
    // Without a readable name from the API, the name itself made readable.
    expect(within(list).getByText('Manage user admin')).toBeTruthy();
    expect(within(list).getAllByRole('listitem')).toHaveLength(ADMIN_WITH_LEVEL.permissions.length);
  });

  it("changes the user's own password with their e-mail, after checking the two match", async () => {
    const calls = answers();
    renderView(<Profile />, { user: ADMIN_WITH_LEVEL });

    changePassword('a new password 1', 'a new password 2');
    expect(await screen.findByText('The passwords do not match')).toBeTruthy();
    expect(posts(calls)).toEqual([]);

    changePassword('a new password 1', 'a new password 1');
    expect(await screen.findByText('Use the new password the next time you sign in.')).toBeTruthy();
    expect(posts(calls)).toEqual([
      callTo('change-password', { email: 'admin@port.local', password: 'a new password 1' }),
    ]);
    // The fields are emptied, so the password does not linger on screen.
    expect((screen.getByLabelText(/^New password/) as HTMLInputElement).value).toBe('');
  });

  it('shows a refused password in words', async () => {
    answers(() => apiError('Weak password. Not enough unique characters in password.', 403));
    renderView(<Profile />, { user: ADMIN_WITH_LEVEL });
    changePassword('aaaaaaaaaaaaaaa', 'aaaaaaaaaaaaaaa');
    expect((await screen.findByRole('alert')).textContent).toContain('Not enough unique characters');
  });

  it('offers a reset link by mail to a user whose role may not change passwords', async () => {
    const calls = answers();
    renderView(<Profile />, { user: USER });
    expect(screen.queryByRole('button', { name: 'Change the password' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'E-mail me a link' }));
    expect(await screen.findByText('A mail with the link is on its way to user@port.local.')).toBeTruthy();
    expect(posts(calls)).toEqual([
      expect.objectContaining({ path: 'request-password-reset', body: { email: 'user@port.local', port: 'gavle' } }),
    ]);
  });

  it('re-reads the session on opening, so a role changed since sign-in shows', () => {
    answers();
    const reload = vi.fn(async () => {});
    renderView(
      <SessionContext.Provider value={{ ...sessionOf(USER), reload }}>
        <Profile />
      </SessionContext.Provider>,
    );
    expect(reload).toHaveBeenCalledOnce();
  });

  it('does not crash on a user without names and with no permissions', () => {
    answers();
    renderView(<Profile />, {
      user: { id: 3, email: 'x@port.local', role: 'inactive_user', permissions: [] } as never,
    });
    expect(screen.getByText('Your role holds no permissions yet. Ask an administrator.')).toBeTruthy();
  });
});
