// Users: every change is an event on `user-<id>`, and the gateway.users row (its read model) is written in
// the same transaction, so the table never disagrees with the log. The password hash is not in either: it is a
// credential (credentials.ts). Changes that depend on the current row
// (counters, roles) run under the stream's lock (stream-lock.ts) and take their decision from a pure callback.
//
// By concern: user-queries.ts (reading: the rows, the single-user JSON, the list), user-sign-up.ts (creating users,
// the first admin), user-passwords.ts (logins, failed logins, setting a password), user-changes.ts (update,
// delete, suspend, lock, time zone), and user-writes.ts (the event and the row under the lock, shared by those).
// The rest of the gateway imports them from here.

export { changeTimeZone, deleteUser, setUserFlag, updateUser } from './user-changes.ts';
export {
  recordFailedLogin,
  recordLogin,
  setPassword,
} from './user-passwords.ts';
export {
  type AccountBlock,
  clientLoginCounters,
  findActiveUserByEmail,
  findActiveUserRecordByEmail,
  listUsers,
  loadUser,
  loadUserRecord,
  loadUsers,
  USER_SORT_FIELDS,
  type UserListRow,
  type UserWithPermissions,
  userJson,
} from './user-queries.ts';
export { createUniqueUser, createUser, seedFirstAdmin } from './user-sign-up.ts';
export { metadataOf } from './user-writes.ts';
