// The scan (docs/domain.md#the-scan): a port call's derived fields re-read from its timestamps in
// id order: ETA/ETD/ATA/ATD, payload fields under payload-key priorities, status and next event; then the two
// clock rules (force-depart after 30 days, departed → done after 180 minutes).

import { isEmptyValue } from './master-mode.ts';
import type { CompiledSettings } from './port-call-settings.ts';
import { DAY_MS, isoUtc, MINUTE_MS, toMs } from './port-call-time.ts';
import type { PortCall, PortCallStatus, VesselTimestamp } from './port-call-types.ts';
import { type Priorities, payloadKeyWeight, timestampWeight } from './priorities.ts';

/** A departed port call closes this long after its ATD. */
export const CLOSE_AFTER_MS = 180 * MINUTE_MS;
/** A port call that never departs is departed this long after its last known time. */
export const DEPART_AFTER_MS = 30 * DAY_MS;

/**
 * The derived fields as a forced scan empties them, and as a new port call starts. A forced scan keeps the rest:
 * identity, first/current ETA, live ETA, the voyage-plan request time, slot-reservation fields, master fields and
 * the remembered payload-key weights.
 */
const NOT_DERIVED_YET = {
  status: 'arriving',
  vessel_name: null,
  from_port: null,
  to_port: null,
  next_port: null,
  mmsi: null,
  call_sign: null,
  net_weight: null,
  gross_weight: null,
  loa: null,
  beam: null,
  draft: null,
  nationality: null,
  first_etd: null,
  current_etd: null,
  current_pta: null,
  current_ptd: null,
  rta: null,
  rta_details: null,
  ata: null,
  atd: null,
  is_vis: false,
  inbound_piloting_status: null,
  outbound_piloting_status: null,
  cargo_operations_status: null,
  next_event_title: null,
  next_event_ts: null,
  berth: null,
  eta_form_email: null,
  berth_name: null,
} as const satisfies Partial<PortCall>;

export function newPortCall(id: number, imo: number, seq: number, time: string, masterId: string | null): PortCall {
  return {
    id,
    imo,
    ...NOT_DERIVED_YET,
    first_eta: time,
    current_eta: time,
    live_eta: null,
    live_eta_details: null,
    voyage_plan_request: null,
    slot_reservation_id: null,
    slot_reservation_status: null,
    rta_window_start: null,
    rta_window_end: null,
    laytime: null,
    master_id: masterId,
    master_start: null,
    master_end: null,
    master_manual: false,
    payload_key_weights: {},
    seq,
  };
}

/** A forced scan starts from this: the derived fields emptied. */
function clearDerived(pc: PortCall): void {
  Object.assign(pc, NOT_DERIVED_YET);
}

type Kind = 'text' | 'int' | 'real' | 'time';
type MappedColumn =
  | 'from_port'
  | 'to_port'
  | 'next_port'
  | 'mmsi'
  | 'call_sign'
  | 'loa'
  | 'beam'
  | 'draft'
  | 'net_weight'
  | 'gross_weight'
  | 'nationality'
  | 'berth'
  | 'eta_form_email'
  | 'berth_name'
  | 'slot_reservation_id'
  | 'slot_reservation_status'
  | 'rta_window_start'
  | 'rta_window_end'
  | 'laytime';

/** Payload key → port call column (and the column's type). */
export const PAYLOAD_MAPPING: readonly (readonly [string, MappedColumn, Kind])[] = [
  ['from_port', 'from_port', 'text'],
  ['to_port', 'to_port', 'text'],
  ['next_port', 'next_port', 'text'],
  ['mmsi', 'mmsi', 'int'],
  ['call_sign', 'call_sign', 'text'],
  ['vessel_loa', 'loa', 'real'],
  ['vessel_beam', 'beam', 'real'],
  ['vessel_draft', 'draft', 'real'],
  ['net_weight', 'net_weight', 'real'],
  ['gross_weight', 'gross_weight', 'real'],
  ['nationality', 'nationality', 'text'],
  ['berth', 'berth', 'text'],
  ['email', 'eta_form_email', 'text'],
  ['berth_name', 'berth_name', 'text'],
  ['slot_reservation_id', 'slot_reservation_id', 'int'],
  ['slot_reservation_status', 'slot_reservation_status', 'text'],
  ['rta_window_start', 'rta_window_start', 'time'],
  ['rta_window_end', 'rta_window_end', 'time'],
  ['laytime', 'laytime', 'text'],
];

// A payload carries a few of the mapped keys: its own keys are looked up here rather than all 19 in it (a lookup of
// a key the object lacks is a slow one), as a bit set in the mapping's order, which is the order they apply in.
const MAPPED_INDEX = new Map(PAYLOAD_MAPPING.map(([key], i) => [key, i]));
if (PAYLOAD_MAPPING.length > 31) throw new Error('PAYLOAD_MAPPING outgrew its bit set');

function mappedKeysOf(payload: Record<string, unknown>): number {
  let mapped = 0;
  for (const key in payload) {
    const i = MAPPED_INDEX.get(key);
    if (i !== undefined) mapped |= 1 << i;
  }
  return mapped;
}

/**
 * A payload value in the column's type, or undefined when the column could not hold it (the original's save
 * would have failed on it; here that one value is skipped).
 */
function coerce(value: unknown, kind: Kind): string | number | undefined {
  switch (kind) {
    case 'text':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      return undefined;
    case 'int': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      return typeof n === 'number' && Number.isSafeInteger(n) ? n : undefined;
    }
    case 'real': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
    }
    case 'time':
      return typeof value === 'string' ? storedTime(value) : undefined;
  }
}

// Payload times are read again on every scan of their port call (one per new timestamp): each distinct string is
// parsed and formatted once. The cache of a pure function, bounded, so the rules stay pure.
const STORED_TIMES_MAX = 4096;
const storedTimes = new Map<string, string | null>();

/** A payload time in the stored form, or undefined when it is no time. */
function storedTime(value: string): string | undefined {
  let stored = storedTimes.get(value);
  if (stored === undefined) {
    const ms = Date.parse(value);
    stored = Number.isNaN(ms) ? null : isoUtc(ms);
    if (storedTimes.size >= STORED_TIMES_MAX) storedTimes.clear();
    storedTimes.set(value, stored);
  }
  return stored ?? undefined;
}

const is = (t: VesselTimestamp, timeType: string, state: string) => t.time_type === timeType && t.state === state;

const isAtBerthEvent = (t: VesselTimestamp) =>
  t.time_type === 'Actual' &&
  (t.state === 'Arrival_Vessel_Berth' ||
    (t.state === 'Pilotage_Completed' && t.payload.direction === 'inbound') ||
    t.state === 'CargoOp_Commenced');

const isDepartingEvent = (t: VesselTimestamp) =>
  t.time_type === 'Actual' &&
  (t.state === 'CargoOp_Completed' || (t.state === 'Pilotage_Commenced' && t.payload.direction === 'outbound'));

export interface ScanContext {
  settings: CompiledSettings;
  priorities: Priorities;
  /** Epoch ms of "now" (the event being folded). */
  now: number;
}

export interface ScanOptions {
  /** Clear derived fields first (force-scan, manual moves). */
  force: boolean;
  /** The original's suppressExternalMessages: true for everything but a data source's new timestamp. */
  suppressExternal: boolean;
}

/** The first known of atd, current_ptd, current_etd, ata, current_pta, current_eta. */
export function endTimeOf(pc: PortCall): string | null {
  return pc.atd || pc.current_ptd || pc.current_etd || pc.ata || pc.current_pta || pc.current_eta || null;
}

function setNextEvent(pc: PortCall): void {
  switch (pc.status) {
    case 'arriving':
      pc.next_event_title = 'ETA';
      pc.next_event_ts = pc.current_eta;
      break;
    case 'at berth':
    case 'departing':
      pc.next_event_title = 'ETD';
      pc.next_event_ts = pc.current_etd;
      break;
    default:
      pc.next_event_title = 'ATD';
      pc.next_event_ts = pc.atd;
  }
}

// The clock rules read each port call's end time at every event of its vessel and at every scan of it: each
// distinct string is parsed once. The cache of a pure function, bounded, so the rules stay pure.
const CLOCK_TIMES_MAX = 4096;
const clockTimes = new Map<string, number>();

function clockMs(time: string): number {
  let ms = clockTimes.get(time);
  if (ms === undefined) {
    ms = toMs(time);
    if (clockTimes.size >= CLOCK_TIMES_MAX) clockTimes.clear();
    clockTimes.set(time, ms);
  }
  return ms;
}

/** The 30-day rule (mutates): not departed and its end time more than 30 days ago → departed at that end time. */
export function departIfStale(pc: PortCall, now: number): boolean {
  if (pc.status === 'departed' || pc.status === 'done') return false;
  const end = endTimeOf(pc);
  if (end === null || now - clockMs(end) <= DEPART_AFTER_MS) return false;
  pc.status = 'departed';
  pc.atd = end;
  setNextEvent(pc);
  return true;
}

/** The 180-minute rule (mutates): departed at least 180 minutes ago → done. */
export function closeIfDeparted(pc: PortCall, now: number): boolean {
  if (pc.status !== 'departed' || pc.atd === null || now - clockMs(pc.atd) < CLOSE_AFTER_MS) return false;
  pc.status = 'done';
  return true;
}

/** GET /force-close-port-call (mutates): depart at the best end time (never in the future), then close. */
export function forceClose(pc: PortCall, now: number): void {
  let end = endTimeOf(pc) ?? isoUtc(now);
  if (toMs(end) > now) end = isoUtc(now);
  pc.status = 'departed';
  pc.atd = end;
  setNextEvent(pc);
  pc.status = 'done';
}

/** When the port call's next clock rule is due, or null when none will ever be (done, or no time known). */
export function timerOf(pc: PortCall): { at: number; kind: 'depart' | 'close' } | null {
  if (pc.status === 'done') return null;
  if (pc.status === 'departed') return pc.atd === null ? null : { at: clockMs(pc.atd) + CLOSE_AFTER_MS, kind: 'close' };
  const end = endTimeOf(pc);
  return end === null ? null : { at: clockMs(end) + DEPART_AFTER_MS + 1, kind: 'depart' };
}

/**
 * Scans a port call over its timestamps (those attached to it, ascending id, trashed ones included as in the
 * original). Returns the updated copy, or null when it has no timestamps left (the port call is deleted).
 */
export function scanPortCall(
  current: PortCall,
  timestamps: readonly VesselTimestamp[],
  ctx: ScanContext,
  options: ScanOptions,
): PortCall | null {
  if (timestamps.length === 0) return null;
  const pc: PortCall = { ...current, payload_key_weights: { ...current.payload_key_weights } };
  if (options.force) clearDerived(pc);

  const maxWeight = new Map<string, number>();
  let firstEtaSeen = false;
  let fallbackAtd: string | null = null;
  let atBerth = false;
  let departing = false;
  let departedBerth = false;
  let departed = false;

  for (const t of timestamps) {
    const pair = `${t.time_type}\u0000${t.state}`;
    const weight = timestampWeight(ctx.priorities, t);
    const seen = maxWeight.get(pair);
    const heavier = seen === undefined || weight >= seen;
    if (heavier) maxWeight.set(pair, weight);

    if (isEmptyValue(pc.vessel_name)) pc.vessel_name = t.vessel_name;

    if (heavier) {
      if (is(t, 'Estimated', 'Arrival_Vessel_PortArea')) {
        if (!firstEtaSeen) {
          firstEtaSeen = true;
          pc.first_eta = t.time;
        }
        pc.current_eta = t.time;
        // The original asks a VIS vessel for its voyage plan here (once); the time is kept, the message is not ours.
        if (!options.suppressExternal && pc.voyage_plan_request === null) pc.voyage_plan_request = isoUtc(ctx.now);
      } else if (is(t, 'Actual', 'Arrival_Vessel_Berth')) {
        pc.ata = t.time;
      } else if (is(t, 'Estimated', 'Departure_Vessel_Berth')) {
        if (!pc.first_etd) pc.first_etd = t.time;
        pc.current_etd = t.time;
      } else if (is(t, 'Actual', 'Departure_Vessel_Berth')) {
        pc.atd = t.time;
      } else if (is(t, 'Planned', 'Departure_Vessel_Berth')) {
        pc.current_ptd = t.time;
      }

      if (isAtBerthEvent(t)) {
        atBerth = true;
        departedBerth = false;
      } else if (isDepartingEvent(t)) {
        departing = true;
        departedBerth = false;
      } else if (is(t, 'Actual', 'Departure_Vessel_Berth')) {
        departedBerth = true;
      }
      // Departed berth and departed can be the same state (the default).
      if (t.time_type === 'Actual' && ctx.settings.departedStates.has(t.state)) {
        departed = true;
        if (fallbackAtd === null) fallbackAtd = t.time;
      }
    }

    let mapped = mappedKeysOf(t.payload);
    while (mapped !== 0) {
      const [key, column, kind] = PAYLOAD_MAPPING[31 - Math.clz32(mapped & -mapped)];
      mapped &= mapped - 1;
      const raw = t.payload[key];
      if (raw === undefined || raw === null) continue;
      const remembered = pc.payload_key_weights[key] ?? -1;
      const candidate = payloadKeyWeight(ctx.priorities, key, t);
      if (candidate < remembered || !(heavier || isEmptyValue(pc[column]))) continue;
      const value = coerce(raw, kind);
      if (value === undefined) continue;
      (pc as unknown as Record<string, unknown>)[column] = value;
      if (candidate !== 0) pc.payload_key_weights[key] = candidate;
    }
    // The original also asks the VIS agent to look the vessel up; that message belongs to the VIS bridge.
    if (t.payload.source === 'vis') pc.is_vis = true;
  }

  let status: PortCallStatus;
  if (departed) {
    if (!pc.atd) pc.atd = fallbackAtd ?? isoUtc(ctx.now);
    status = 'departed';
  } else if (departedBerth) status = 'departed berth';
  else if (departing) status = 'departing';
  else if (atBerth) status = 'at berth';
  else status = 'arriving';
  pc.status = status;
  setNextEvent(pc);

  // A port call without a master ID is a clustered one: its range follows its ETA and ETD.
  if (isEmptyValue(pc.master_id)) {
    pc.master_start = pc.current_eta;
    pc.master_end = pc.current_etd;
  }

  departIfStale(pc, ctx.now);
  closeIfDeparted(pc, ctx.now);
  return pc;
}
