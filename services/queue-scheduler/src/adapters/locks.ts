// The queue's berth lock: changes of one berth take turns (lockBerths, loadSlotRequestForChange). Its key is
// advisoryLockKey('queue-berth', id), the fleet's one key builder (@pcas/sql). loadSlotRequestForChange takes the
// lock in the statement that finds the berth, so that statement uses the builder's SQL form; locks.int.test.ts
// checks they agree.

import { advisoryLockKey, advisoryLockKeySql } from '@pcas/sql';

const PURPOSE = 'queue-berth';

/** The berth's lock key. */
export const berthLockKey = (berthId: number): string => advisoryLockKey(PURPOSE, String(berthId));

/**
 * berthLockKey of an integer column or expression, in SQL; NULL when it is NULL (the advisory lock functions are
 * strict: no berth, no lock).
 */
export const berthLockKeySql = (column: string): string => advisoryLockKeySql(PURPOSE, column);
