// Locks of user management. Per-stream serialization of read-decide-append comes from decision-lock.ts (shared
// with the settings and roles code); this adds the lock of changes that depend on the set of admins.

import { lockForTransaction, type Queryable } from '@pcas/sql';
import { lockStreamForDecision } from './decision-lock.ts';

/** Serializes read-decide-append on one stream among the gateway's writers (see decision-lock.ts). */
export const lockStream = lockStreamForDecision;

/**
 * Changes that depend on how many active admins there are (the last admin keeps its role and account) take
 * this lock first, before any stream lock, so two admins demoting each other cannot both succeed.
 */
export async function lockUserRoles(tx: Queryable): Promise<void> {
  await lockForTransaction(tx, 'gateway', 'user-roles');
}

/**
 * The step of a change made under its stream's lock: false for a row that is not there; else `decide` accepts
 * the current row (it throws to refuse), `change` runs, and true.
 */
export async function decideAndChange<Row>(
  tx: Queryable,
  row: Row | null,
  decide: (row: Row) => void,
  change: (tx: Queryable, row: Row) => Promise<void>,
): Promise<boolean> {
  if (!row) return false;
  decide(row);
  await change(tx, row);
  return true;
}

/** PostgreSQL's unique_violation: a concurrent writer took the same e-mail or code first. */
export const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === '23505';
