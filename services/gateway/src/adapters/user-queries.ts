// Reading users: the gateway.users read model (with the roles' permissions and the clients' failed logins), the
// password's hash from gateway.credentials for the sign-in and password routes, the original's single-user JSON and
// the management list. Changes are in the other user adapters (users.ts lists them).

import type { Queryable } from '@pcas/sql';
import { type LoginCounters, NO_FAILURES } from '../domain/passwords.ts';
import { secretOf } from './credentials.ts';
import { type ManagedListQuery, managedPage } from './managed-list.ts';
import { pgText } from './schema.ts';

export interface UserWithPermissions {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  status: string;
  time_zone: string | null;
  permissions: string[];
}

export interface LoginUser extends UserWithPermissions, LoginCounters {
  password_hash: string;
}

const USER_COLUMNS = `u.id, u.email, u.first_name, u.last_name, r.name AS role, u.status, u.time_zone,
  COALESCE((SELECT array_agg(p.name ORDER BY p.id) FROM gateway.role_permissions rp
            JOIN gateway.permissions p ON p.id = rp.permission_id WHERE rp.role_id = u.role_id), '{}') AS permissions`;

const COUNTER_COLUMNS = 'u.failed_logins, u.suspend_start, u.locked';
const PASSWORD_HASH = `${secretOf('password', 'u.id')} AS password_hash`;

const asDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : new Date(value as string);

/** Dates come back as Date from node-postgres and PGlite alike; normalised so the domain always gets one. */
function withCounters<T extends { suspend_start: unknown }>(row: T): T & { suspend_start: Date | null } {
  const clients = row as { any_client_suspend_start?: unknown };
  return {
    ...row,
    suspend_start: asDate(row.suspend_start),
    ...('any_client_suspend_start' in clients && {
      any_client_suspend_start: asDate(clients.any_client_suspend_start),
    }),
  };
}

/** This client's failed-login counters for the account (schema.ts, gateway.login_failures). */
export async function clientLoginCounters(db: Queryable, userId: number, client: string): Promise<LoginCounters> {
  const { rows } = await db.query<LoginCounters>(
    'SELECT failed_logins, suspend_start, locked FROM gateway.login_failures WHERE user_id = $1 AND client = $2',
    [userId, client],
  );
  return rows[0] ? withCounters(rows[0]) : NO_FAILURES;
}

/** The active user with this e-mail (case-insensitive), with the role's permissions, counters and hash. */
export async function findActiveUserByEmail(db: Queryable, email: string): Promise<LoginUser | null> {
  const { rows } = await db.query<LoginUser>(
    `SELECT ${USER_COLUMNS}, ${COUNTER_COLUMNS}, ${PASSWORD_HASH} FROM gateway.users u
     JOIN gateway.roles r ON r.id = u.role_id
     WHERE lower(u.email) = lower($1) AND u.status = 'active'`,
    [email],
  );
  return rows[0] ? withCounters(rows[0]) : null;
}

export async function loadUser(db: Queryable, id: number): Promise<UserWithPermissions | null> {
  return (await loadUsers(db, [id])).get(id) ?? null;
}

/**
 * The users with these ids (those that exist), with their roles' permissions, in one query by primary key: what
 * every session request reads, so requests arriving together share it (entry-points/auth.ts).
 */
export async function loadUsers(
  db: Queryable,
  ids: readonly number[],
): Promise<Map<number, UserWithPermissions & AccountBlock>> {
  const { rows } = await db.query<UserWithPermissions & AccountBlock>(
    `SELECT ${USER_COLUMNS}, u.suspend_start, u.locked FROM gateway.users u JOIN gateway.roles r ON r.id = u.role_id
     WHERE u.id = ANY($1::int[])`,
    [ids],
  );
  return new Map(rows.map((row) => [Number(row.id), { ...row, suspend_start: asDate(row.suspend_start) }]));
}

/** The account's own suspension and lock (an administrator's, or the original's counters), not a client's. */
export interface AccountBlock {
  suspend_start: Date | null;
  locked: boolean;
}

/**
 * The read-model row as user management sees it (role by name; dates in PostgreSQL's text form). The counters
 * are the account's own; the `any_client_*` fields sum up the clients' (gateway.login_failures).
 */
export interface UserRow extends LoginCounters {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  role_id: number;
  status: string;
  registration_type: string;
  registration_code_id: number | null;
  created_at: string;
  created_by: number | null;
  modified_at: string;
  modified_by: number | null;
  /** Some client has failed logins counted. */
  any_client_failures: boolean;
  /** Some client's failures locked the account for it. */
  any_client_locked: boolean;
  /** The latest start of a client's suspension, if any. */
  any_client_suspend_start: Date | null;
}

/** The row with the password's hash (from gateway.credentials; '' for none), for the password routes. */
export interface UserRecord extends UserRow {
  password_hash: string;
}

const ANY_CLIENT_LOCKED = 'EXISTS (SELECT 1 FROM gateway.login_failures f WHERE f.user_id = u.id AND f.locked)';
const ROW_COLUMNS = `u.id, u.email, u.first_name, u.last_name, r.name AS role, u.role_id, u.status,
  u.registration_type, u.registration_code_id, ${pgText('u.created_at')} AS created_at, u.created_by,
  ${pgText('u.modified_at')} AS modified_at, u.modified_by, u.failed_logins, u.suspend_start, u.locked,
  EXISTS (SELECT 1 FROM gateway.login_failures f WHERE f.user_id = u.id) AS any_client_failures,
  ${ANY_CLIENT_LOCKED} AS any_client_locked,
  (SELECT max(f.suspend_start) FROM gateway.login_failures f WHERE f.user_id = u.id) AS any_client_suspend_start`;
const RECORD_COLUMNS = `${ROW_COLUMNS}, ${PASSWORD_HASH}`;

export async function loadUserRecord(db: Queryable, id: number): Promise<UserRecord | null> {
  const { rows } = await db.query<UserRecord>(
    `SELECT ${RECORD_COLUMNS} FROM gateway.users u JOIN gateway.roles r ON r.id = u.role_id WHERE u.id = $1`,
    [id],
  );
  return rows[0] ? withCounters(rows[0]) : null;
}

export async function findActiveUserRecordByEmail(db: Queryable, email: string): Promise<UserRecord | null> {
  const { rows } = await db.query<UserRecord>(
    `SELECT ${RECORD_COLUMNS} FROM gateway.users u JOIN gateway.roles r ON r.id = u.role_id
     WHERE lower(u.email) = lower($1) AND u.status = 'active'`,
    [email],
  );
  return rows[0] ? withCounters(rows[0]) : null;
}

/**
 * The original's single-user JSON (13 keys). `locked` is a real boolean (the original sent "t"/"f"), true too while
 * some client's failures lock the account for that client (what a single client made the original do).
 */
export function userJson(user: UserRow) {
  return {
    id: user.id,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    role_id: user.role_id,
    registration_code_id: user.registration_code_id,
    created_at: user.created_at,
    created_by: user.created_by,
    modified_at: user.modified_at,
    modified_by: user.modified_by,
    status: user.status,
    locked: user.locked || user.any_client_locked,
    registration_type: user.registration_type,
  };
}

/** A user list row: the 13 keys plus `created_by_email` and `suspended`, in the original's order. */
export interface UserListRow extends UserRow {
  created_by_email: string | null;
}

/** API field → SQL expression, for the original's sort syntax (the original prefixed each with the user table). */
export const USER_SORT_FIELDS: Record<string, string> = {
  id: 'u.id',
  first_name: 'u.first_name',
  last_name: 'u.last_name',
  email: 'u.email',
  role_id: 'u.role_id',
  registration_code_id: 'u.registration_code_id',
  created_at: 'u.created_at',
  created_by: 'u.created_by',
  modified_at: 'u.modified_at',
  modified_by: 'u.modified_by',
  status: 'u.status',
  locked: `(u.locked OR ${ANY_CLIENT_LOCKED})`,
  registration_type: 'u.registration_type',
  created_by_email: 'cb.email',
};

/**
 * GET /users: active users only, searched in e-mail and names, optionally only those created by `createdBy`
 * (management level own). The caller decides the level; level none never gets here.
 */
export async function listUsers(
  db: Queryable,
  query: ManagedListQuery,
): Promise<{ rows: UserListRow[]; total: number }> {
  const { rows, total } = await managedPage<UserListRow>(
    db,
    {
      select: `${ROW_COLUMNS}, cb.email AS created_by_email`,
      from: `FROM gateway.users u JOIN gateway.roles r ON r.id = u.role_id
    LEFT JOIN gateway.users cb ON cb.id = u.created_by`,
      conditions: ["u.status = 'active'"],
      createdBy: 'u.created_by',
      searched: ['u.email', 'u.first_name', 'u.last_name'],
    },
    query,
  );
  return { rows: rows.map(withCounters), total };
}
