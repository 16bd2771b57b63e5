// The automatic text messages the port sends (docs/architecture.md, "Libraries": stm): the "Route inconsistent"
// reply to a voyage plan the port cannot synchronise, and the request for a voyage plan. Words as the original's.

import type { RtzStateName, SyncPoint, TextMessageArea } from './types.ts';

/** The author of every message the system writes by itself. */
export const AUTOMATIC_AUTHOR = 'Port Activity Application';
export const ROUTE_INCONSISTENT_SUBJECT = 'Route inconsistent';
export const VOYAGE_PLAN_REQUEST_SUBJECT = 'Share voyage plan request';

const METRES_PER_NAUTICAL_MILE = 1852;

/**
 * The body of the "Route inconsistent" reply for a voyage plan in `state`, or undefined when the state needs no
 * reply (only CALCULATED_SCHEDULE_NOT_FOUND and SYNC_NOT_FOUND_CAN_NOT_BE_ADDED do). `routeName` empty or absent
 * reads UNKNOWN; `locationName` is RTA_POINT_LOCATION_NAME.
 */
export function routeInconsistentBody(
  state: RtzStateName,
  routeName: string | undefined,
  locationName: string,
): string | undefined {
  const route = routeName ? routeName : 'UNKNOWN';
  const request = `Please send an updated voyage plan with a valid ETA for waypoint near ${locationName}.`;
  if (state === 'CALCULATED_SCHEDULE_NOT_FOUND') {
    return `The voyage plan (${route}) does not have a valid schedule. ${request}`;
  }
  if (state === 'SYNC_NOT_FOUND_CAN_NOT_BE_ADDED') {
    return `The voyage plan (${route}) does not have waypoint near ${locationName}. ${request}`;
  }
  return undefined;
}

/** The body of the automatic voyage-plan request (VIS_PORT_NAME, VIS_PORT_UNLOCODE, RTA_POINT_LOCATION_NAME). */
export function voyagePlanRequestBody(portName: string, locode: string, locationName: string): string {
  return (
    `Share your voyage plan with ${portName} (${locode}). ` +
    `Voyage plan should have calculated schedule and waypoint near ${locationName}.`
  );
}

/**
 * The area of the "Route inconsistent" reply: a circle around the sync point. The text message schema's radius
 * is in nautical miles, VIS_SYNC_POINT_RADIUS in metres, so it is converted (the original wrote the metres as
 * they were, which a receiver reads as a circle 1852 times too large).
 */
export function syncPointArea(syncPoint: SyncPoint): TextMessageArea {
  return {
    circle: {
      position: { lat: syncPoint.lat, lon: syncPoint.lon },
      radiusNm: syncPoint.radiusMeters / METRES_PER_NAUTICAL_MILE,
    },
  };
}
