// What the user adapters that change users share (user-sign-up.ts, user-passwords.ts, user-changes.ts): the event's
// metadata, the free e-mail check, appending to `user-<id>`, and running under the user's stream lock (the role lock
// first when the number of active admins matters).

import { type Actor, ApiError, type UserEvents, userStream } from '@pcas/contracts';
import type { EventMetadata, EventStore } from '@pcas/eventstore';
import type { Db, Queryable } from '@pcas/sql';
import { lockStream, lockUserRoles } from './stream-lock.ts';
import { loadUserRecord, type UserRecord } from './user-queries.ts';

export const metadataOf = (actor: Actor): EventMetadata => ({ user_id: actor.user_id, api_key_id: actor.api_key_id });

export const duplicateEmail = (email: string) => ApiError.badRequest(`User with email ${email} already exists`);

export async function assertEmailFree(tx: Queryable, email: string, exceptId: number | null): Promise<void> {
  const taken = await tx.query(
    'SELECT 1 FROM gateway.users WHERE lower(email) = lower($1) AND id IS DISTINCT FROM $2',
    [email, exceptId],
  );
  if (taken.rowCount > 0) throw duplicateEmail(email);
}

export async function appendUserEvent<K extends keyof UserEvents>(
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
export async function withUser<T>(
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

export async function countActiveAdmins(tx: Queryable): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM gateway.users u JOIN gateway.roles r ON r.id = u.role_id
     WHERE r.name = 'admin' AND u.status = 'active'`,
  );
  return rows[0].n;
}

export const SUCCESSFUL_LOGIN_RESET = 'failed_logins = 0, suspend_start = NULL, locked = false';

/** Forgets every client's failed logins of the user (unlock, password reset, deletion). */
export const forgetClientFailures = (tx: Queryable, id: number) =>
  tx.query('DELETE FROM gateway.login_failures WHERE user_id = $1', [id]);

/** Only active users are managed; deleted ones and the hidden users of API keys are "no such user". */
export const managed = (user: UserRecord | null): user is UserRecord => user?.status === 'active';
