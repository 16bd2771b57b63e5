import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import ForgotPassword from './forgot-password.tsx';
import NotFound from './not-found.tsx';
import { apiError, posts, renderView, SignedOut, stubApi } from './test-support.tsx';

const SENT = 'If the address is known, a mail is on its way';

function show(path = '/forgot-password') {
  renderView(
    <SignedOut>
      <ForgotPassword />
    </SignedOut>,
    { path },
  );
}

function send(email?: string) {
  if (email !== undefined) fireEvent.change(screen.getByLabelText(/^E-mail/), { target: { value: email } });
  fireEvent.click(screen.getByRole('button', { name: 'Send the link' }));
}

describe('forgot password', () => {
  it('asks for a reset mail with the address and the port, and says the same whatever the answer', async () => {
    const calls = stubApi(() => ({ message: 'Password reset requested' }));
    show();
    send(' alma@port.local ');
    expect(await screen.findByText(SENT)).toBeTruthy();
    expect(posts(calls)).toEqual([
      expect.objectContaining({ path: 'request-password-reset', body: { email: 'alma@port.local', port: 'gavle' } }),
    ]);
  });

  it('says the same when the API refuses, so nobody learns which addresses exist', async () => {
    stubApi(() => apiError('Parameter too long'));
    show('/forgot-password?email=someone%40port.local');
    send();
    expect(await screen.findByText(SENT)).toBeTruthy();
  });

  it('tells when the service cannot be reached, as no mail can be on its way then', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    show();
    send('alma@port.local');
    expect((await screen.findByRole('alert')).textContent).toContain('The service cannot be reached');
    expect(screen.queryByText(SENT)).toBeNull();
  });

  it('sends nothing for something that is not an e-mail address', async () => {
    const calls = stubApi(() => ({}));
    show();
    send('alma');
    expect(await screen.findByText('Enter the e-mail address you sign in with')).toBeTruthy();
    expect(posts(calls)).toEqual([]);
  });
});

describe('not found', () => {
  it('names the path and links to the activity timeline', () => {
    renderView(<NotFound />, { path: '/no/such/page' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Page not found');
    expect(screen.getByText(/There is no page at \/no\/such\/page/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the activity timeline' }).getAttribute('href')).toBe('/');
  });
});
