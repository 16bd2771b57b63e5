// Changes to an existing user: an administrator's (PUT and DELETE /users/:id, suspend, lock) and the client time
// zone that session requests carry.

import type { Actor, UserTimeZoneChanged } from '@pcas/contracts';
import type { EventStore } from '@pcas/eventstore';
import type { Db, Queryable } from '@pcas/sql';
import { removeCredential } from './credentials.ts';
import { decideAndChange, isUniqueViolation } from './stream-lock.ts';
import { loadUserRecord, type UserRecord } from './user-queries.ts';
import {
  appendUserEvent,
  assertEmailFree,
  countActiveAdmins,
  duplicateEmail,
  forgetClientFailures,
  managed,
  SUCCESSFUL_LOGIN_RESET,
  withUser,
} from './user-writes.ts';

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

/**
 * Under the user's lock: once `decide` accepts the user (it throws to refuse), runs `change`. False for a user
 * this does not manage (see `managed`).
 */
function changeManagedUser(
  db: Db,
  id: number,
  decide: (user: UserRecord) => void,
  change: (tx: Queryable, user: UserRecord) => Promise<void>,
): Promise<boolean> {
  return withUser(db, id, (tx, user) => decideAndChange(tx, managed(user) ? user : null, decide, change));
}

/** One flag of a user set to `on`, under the user's lock, once `decide` has accepted it. */
interface FlagChange {
  store: EventStore;
  id: number;
  on: boolean;
  actor: Actor;
}

/** POST /user-suspend. */
async function suspend({ store, id, on: suspended, actor }: FlagChange, tx: Queryable, user: UserRecord) {
  if (suspended) {
    const start = new Date();
    await appendUserEvent(tx, store, id, 'UserSuspended', { id, suspend_start: start.toISOString() }, actor);
    await tx.query('UPDATE gateway.users SET suspend_start = $2, modified_at = now(), modified_by = $3 WHERE id = $1', [
      id,
      start,
      actor.user_id,
    ]);
  } else if (user.suspend_start !== null || user.any_client_suspend_start !== null) {
    // The failed-login counters stay, as the original: the next failures continue from them.
    await appendUserEvent(tx, store, id, 'UserUnsuspended', { id }, actor);
    await tx.query(
      'UPDATE gateway.users SET suspend_start = NULL, modified_at = now(), modified_by = $2 WHERE id = $1',
      [id, actor.user_id],
    );
    await tx.query('UPDATE gateway.login_failures SET suspend_start = NULL WHERE user_id = $1', [id]);
  }
}

/** POST /user-lock. Locking ends a suspension; unlocking also zeroes the failed-login counter. */
async function lock({ store, id, on: locked, actor }: FlagChange, tx: Queryable, user: UserRecord) {
  if (locked) {
    if (user.locked && user.suspend_start === null) return;
    await appendUserEvent(tx, store, id, 'UserLocked', { id }, actor);
    await tx.query(
      'UPDATE gateway.users SET locked = true, suspend_start = NULL, modified_at = now(), modified_by = $2 WHERE id = $1',
      [id, actor.user_id],
    );
  } else {
    const clean = !user.locked && user.suspend_start === null && user.failed_logins === 0;
    if (clean && !user.any_client_failures) return;
    await appendUserEvent(tx, store, id, 'UserUnlocked', { id }, actor);
    await tx.query(
      `UPDATE gateway.users SET ${SUCCESSFUL_LOGIN_RESET}, modified_at = now(), modified_by = $2 WHERE id = $1`,
      [id, actor.user_id],
    );
    await forgetClientFailures(tx, id);
  }
}

const FLAGS = { suspended: suspend, locked: lock };

/**
 * POST /user-suspend and /user-lock: sets the user's flag to `on`. Returns false for an unknown user; setting the
 * state it already has appends nothing.
 */
export function setUserFlag(
  db: Db,
  store: EventStore,
  id: number,
  flag: keyof typeof FLAGS,
  on: boolean,
  actor: Actor,
  decide: (user: UserRecord) => void,
): Promise<boolean> {
  return changeManagedUser(db, id, decide, (tx, user) => FLAGS[flag]({ store, id, on, actor }, tx, user));
}
