// POST /login, POST /logout, GET /session (docs/domain.md#sessions), with the failed-login suspension and lock
// (docs/domain.md#login-suspension-and-lock): locked and suspended accounts get a 200 `{message}`, which the UI
// shows as a login error, before the password is even checked. Failures count per account and client address,
// and are rate-limited per address and per address and account (docs/security.md#limits).

import { ApiError } from '@pcas/contracts';
import { addressKey, type Route } from '@pcas/http-kit';
import { verifyPassword } from '../../adapters/password.ts';
import { clientLoginCounters, findActiveUserByEmail, loadUser, recordFailedLogin } from '../../adapters/users.ts';
import {
  afterFailedLogin,
  clientLoginBlockedMessage,
  type LoginCounters,
  loginBlockedMessage,
  rulesForRole,
} from '../../domain/passwords.ts';
import { invalidAccess } from '../auth.ts';
import type { GatewayDeps } from '../deps.ts';
import { createSignIn } from '../sign-in.ts';
import { text } from './params.ts';

export function sessionRoutes(deps: GatewayDeps): Route[] {
  const { db, store, sessions, config } = deps;
  const signIn = createSignIn(deps);

  return [
    {
      method: 'POST',
      path: '/login',
      permission: 'login',
      params: { email: text(255), password: text(1024) },
      // Only failures count: a sign-in that starts a session gives its charge back (below).
      rateLimits: [
        { limit: 'login_address', perAddress: true },
        { limit: 'login_address_account', perAddress: true, perParam: 'email' },
      ],
      async handle({ params, auth, headers, ip, refundRateLimits }) {
        const user = await findActiveUserByEmail(db, params.email);
        // Unknown user or a role without login: the same answer as a wrong password, after the same delay.
        if (!user?.permissions.includes('login')) return invalidAccess(config.invalidAccessDelayMs);
        const rules = rulesForRole(config.passwordRules, user.role);
        const client = addressKey(ip);
        const blocked = (counters: { account: LoginCounters; client: LoginCounters }) =>
          clientLoginBlockedMessage(counters, rules, new Date());
        const before = blocked({ account: user, client: await clientLoginCounters(db, user.id, client) });
        if (before) return { message: before };
        if (!(await verifyPassword(params.password, user.password_hash))) {
          // Counted under the user's lock against the current counters, so concurrent failures all count.
          const after = await recordFailedLogin(db, store, user.id, client, (counters) =>
            blocked(counters) ? null : afterFailedLogin(counters.client, rules, new Date()),
          );
          const message = blocked(after);
          return message ? { message } : invalidAccess(config.invalidAccessDelayMs);
        }
        // Checked again under the lock against the account's counters and this client's (users.ts recordLogin).
        const started = await signIn.start(user, { auth, headers, ip }, (counters) =>
          loginBlockedMessage(counters, rules, new Date()),
        );
        if (!('message' in started)) await refundRateLimits();
        return started;
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
        return signIn.payload(user, session.ttl, auth.sessionId, false);
      },
    },
  ];
}
