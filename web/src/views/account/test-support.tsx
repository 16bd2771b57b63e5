// For the account pages' component tests: the shared renderer, and a signed-out session inside it (sign-up and
// password reset are for people who are not signed in), whose signIn a test can watch.

import type { ReactNode } from 'react';
import { SessionContext, type SessionPayload } from '../../session/session.tsx';
import { ADMIN, sessionOf } from '../../test/render.tsx';

export { ADMIN, renderView, type StubbedCall, stubApi } from '../../test/render.tsx';

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
