// Roles, permissions and the access rule of the original (docs/domain.md#permissions, #roles).
// Pure: the data below seeds the gateway's tables, and `isAllowed` decides a request from what the caller
// already loaded.

import { ApiError } from '@pcas/contracts';
import type { AuthContext } from '@pcas/http-kit';

export interface RoleDef {
  id: number;
  name: string;
  readable_name: string;
}

export interface PermissionDef {
  id: number;
  name: string;
  readable_name: string;
}

/** The six fixed roles, ids as in the original (migrations 0032, 0074). */
export const ROLES: readonly RoleDef[] = [
  { id: 1, name: 'admin', readable_name: 'Administrator' },
  { id: 2, name: 'second_admin', readable_name: 'Second administrator' },
  { id: 3, name: 'first_user', readable_name: 'First user' },
  { id: 4, name: 'user', readable_name: 'User' },
  { id: 5, name: 'inactive_user', readable_name: 'Inactive user' },
  { id: 6, name: 'consignee', readable_name: 'Consignee' },
];

export const ROLE_NAMES: readonly string[] = ROLES.map((role) => role.name);

export function roleByName(name: string): RoleDef | undefined {
  return ROLES.find((role) => role.name === name);
}

// Ids follow the order of the original's migrations, so GET /permissions lists them as the original did.
const PERMISSION_LIST: [string, string][] = [
  ['login', 'Login'],
  ['basic_user_action', 'Basic user actions'],
  ['manage_user_admin', 'Manage admin users'],
  ['manage_user_second_admin', 'Manage second admin users'],
  ['manage_user_first_user', 'Manage first users'],
  ['manage_user_user', 'Manage normal users'],
  ['manage_user_inactive_user', 'Manage inactive users'],
  ['manage_registration_code', 'Manage registration codes'],
  ['manage_permission', 'Manage permissions'],
  ['manage_translation', 'Manage translations'],
  ['manage_setting', 'Manage settings'],
  ['manage_api_key', 'Manage API keys'],
  ['send_push_notification', 'Send push notifications'],
  ['delete_push_notification', 'Delete push notifications'],
  ['send_rta_web_form', 'Send RTA via web form'],
  ['add_manual_timestamp', 'Add timestamps manually'],
  ['manage_port_call', 'Manage port calls'],
  ['view_vis_information', 'View VIS information'],
  ['send_vis_text_message', 'Send VIS text messages'],
  ['send_vis_rta', 'Send RTA via VIS'],
  ['manage_port', 'Manage ports'],
  ['manage_user_consignee', 'Manage consignee users'],
  ['view_own_queue_nomination', 'View own queue nominations'],
  ['manage_own_queue_nomination', 'Manage own queue nominations'],
  ['view_all_queue_nomination', 'View all queue nominations'],
  ['manage_all_queue_nomination', 'Manage all queue nominations'],
  ['view_queue_slot_reservation', 'View queue slot reservations'],
  ['manage_queue_slot_reservation', 'Manage queue slot reservations'],
  ['manage_berth', 'Manage berths'],
  ['view_berth', 'View berths'],
  ['manage_berth_reservation', 'Manage berth reservations'],
  ['view_berth_reservation', 'View berth reservations'],
  ['manage_own_user', 'Manage own users'],
  ['manage_all_user', 'Manage all users'],
  ['manage_sea_chart_vessel', 'Manage predefined port actors on map'],
  ['manage_vessel', 'Manage vessel properties'],
];

export const PERMISSIONS: readonly PermissionDef[] = PERMISSION_LIST.map(([name, readable_name], index) => ({
  id: index + 1,
  name,
  readable_name,
}));

/** Route permissions that only an API key holds; they are not rows of the permission table. */
export const API_KEY_PERMISSIONS: readonly string[] = [
  'timestamp',
  'translation',
  'push_notification_token',
  'export_api',
  'update_sea_chart_location',
  'dcsa_partner',
];

/**
 * What a key created without a list may do: the original's API-key permissions. `dcsa_partner` (ours, for a DCSA
 * carrier or terminal: docs/dcsa.md) is given only by choice, so no existing data source gains it.
 */
export const DEFAULT_KEY_PERMISSIONS: readonly string[] = API_KEY_PERMISSIONS.filter((p) => p !== 'dcsa_partner');

/**
 * The API-key permissions an administrator chose for a key (POST /api-keys, PUT /api-keys/permissions): absent or
 * null, the defaults (DEFAULT_KEY_PERMISSIONS, as the original's keys); else a non-empty list of API-key permissions, kept each once in
 * the catalogue's order.
 */
export function readKeyPermissions(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  const known = `one or more of ${API_KEY_PERMISSIONS.join(', ')}`;
  if (!Array.isArray(value) || value.length === 0) throw ApiError.badRequest(`Invalid permissions: ${known}`);
  for (const name of value) {
    if (typeof name !== 'string' || !API_KEY_PERMISSIONS.includes(name)) {
      throw ApiError.badRequest(`Invalid permission: ${String(name)} (${known})`);
    }
  }
  return API_KEY_PERMISSIONS.filter((name) => value.includes(name));
}

/** The spec names some permissions differently from the original; routes may use either name. */
export const PERMISSION_ALIASES: Readonly<Record<string, string>> = {
  modify_sea_chart_vessels: 'manage_sea_chart_vessel',
};

const ALL = PERMISSIONS.map((permission) => permission.name);
const without = (...names: string[]) => ALL.filter((name) => !names.includes(name));

/** The original's default role → permission matrix; counts 36/30/10/3/0/3. */
export const DEFAULT_ROLE_PERMISSIONS: Readonly<Record<string, readonly string[]>> = {
  admin: ALL,
  second_admin: without(
    'manage_user_admin',
    'manage_permission',
    'manage_translation',
    'manage_port',
    'manage_berth',
    'manage_all_user',
  ),
  first_user: [
    'login',
    'basic_user_action',
    'send_push_notification',
    'send_rta_web_form',
    'add_manual_timestamp',
    'view_vis_information',
    'send_vis_text_message',
    'send_vis_rta',
    'view_berth',
    'view_berth_reservation',
  ],
  user: ['login', 'basic_user_action', 'view_vis_information'],
  inactive_user: [],
  consignee: ['login', 'view_own_queue_nomination', 'manage_own_queue_nomination'],
};

/** What the `login` rule needs to know about the user named by the request's `email`. */
export interface LoginCandidate {
  status: string;
  permissions: ReadonlySet<string> | readonly string[];
}

const has = (set: ReadonlySet<string> | readonly string[], name: string) =>
  Array.isArray(set) ? set.includes(name) : (set as ReadonlySet<string>).has(name);

/**
 * The original's permission check (docs/domain.md#permissions). `loginCandidate` is the active user looked up by
 * the body's `email`; it only matters for the `login` permission.
 */
export function isAllowed(auth: AuthContext, permission: string, loginCandidate?: LoginCandidate | null): boolean {
  if (permission === 'public') return true;
  // Only an API key can satisfy these, whatever a role holds, and only those it was given (all, by default).
  if (API_KEY_PERMISSIONS.includes(permission)) return auth.kind === 'api_key' && auth.permissions.has(permission);
  if (
    permission === 'login' &&
    loginCandidate &&
    loginCandidate.status === 'active' &&
    has(loginCandidate.permissions, 'login')
  ) {
    return true;
  }
  if (auth.kind === 'anonymous' || auth.userId === null) return false;
  const name = PERMISSION_ALIASES[permission] ?? permission;
  if (auth.permissions.has(name)) return true;
  // A route that needs manage_user is open to a holder of any manage_user_<role>; the service refines.
  if (name === 'manage_user') return ROLE_NAMES.some((role) => auth.permissions.has(`manage_user_${role}`));
  return false;
}

/** An unauthenticated caller. */
export const ANONYMOUS: AuthContext = Object.freeze({
  kind: 'anonymous',
  sessionId: null,
  userId: null,
  apiKeyId: null,
  role: null,
  permissions: new Set<string>(),
});
