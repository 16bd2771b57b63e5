// Users: every change is an event on `user-<id>`, and the gateway.users row (its read model) is written in
// the same transaction, so the table never disagrees with the log.

import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '@pcas/config';
import { type Actor, type UserCreated, type UserLoggedIn, type UserTimeZoneChanged, userStream } from '@pcas/contracts';
import type { EventMetadata, EventStore } from '@pcas/eventstore';
import type { Logger } from '@pcas/observability';
import type { Db, Queryable } from '@pcas/sql';
import { hashPassword } from './password.ts';
import { LOCKS } from './schema.ts';

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

export interface LoginUser extends UserWithPermissions {
  password_hash: string;
}

const USER_COLUMNS = `u.id, u.email, u.first_name, u.last_name, r.name AS role, u.status, u.time_zone,
  COALESCE((SELECT array_agg(p.name ORDER BY p.id) FROM gateway.role_permissions rp
            JOIN gateway.permissions p ON p.id = rp.permission_id WHERE rp.role_id = u.role_id), '{}') AS permissions`;

/** The active user with this e-mail (case-insensitive), with the role's permissions and the password hash. */
export async function findActiveUserByEmail(db: Queryable, email: string): Promise<LoginUser | null> {
  const { rows } = await db.query<LoginUser>(
    `SELECT ${USER_COLUMNS}, u.password_hash FROM gateway.users u JOIN gateway.roles r ON r.id = u.role_id
     WHERE lower(u.email) = lower($1) AND u.status = 'active'`,
    [email],
  );
  return rows[0] ?? null;
}

export async function loadUser(db: Queryable, id: number): Promise<UserWithPermissions | null> {
  const { rows } = await db.query<UserWithPermissions>(
    `SELECT ${USER_COLUMNS} FROM gateway.users u JOIN gateway.roles r ON r.id = u.role_id WHERE u.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** Allocates an id, appends UserCreated and inserts the row, all inside the caller's transaction. */
export async function createUser(
  tx: Queryable,
  store: EventStore,
  user: Omit<UserCreated, 'id'>,
  actor: Actor,
): Promise<UserCreated> {
  const { rows } = await tx.query<{ id: number }>(`SELECT nextval('gateway.user_ids')::int AS id`);
  const created: UserCreated = { id: rows[0].id, ...user };
  await store.append(userStream(created.id), [{ type: 'UserCreated', data: created, metadata: metadataOf(actor) }], {
    tx,
    expectedVersion: 'no_stream',
  });
  await tx.query(
    `INSERT INTO gateway.users (id, email, password_hash, first_name, last_name, role_id, status, registration_type,
       created_by, modified_by)
     SELECT $1, $2, $3, $4, $5, r.id, $7, $8, $9, $9 FROM gateway.roles r WHERE r.name = $6`,
    [
      created.id,
      created.email,
      created.password_hash,
      created.first_name,
      created.last_name,
      created.role,
      created.status,
      created.registration_type,
      created.created_by,
    ],
  );
  return created;
}

export async function recordLogin(
  db: Db,
  store: EventStore,
  userId: number,
  data: UserLoggedIn['last_login_data'],
  actor: Actor,
): Promise<void> {
  const event: UserLoggedIn = { id: userId, last_login_time: new Date().toISOString(), last_login_data: data };
  await db.transaction(async (tx) => {
    await store.append(userStream(userId), [{ type: 'UserLoggedIn', data: event, metadata: metadataOf(actor) }], {
      tx,
      expectedVersion: 'stream_exists',
    });
    await tx.query(
      `UPDATE gateway.users SET last_login_time = $2, last_login_data = $3, failed_logins = 0 WHERE id = $1`,
      [userId, event.last_login_time, JSON.stringify(event.last_login_data)],
    );
  });
}

/** Stores the zone when it differs; concurrent requests with the same new zone write one event. */
export async function changeTimeZone(db: Db, store: EventStore, userId: number, zone: string, actor: Actor) {
  await db.transaction(async (tx) => {
    // The row lock taken by the UPDATE serializes racing requests; the loser sees no change and appends nothing.
    const { rows } = await tx.query<{ previous: string | null }>(
      `UPDATE gateway.users u SET time_zone = $2 FROM (SELECT id, time_zone AS previous FROM gateway.users
         WHERE id = $1 FOR UPDATE) old
       WHERE u.id = old.id AND u.time_zone IS DISTINCT FROM $2 RETURNING old.previous`,
      [userId, zone],
    );
    if (rows.length === 0) return;
    const event: UserTimeZoneChanged = { id: userId, time_zone: zone, previous_time_zone: rows[0].previous };
    await store.append(
      userStream(userId),
      [{ type: 'UserTimeZoneChanged', data: event, metadata: metadataOf(actor) }],
      { tx, expectedVersion: 'stream_exists' },
    );
  });
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
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCKS.adminSeed]);
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
