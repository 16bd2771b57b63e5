// Users: every change is an event on `user-<id>`, and the gateway.users row (its read model) is written in
// the same transaction, so the table never disagrees with the log. The password hash is not in either: it is a
// credential (credentials.ts). Changes that depend on the current row
// (counters, roles) run under the stream's lock (stream-lock.ts) and take their decision from a pure callback.

import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '@pcas/config';
import {
  type Actor,
  ApiError,
  type UserCreated,
  type UserEvents,
  type UserLoggedIn,
  type UserTimeZoneChanged,
  userStream,
} from '@pcas/contracts';
import type { EventMetadata, EventStore } from '@pcas/eventstore';
import { addressKey, searchClause } from '@pcas/http-kit';
import type { Logger } from '@pcas/observability';
import { type Db, lockForTransaction, pageWithTotal, type Queryable } from '@pcas/sql';
import { type LoginCounters, NO_FAILURES } from '../domain/passwords.ts';
import { removeCredential, secretOf, storeCredential } from './credentials.ts';
import { hashPassword } from './password.ts';
import { pgText } from './schema.ts';
import { isUniqueViolation, lockStream, lockUserRoles } from './stream-lock.ts';

export const metadataOf = (actor: Actor): EventMetadata => ({ user_id: actor.user_id, api_key_id: actor.api_key_id });

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

export type UserJson = ReturnType<typeof userJson>;

/** A user to create: what UserCreated says, and the password's hash (absent or '' when it cannot log in). */
export type NewUser = Omit<UserCreated, 'id'> & { password_hash?: string };

/**
 * Allocates an id, appends UserCreated and inserts the row and the password's hash, all inside the caller's
 * transaction.
 */
export async function createUser(
  tx: Queryable,
  store: EventStore,
  user: NewUser,
  actor: Actor | ((id: number) => Actor),
): Promise<UserCreated> {
  const { rows } = await tx.query<{ id: number }>(`SELECT nextval('gateway.user_ids')::int AS id`);
  // Field by field, not a spread of `user`: the hash (or whatever else a caller adds) must not reach the event.
  const created: UserCreated = {
    id: rows[0].id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    role: user.role,
    status: user.status,
    registration_type: user.registration_type,
    created_by: user.created_by,
    ...(user.registration_code_id !== undefined && { registration_code_id: user.registration_code_id }),
  };
  const acting = typeof actor === 'function' ? actor(created.id) : actor;
  await store.append(userStream(created.id), [{ type: 'UserCreated', data: created, metadata: metadataOf(acting) }], {
    tx,
    expectedVersion: 'no_stream',
  });
  await tx.query(
    `INSERT INTO gateway.users (id, email, first_name, last_name, role_id, status, registration_type,
       registration_code_id, created_by, modified_by)
     SELECT $1, $2, $3, $4, r.id, $6, $7, $9, $8, $8 FROM gateway.roles r WHERE r.name = $5`,
    [
      created.id,
      created.email,
      created.first_name,
      created.last_name,
      created.role,
      created.status,
      created.registration_type,
      created.created_by,
      created.registration_code_id ?? null,
    ],
  );
  await storeCredential(tx, 'password', created.id, user.password_hash ?? '');
  return created;
}

const duplicateEmail = (email: string) => ApiError.badRequest(`User with email ${email} already exists`);

async function assertEmailFree(tx: Queryable, email: string, exceptId: number | null): Promise<void> {
  const taken = await tx.query(
    'SELECT 1 FROM gateway.users WHERE lower(email) = lower($1) AND id IS DISTINCT FROM $2',
    [email, exceptId],
  );
  if (taken.rowCount > 0) throw duplicateEmail(email);
}

/**
 * Creates a user whose e-mail must be free (case-insensitively, among every user ever created, as the unique
 * index says). A concurrent sign-up with the same e-mail loses with the same 400, not a 500.
 */
export async function createUniqueUser(
  db: Db,
  store: EventStore,
  user: NewUser,
  actor: Actor | ((id: number) => Actor),
): Promise<UserCreated> {
  try {
    return await db.transaction(async (tx) => {
      await assertEmailFree(tx, user.email, null);
      return createUser(tx, store, user, actor);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateEmail(user.email);
    throw error;
  }
}

async function appendUserEvent<K extends keyof UserEvents>(
  tx: Queryable,
  store: EventStore,
  id: number,
  type: K,
  data: UserEvents[K],
  actor: Actor,
): Promise<void> {
  await store.append(userStream(id), [{ type, data, metadata: metadataOf(actor) }], {
    tx,
    expectedVersion: 'stream_exists',
  });
}

/** Runs fn in a transaction holding the user's stream lock (and the role lock first, when asked). */
async function withUser<T>(
  db: Db,
  id: number,
  fn: (tx: Queryable, user: UserRecord | null) => Promise<T>,
  options: { roles?: boolean } = {},
): Promise<T> {
  return db.transaction(async (tx) => {
    if (options.roles) await lockUserRoles(tx);
    await lockStream(tx, userStream(id));
    return fn(tx, await loadUserRecord(tx, id));
  });
}

async function countActiveAdmins(tx: Queryable): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM gateway.users u JOIN gateway.roles r ON r.id = u.role_id
     WHERE r.name = 'admin' AND u.status = 'active'`,
  );
  return rows[0].n;
}

const SUCCESSFUL_LOGIN_RESET = 'failed_logins = 0, suspend_start = NULL, locked = false';

/** Forgets every client's failed logins of the user (unlock, password reset, deletion). */
const forgetClientFailures = (tx: Queryable, id: number) =>
  tx.query('DELETE FROM gateway.login_failures WHERE user_id = $1', [id]);

/**
 * A correct password: appends UserLoggedIn and resets the failed-login counters (the account's and those of the
 * client at `data.remote_addr`), unless `blocked` (checked under the lock, against the account's counters and that
 * client's, which a concurrent wrong password may just have changed) returns a message, which is then returned
 * and nothing is written.
 */
export async function recordLogin(
  db: Db,
  store: EventStore,
  userId: number,
  data: UserLoggedIn['last_login_data'],
  actor: Actor,
  blocked: (counters: LoginCounters) => string | null = () => null,
): Promise<string | null> {
  return withUser(db, userId, async (tx, user) => {
    if (!user) throw ApiError.badRequest('No such user');
    const client = data.remote_addr === null ? null : addressKey(data.remote_addr);
    const message = blocked(user) ?? (client === null ? null : blocked(await clientLoginCounters(tx, userId, client)));
    if (message) return message;
    const event: UserLoggedIn = { id: userId, last_login_time: new Date().toISOString(), last_login_data: data };
    await appendUserEvent(tx, store, userId, 'UserLoggedIn', event, actor);
    await tx.query(
      `UPDATE gateway.users SET last_login_time = $2, last_login_data = $3, ${SUCCESSFUL_LOGIN_RESET} WHERE id = $1`,
      [userId, event.last_login_time, JSON.stringify(event.last_login_data)],
    );
    if (client !== null) {
      await tx.query('DELETE FROM gateway.login_failures WHERE user_id = $1 AND client = $2', [userId, client]);
    }
    return null;
  });
}

/** The failed-login counters a sign-in from one client is judged by (domain/passwords.ts). */
export interface ClientLoginCounters {
  account: LoginCounters;
  client: LoginCounters;
}

/**
 * A wrong password from `client` (an addressKey): `next` gives that client's counters after it from the current
 * ones (or null when the account or the client is already blocked, so nothing is counted). Returns the counters
 * now stored.
 */
export async function recordFailedLogin(
  db: Db,
  store: EventStore,
  userId: number,
  client: string,
  next: (counters: ClientLoginCounters) => LoginCounters | null,
): Promise<ClientLoginCounters> {
  return withUser(db, userId, async (tx, user) => {
    if (!user) throw ApiError.badRequest('No such user');
    const counters = { account: user, client: await clientLoginCounters(tx, userId, client) };
    const after = next(counters);
    if (!after) return counters;
    await appendUserEvent(
      tx,
      store,
      userId,
      'UserLoginFailed',
      {
        id: userId,
        failed_logins: after.failed_logins,
        suspend_start: after.suspend_start?.toISOString() ?? null,
        locked: after.locked,
        client,
      },
      // Whoever typed the password is unknown: the attempt is recorded without an acting user.
      { user_id: null, api_key_id: null },
    );
    await tx.query(
      `INSERT INTO gateway.login_failures (user_id, client, failed_logins, suspend_start, locked)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id, client) DO UPDATE
         SET failed_logins = EXCLUDED.failed_logins, suspend_start = EXCLUDED.suspend_start, locked = EXCLUDED.locked`,
      [userId, client, after.failed_logins, after.suspend_start, after.locked],
    );
    return { account: user, client: after };
  });
}

/** Stores the zone when it differs; concurrent requests with the same new zone write one event. */
export async function changeTimeZone(db: Db, store: EventStore, userId: number, zone: string, actor: Actor) {
  await withUser(db, userId, async (tx) => {
    const { rows } = await tx.query<{ time_zone: string | null }>('SELECT time_zone FROM gateway.users WHERE id = $1', [
      userId,
    ]);
    if (rows.length === 0 || rows[0].time_zone === zone) return;
    const event: UserTimeZoneChanged = { id: userId, time_zone: zone, previous_time_zone: rows[0].time_zone };
    await appendUserEvent(tx, store, userId, 'UserTimeZoneChanged', event, actor);
    await tx.query('UPDATE gateway.users SET time_zone = $2 WHERE id = $1', [userId, zone]);
  });
}

/** Only active users are managed; deleted ones and the hidden users of API keys are "no such user". */
const managed = (user: UserRecord | null): user is UserRecord => user?.status === 'active';

/**
 * PUT /users/:id. `decide` gets the current user and the number of active admins and returns the new fields
 * (or throws). Returns null for an unknown, deleted or API-key user.
 */
export async function updateUser(
  db: Db,
  store: EventStore,
  id: number,
  actor: Actor,
  decide: (
    user: UserRecord,
    activeAdmins: number,
  ) => { email: string; first_name: string; last_name: string; role: string },
): Promise<UserRecord | null> {
  let wanted = '';
  try {
    return await withUser(
      db,
      id,
      async (tx, user) => {
        if (!managed(user)) return null;
        const next = decide(user, await countActiveAdmins(tx));
        wanted = next.email;
        if (next.email.toLowerCase() !== user.email.toLowerCase()) await assertEmailFree(tx, next.email, id);
        const unchanged =
          next.email === user.email &&
          next.first_name === user.first_name &&
          next.last_name === user.last_name &&
          next.role === user.role;
        if (!unchanged) {
          await appendUserEvent(tx, store, id, 'UserUpdated', { id, ...next, previous_role: user.role }, actor);
          await tx.query(
            `UPDATE gateway.users SET email = $2, first_name = $3, last_name = $4,
               role_id = (SELECT r.id FROM gateway.roles r WHERE r.name = $5), modified_at = now(), modified_by = $6
             WHERE id = $1`,
            [id, next.email, next.first_name, next.last_name, next.role, actor.user_id],
          );
        }
        return loadUserRecord(tx, id);
      },
      { roles: true },
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateEmail(wanted);
    throw error;
  }
}

/**
 * DELETE /users/:id: a soft delete that anonymises the row (e-mail `<id>@deleted`, names, hash, login data and
 * zone emptied, role inactive_user, status deleted). The stream keeps the id, so the log still says who did what.
 */
export async function deleteUser(
  db: Db,
  store: EventStore,
  id: number,
  actor: Actor,
  decide: (user: UserRecord, activeAdmins: number) => void,
): Promise<boolean> {
  return withUser(
    db,
    id,
    async (tx, user) => {
      if (!managed(user)) return false;
      decide(user, await countActiveAdmins(tx));
      await appendUserEvent(tx, store, id, 'UserDeleted', { id }, actor);
      await removeCredential(tx, 'password', id);
      await forgetClientFailures(tx, id);
      await tx.query(
        `UPDATE gateway.users SET email = id::text || '@deleted', first_name = '', last_name = '',
           role_id = (SELECT r.id FROM gateway.roles r WHERE r.name = 'inactive_user'), status = 'deleted',
           last_login_data = NULL, time_zone = NULL, failed_logins = 0, suspend_start = NULL, locked = false,
           modified_at = now(), modified_by = $2
         WHERE id = $1`,
        [id, actor.user_id],
      );
      return true;
    },
    { roles: true },
  );
}

/** POST /user-suspend. Returns false for an unknown user. Setting the state it already has appends nothing. */
export async function setSuspended(
  db: Db,
  store: EventStore,
  id: number,
  suspended: boolean,
  actor: Actor,
  decide: (user: UserRecord) => void,
): Promise<boolean> {
  return withUser(db, id, async (tx, user) => {
    if (!managed(user)) return false;
    decide(user);
    if (suspended) {
      const start = new Date();
      await appendUserEvent(tx, store, id, 'UserSuspended', { id, suspend_start: start.toISOString() }, actor);
      await tx.query(
        'UPDATE gateway.users SET suspend_start = $2, modified_at = now(), modified_by = $3 WHERE id = $1',
        [id, start, actor.user_id],
      );
    } else if (user.suspend_start !== null || user.any_client_suspend_start !== null) {
      // The failed-login counters stay, as the original: the next failures continue from them.
      await appendUserEvent(tx, store, id, 'UserUnsuspended', { id }, actor);
      await tx.query(
        'UPDATE gateway.users SET suspend_start = NULL, modified_at = now(), modified_by = $2 WHERE id = $1',
        [id, actor.user_id],
      );
      await tx.query('UPDATE gateway.login_failures SET suspend_start = NULL WHERE user_id = $1', [id]);
    }
    return true;
  });
}

/** POST /user-lock. Locking ends a suspension; unlocking also zeroes the failed-login counter. */
export async function setLocked(
  db: Db,
  store: EventStore,
  id: number,
  locked: boolean,
  actor: Actor,
  decide: (user: UserRecord) => void,
): Promise<boolean> {
  return withUser(db, id, async (tx, user) => {
    if (!managed(user)) return false;
    decide(user);
    if (locked) {
      if (user.locked && user.suspend_start === null) return true;
      await appendUserEvent(tx, store, id, 'UserLocked', { id }, actor);
      await tx.query(
        'UPDATE gateway.users SET locked = true, suspend_start = NULL, modified_at = now(), modified_by = $2 WHERE id = $1',
        [id, actor.user_id],
      );
    } else {
      const clean = !user.locked && user.suspend_start === null && user.failed_logins === 0;
      if (clean && !user.any_client_failures) return true;
      await appendUserEvent(tx, store, id, 'UserUnlocked', { id }, actor);
      await tx.query(
        `UPDATE gateway.users SET ${SUCCESSFUL_LOGIN_RESET}, modified_at = now(), modified_by = $2 WHERE id = $1`,
        [id, actor.user_id],
      );
      await forgetClientFailures(tx, id);
    }
    return true;
  });
}

/**
 * Sets a new password hash (change-password, reset). The event names the change only: the hash goes to
 * gateway.credentials. A reset also clears failed logins, suspension and lock. `decide` runs under the lock against
 * the current row and may throw; it returns false to give up without a change. Returns the user after.
 */
export async function setPassword(
  db: Db,
  store: EventStore,
  id: number,
  passwordHash: string,
  reason: 'change' | 'reset',
  actor: Actor,
  decide: (user: UserRecord) => boolean = () => true,
): Promise<UserRecord | null> {
  return withUser(db, id, async (tx, user) => {
    if (!managed(user) || !decide(user)) return null;
    await appendUserEvent(tx, store, id, 'UserPasswordChanged', { id, reason }, actor);
    await storeCredential(tx, 'password', id, passwordHash);
    await tx.query(
      `UPDATE gateway.users SET modified_at = now(), modified_by = $2
         ${reason === 'reset' ? `, ${SUCCESSFUL_LOGIN_RESET}` : ''}
       WHERE id = $1`,
      [id, actor.user_id],
    );
    if (reason === 'reset') await forgetClientFailures(tx, id);
    return loadUserRecord(tx, id);
  });
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
  query: { limit: number; offset: number; orderBy: string; search: string; createdBy: number | null },
): Promise<{ rows: UserListRow[]; total: number }> {
  const conditions = ["u.status = 'active'"];
  const params: unknown[] = [];
  if (query.createdBy !== null) {
    params.push(query.createdBy);
    conditions.push(`u.created_by = $${params.length}`);
  }
  const search = searchClause(query.search, {
    columns: ['u.email', 'u.first_name', 'u.last_name'],
    caretPrefix: false,
    offset: params.length,
  });
  if (search) {
    params.push(...search.params);
    conditions.push(search.sql);
  }
  const where = `WHERE ${conditions.join(' AND ')}`;
  const from = `FROM gateway.users u JOIN gateway.roles r ON r.id = u.role_id
    LEFT JOIN gateway.users cb ON cb.id = u.created_by`;
  const { rows, total } = await pageWithTotal<UserListRow>(db, {
    select: `${ROW_COLUMNS}, cb.email AS created_by_email`,
    from: `${from} ${where}`,
    params,
    orderBy: query.orderBy,
    limit: query.limit,
    offset: query.offset,
  });
  return { rows: rows.map(withCounters), total };
}

const ADMIN_EXISTS = `SELECT 1 FROM gateway.users u JOIN gateway.roles r ON r.id = u.role_id
  WHERE r.name = 'admin' AND u.status = 'active' LIMIT 1`;

/**
 * Creates the first admin from config when no active admin exists. Safe when several gateway processes
 * start at once: the check and the insert run under one advisory lock. Without ADMIN_PASSWORD a random one
 * is generated and written to a 0600 file in the data directory (never to the log).
 */
export async function seedFirstAdmin(deps: { db: Db; store: EventStore; config: Config; log: Logger }) {
  const { db, store, config, log } = deps;
  if ((await db.query(ADMIN_EXISTS)).rowCount > 0) return { created: false };
  const generated = config.adminPassword ? undefined : randomBytes(15).toString('hex');
  const passwordHash = await hashPassword(config.adminPassword ?? generated!);
  const created = await db.transaction(async (tx) => {
    await lockForTransaction(tx, 'gateway', 'admin-seed');
    if ((await tx.query(ADMIN_EXISTS)).rowCount > 0) return null;
    const taken = await tx.query('SELECT 1 FROM gateway.users WHERE lower(email) = lower($1)', [config.adminEmail]);
    if (taken.rowCount > 0) {
      log.warn({ email: config.adminEmail }, 'no active admin, but ADMIN_EMAIL belongs to another user: not seeding');
      return null;
    }
    return createUser(
      tx,
      store,
      {
        email: config.adminEmail,
        first_name: 'Admin',
        last_name: 'User',
        role: 'admin',
        status: 'active',
        registration_type: 'seed',
        password_hash: passwordHash,
        created_by: null,
      },
      { user_id: null, api_key_id: null },
    );
  });
  if (!created) return { created: false };
  log.info({ user_id: created.id, email: created.email }, 'first admin created');
  if (generated) {
    const file = path.resolve(config.dataDir, 'initial-admin-password');
    try {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, `${generated}\n`, { mode: 0o600 });
      log.warn({ file }, 'ADMIN_PASSWORD not set: a generated admin password was written to this file');
    } catch (error) {
      log.error({ err: error }, 'ADMIN_PASSWORD not set and the generated password could not be saved; set it');
    }
  }
  return { created: true, id: created.id };
}
