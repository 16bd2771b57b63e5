import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import ResetPassword from './reset-password.tsx';
import { apiError, callTo, posts, renderView, SignedOut, stubApi, submitNewPassword } from './test-support.tsx';

const LINK = '/reset-password?username=alma%40port.local&token=the.reset.token&port=gavle';

function show(path = LINK) {
  renderView(
    <SignedOut>
      <ResetPassword />
    </SignedOut>,
    { path },
  );
}

const type = (password: string, repeat: string) => submitNewPassword(password, repeat, 'Set the new password');

describe('password reset from the mail link', () => {
  it('sends nothing while the two passwords differ', async () => {
    const calls = stubApi(() => ({ id: 7, email: 'alma@port.local' }));
    show();
    type('a new password 1', 'a new password 2');
    expect(await screen.findByText('The passwords do not match')).toBeTruthy();
    expect(posts(calls)).toEqual([]);
  });

  it('posts the new password with the token of the link, then offers sign-in', async () => {
    const calls = stubApi(() => ({ id: 7, email: 'alma@port.local', first_name: 'Alma' }));
    show();
    expect((screen.getByLabelText(/^E-mail/) as HTMLInputElement).value).toBe('alma@port.local');
    type('a new password 1', 'a new password 1');
    expect(await screen.findByText('Your new password is set. Sign in with it.')).toBeTruthy();
    expect(posts(calls)).toEqual([
      callTo('reset-password', { password: 'a new password 1', token: 'the.reset.token' }),
    ]);
    expect(screen.getByRole('link', { name: 'Go to sign in' }).getAttribute('href')).toBe('/sign-in');
  });

  it('says in words that a used or expired link is no longer valid, with a way to a new one', async () => {
    // The API answers a bad token with 200 {message}: not a success.
    stubApi(() => ({ message: 'Invalid token, you must request new one.' }));
    show();
    type('a new password 1', 'a new password 1');
    expect((await screen.findByRole('alert')).textContent).toContain('This link is no longer valid');
    expect(screen.queryByText('Your new password is set. Sign in with it.')).toBeNull();
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe(
      '/forgot-password?email=alma%40port.local',
    );
  });

  it('shows the password rules refusal in words', async () => {
    stubApi(() => apiError("Password can't be same as username", 403));
    show();
    type('alma@port.local', 'alma@port.local');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain("Password can't be same as username"));
  });

  it('explains a link without a token instead of showing a form that cannot work', () => {
    stubApi(() => ({}));
    show('/reset-password?username=alma%40port.local');
    expect(screen.getByRole('alert').textContent).toContain('This link is incomplete');
    expect(screen.queryByRole('button', { name: 'Set the new password' })).toBeNull();
  });
});
