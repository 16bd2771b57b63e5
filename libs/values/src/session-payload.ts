// The login / session payload as the API sends it (docs/domain.md#the-session-payload): built by the gateway
// (services/gateway/src/domain/session-payload.ts), read by the web UI (web/src/session/session.tsx). Types and the
// module list only, so the browser can import them.

export const MODULE_SETTINGS = [
  'activity_module',
  'logistics_module',
  'queue_module',
  'map_module',
  'codeless_registration_module',
  // This project's own module switch (VIS/STM); the original's five come first.
  'vis_module',
] as const;

export type ModuleSetting = (typeof MODULE_SETTINGS)[number];
export type ModuleState = 'enabled' | 'disabled';

/** The signed-in user; flat (the original web UI's profile page crashes on any nested object). */
export interface SessionUser {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  /** The role's name, e.g. "admin". */
  role: string;
  permissions: string[];
}

export interface SessionPayload {
  /** Present for POST /login (and registration); absent for GET /session. */
  session_id?: string;
  user: SessionUser;
  modules: Record<ModuleSetting, ModuleState>;
  session: { time: number; ttl: number; expires_ts: number };
  jwt: string;
  rta_point_coordinates: string;
  map_default_coordinates: string;
  map_default_zoom: string;
}
