// User administration (docs/domain.md#user-management): list, create, read, update,
// delete, suspend, lock and change-password. The route permission is `manage_user` (any manage_user_<role>);
// the finer rules (own vs all, manage_user_<role>, last admin) are domain/user-management.ts.

import { randomBytes } from 'node:crypto';
import type { PasswordRules } from '@pcas/config';
import { ApiError } from '@pcas/contracts';
import { type AuthContext, type Paginated, type ParamSpec, paginated, parseSort, type Route } from '@pcas/http-kit';
import type { ManagedListQuery } from '../../adapters/managed-list.ts';
import { hashPassword } from '../../adapters/password.ts';
import {
  createUniqueUser,
  deleteUser,
  findActiveUserRecordByEmail,
  listUsers,
  loadUserRecord,
  setPassword,
  setUserFlag,
  USER_SORT_FIELDS,
  type UserListRow,
  updateUser,
  userJson,
} from '../../adapters/users.ts';
import { assertPasswordAllowed, isSuspended, rulesForRole } from '../../domain/passwords.ts';
import {
  assertUserFields,
  decideChangePasswordRights,
  decideChangePasswordTarget,
  decideCreateUser,
  decideDeleteUser,
  decideSuspendOrLock,
  decideUpdateUser,
  isWithinReach,
  type Manager,
  managementLevel,
  rowId,
} from '../../domain/user-management.ts';
import { actorOf } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { bool, int, mixed, optional, text } from './params.ts';

/** Longest e-mail (username) and name accepted; longer → 400 "Parameter too long". */
export const EMAIL_MAX = 255;
export const NAME_MAX = 100;
export const PASSWORD_MAX = 1024;

export const managerOf = (auth: AuthContext): Manager => ({ id: auth.userId ?? -1, permissions: auth.permissions });

const noSuchUser = () => ApiError.badRequest('No such user');

/** The management lists' parameters: required, as in the original (clients always send them). */
export const MANAGED_LIST_PARAMS = {
  limit: int(),
  offset: int(),
  sort: text(500),
  search: optional(text(255), ''),
} as const satisfies Record<string, ParamSpec>;

/**
 * A management list (users, registration codes): level all sees every row, own only the rows it created, none an
 * empty page. The original left out `data` on an empty page; clients read it, so it is always there.
 */
export async function managedList<Row, Out>(
  params: Record<string, any>,
  auth: AuthContext,
  sortFields: readonly string[] | Readonly<Record<string, string>>,
  list: (query: ManagedListQuery) => Promise<{ rows: Row[]; total: number }>,
  toJson: (row: Row) => Out,
): Promise<Paginated<Out>> {
  const orderBy = parseSort(params.sort, sortFields, 'id');
  const page = { start: params.offset, limit: params.limit };
  const level = managementLevel(auth.permissions);
  if (level === 'none') return paginated([], { ...page, total: 0 });
  const { rows, total } = await list({
    limit: params.limit,
    offset: params.offset,
    orderBy,
    search: params.search ?? '',
    createdBy: level === 'own' ? auth.userId : null,
  });
  return paginated(rows.map(toJson), { ...page, total });
}

/**
 * A list row in the original's key order, `suspended` computed from the role's rules: the account's suspension,
 * or a client's (as `locked` counts a client's lock).
 */
function listRow(passwordRules: PasswordRules, row: UserListRow, now: Date) {
  const { created_by_email, ...user } = row;
  const single = userJson(user);
  const { locked, registration_type, ...head } = single;
  const rules = rulesForRole(passwordRules, row.role);
  return {
    ...head,
    created_by_email,
    locked,
    suspended: isSuspended(row, rules, now) || isSuspended({ suspend_start: row.any_client_suspend_start }, rules, now),
    registration_type,
  };
}

/** POST /user-suspend and /user-lock. */
function setFlag(
  { db, store }: GatewayDeps,
  path: '/user-suspend' | '/user-lock',
  name: 'suspended' | 'locked',
): Route {
  return {
    method: 'POST',
    path,
    permission: 'manage_user',
    params: { id: int(), [name]: mixed() },
    async handle({ params, auth }) {
      const value = params[name];
      // Only JSON booleans: the original refused anything else with this message.
      if (typeof value !== 'boolean') throw ApiError.badRequest(`Invalid ${name} parameter`);
      const manager = managerOf(auth);
      const what = name === 'suspended' ? 'suspend' : 'lock';
      const decide = (user: Parameters<typeof decideSuspendOrLock>[1]) => decideSuspendOrLock(manager, user, what);
      const found = await setUserFlag(db, store, rowId(params.id), name, value, actorOf(auth), decide);
      if (!found) throw ApiError.badRequest('Invalid ID');
      return params.id;
    },
  };
}

/** POST /change-password: a manager sets a user's password. */
function changePasswordRoute({ db, store, config }: GatewayDeps): Route {
  return {
    method: 'POST',
    path: '/change-password',
    permission: 'manage_user',
    params: {
      email: text(EMAIL_MAX),
      password: text(PASSWORD_MAX),
    },
    async handle({ params, auth }) {
      const manager = managerOf(auth);
      const target = await findActiveUserRecordByEmail(db, params.email);
      if (!target) throw ApiError.badRequest(`Can't find user with email: ${params.email}`);
      decideChangePasswordTarget(manager, target);
      assertPasswordAllowed(params.password, target.email, rulesForRole(config.passwordRules, target.role));
      decideChangePasswordRights(manager, target);
      const hash = await hashPassword(params.password);
      // Re-checked under the user's lock: the role may have changed while the password was hashed.
      const changed = await setPassword(db, store, target.id, hash, 'change', actorOf(auth), (current) => {
        decideChangePasswordTarget(manager, current);
        decideChangePasswordRights(manager, current);
        return true;
      });
      if (!changed) throw ApiError.badRequest(`Can't find user with email: ${params.email}`);
      return true;
    },
  };
}

export function userRoutes(deps: GatewayDeps): Route[] {
  const { db, store, config } = deps;

  return [
    {
      method: 'GET',
      path: '/users',
      permission: 'manage_user',
      params: MANAGED_LIST_PARAMS,
      handle({ params, auth }) {
        const now = new Date();
        return managedList(
          params,
          auth,
          USER_SORT_FIELDS,
          (query) => listUsers(db, query),
          (row) => listRow(config.passwordRules, row, now),
        );
      },
    },
    {
      method: 'POST',
      path: '/users',
      permission: 'manage_user',
      params: {
        email: text(EMAIL_MAX),
        first_name: text(NAME_MAX),
        last_name: text(NAME_MAX),
        role: optional(text(64), 'inactive_user'),
      },
      async handle({ params, auth }) {
        decideCreateUser(managerOf(auth), params.role);
        assertUserFields(params as { email: string; first_name: string; last_name: string });
        // 15 random bytes → 30 hex characters, the original's initial password; shown once, stored hashed.
        const password = randomBytes(15).toString('hex');
        const created = await createUniqueUser(
          db,
          store,
          {
            email: params.email,
            first_name: params.first_name,
            last_name: params.last_name,
            role: params.role,
            status: 'active',
            registration_type: 'manual',
            password_hash: await hashPassword(password),
            created_by: auth.userId,
          },
          actorOf(auth),
        );
        return { id: created.id, password };
      },
    },
    {
      method: 'GET',
      path: '/users/:id',
      permission: 'manage_user',
      params: { id: int() },
      async handle({ params, auth }) {
        const user = await loadUserRecord(db, rowId(params.id));
        // Deleted users, API-key users and users beyond the caller's reach are all "no such user".
        if (user?.status !== 'active' || !isWithinReach(managerOf(auth), user)) throw noSuchUser();
        return userJson(user);
      },
    },
    {
      method: 'PUT',
      path: '/users/:id',
      permission: 'manage_user',
      // The UI sends the whole user object back; keys not declared here (role_id, locked, ...) are ignored, and
      // so is `password`, as in the original (passwords change through /change-password).
      params: {
        id: int(),
        email: text(EMAIL_MAX),
        first_name: text(NAME_MAX),
        last_name: text(NAME_MAX),
        role: optional(text(64), 'inactive_user'),
        updateRole: optional(bool(), false),
      },
      async handle({ params, auth }) {
        assertUserFields(params as { email: string; first_name: string; last_name: string });
        const manager = managerOf(auth);
        const updated = await updateUser(db, store, rowId(params.id), actorOf(auth), (user, activeAdmins) => {
          const role = params.updateRole ? params.role : user.role;
          decideUpdateUser(manager, user, role, activeAdmins);
          return { email: params.email, first_name: params.first_name, last_name: params.last_name, role };
        });
        if (!updated) throw noSuchUser();
        return userJson(updated);
      },
    },
    {
      method: 'DELETE',
      path: '/users/:id',
      permission: 'manage_user',
      params: { id: int() },
      async handle({ params, auth }) {
        const manager = managerOf(auth);
        const deleted = await deleteUser(db, store, rowId(params.id), actorOf(auth), (user, activeAdmins) =>
          decideDeleteUser(manager, user, activeAdmins),
        );
        if (!deleted) throw noSuchUser();
        // Their sessions end too: every request re-reads the user and refuses a deleted one with 440.
        return true;
      },
    },
    setFlag(deps, '/user-suspend', 'suspended'),
    setFlag(deps, '/user-lock', 'locked'),
    changePasswordRoute(deps),
  ];
}
