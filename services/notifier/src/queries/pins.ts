// Read-only queries on the notifier's pinned-vessels read model (`notifier.pinned_vessels`, written by the
// notifier in the transaction of each PinnedVesselsSet): a user's IMOs in the order they were given.
// GET /ongoing-port-calls reads them within its own check (port-calls.ts).

import type { Queryable } from '@pcas/sql';
import { pinsOf } from './port-calls.ts';

/** The user's pinned IMOs, in order (numbers, as the timeline's `ship.imo`); none before the notifier started. */
export async function pinnedVessels(db: Queryable, userId: number): Promise<number[]> {
  return (await pinsOf(db, [userId])).get(userId) ?? [];
}
