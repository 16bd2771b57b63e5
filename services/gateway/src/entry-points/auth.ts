// Who is calling (the Authorization header, docs/domain.md#sessions) and may they call this route
// (docs/domain.md#permissions). The rules themselves are pure (domain/roles.ts); this file does the look-ups.

import type { IncomingHttpHeaders } from 'node:http';
import { createBatcher } from '@pcas/batching';
import { ApiError } from '@pcas/contracts';
import type { AuthContext, Route } from '@pcas/http-kit';
import { type ActiveApiKey, findActiveApiKeys } from '../adapters/api-keys.ts';
import {
  type AccountBlock,
  changeTimeZone,
  findActiveUserByEmail,
  loadUsers,
  type UserWithPermissions,
} from '../adapters/users.ts';
import { rulesForRole } from '../domain/passwords.ts';
import { ANONYMOUS, DEFAULT_KEY_PERMISSIONS, isAllowed } from '../domain/roles.ts';
import { signInHolds } from '../domain/sign-in.ts';
import { canonicalTimeZone } from '../domain/users.ts';
import { type CallerCache, NO_OWNER, throughCache } from './caller-cache.ts';
import type { GatewayDeps } from './deps.ts';

/** The original sleeps a random 0–2 s before "Invalid access", to slow down guessing. */
export async function invalidAccess(maxDelayMs: number): Promise<never> {
  if (maxDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * maxDelayMs));
  throw ApiError.forbidden('Invalid access');
}

// Keys are 50 hex characters; anything much longer is not worth a query.
const MAX_API_KEY_LENGTH = 256;

export interface Access {
  authenticate(headers: IncomingHttpHeaders): Promise<AuthContext>;
  authorize(auth: AuthContext, route: Route, params: Record<string, unknown>): Promise<void>;
}

/** What a Bearer session resolves to, kept briefly per process (caller-cache.ts). */
export interface SessionCaller {
  user: UserWithPermissions;
  permissions: ReadonlySet<string>;
}

/** Callers already resolved, reused for at most a second (caller-cache.ts); absent, every request looks them up. */
export interface AccessCaches {
  sessions?: CallerCache<SessionCaller>;
  /** null: an unknown or disabled key. */
  apiKeys?: CallerCache<ActiveApiKey | null>;
}

export function createAccess(
  deps: Pick<GatewayDeps, 'db' | 'store' | 'sessions' | 'config' | 'log'>,
  caches: AccessCaches = {},
): Access {
  const { db, store, sessions, config, log } = deps;

  // Requests arriving while one query is on its way share the next (by primary key, one round trip), as API keys
  // do below.
  const lookUpUser = createBatcher<number, (UserWithPermissions & AccountBlock) | null>(
    async (ids) => {
      const found = await loadUsers(db, [...new Set(ids)]);
      return ids.map((id) => ({ ok: true, value: found.get(id) ?? null }));
    },
    { maxInFlight: 1 },
  );

  async function lookUpCaller(sessionId: string): Promise<SessionCaller> {
    const session = await sessions.get(sessionId);
    // Unknown or expired: 440 on every route, even /login (the UI then logs out silently).
    if (!session) throw ApiError.sessionExpired();
    const user = await lookUpUser(session.userId);
    // Deleted, locked or suspended: the session ends (domain/sign-in.ts).
    if (!user || !signInHolds(user, rulesForRole(config.passwordRules, user.role), new Date())) {
      await sessions.destroy(sessionId);
      throw ApiError.sessionExpired();
    }
    return { user, permissions: new Set(user.permissions) };
  }
  const sessionCaller = caches.sessions
    ? throughCache(caches.sessions, lookUpCaller, (caller) => caller.user.id)
    : lookUpCaller;

  async function fromSession(sessionId: string, headers: IncomingHttpHeaders): Promise<AuthContext> {
    const { user, permissions } = await sessionCaller(sessionId);
    const header = headers.clienttimezone;
    const zone = typeof header === 'string' ? canonicalTimeZone(header.trim()) : null;
    // Compared with the zone just loaded, so an unchanged zone costs no write.
    if (zone && zone !== user.time_zone) {
      try {
        await changeTimeZone(db, store, user.id, zone, { user_id: user.id, api_key_id: null });
      } catch (error) {
        log.warn({ err: error, user_id: user.id }, 'could not store the client time zone');
      }
    }
    return { kind: 'session', sessionId, userId: user.id, apiKeyId: null, role: user.role, permissions };
  }

  const lookUpApiKey = createBatcher<string, ActiveApiKey | null>(
    async (keys) => {
      const found = await findActiveApiKeys(db, [...new Set(keys)]);
      return keys.map((key) => ({ ok: true, value: found.get(key) ?? null }));
    },
    { maxInFlight: 1 },
  );
  // Kept like sessions: a key disabled through this process is refused by it at once, by the others within a
  // second. Requests arriving together share one query; with one query on its way at a time, the requests
  // arriving meanwhile share the next (measured under bench:ingest: a few percent more accepted/s than two).
  const apiKeyCaller = caches.apiKeys
    ? throughCache(caches.apiKeys, lookUpApiKey, (found) => found?.bound_user_id ?? NO_OWNER)
    : lookUpApiKey;

  // A cached key is the same object for every request within its second: its permission set is built once for
  // it (read-only, as a session's is shared by its requests), not once per request.
  const keyPermissions = new WeakMap<ActiveApiKey, ReadonlySet<string>>();
  const permissionsOf = (found: ActiveApiKey): ReadonlySet<string> => {
    let permissions = keyPermissions.get(found);
    if (!permissions) {
      permissions = new Set([...found.permissions, ...(found.key_permissions ?? DEFAULT_KEY_PERMISSIONS)]);
      keyPermissions.set(found, permissions);
    }
    return permissions;
  };

  async function fromApiKey(key: string): Promise<AuthContext> {
    if (key === '' || key.length > MAX_API_KEY_LENGTH) return ANONYMOUS;
    const found = await apiKeyCaller(key);
    if (!found) return ANONYMOUS;
    return {
      kind: 'api_key',
      sessionId: null,
      userId: found.bound_user_id,
      apiKeyId: found.id,
      role: found.role,
      permissions: permissionsOf(found),
    };
  }

  return {
    async authenticate(headers) {
      const header = headers.authorization;
      if (typeof header !== 'string' || header === '') return ANONYMOUS;
      // Split on the first space into scheme and credential, as the original.
      const space = header.indexOf(' ');
      const scheme = (space < 0 ? header : header.slice(0, space)).toLowerCase();
      const credential = space < 0 ? '' : header.slice(space + 1).trim();
      if (scheme === 'bearer') return fromSession(credential, headers);
      if (scheme === 'apikey') return fromApiKey(credential);
      return ANONYMOUS;
    },

    async authorize(auth, route, params) {
      if (isAllowed(auth, route.permission)) return;
      // `login` is also granted by the body's e-mail naming an active user whose role may log in.
      if (route.permission === 'login' && typeof params.email === 'string' && params.email.trim() !== '') {
        const candidate = await findActiveUserByEmail(db, params.email.trim());
        if (isAllowed(auth, route.permission, candidate)) return;
      }
      await invalidAccess(config.invalidAccessDelayMs);
    },
  };
}
