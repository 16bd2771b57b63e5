// The login / session payload (docs/domain.md#the-session-payload).
// The web UI reads these exact keys; `user` must stay flat (any nested object crashes its profile page).

// Its types and the module list are @pcas/values' (the web UI reads the same); this builds it.

import {
  MODULE_SETTINGS,
  type ModuleSetting,
  type ModuleState,
  type SessionPayload,
  type SessionUser,
} from '@pcas/values';

export interface SessionPayloadInput {
  /** Present for POST /login (and registration); absent for GET /session. */
  sessionId?: string;
  user: SessionUser;
  /** Setting name → value, as stored; module rows that are missing count as disabled. */
  settings: Readonly<Record<string, string | undefined>>;
  /** Unix seconds. */
  now: number;
  /** Seconds the session has left. */
  ttl: number;
  jwt: string;
  rtaPointCoordinates: string;
  mapDefaultCoordinates: string;
  mapDefaultZoom: string;
}

export function moduleStates(
  settings: Readonly<Record<string, string | undefined>>,
): Record<ModuleSetting, ModuleState> {
  const modules = {} as Record<ModuleSetting, ModuleState>;
  for (const name of MODULE_SETTINGS) modules[name] = settings[name] === 'enabled' ? 'enabled' : 'disabled';
  return modules;
}

export function buildSessionPayload(input: SessionPayloadInput): SessionPayload {
  const now = Math.floor(input.now);
  const ttl = Math.max(0, Math.floor(input.ttl));
  const { id, email, first_name, last_name, role, permissions } = input.user;
  const body: SessionPayload = {
    user: { id, email, first_name, last_name, role, permissions: [...permissions] },
    modules: moduleStates(input.settings),
    session: { time: now, ttl, expires_ts: now + ttl },
    jwt: input.jwt,
    rta_point_coordinates: input.rtaPointCoordinates,
    map_default_coordinates: input.mapDefaultCoordinates,
    map_default_zoom: input.mapDefaultZoom,
  };
  // session_id leads, as in the original's output.
  return input.sessionId === undefined ? body : { session_id: input.sessionId, ...body };
}
