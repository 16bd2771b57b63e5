// Creating users: a sign-up, an administrator's new user or an API key's hidden user, and the first admin at start.

import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '@pcas/config';
import { type Actor, type UserCreated, userStream } from '@pcas/contracts';
import type { EventStore } from '@pcas/eventstore';
import type { Logger } from '@pcas/observability';
import { type Db, lockForTransaction, type Queryable } from '@pcas/sql';
import { storeCredential } from './credentials.ts';
import { hashPassword } from './password.ts';
import { isUniqueViolation } from './stream-lock.ts';
import { assertEmailFree, duplicateEmail, metadataOf } from './user-writes.ts';

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
