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
