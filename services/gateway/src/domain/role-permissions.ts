// Changing a role's permissions (docs/domain.md#roles): the rules of PUT and DELETE
// /role-permissions/:role/:permission, in the original's order. Pure: the caller passes what it loaded.

import { ApiError } from '@pcas/contracts';
import { PERMISSIONS, roleByName } from './roles.ts';

export type RolePermissionChange = 'grant' | 'revoke';

export interface RolePermissionRequest {
  role: string;
  permission: string;
  /** Permissions of the acting user's role. */
  actorPermissions: ReadonlySet<string>;
}

const PERMISSION_NAMES = new Set(PERMISSIONS.map((p) => p.name));

/**
 * Throws the original's answer when the change is refused: the admin role is fixed (400), the role and the
 * permission must exist (400), and the actor must manage users of that role (403). The route itself already
 * required manage_permission.
 */
export function checkRolePermissionChange({ role, permission, actorPermissions }: RolePermissionRequest): void {
  // Admin keeps every permission, so an administrator can never lock everyone out.
  if (role === 'admin') throw ApiError.badRequest('Admin permissions cannot be changed with API');
  if (!roleByName(role)) throw ApiError.badRequest(`Invalid role: ${role}`);
  if (!PERMISSION_NAMES.has(permission)) throw ApiError.badRequest(`Invalid permission: ${permission}`);
  if (!actorPermissions.has(`manage_user_${role}`)) {
    throw ApiError.forbidden('No permission to modify permissions of given role');
  }
}

/**
 * The event a change needs, or null when the role already is as asked (the original answers OK then too,
 * and nothing is recorded).
 */
export function rolePermissionEvent(
  change: RolePermissionChange,
  held: ReadonlySet<string>,
  permission: string,
): 'RolePermissionGranted' | 'RolePermissionRevoked' | null {
  if (change === 'grant') return held.has(permission) ? null : 'RolePermissionGranted';
  return held.has(permission) ? 'RolePermissionRevoked' : null;
}
