// Starting a session and the login payload (docs/domain.md#the-session-payload), shared by
// POST /login and the two sign-ups (which log the new user straight in, as the UI expects).

import type { IncomingHttpHeaders } from 'node:http';
import type { AuthContext } from '@pcas/http-kit';
import { MODULE_SETTINGS, type SessionPayload } from '@pcas/values';
import { sessionDigest } from '../adapters/session-store.ts';
import { readSettings } from '../adapters/settings.ts';
import { loadSigningKeys, type SigningKeys, signSocketToken } from '../adapters/signing-key.ts';
import { recordLogin, type UserWithPermissions } from '../adapters/users.ts';
import type { LoginCounters } from '../domain/passwords.ts';
import { buildSessionPayload } from '../domain/session-payload.ts';
import type { GatewayDeps } from './deps.ts';

const headerText = (value: string | string[] | undefined) =>
  Array.isArray(value) ? value.join(', ') : (value ?? null);

/** The signing keys, loaded on first use (building the route table needs no I/O) and retried after a failure. */
export function signingKeyLoader(deps: Pick<GatewayDeps, 'db' | 'config'>): () => Promise<SigningKeys> {
  let keys: Promise<SigningKeys> | undefined;
  return () => {
    keys ??= loadSigningKeys(deps.db, deps.config).catch((error) => {
      keys = undefined;
      throw error;
    });
    return keys;
  };
}

export interface SignIn {
  /**
   * The login/session payload for this user's session, with `session_id` only when `showSessionId` (a login: GET
   * /session does not repeat it). Its `jwt` signs a socket in for as long as this session lasts.
   */
  payload(user: UserWithPermissions, ttl: number, sessionId: string, showSessionId: boolean): Promise<SessionPayload>;
  /**
   * Records the login and starts a new session (ending the caller's current one, as the original). When
   * `blocked` returns a message under the user's lock (a concurrent failure just locked or suspended the
   * account), nothing starts and `{message}` comes back instead.
   */
  start(
    user: UserWithPermissions,
    request: { auth: AuthContext; headers: IncomingHttpHeaders; ip: string | undefined },
    blocked?: (counters: LoginCounters) => string | null,
  ): Promise<SessionPayload | { message: string }>;
}

export function createSignIn(deps: GatewayDeps): SignIn {
  const { db, store, sessions, config } = deps;
  const signingKeys = signingKeyLoader(deps);

  async function payload(user: UserWithPermissions, ttl: number, sessionId: string, showSessionId: boolean) {
    const [settings, signing] = await Promise.all([readSettings(db, MODULE_SETTINGS), signingKeys()]);
    return buildSessionPayload({
      sessionId: showSessionId ? sessionId : undefined,
      user,
      settings,
      now: Date.now() / 1000,
      ttl,
      jwt: signSocketToken(signing, user.id, sessionDigest(sessionId)),
      rtaPointCoordinates: config.rtaPointCoordinates,
      mapDefaultCoordinates: config.mapDefaultCoordinates,
      mapDefaultZoom: config.mapDefaultZoom,
    });
  }

  return {
    payload,
    async start(user, { auth, headers, ip }, blocked) {
      const message = await recordLogin(
        db,
        store,
        user.id,
        {
          user_agent: headerText(headers['user-agent']),
          remote_addr: ip ?? null,
          x_forwarded_for: headerText(headers['x-forwarded-for']),
        },
        { user_id: user.id, api_key_id: null },
        blocked,
      );
      if (message) return { message };
      // Login always starts a new session (the original destroys the current one).
      if (auth.sessionId) await sessions.destroy(auth.sessionId);
      const sessionId = await sessions.create(user.id);
      // Ask the store how long the session lives, so the payload and the store never disagree.
      const session = await sessions.get(sessionId);
      return payload(user, session?.ttl ?? config.sessionTtlSeconds, sessionId, true);
    },
  };
}
