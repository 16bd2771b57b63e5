// The "ship" object of a port call (docs/domain.md#the-ship-object): what GET /port-call, /port-calls and
// /ongoing-port-calls return per port call, and which port calls the activity timeline shows
// (docs/domain.md#the-activity-timeline).

import { isEmptyValue } from './master-mode.ts';
import type { PortCallSettings } from './port-call-settings.ts';
import { dbText, HOUR_MS, toMs } from './port-call-time.ts';
import type { NextEventTitle, PortCall, PortCallStatus, VesselTimestamp } from './port-call-types.ts';
import { type PortCallTimelineOptions, portCallTimeline, type Timeline } from './timeline.ts';

export interface Badge {
  type: 'success' | 'default';
  value: string;
}

/** Missing values are "" as in the original (which filled them so), except where noted. */
export interface Ship {
  /** The port call id. */
  id: number;
  status: PortCallStatus;
  vessel_name: string;
  imo: number;
  /** null when unknown. */
  mmsi: number | null;
  call_sign: string;
  nationality: string;
  /** City name of the UN/LOCODE (the code itself when unknown); the code is in `from_port_code`. */
  from_port: string;
  to_port: string;
  next_port: string;
  loa: number | '';
  beam: number | '';
  draft: number | '';
  net_weight: number | '';
  gross_weight: number | '';
  /** Times in PostgreSQL text form, `2020-02-23 20:15:00+00`. */
  first_eta: string;
  current_eta: string;
  rta: string;
  first_etd: string;
  current_etd: string;
  planned_eta: '';
  planned_etd: '';
  ata: string;
  atd: string;
  inbound_piloting_status: string;
  outbound_piloting_status: string;
  cargo_operations_status: string;
  berth: string;
  berth_name: string;
  vessel_type_name: string;
  master_id: string;
  badges: Badge[];
  is_vis: boolean;
  eta_form_received: boolean;
  /** `ts` is ISO 8601 (`2020-02-23T20:15:00+00:00`) or null. */
  next_event: { title: NextEventTitle | null; ts: string | null };
  from_port_code?: string;
  to_port_code?: string;
  next_port_code?: string;
  vis_service_id?: string | null;
  vis_rtz_state?: string | null;
}

/** What the port call itself does not know. */
export interface ShipContext {
  /** UN/LOCODE → city name; the code itself when not given or unknown. */
  cityName?: (code: string) => string;
  /** The vessel's type name (vessel → vessel type). */
  vesselTypeName?: string | null;
  /** For VIS vessels: the vessel's VIS service and the state of its latest voyage plan. */
  vis?: { service_id: string | null; rtz_state: string | null } | null;
}

const text = (v: string | null | undefined): string => (v === null || v === undefined ? '' : v);
const num = (v: number | null): number | '' => (v === null ? '' : v);

export function shipOf(pc: PortCall, context: ShipContext = {}): Ship {
  const city = (code: string) => context.cityName?.(code) || code;
  const badges: Badge[] = [{ type: 'success', value: pc.status === 'departed berth' ? 'departed' : pc.status }];
  if (!isEmptyValue(pc.berth_name)) badges.push({ type: 'default', value: pc.berth_name! });
  if (pc.is_vis) badges.push({ type: 'default', value: 'stm' });
  const ship: Ship = {
    id: pc.id,
    status: pc.status,
    vessel_name: text(pc.vessel_name),
    imo: pc.imo,
    mmsi: pc.mmsi === null || pc.mmsi === 0 ? null : pc.mmsi,
    call_sign: text(pc.call_sign),
    nationality: text(pc.nationality),
    from_port: '',
    to_port: '',
    next_port: '',
    loa: num(pc.loa),
    beam: num(pc.beam),
    draft: num(pc.draft),
    net_weight: num(pc.net_weight),
    gross_weight: num(pc.gross_weight),
    first_eta: dbText(pc.first_eta),
    current_eta: dbText(pc.current_eta),
    rta: dbText(pc.rta),
    first_etd: dbText(pc.first_etd),
    current_etd: dbText(pc.current_etd),
    planned_eta: '',
    planned_etd: '',
    ata: dbText(pc.ata),
    atd: dbText(pc.atd),
    inbound_piloting_status: text(pc.inbound_piloting_status),
    outbound_piloting_status: text(pc.outbound_piloting_status),
    cargo_operations_status: text(pc.cargo_operations_status),
    berth: text(pc.berth),
    berth_name: text(pc.berth_name),
    vessel_type_name: text(context.vesselTypeName),
    master_id: text(pc.master_id),
    badges,
    is_vis: pc.is_vis,
    eta_form_received: !isEmptyValue(pc.eta_form_email),
    next_event: { title: pc.next_event_title, ts: pc.next_event_ts },
  };
  if (!isEmptyValue(pc.from_port)) {
    ship.from_port_code = pc.from_port!;
    ship.from_port = city(pc.from_port!);
  }
  if (!isEmptyValue(pc.to_port)) {
    ship.to_port_code = pc.to_port!;
    ship.to_port = city(pc.to_port!);
  }
  if (!isEmptyValue(pc.next_port)) {
    ship.next_port_code = pc.next_port!;
    ship.next_port = city(pc.next_port!);
  }
  if (pc.is_vis) {
    const vis = context.vis ?? null;
    ship.vis_service_id = vis?.service_id ?? null;
    ship.vis_rtz_state = vis?.rtz_state ?? null;
    if (ship.vis_rtz_state) badges.push({ type: 'default', value: ship.vis_rtz_state.replaceAll('_', ' ') });
  }
  return ship;
}

/** A done port call stays on the timeline this long after its ATD. */
export const DONE_VISIBLE_MS = 2 * HOUR_MS;

/**
 * Whether the activity timeline shows a port call: not done (or done with its ATD in the last two hours),
 * the vessel not hidden, and its `to_port` empty or one of VISIBLE_UNLOCODES.
 */
export function isOngoing(
  pc: PortCall,
  options: { now: Date; vesselVisible: boolean; settings: Pick<PortCallSettings, 'visibleUnlocodes'> },
): boolean {
  if (!options.vesselVisible) return false;
  if (!isEmptyValue(pc.to_port) && !options.settings.visibleUnlocodes.includes(pc.to_port!)) return false;
  if (pc.status !== 'done') return true;
  return pc.atd !== null && options.now.getTime() - toMs(pc.atd) <= DONE_VISIBLE_MS;
}

/** The timeline's order: by next event time (a missing one first), then current ETA, then id. */
export function compareOngoing(a: PortCall, b: PortCall): number {
  const ts = (pc: PortCall) => (pc.next_event_ts ? toMs(pc.next_event_ts) : 0);
  return ts(a) - ts(b) || toMs(a.current_eta) - toMs(b.current_eta) || a.id - b.id;
}

/** One card of GET /ongoing-port-calls: `{ship, portcalls: [timeline]}`. */
export interface OngoingEntry {
  ship: Ship;
  portcalls: [Timeline];
}

export function ongoingEntry(
  pc: PortCall,
  timestamps: readonly VesselTimestamp[],
  options: PortCallTimelineOptions & { ship?: ShipContext },
): OngoingEntry {
  return { ship: shipOf(pc, options.ship), portcalls: [portCallTimeline(pc, timestamps, options)] };
}

/** GET /port-call-range: the manual-range editor's view. Times in PostgreSQL text form, null when unset. */
export function portCallRange(pc: PortCall): {
  port_call_id: number;
  start: string | null;
  end: string | null;
  master_id: string | null;
  master_manual: boolean;
} {
  return {
    port_call_id: pc.id,
    start: pc.master_start === null ? null : dbText(pc.master_start),
    end: pc.master_end === null ? null : dbText(pc.master_end),
    master_id: pc.master_id,
    master_manual: pc.master_manual,
  };
}
