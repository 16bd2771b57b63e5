// Who may manage which user or registration code (docs/domain.md#user-management), and the
// checks of sign-up. Pure: callers load the acting user's permissions and the target, these functions decide
// and throw the original's errors (400 for bad requests, 403 for missing rights).

import { ApiError } from '@pcas/contracts';
import { ROLE_NAMES } from './roles.ts';

/** The acting user: id and the permissions of their role. */
export interface Manager {
  id: number;
  permissions: ReadonlySet<string>;
}

/** A user or registration code being acted on. */
export interface Managed {
  id: number;
  role: string;
  created_by: number | null;
}

export type ManagementLevel = 'all' | 'own' | 'none';

/** manage_all_user → every user and code; manage_own_user → those the manager created; else none. */
export function managementLevel(permissions: ReadonlySet<string>): ManagementLevel {
  if (permissions.has('manage_all_user')) return 'all';
  if (permissions.has('manage_own_user')) return 'own';
  return 'none';
}

/** Acting on a user or code of role R needs manage_user_R. */
export const canManageRole = (permissions: ReadonlySet<string>, role: string) => permissions.has(`manage_user_${role}`);

/** Whether the manager's level covers this user or code (its creator is the manager, for level own). */
export function isWithinReach(manager: Manager, target: { created_by: number | null }): boolean {
  const level = managementLevel(manager.permissions);
  return level === 'all' || (level === 'own' && target.created_by === manager.id);
}

export function assertRoleName(role: string): void {
  if (!ROLE_NAMES.includes(role)) throw ApiError.badRequest(`Invalid role: ${role}`);
}

/** Names and username of a new or edited user: none may be empty (values arrive trimmed). */
export function assertUserFields(fields: { first_name: string; last_name: string; email: string }): void {
  if (fields.first_name.trim() === '') throw ApiError.badRequest("First name can't be empty");
  if (fields.last_name.trim() === '') throw ApiError.badRequest("Last name can't be empty");
  if (fields.email.trim() === '') throw ApiError.badRequest("Email can't be empty");
  // Deleted users become `<id>@deleted` and API-key users `<time>-<hex>@api.key`: nobody else may take those.
  if (/@(deleted|api\.key)$/i.test(fields.email.trim())) throw ApiError.badRequest(`Invalid email: ${fields.email}`);
}

/** Row ids are int4: a larger number names no row (and must not reach PostgreSQL, which would raise). */
export const INT4_MAX = 2_147_483_647;
export const rowId = (id: number): number => (id >= 1 && id <= INT4_MAX ? id : 0);

// ---- users ----

export function decideCreateUser(manager: Manager, role: string): void {
  assertRoleName(role);
  if (!canManageRole(manager.permissions, role)) throw ApiError.forbidden('No permission to add user with given role');
}

/** Whether the manager may act on this user at all: their level, and manage_user_<the user's role>. */
export function mayManageUser(manager: Manager, target: Managed): boolean {
  return isWithinReach(manager, target) && canManageRole(manager.permissions, target.role);
}

/**
 * PUT /users/:id. `activeAdmins` counts active admins including the target; the last one keeps its role.
 */
export function decideUpdateUser(manager: Manager, target: Managed, newRole: string, activeAdmins: number): void {
  assertRoleName(newRole);
  if (!mayManageUser(manager, target) || !canManageRole(manager.permissions, newRole)) {
    throw ApiError.forbidden('No permission to update given user');
  }
  if (target.role === 'admin' && newRole !== 'admin' && activeAdmins <= 1) {
    throw ApiError.badRequest('Last admin role cannot be changed from API');
  }
}

export function decideDeleteUser(manager: Manager, target: Managed, activeAdmins: number): void {
  if (target.id === manager.id) throw ApiError.badRequest("You can't delete yourself");
  if (!mayManageUser(manager, target)) throw ApiError.forbidden('No permission to delete given user');
  if (target.role === 'admin' && activeAdmins <= 1) throw ApiError.badRequest('Last admin cannot be deleted from API');
}

export function decideSuspendOrLock(manager: Manager, target: Managed, what: 'suspend' | 'lock'): void {
  if (!mayManageUser(manager, target)) throw ApiError.forbidden(`No permission to set ${what} state of given user`);
}

/** POST /change-password, before the password rules: an admin changes no other admin's password. */
export function decideChangePasswordTarget(manager: Manager, target: Managed): void {
  if (target.role === 'admin' && target.id !== manager.id) {
    throw ApiError.badRequest("Admin can't change other admin password");
  }
}

/** POST /change-password, after the password rules: the same rights as an update. */
export function decideChangePasswordRights(manager: Manager, target: Managed): void {
  if (!mayManageUser(manager, target)) throw ApiError.forbidden('No permission to change password of given user');
}

// ---- registration codes ----

export function decideCreateCode(manager: Manager, role: string): void {
  assertRoleName(role);
  if (!canManageRole(manager.permissions, role))
    throw ApiError.forbidden('No permission to create code with given role');
}

/** PUT and DELETE of a code: level own reaches only the manager's codes; both roles need manage_user_<role>. */
export function decideChangeCode(manager: Manager, code: Managed, newRole: string = code.role): void {
  assertRoleName(newRole);
  if (!isWithinReach(manager, code)) throw ApiError.badRequest('No permission to update given registration code');
  if (!canManageRole(manager.permissions, code.role) || !canManageRole(manager.permissions, newRole)) {
    throw ApiError.forbidden('No permission to create code with given role');
  }
}

/** The letters of a code: no I or O, which read as 1 and 0. */
export const CODE_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
export const CODE_PATTERN = /^[A-HJ-NP-Z]{6}-[1-9][0-9]{5}$/;

/**
 * A registration code `AAAAAA-NNNNNN`: six letters of CODE_LETTERS, a dash, a number 100000–999999.
 * `randomInt(n)` returns a uniform integer in [0, n).
 */
export function generateRegistrationCode(randomInt: (n: number) => number): string {
  let letters = '';
  for (let i = 0; i < 6; i++) letters += CODE_LETTERS[randomInt(CODE_LETTERS.length)];
  return `${letters}-${100_000 + randomInt(900_000)}`;
}

// ---- sign-up ----

export interface CodeForSignUp {
  id: number;
  role: string;
  enabled: boolean;
  created_by: number | null;
}

/** Who created the code, or activated codeless registration: active, with their role's permissions. */
export interface Sponsor {
  id: number;
  status: string;
  permissions: ReadonlySet<string>;
}

/** POST /register, first check: the code exists and is enabled. */
export function decideCode(code: CodeForSignUp | null): CodeForSignUp {
  if (!code?.enabled) throw ApiError.badRequest('Invalid code');
  return code;
}

/** POST /register, after the password rules: the code's creator still exists and may create users of its role. */
export function decideCodeCreator(code: CodeForSignUp, creator: Sponsor | null): void {
  if (creator?.status !== 'active') throw ApiError.forbidden('Code creator does not exist');
  if (!canManageRole(creator.permissions, code.role)) {
    throw ApiError.forbidden('Code creator has no permission to create code with given role');
  }
}

/** The role of codeless sign-ups. */
export const CODELESS_ROLE = 'user';

/** POST /codeless-register, first check (before the password): the setting is enabled. */
export function decideCodelessEnabled(settingValue: string | undefined): void {
  if (settingValue !== 'enabled') throw ApiError.badRequest('Codeless registration not permitted');
}

/** POST /codeless-register, after the password rules: who last changed the setting may create users. */
export function decideCodelessActivator(activator: Sponsor | null): void {
  if (activator?.status !== 'active' || !canManageRole(activator.permissions, CODELESS_ROLE)) {
    throw ApiError.forbidden('Codeless registration activator has no permission to allow user creation');
  }
}
