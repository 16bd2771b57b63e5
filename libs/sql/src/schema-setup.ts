// How every owner creates its schema (docs/architecture.md#schemas): its statements in order, in one
// transaction, under one advisory lock named for the owner, so several processes may start together
// (CREATE ... IF NOT EXISTS still fails with a unique violation when two sessions create one object at once).

import { createHash } from 'node:crypto';
import type { Db, Queryable } from './types.ts';

/**
 * The one builder of the fleet's advisory lock keys: a 64-bit key from what the lock is for and the name it
 * guards (`advisoryLockKey('schema', 'queue')`). Keys of different purposes or names never meet, and a stream's
 * lock (PostgreSQL's own `hashtextextended` of the stream id) is another hash, so they do not meet it either.
 * Returned as a decimal string, the way node-postgres and PGlite pass a bigint parameter.
 */
export function advisoryLockKey(purpose: string, name: string): string {
  if (!purpose || !name) throw new Error('advisoryLockKey needs a purpose and a name');
  const digest = createHash('sha256').update(`pcas:${purpose}:${name}`).digest();
  return BigInt.asIntN(64, digest.readBigUInt64BE(0)).toString();
}

/**
 * `advisoryLockKey(purpose, <expression>)` computed in SQL, for a statement that finds what it locks and locks it
 * at once; NULL when the expression is NULL (the advisory lock functions are strict: nothing found, no lock).
 * The purpose is a fixed word of the caller's (it is written into the SQL).
 */
export function advisoryLockKeySql(purpose: string, nameSql: string): string {
  if (!/^[a-z0-9-]+$/.test(purpose)) throw new Error(`advisoryLockKeySql needs a plain purpose, got '${purpose}'`);
  return `('x' || encode(substr(sha256(convert_to('pcas:${purpose}:' || (${nameSql})::text, 'UTF8')), 1, 8), 'hex'))::bit(64)::bigint`;
}

/** Takes the transaction-scoped advisory lock `advisoryLockKey(purpose, name)`; released at commit or rollback. */
export async function lockForTransaction(tx: Queryable, purpose: string, name: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [advisoryLockKey(purpose, name)]);
}

/**
 * Creates an owner's schema if missing: `statements` in order (one statement each: PGlite runs one per query),
 * then `after` (seeds, one-time data moves) in the same transaction. Idempotent.
 */
export async function setUpSchema(
  db: Db,
  owner: string,
  statements: readonly string[],
  after?: (tx: Queryable) => Promise<void>,
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockForTransaction(tx, 'schema', owner);
    for (const statement of statements) await tx.query(statement);
    if (after) await after(tx);
  });
}

/**
 * A table's last columns as the original's tables have them: when a row was created and last changed, and by
 * which user (null: the system). For a `CREATE TABLE` list, without a comma after it.
 */
export const AUDIT_COLUMNS = `created_at timestamptz NOT NULL DEFAULT now(),
     created_by integer,
     modified_at timestamptz NOT NULL DEFAULT now(),
     modified_by integer`;
