// Read-only queries on this service's pinned-vessels read model (`notifier.pinned_vessels`, written in the
// transaction of each PinnedVesselsSet), run by the gateway in its process (`@pcas/notifier/queries`): a user's
// IMOs in the order they were given. GET /ongoing-port-calls reads them within its own check (the gateway's
// adapters/read-models/port-calls.ts), with the SQL below.

import type { Queryable } from '@pcas/sql';

/** `[[user_id, imo], …]` of the users in `param`, each user's in its order, as one JSON text. */
export const PINS_SQL = (param: string) =>
  `SELECT coalesce(json_agg(json_build_array(v.user_id, v.imo) ORDER BY v.user_id, v.position)::text, '[]')
     FROM notifier.pinned_vessels v WHERE v.user_id = ANY(${param}::bigint[])`;

/** The users' pins from PINS_SQL's JSON text. */
export function pinsByUser(json: string): Map<number, number[]> {
  const byUser = new Map<number, number[]>();
  for (const [userId, imo] of JSON.parse(json) as [number, number][]) {
    const list = byUser.get(userId) ?? [];
    list.push(imo);
    byUser.set(userId, list);
  }
  return byUser;
}

/** The pinned IMOs of these users (numbers, as the timeline's `ship.imo`); none before this service started. */
export async function pinsOf(db: Queryable, userIds: readonly number[]): Promise<Map<number, number[]>> {
  if (userIds.length === 0) return new Map();
  const rows = (await db.query<{ pins: string }>(`SELECT (${PINS_SQL('$1')}) AS pins`, [[...userIds]])).rows;
  return pinsByUser(rows[0]?.pins ?? '[]');
}

/** The user's pinned IMOs, in order (numbers, as the timeline's `ship.imo`); none before this service started. */
export async function pinnedVessels(db: Queryable, userId: number): Promise<number[]> {
  return (await pinsOf(db, [userId])).get(userId) ?? [];
}
