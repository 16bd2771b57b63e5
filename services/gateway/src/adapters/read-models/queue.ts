// The JIT arrival queue's reads (docs/domain.md#queue) are the queue-scheduler's queries
// (`@pcas/queue-scheduler/queries`), composed here with what they read of other areas, as SQL written by each
// area's owner: the gateway's interval settings and its users' names (below), and the projector's port call the
// live ETA follows (`@pcas/portcall-projector/queries`). The consignee check reads the gateway's own users and roles.

import { livePortCall } from '@pcas/portcall-projector/queries';
import { createQueueQueries, type QueueLent } from '@pcas/queue-scheduler/queries';
import type { Queryable } from '@pcas/sql';

export type { ListQuery } from '@pcas/queue-scheduler/queries';

const LENT: QueueLent = {
  intervalSetting: (name, fallback) =>
    `coalesce((SELECT nullif(value, '')::interval FROM gateway.settings WHERE name = '${name}'), interval '${fallback}')`,
  userName: (id) => ({
    join: `LEFT JOIN gateway.users u ON u.id = ${id}`,
    first: `coalesce(u.first_name, '')`,
    last: `coalesce(u.last_name, '')`,
  }),
  livePortCall,
};

export const {
  listBerths,
  berthById,
  nominatableBerths,
  listNominations,
  nominationById,
  listBerthReservations,
  berthReservationById,
  listSlotRequests,
  dashboardSlotRequests,
  slotRequestLinkState,
  slotRequestById,
} = createQueueQueries(LENT);

/** GET /consignee-users: `[{id, name: "Last, First"}]` by lower(last_name). */
export function consigneeUsers(db: Queryable): Promise<unknown[]> {
  return db
    .query(
      `SELECT u.id, u.last_name || ', ' || u.first_name AS name
         FROM gateway.users u JOIN gateway.roles r ON r.id = u.role_id
        WHERE r.name = 'consignee' ORDER BY lower(u.last_name), u.id`,
    )
    .then((found) => found.rows);
}

export async function isConsignee(db: Queryable, userId: number): Promise<boolean> {
  const rows = (
    await db.query(
      `SELECT 1 FROM gateway.users u JOIN gateway.roles r ON r.id = u.role_id WHERE u.id = $1 AND r.name = 'consignee'`,
      [userId],
    )
  ).rows;
  return rows.length > 0;
}
