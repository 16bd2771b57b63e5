import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { SessionPayload } from '../../session/session.tsx';
import Register from './register.tsx';
import { ADMIN, apiError, callTo, posts, renderView, SignedOut, type StubbedCall, stubApi } from './test-support.tsx';

const LOGIN_PAYLOAD = {
  session_id: 'new-session',
  user: { ...ADMIN, id: 7, email: 'new@port.local', role: 'user', permissions: ['basic_user_action'] },
  modules: { activity_module: 'enabled' },
  session: { expires_ts: 2_000_000_000, ttl: 3600 },
};

function answers(codeless: 'enabled' | 'disabled', register: (call: StubbedCall) => unknown = () => LOGIN_PAYLOAD) {
  return stubApi((call) => {
    if (call.path === 'public-settings') return { codeless_registration_module: codeless };
    if (call.path === 'translations/common/en') return {};
    return register(call);
  });
}

function show(signIn: (payload: SessionPayload) => void = () => {}, path = '/register') {
  renderView(
    <SignedOut signIn={signIn}>
      <Routes>
        <Route path="/register" element={<Register />} />
        <Route path="/" element={<p>Activity timeline here</p>} />
      </Routes>
    </SignedOut>,
    { path },
  );
}

function fill(label: string | RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function fillPerson(password = 'a long password 1', repeat = password) {
  fill(/^First name/, ' Alma ');
  fill(/^Last name/, 'Berg');
  fill(/^E-mail/, 'alma@port.local');
  fill(/^Password/, password);
  fill(/^Repeat the password/, repeat);
}

/** What fillPerson types, as the API receives it. */
const PERSON = { first_name: 'Alma', last_name: 'Berg', email: 'alma@port.local', password: 'a long password 1' };

/** Fills in the person, registers, and waits for the timeline the new user is sent to. */
async function registerPerson() {
  fillPerson();
  fireEvent.click(screen.getByRole('button', { name: 'Register' }));
  await screen.findByText('Activity timeline here');
}

describe('registration', () => {
  it('registers with a code, signs the new user in and goes to the timeline', async () => {
    const calls = answers('disabled');
    const signIn = vi.fn();
    show(signIn);
    fill(/^Registration code/, 'abcdef-123456 ');
    await registerPerson();
    expect(posts(calls)).toEqual([callTo('register', { ...PERSON, code: 'ABCDEF-123456' })]);
    expect(signIn).toHaveBeenCalledWith(LOGIN_PAYLOAD);
  });

  it('registers without a code through codeless-register when the port allows it', async () => {
    const calls = answers('enabled');
    const signIn = vi.fn();
    show(signIn);
    await screen.findByText('Leave it empty to register without a code.');
    await registerPerson();
    expect(posts(calls)).toEqual([callTo('codeless-register', PERSON)]);
    expect(signIn).toHaveBeenCalledOnce();
  });

  it('asks for a code when codeless registration is off, and sends nothing', async () => {
    const calls = answers('disabled');
    show();
    await waitFor(() => expect(calls.some((call) => call.path === 'public-settings')).toBe(true));
    fillPerson();
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Enter the registration code you were given')).toBeTruthy();
    expect(posts(calls)).toEqual([]);
  });

  it('sends nothing while the two passwords differ', async () => {
    const calls = answers('disabled');
    show(undefined, '/register?code=ABCDEF-123456');
    expect((screen.getByLabelText(/^Registration code/) as HTMLInputElement).value).toBe('ABCDEF-123456');
    fillPerson('a long password 1', 'a long password 2');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('The passwords do not match')).toBeTruthy();
    expect(posts(calls)).toEqual([]);
  });

  it('shows a refused code and the password rules in words, and stays signed out', async () => {
    let answer: unknown = apiError('Invalid code');
    answers('disabled', () => answer);
    const signIn = vi.fn();
    show(signIn);
    fill(/^Registration code/, 'ABCDEF-999999');
    fillPerson();
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect((await screen.findByRole('alert')).textContent).toContain('This registration code is not valid');

    answer = apiError('Password must be at least 12 characters in length', 403);
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain('Password must be at least 12 characters in length'),
    );

    // A 200 without a session (the original's way of refusing) is a refusal too.
    answer = { error: 'Registration failed, please try again' };
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain('Registration failed, please try again'),
    );
    expect(signIn).not.toHaveBeenCalled();
    expect(screen.queryByText('Activity timeline here')).toBeNull();
  });
});
