// For the account pages' component tests: the shared renderer, and a signed-out session inside it (sign-up and
// password reset are for people who are not signed in), whose signIn a test can watch.

import { fireEvent, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { SessionContext, type SessionPayload } from '../../session/session.tsx';
import { ADMIN, sessionOf } from '../../test/render.tsx';

export { ADMIN, apiError, callTo, posts, renderView, type StubbedCall, stubApi } from '../../test/render.tsx';

export function SignedOut({
  children,
  signIn = () => {},
}: {
  children: ReactNode;
  signIn?: (payload: SessionPayload) => void;
}) {
  const value = { ...sessionOf(ADMIN), status: 'signed-out' as const, payload: null, user: null, signIn };
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** Types a new password and its repeat (password-pair.tsx) and presses the form's submit button. */
export function submitNewPassword(password: string, repeat: string, submitLabel: string) {
  fireEvent.change(screen.getByLabelText(/^New password/), { target: { value: password } });
  fireEvent.change(screen.getByLabelText(/^Repeat the new password/), { target: { value: repeat } });
  fireEvent.click(screen.getByRole('button', { name: submitLabel }));
}
