// The port call's RTA and live ETA (docs/domain.md#queue-e-mails-and-live-eta): set from outside the port call's
// timestamps (the RTA web form and the VIS bridge; a data source's live ETA), appended to the vessel's stream like
// the corrections so a replay sets them at the same point. Both show on the timeline as synthetic timestamps.

import { ApiError, type PortCallLiveEtaSet, type PortCallRtaSet } from '@pcas/contracts';
import { isoMs, isoUtc, toMs } from './port-call-time.ts';
import type { PortCall, VesselPortCalls } from './port-call-types.ts';

export type PortCallRtaEvent =
  | { type: 'PortCallRtaSet'; data: PortCallRtaSet }
  | { type: 'PortCallLiveEtaSet'; data: PortCallLiveEtaSet };

// ISO 8601 with a zone (Z or ±hh[:]mm), seconds and fractions optional: what browsers, the web UI and agents send.
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Epoch ms of an ISO 8601 time with a zone, or undefined. */
export function parseZonedIso(value: unknown): number | undefined {
  if (typeof value !== 'string' || !ISO_WITH_ZONE.test(value.trim())) return undefined;
  const ms = Date.parse(value.trim());
  return Number.isFinite(ms) ? ms : undefined;
}

/** The original's choice: the vessel's first port call that is not done, by current ETA. */
export function firstOpenPortCall(state: VesselPortCalls): PortCall | undefined {
  let best: PortCall | undefined;
  for (const pc of state.port_calls) {
    if (pc.status === 'done') continue;
    if (!best || toMs(pc.current_eta) < toMs(best.current_eta)) best = pc;
  }
  return best;
}

function zonedOrNull(value: unknown, name: string): string | null {
  if (value === undefined || value === null || value === '') return null;
  const ms = parseZonedIso(value);
  if (ms === undefined) throw ApiError.badRequest(`Invalid ${name}: ${String(value)}`);
  return isoUtc(ms);
}

/** POST /rta-web-form, vis-send-rta: the named port call (of this vessel) or the first open one. */
export function decideSetPortCallRta(
  state: VesselPortCalls,
  input: { port_call_id?: unknown; rta?: unknown; eta_min?: unknown; eta_max?: unknown },
): PortCallRtaEvent[] {
  const named = input.port_call_id !== undefined && input.port_call_id !== null && input.port_call_id !== 0;
  const pc = named
    ? state.port_calls.find((candidate) => candidate.id === Number(input.port_call_id))
    : firstOpenPortCall(state);
  if (!pc) throw ApiError.badRequest(`Cannot set RTA for imo: ${state.imo}`);
  const rta = zonedOrNull(input.rta, 'RTA');
  if (rta === null) throw ApiError.badRequest(`Invalid RTA: ${String(input.rta ?? '')}`);
  const data: PortCallRtaSet = {
    port_call_id: pc.id,
    rta,
    eta_min: zonedOrNull(input.eta_min, 'ETA min'),
    eta_max: zonedOrNull(input.eta_max, 'ETA max'),
  };
  return [{ type: 'PortCallRtaSet', data }];
}

/** POST /agent/rest/live-eta (docs/domain.md#queue-e-mails-and-live-eta). */
export function decideSetLiveEta(
  state: VesselPortCalls,
  input: { time?: unknown; payload?: unknown },
): PortCallRtaEvent[] {
  const ms = parseZonedIso(input.time);
  if (ms === undefined) throw ApiError.badRequest(`Invalid time: ${String(input.time)}`);
  const pc = firstOpenPortCall(state);
  if (!pc) throw ApiError.badRequest(`Cannot set live eta for imo: ${state.imo}`);
  const payload =
    input.payload && typeof input.payload === 'object' && !Array.isArray(input.payload)
      ? (input.payload as Record<string, unknown>)
      : {};
  return [
    {
      type: 'PortCallLiveEtaSet',
      data: { port_call_id: pc.id, live_eta: isoUtc(ms), payload, slot_reservation_id: pc.slot_reservation_id },
    },
  ];
}

/** What the fold does with PortCallRtaSet: who and when are the event's actor and time. */
export function applyRtaSet(pc: PortCall, data: PortCallRtaSet, by: number | null, atMs: number): void {
  pc.rta = data.rta;
  pc.rta_details = { eta_min: data.eta_min, eta_max: data.eta_max, updated_at: isoMs(atMs), updated_by: by };
}

/** What the fold does with PortCallLiveEtaSet: `live_eta_details` is the payload plus who and when. */
export function applyLiveEtaSet(pc: PortCall, data: PortCallLiveEtaSet, by: number | null, atMs: number): void {
  pc.live_eta = data.live_eta;
  pc.live_eta_details = { ...data.payload, updated_by: by, updated_at: isoMs(atMs) };
}
