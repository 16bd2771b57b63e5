// The ETA at the synchronisation point and the RTZ state a received route gets (docs/architecture.md,
// "Libraries": stm). The decision follows the original VIS agent: calculated schedule? sync waypoint within the
// radius (the nearest one)? its ETA? else can a waypoint be added on a leg passing within the radius?

import type { RtzAssessment, RtzRoute, RtzStateName, SyncPoint } from './types.ts';

/** The six states with the original's ids (`vis_rtz_state`), in id order. */
export const RTZ_STATES: readonly { id: number; name: RtzStateName }[] = [
  { id: 1, name: 'CALCULATED_SCHEDULE_NOT_FOUND' },
  { id: 2, name: 'SYNC_WITH_ETA_FOUND' },
  { id: 3, name: 'SYNC_WITHOUT_ETA_FOUND' },
  { id: 4, name: 'SYNC_NOT_FOUND_CAN_BE_ADDED' },
  { id: 5, name: 'SYNC_NOT_FOUND_CAN_NOT_BE_ADDED' },
  { id: 6, name: 'RTA_SENT' },
];

export const RTZ_STATE_NAMES: readonly RtzStateName[] = RTZ_STATES.map((s) => s.name);

export function isRtzStateName(value: string): value is RtzStateName {
  return (RTZ_STATE_NAMES as readonly string[]).includes(value);
}

/**
 * Decides the state of a received route against the sync point and builds its `rtz_parse_results`:
 * - no schedule with a calculated part → CALCULATED_SCHEDULE_NOT_FOUND;
 * - a waypoint within the radius (distance ≤ radius, the nearest one) → SYNC_WITH_ETA_FOUND with its calculated
 *   ETA, or SYNC_WITHOUT_ETA_FOUND when the calculated schedule has no ETA for it;
 * - none, but a leg passes within the radius → SYNC_NOT_FOUND_CAN_BE_ADDED with the nearest point on that leg
 *   and the waypoint the leg ends at;
 * - otherwise SYNC_NOT_FOUND_CAN_NOT_BE_ADDED.
 */
export function assessRoute(route: RtzRoute, syncPoint: SyncPoint): RtzAssessment {
  void route;
  void syncPoint;
  throw new Error('not implemented yet');
}
