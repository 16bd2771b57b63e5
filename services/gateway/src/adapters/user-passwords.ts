// A user's password: a login with it recorded, a wrong one counted (per client), a new one set. The hash itself is
// a credential (credentials.ts), never in an event.

import { type Actor, ApiError, type UserLoggedIn } from '@pcas/contracts';
import type { EventStore } from '@pcas/eventstore';
import { addressKey } from '@pcas/http-kit';
import type { Db } from '@pcas/sql';
import type { LoginCounters } from '../domain/passwords.ts';
import { storeCredential } from './credentials.ts';
import { clientLoginCounters, loadUserRecord, type UserRecord } from './user-queries.ts';
import { appendUserEvent, forgetClientFailures, managed, SUCCESSFUL_LOGIN_RESET, withUser } from './user-writes.ts';

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
