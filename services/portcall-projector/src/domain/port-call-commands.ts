// Manual port-call corrections (docs/domain.md#corrections) decided against a vessel's port-call
// state: validate, then the event to append to `vessel-<imo>`. What the event does is the fold's business
// (vessel-port-calls.ts), so a replay reproduces it. Errors carry the original's messages.

import {
  ApiError,
  type OrphanTimestampsAttachRequested,
  type PortCallForceClosed,
  type PortCallForceScanned,
  type PortCallRangeSet,
  type TimestampPortCallSet,
  type TimestampPortCallUnset,
  type VesselVisibilitySet,
} from '@pcas/contracts';
import { isoUtc, parseStrictIso } from './port-call-time.ts';
import type { VesselPortCalls } from './port-call-types.ts';
import { portCallOf, timestampOf } from './vessel-port-calls.ts';

export type PortCallCommandEvent =
  | { type: 'PortCallForceClosed'; data: PortCallForceClosed }
  | { type: 'PortCallForceScanned'; data: PortCallForceScanned }
  | { type: 'PortCallRangeSet'; data: PortCallRangeSet }
  | { type: 'TimestampPortCallSet'; data: TimestampPortCallSet }
  | { type: 'TimestampPortCallUnset'; data: TimestampPortCallUnset }
  | { type: 'OrphanTimestampsAttachRequested'; data: OrphanTimestampsAttachRequested }
  | { type: 'VesselVisibilitySet'; data: VesselVisibilitySet };

export const invalidPortCallId = (id: unknown) => ApiError.badRequest(`Invalid port call ID: ${String(id)}`);
const invalidTimestampId = (id: unknown) => ApiError.badRequest(`Invalid timestamp id: ${String(id)}`);

function requirePortCall(state: VesselPortCalls, id: number) {
  const pc = portCallOf(state, id);
  if (!pc) throw invalidPortCallId(id);
  return pc;
}

/**
 * GET /force-close-port-call. The original answered an unknown id with 200 {"result":"ERROR"};
 * here it is a 400 like every other unknown port call id.
 */
export function decideForceClose(state: VesselPortCalls, portCallId: number): PortCallCommandEvent[] {
  requirePortCall(state, portCallId);
  return [{ type: 'PortCallForceClosed', data: { port_call_id: portCallId } }];
}

/** GET /force-scan-port-call (same remark on unknown ids). */
export function decideForceScan(state: VesselPortCalls, portCallId: number): PortCallCommandEvent[] {
  requirePortCall(state, portCallId);
  return [{ type: 'PortCallForceScanned', data: { port_call_id: portCallId } }];
}

/** POST /port-call-range: strict ISO times (`2020-02-23T20:15:00+00:00`), start not after end. */
export function decideSetPortCallRange(
  state: VesselPortCalls,
  input: { port_call_id: number; start: unknown; end: unknown },
): PortCallCommandEvent[] {
  requirePortCall(state, input.port_call_id);
  const start = parseStrictIso(input.start);
  if (start === undefined) throw ApiError.badRequest(`Invalid start time: ${String(input.start)}`);
  const end = parseStrictIso(input.end);
  if (end === undefined) throw ApiError.badRequest(`Invalid end time: ${String(input.end)}`);
  if (start > end) throw ApiError.badRequest('Start time must be before end time');
  return [
    { type: 'PortCallRangeSet', data: { port_call_id: input.port_call_id, start: isoUtc(start), end: isoUtc(end) } },
  ];
}

/**
 * POST /update-port-call-id. The port call must be one of the timestamp's vessel; the caller, which knows every
 * port call, answers "Invalid port call ID" for ids that exist nowhere before asking the vessel.
 */
export function decideUpdatePortCallId(
  state: VesselPortCalls,
  timestampId: number,
  portCallId: number,
): PortCallCommandEvent[] {
  if (!timestampOf(state, timestampId)) throw invalidTimestampId(timestampId);
  if (!portCallOf(state, portCallId)) throw ApiError.badRequest('Port call imo must be same as timestamp imo.');
  return [{ type: 'TimestampPortCallSet', data: { timestamp_id: timestampId, port_call_id: portCallId } }];
}

/** POST /unset-port-call-id. */
export function decideUnsetPortCallId(state: VesselPortCalls, timestampId: number): PortCallCommandEvent[] {
  if (!timestampOf(state, timestampId)) throw invalidTimestampId(timestampId);
  return [{ type: 'TimestampPortCallUnset', data: { timestamp_id: timestampId } }];
}

/** GET /timestamps-to-port-calls: always recorded (it is an operator's action even when nothing is attached). */
export function decideAttachOrphans(
  _state: VesselPortCalls,
  options: { isFromAgent?: boolean; ignoreStatus?: boolean } = {},
): PortCallCommandEvent[] {
  return [
    {
      type: 'OrphanTimestampsAttachRequested',
      data: { is_from_agent: options.isFromAgent === true, ignore_status: options.ignoreStatus === true },
    },
  ];
}

/** POST /vessel-visibility: nothing to record when the vessel already is so. */
export function decideVesselVisibility(state: VesselPortCalls, visible: boolean): PortCallCommandEvent[] {
  if (state.visible === visible) return [];
  return [{ type: 'VesselVisibilitySet', data: { imo: state.imo, visible } }];
}
