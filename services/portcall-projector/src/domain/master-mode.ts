// Master-ID mode (docs/domain.md#master-id-mode): which timestamps are master timestamps, which port
// calls a timestamp's time falls in, and how to choose between several. Pure predicates; the fold in
// vessel-port-calls.ts applies them.

import type { CompiledSettings } from './port-call-settings.ts';
import { shiftMs, toMs } from './port-call-time.ts';
import type { PortCall, PortCallStatus, VesselTimestamp } from './port-call-types.ts';

/** Slot reservations (the JIT ETA form) master their port calls with this source. */
export const JIT_SOURCE = 'jit_eta_form';
/** Master IDs that slot reservations give their port calls start with this. */
export const SLOT_MASTER_PREFIX = 'slot_reservation_id';

/** PHP's `empty()`: what the original treats as "no value". */
export const isEmptyValue = (v: unknown): boolean =>
  v === undefined || v === null || v === false || v === '' || v === 0 || v === '0';

/** The master ID a payload carries, as the text column stores it. */
export const masterIdOf = (t: VesselTimestamp): string => String(t.payload.external_id);

/**
 * Master mode is on, the payload has a non-empty `source` and `external_id`, and the source is a master
 * source or the JIT ETA form.
 */
export function isMasterTimestamp(t: VesselTimestamp, s: CompiledSettings): boolean {
  if (!s.master) return false;
  const { source, external_id } = t.payload;
  if (isEmptyValue(source) || isEmptyValue(external_id)) return false;
  return s.masterSources.has(String(source)) || source === JIT_SOURCE;
}

/** The master timestamps that open a port call or move its range. */
export function opensOrMovesRange(t: VesselTimestamp): boolean {
  if (t.payload.source === JIT_SOURCE) {
    return (
      (t.time_type === 'Estimated' || t.time_type === 'Planned') &&
      (t.state === 'Arrival_Vessel_PortArea' || t.state === 'Departure_Vessel_Berth')
    );
  }
  return (
    (t.time_type === 'Estimated' || t.time_type === 'Actual') &&
    (t.state === 'Arrival_Vessel_PortArea' ||
      t.state === 'Arrival_Vessel_Berth' ||
      t.state === 'Departure_Vessel_Berth')
  );
}

/**
 * Whether a port call's master range (widened by the buffers) covers a time: `master_start <= time + start
 * buffer` and `master_end >= time - end buffer`. A missing bound never matches.
 */
export function rangeCovers(pc: PortCall, timeMs: number, s: CompiledSettings): boolean {
  if (pc.master_start === null || pc.master_end === null) return false;
  return (
    toMs(pc.master_start) <= shiftMs(timeMs, s.startBuffer, 1) &&
    toMs(pc.master_end) >= shiftMs(timeMs, s.endBuffer, -1)
  );
}

/** `ORDER BY master_end DESC` as PostgreSQL sorts it (NULLs first); ties: the newer port call first. */
export function byMasterEndDesc(a: PortCall, b: PortCall): number {
  if (a.master_end !== b.master_end) {
    if (a.master_end === null) return -1;
    if (b.master_end === null) return 1;
    return a.master_end < b.master_end ? 1 : -1;
  }
  return b.seq - a.seq;
}

const ARRIVING = 1;
const AT_BERTH = 2;
const DEPARTING = 3;
const DEPARTED = 4;
const DONE = 5;

/** Where in a port call's life a timestamp belongs; undefined when that cannot be told. */
export function timestampOrder(t: Pick<VesselTimestamp, 'time_type' | 'state' | 'payload'>): number | undefined {
  const actual = t.time_type === 'Actual';
  const direction = t.payload.direction;
  switch (t.state) {
    case 'Arrival_Vessel_TrafficArea':
    case 'Arrival_Vessel_PortArea':
      return ARRIVING;
    case 'Arrival_Vessel_Berth':
      return actual ? AT_BERTH : ARRIVING;
    case 'Pilotage_Commenced':
      if (direction === 'inbound') return ARRIVING;
      if (direction === 'outbound') return actual ? DEPARTING : AT_BERTH;
      return undefined;
    case 'Pilotage_Completed':
      if (direction === 'inbound') return actual ? AT_BERTH : ARRIVING;
      if (direction === 'outbound') return actual ? DEPARTED : AT_BERTH;
      return undefined;
    case 'CargoOp_Commenced':
      return AT_BERTH;
    case 'CargoOp_Completed':
      return actual ? DEPARTING : AT_BERTH;
    case 'Departure_Vessel_Berth':
    case 'Departure_Vessel_PortArea':
    case 'Departure_Vessel_TrafficArea':
      return actual ? DEPARTED : DEPARTING;
    default:
      return undefined;
  }
}

const STATUS_ORDER: Record<PortCallStatus, number> = {
  arriving: ARRIVING,
  'at berth': AT_BERTH,
  departing: DEPARTING,
  'departed berth': DEPARTED,
  departed: DEPARTED,
  done: DONE,
};

/**
 * Of several port calls whose ranges cover a timestamp (in `master_end DESC` order), the one whose status is
 * nearest the timestamp's place; ties go to the later candidate; an unplaceable timestamp takes the last one.
 */
export function resolvePortCall(t: VesselTimestamp, candidates: readonly PortCall[]): PortCall {
  const order = timestampOrder(t);
  if (order === undefined) return candidates[candidates.length - 1];
  let best = candidates[0];
  let bestDiff = Number.POSITIVE_INFINITY;
  for (const pc of candidates) {
    const diff = Math.abs(order - STATUS_ORDER[pc.status]);
    if (diff <= bestDiff) {
      best = pc;
      bestDiff = diff;
    }
  }
  return best;
}
