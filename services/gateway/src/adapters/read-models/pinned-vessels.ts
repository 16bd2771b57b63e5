// Read-only queries on the notifier's pinned-vessels read model (`notifier.pinned_vessels`, written by the
// notifier in the transaction of each PinnedVesselsSet): a user's IMOs in the order they were given.

import { createBatcher } from '@pcas/batching';
import type { Queryable } from '@pcas/sql';
import { rowsOrNone } from './port-calls.ts';

/** The user's pinned IMOs, in order (numbers, as the timeline's `ship.imo`); none before the notifier started. */
export async function pinnedVessels(db: Queryable, userId: number): Promise<number[]> {
  const rows = await rowsOrNone(
    db.query<{ imo: string }>('SELECT imo FROM notifier.pinned_vessels WHERE user_id = $1 ORDER BY position', [userId]),
  );
  return rows.map((r) => Number(r.imo));
}

/**
 * Pinned IMOs of many callers at once, for GET /ongoing-port-calls: calls that arrive while a lookup is on its way
 * share the next one (one indexed query for all of them). A lookup starts only after its calls arrived, so a
 * caller always sees its own last PUT.
 */
export function createPinnedVesselsLookup(db: Queryable): (userId: number) => Promise<number[]> {
  return createBatcher<number, number[]>(
    async (userIds) => {
      const rows = await rowsOrNone(
        db.query<{ user_id: string; imo: string }>(
          `SELECT user_id, imo FROM notifier.pinned_vessels WHERE user_id = ANY($1::bigint[])
            ORDER BY user_id, position`,
          [[...new Set(userIds)]],
        ),
      );
      const byUser = new Map<number, number[]>();
      for (const r of rows) {
        const userId = Number(r.user_id);
        const list = byUser.get(userId) ?? [];
        list.push(Number(r.imo));
        byUser.set(userId, list);
      }
      return userIds.map((id) => ({ ok: true, value: byUser.get(id) ?? [] }));
    },
    { maxItems: 1000, maxInFlight: 2 },
  );
}
