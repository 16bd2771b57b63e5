// POST /login, POST /logout, GET /session (docs/domain.md#sessions), with the failed-login suspension and lock
// (docs/domain.md#login-suspension-and-lock): locked and suspended accounts get a 200 `{message}`, which the UI
// shows as a login error, before the password is even checked.

import { ApiError } from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import { verifyPassword } from '../../adapters/password.ts';
import { findActiveUserByEmail, loadUser, recordFailedLogin } from '../../adapters/users.ts';
import { afterFailedLogin, loginBlockedMessage, rulesForRole } from '../../domain/passwords.ts';
import { invalidAccess } from '../auth.ts';
import type { GatewayDeps } from '../deps.ts';
import { createSignIn } from '../sign-in.ts';

export function sessionRoutes(deps: GatewayDeps): Route[] {
  const { db, store, sessions, config } = deps;
  const signIn = createSignIn(deps);

  return [
    {
      method: 'POST',
      path: '/login',
      permission: 'login',
      params: { email: { type: 'string', maxLength: 255 }, password: { type: 'string', maxLength: 1024 } },
      async handle({ params, auth, headers, ip }) {
        const user = await findActiveUserByEmail(db, params.email);
        // Unknown user or a role without login: the same answer as a wrong password, after the same delay.
        if (!user?.permissions.includes('login')) return invalidAccess(config.invalidAccessDelayMs);
        const rules = rulesForRole(config.passwordRules, user.role);
        const blocked = (counters: Parameters<typeof loginBlockedMessage>[0]) =>
          loginBlockedMessage(counters, rules, new Date());
        const before = blocked(user);
        if (before) return { message: before };
        if (!(await verifyPassword(params.password, user.password_hash))) {
          // Counted under the user's lock against the current counters, so concurrent failures all count.
          const after = await recordFailedLogin(db, store, user.id, (counters) =>
            blocked(counters) ? null : afterFailedLogin(counters, rules, new Date()),
          );
          const message = blocked(after);
          return message ? { message } : invalidAccess(config.invalidAccessDelayMs);
        }
        return signIn.start(user, { auth, headers, ip }, blocked);
      },
    },
    {
      method: 'POST',
      path: '/logout',
      permission: 'login',
      params: {},
      async handle({ auth }) {
        if (auth.sessionId) await sessions.destroy(auth.sessionId);
        return true;
      },
    },
    {
      method: 'GET',
      path: '/session',
      permission: 'login',
      params: {},
      async handle({ auth }) {
        if (!auth.sessionId || auth.userId === null) throw ApiError.sessionExpired();
        const [session, user] = await Promise.all([sessions.get(auth.sessionId), loadUser(db, auth.userId)]);
        if (!session || !user) throw ApiError.sessionExpired();
        return signIn.payload(user, session.ttl);
      },
    },
  ];
}
