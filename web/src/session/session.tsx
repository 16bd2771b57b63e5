// Who is signed in: the login/session payload of the API, kept in memory, with the session id in localStorage
// (as the original web UI, so a reload keeps the user signed in). Views ask `can(permission)` and
// `moduleOn(module)` to hide what the user may not do; the API refuses it anyway.

import type { SessionPayload as ApiSessionPayload, ModuleSetting, SessionUser } from '@pcas/values';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { api, setSessionExpiredHandler, storedSessionId, storeSessionId } from '../api/client.ts';
import { setRealtimeToken } from '../realtime/socket.ts';

export type { ModuleSetting, SessionUser };

/**
 * What the UI keeps of the API's login/session payload (@pcas/values' SessionPayload, which the gateway builds):
 * the same keys, but only the user, the modules and the session's end are relied on, so a test or a registration
 * answer may leave out the rest; a map zoom may also come as a number (the original sent one).
 */
export type SessionPayload = Pick<ApiSessionPayload, 'session_id' | 'user'> & {
  modules: Partial<ApiSessionPayload['modules']>;
  session: Pick<ApiSessionPayload['session'], 'expires_ts' | 'ttl'>;
} & Partial<Pick<ApiSessionPayload, 'jwt' | 'rta_point_coordinates' | 'map_default_coordinates'>> & {
    map_default_zoom?: ApiSessionPayload['map_default_zoom'] | number;
  };

export interface SessionState {
  /** `loading` while a stored session is checked on page load. */
  status: 'loading' | 'signed-in' | 'signed-out';
  /** Signed out by the user (not by an ended session): sign-in should not offer to come back. */
  signedOutOnPurpose: boolean;
  payload: SessionPayload | null;
  user: SessionUser | null;
  /** Stores a login/registration answer and its session id. */
  signIn(payload: SessionPayload): void;
  signOut(): Promise<void>;
  /** Re-reads the session (after a change to the user's own role, modules or permissions). */
  reload(): Promise<void>;
  can(permission: string): boolean;
  moduleOn(module: ModuleSetting): boolean;
}

export const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside SessionProvider');
  return state;
}

/** Where to come back to after signing in again: the current path, unless it is a sign-in page itself. */
export function signInPath(location: { pathname: string; search: string }): string {
  const here = location.pathname + location.search;
  if (here === '/' || location.pathname.startsWith('/sign-in')) return '/sign-in';
  return `/sign-in?next=${encodeURIComponent(here)}`;
}

/** When a socket token (a JWT) expires, in ms since the epoch, or null when it cannot be read. */
export function socketTokenExpiry(jwt: string): number | null {
  try {
    const claims = JSON.parse(atob(jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown };
    return typeof claims.exp === 'number' ? claims.exp * 1000 : null;
  } catch {
    return null;
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<SessionState['status']>(storedSessionId() ? 'loading' : 'signed-out');
  const [payload, setPayload] = useState<SessionPayload | null>(null);
  const [signedOutOnPurpose, setSignedOutOnPurpose] = useState(false);
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const forget = useCallback(() => {
    storeSessionId(null);
    setRealtimeToken(null);
    setPayload(null);
    setStatus('signed-out');
    queryClient.clear();
  }, [queryClient]);

  const reload = useCallback(async () => {
    if (!storedSessionId()) return forget();
    try {
      const body = await api<SessionPayload>('GET', 'session');
      setRealtimeToken(body.jwt ?? null);
      setPayload(body);
      setStatus('signed-in');
    } catch {
      forget();
    }
  }, [forget]);

  useEffect(() => {
    void reload();
  }, [reload]);

  // The socket token lasts a day; a page open longer reads the session again for a fresh one a minute before.
  const tokenExpiry = payload?.jwt ? socketTokenExpiry(payload.jwt) : null;
  useEffect(() => {
    if (tokenExpiry === null) return;
    const timer = setTimeout(
      () => void reload(),
      Math.min(Math.max(tokenExpiry - Date.now() - 60_000, 0), 2 ** 31 - 1),
    );
    return () => clearTimeout(timer);
  }, [tokenExpiry, reload]);

  // A 440 from any call: forget the session and go to sign-in, coming back here afterwards.
  useEffect(() => {
    setSessionExpiredHandler(() => {
      if (!storedSessionId()) return;
      forget();
      navigate(signInPath(window.location), { replace: true });
    });
  }, [forget, navigate]);

  const value = useMemo<SessionState>(() => {
    const permissions = new Set(payload?.user.permissions ?? []);
    return {
      status,
      signedOutOnPurpose,
      payload,
      user: payload?.user ?? null,
      signIn(next) {
        if (next.session_id) storeSessionId(next.session_id);
        setRealtimeToken(next.jwt ?? null);
        setSignedOutOnPurpose(false);
        setPayload(next);
        setStatus('signed-in');
      },
      async signOut() {
        try {
          await api('POST', 'logout', {});
        } catch {
          // Signed out locally all the same.
        }
        setSignedOutOnPurpose(true);
        forget();
        navigate('/sign-in');
      },
      reload,
      can: (permission) => permissions.has(permission),
      moduleOn: (module) => payload?.modules?.[module] === 'enabled',
    };
  }, [status, signedOutOnPurpose, payload, forget, navigate, reload]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
