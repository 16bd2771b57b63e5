// POST /login, POST /logout, GET /session (shared/reference/original-app.md §8.1, §8.3, §9.1). Locked and
// suspended accounts (§8.3 steps 2, 3, 5) come with a later issue.

import { ApiError } from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import { verifyPassword } from '../../adapters/password.ts';
import { readSettings } from '../../adapters/settings.ts';
import { loadSigningKeys, type SigningKeys, signSessionJwt } from '../../adapters/signing-key.ts';
import { findActiveUserByEmail, loadUser, recordLogin, type UserWithPermissions } from '../../adapters/users.ts';
import { buildSessionPayload, MODULE_SETTINGS } from '../../domain/session-payload.ts';
import { invalidAccess } from '../auth.ts';
import type { GatewayDeps } from '../deps.ts';

const headerText = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value.join(', ') : (value ?? null);

export function sessionRoutes(deps: GatewayDeps): Route[] {
  const { db, store, sessions, config } = deps;
  // Loaded on first use, so building the route table needs no I/O.
  let keys: Promise<SigningKeys> | undefined;
  const signingKeys = () => {
    keys ??= loadSigningKeys(db, config).catch((error) => {
      keys = undefined;
      throw error;
    });
    return keys;
  };

  async function payload(user: UserWithPermissions, ttl: number, sessionId?: string) {
    const [settings, signing] = await Promise.all([readSettings(db, MODULE_SETTINGS), signingKeys()]);
    return buildSessionPayload({
      sessionId,
      user,
      settings,
      now: Date.now() / 1000,
      ttl,
      jwt: signSessionJwt(signing, user.id),
      rtaPointCoordinates: config.rtaPointCoordinates,
      mapDefaultCoordinates: config.mapDefaultCoordinates,
      mapDefaultZoom: config.mapDefaultZoom,
    });
  }

  return [
    {
      method: 'POST',
      path: '/login',
      permission: 'login',
      params: { email: { type: 'string' }, password: { type: 'string' } },
      async handle({ params, auth, headers, ip }) {
        const user = await findActiveUserByEmail(db, params.email);
        // Unknown user, a role without login, or a wrong password: the same answer, after the same delay.
        if (!user?.permissions.includes('login') || !(await verifyPassword(params.password, user.password_hash))) {
          return invalidAccess(config.invalidAccessDelayMs);
        }
        // Login always starts a new session (the original destroys the current one).
        if (auth.sessionId) await sessions.destroy(auth.sessionId);
        const sessionId = await sessions.create(user.id);
        await recordLogin(
          db,
          store,
          user.id,
          {
            user_agent: headerText(headers['user-agent']),
            remote_addr: ip ?? null,
            x_forwarded_for: headerText(headers['x-forwarded-for']),
          },
          { user_id: user.id, api_key_id: null },
        );
        // Ask the store how long the session lives, so the payload and the store never disagree.
        const session = await sessions.get(sessionId);
        return payload(user, session?.ttl ?? config.sessionTtlSeconds, sessionId);
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
        return payload(user, session.ttl);
      },
    },
  ];
}
