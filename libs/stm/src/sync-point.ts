// The ETA at the synchronisation point and the RTZ state a received route gets (docs/architecture.md,
// "Libraries": stm). The decision follows the original VIS agent: calculated schedule? sync waypoint within the
// radius (the nearest one)? its ETA? else can a waypoint be added on a leg passing within the radius?

import { distanceMeters, nearestPointOnLeg } from './geo.ts';
import type { LatLon, RtaInput, RtzAssessment, RtzParseResults, RtzRoute, RtzStateName, SyncPoint } from './types.ts';
import { toUtc } from './values.ts';

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
  const parseResults: RtzParseResults = { route_name: route.routeName === '' ? 'UNKNOWN' : route.routeName };
  if (route.vesselImo !== undefined) parseResults.vessel_imo = route.vesselImo;
  if (route.vesselName !== undefined) parseResults.vessel_name = route.vesselName;

  const schedule = route.schedules.find((s) => (s.calculated?.length ?? 0) > 0);
  if (!schedule) return { state: 'CALCULATED_SCHEDULE_NOT_FOUND', parseResults };

  const sync = { lat: syncPoint.lat, lon: syncPoint.lon };
  let nearest: { id: number; distance: number } | undefined;
  for (const waypoint of route.waypoints) {
    const distance = distanceMeters(waypoint, sync);
    if (distance <= syncPoint.radiusMeters && (!nearest || distance < nearest.distance)) {
      nearest = { id: waypoint.id, distance };
    }
  }
  if (nearest) {
    parseResults.waypointId = nearest.id;
    parseResults.distance_m = round(nearest.distance, 1);
    const eta = schedule.calculated!.find((e) => e.waypointId === nearest.id && e.eta !== undefined)?.eta;
    if (eta === undefined) return { state: 'SYNC_WITHOUT_ETA_FOUND', parseResults };
    parseResults.eta = toUtc(eta, 'RTZ route XML ETA');
    return { state: 'SYNC_WITH_ETA_FOUND', parseResults };
  }

  // No waypoint near enough: a leg passing within the radius can take a new one without changing the route.
  let onLeg: { legEndWaypointId: number; point: LatLon; distance: number } | undefined;
  for (let i = 1; i < route.waypoints.length; i++) {
    const end = route.waypoints[i];
    const { point, distanceMeters: distance } = nearestPointOnLeg(route.waypoints[i - 1], end, sync, end.geometryType);
    if (distance <= syncPoint.radiusMeters && (!onLeg || distance < onLeg.distance)) {
      onLeg = { legEndWaypointId: end.id, point, distance };
    }
  }
  if (!onLeg) return { state: 'SYNC_NOT_FOUND_CAN_NOT_BE_ADDED', parseResults };
  parseResults.legEndWaypointId = onLeg.legEndWaypointId;
  parseResults.lat = round(onLeg.point.lat, 7);
  parseResults.lon = round(onLeg.point.lon, 7);
  parseResults.distance_m = round(onLeg.distance, 1);
  return { state: 'SYNC_NOT_FOUND_CAN_BE_ADDED', parseResults };
}

const round = (value: number, digits: number) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

/**
 * Where `withRta` writes the RTA for a route with these parse results: its sync waypoint, or a new waypoint
 * named `newWaypointName` (e.g. RTA_POINT_LOCATION_NAME) at the point found on a leg; undefined when the route
 * has neither (CALCULATED_SCHEDULE_NOT_FOUND, SYNC_NOT_FOUND_CAN_NOT_BE_ADDED).
 */
export function rtaTarget(parseResults: RtzParseResults, newWaypointName: string): RtaInput['target'] | undefined {
  const { waypointId, legEndWaypointId, lat, lon } = parseResults;
  if (typeof waypointId === 'number') return { waypointId };
  if (typeof legEndWaypointId === 'number' && typeof lat === 'number' && typeof lon === 'number') {
    return { legEndWaypointId, lat, lon, name: newWaypointName };
  }
  return undefined;
}
