// RTZ route XML (1.0 / 1.1, with the STM extension): read, write, and write an RTA into a received route
// (docs/architecture.md, "Libraries": stm).

import type { RtaInput, RtzRoute } from './types.ts';

export const RTZ_NAMESPACE_1_0 = 'http://www.cirm.org/RTZ/1/0';
export const RTZ_NAMESPACE_1_1 = 'http://www.cirm.org/RTZ/1/1';
export const STM_NAMESPACE = 'http://stmvalidation.eu/STM/1/0/0';

/**
 * Reads an RTZ route: its name, vessel, STM route status, waypoints with positions and leg geometry, and every
 * schedule's manual and calculated elements. The RTZ namespace may be the default one or prefixed; 1/0 and 1/1
 * are accepted. Throws StmFormatError (400) when the XML is not well-formed, the root is not an RTZ `route`,
 * `routeInfo/@routeName` or the waypoints are missing, or a waypoint id or position is not numeric.
 */
export function parseRtz(xml: string): RtzRoute {
  void xml;
  throw new Error('not implemented yet');
}

/** Writes an RTZ 1.1 route (default namespace, STM extension namespace declared) from the parsed shape. */
export function buildRtz(route: RtzRoute): string {
  void route;
  throw new Error('not implemented yet');
}

/**
 * The received route with the RTA written in, as STM expects it back: a manual scheduleElement at the target
 * waypoint with `eta` = RTA and `etaWindowBefore` / `etaWindowAfter` (xs:duration) from the window, the
 * calculated schedule removed, `routeStatusEnum` 3 (optimised); when the target is a point on a leg, a new
 * waypoint (next free id) is inserted there first. Everything else in the document is kept. Returns the XML and
 * the waypoint id the RTA is at. Throws StmFormatError when the route or the target waypoint is not usable.
 */
export function withRta(xml: string, input: RtaInput): { xml: string; waypointId: number } {
  void xml;
  void input;
  throw new Error('not implemented yet');
}
