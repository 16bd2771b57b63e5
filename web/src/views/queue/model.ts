// The just-in-time queue's shapes as the API answers them (docs/domain.md#queue), its paths, and the small pure
// rules the views share: laytime as hours and minutes, the alert state in words, which changes a status allows.

import { isoDurationMs } from '@pcas/values';
import { normaliseTime } from '../../components/time.ts';

export const QUEUE_CHANNEL = 'queue-portcalls-changed';

export const PATHS = {
  berths: 'berths',
  nominatableBerths: 'all-nominatable-berths',
  ownNominations: 'own-nominations',
  nominations: 'nominations',
  nominationForConsignee: 'nomination-for-consignee',
  consignees: 'consignee-users',
  berthReservations: 'berth-reservations',
  slotRequests: 'slot-reservations',
  slotRequest: 'slot-reservation-by-id',
  dashboard: 'dashboard-slot-reservations',
} as const;

/** Everything a slot request's change can make stale (the nomination is reserved or opened, the calendar moves). */
export const SLOT_CHANGES = [
  PATHS.slotRequests,
  PATHS.slotRequest,
  PATHS.dashboard,
  PATHS.berthReservations,
  PATHS.nominations,
  PATHS.ownNominations,
];

export interface Berth {
  id: number;
  code: string;
  name: string;
  nominatable: boolean;
}

export interface Nomination {
  id: number;
  company_name: string;
  email: string;
  imo: number;
  vessel_name: string;
  nomination_status: string;
  readable_nomination_status: string;
  window_start: string;
  window_end: string;
  berth_ids: number[];
  berth_names: string[];
  owner_first_name?: string;
  owner_last_name?: string;
}

export interface BerthReservation {
  id: number;
  berth_id: number;
  berth_reservation_type: 'port_blocked' | 'vessel_reserved' | string;
  readable_berth_reservation_type: string;
  reservation_start: string;
  reservation_end: string;
  slot_reservation_id: number | null;
  vessel_name: string | null;
}

export interface SlotRequest {
  id: number;
  nomination_id: number | null;
  berth_id: number | null;
  email: string;
  imo: number;
  vessel_name: string;
  loa: number | null;
  beam: number | null;
  draft: number | null;
  /** ISO duration in lists (`PT2H30M`), `HH:MM` from slot-reservation-by-id. */
  laytime: string;
  eta: string | null;
  rta_window_start: string | null;
  rta_window_end: string | null;
  jit_eta: string | null;
  slot_reservation_status: string;
  readable_slot_reservation_status: string;
  berth_name: string | null;
  port_call_id?: number | null;
  jit_eta_alert_state?: string | null;
  jit_eta_discrepancy_time?: string | null;
  max_laytime?: string | null;
  created_at?: string;
  modified_at?: string;
}

export interface DashboardRow extends SlotRequest {
  live_eta: string | null;
  ptd: string | null;
  vessel_nationality: string | null;
}

export interface Consignee {
  id: number;
  name: string;
}

// ---- statuses ----

/** A slot request the port can still change (JIT ETA, RTA window, laytime). */
export const changeable = (status: string) => ['offered', 'accepted', 'updated'].includes(status);

/** A slot request the port can still cancel. */
export const cancellable = (status: string) =>
  !['cancelled_by_vessel', 'cancelled_by_port', 'completed'].includes(status);

export const nominationOpen = (row: Pick<Nomination, 'nomination_status'>) => row.nomination_status === 'open';

export const portBlock = (row: Pick<BerthReservation, 'berth_reservation_type'>) =>
  row.berth_reservation_type === 'port_blocked';

// ---- the live-ETA alert ----

export interface AlertView {
  /** Mantine colour of the badge's dot. */
  colour: string;
  label: string;
  detail: string;
}

const ALERTS: Record<string, AlertView> = {
  green: { colour: 'green', label: 'On time', detail: 'The live ETA is within the allowed delay of the JIT ETA' },
  orange: { colour: 'orange', label: 'Late', detail: 'The live ETA is later than the JIT ETA allows' },
  red: { colour: 'red', label: 'Alert', detail: 'Still late after the alert delay: the port has been alerted' },
};

/** The alert as colour and words; none before the vessel has sent a JIT ETA (nothing to compare against). */
export function alertOf(row: Pick<SlotRequest, 'jit_eta' | 'jit_eta_alert_state'>): AlertView | null {
  if (!row.jit_eta || !row.jit_eta_alert_state) return null;
  return ALERTS[row.jit_eta_alert_state] ?? null;
}

// ---- laytime ----

export interface HoursMinutes {
  hours: number;
  minutes: number;
}

/** `PT2H30M`, `P1DT2H`, `02:30` or `02:30:00` as hours and minutes; null when unreadable. */
export function parseLaytime(value: string | null | undefined): HoursMinutes | null {
  if (!value) return null;
  const clock = /^(\d+):(\d{1,2})(?::\d{1,2})?$/.exec(value.trim());
  if (clock) return { hours: Number(clock[1]), minutes: Number(clock[2]) };
  // The queue's own reading (@pcas/values' isoDurationMs, as its `HH:MM` rendering): for the laytimes the API writes
  // (`PT{h}H{m}M{s}S`, whole seconds under a minute) the same as this page's former D/H/M/S reading.
  const ms = isoDurationMs(value.trim());
  if (ms === undefined) return null;
  const total = Math.floor(ms / 60_000);
  return { hours: Math.floor(total / 60), minutes: total % 60 };
}

/** Hours and minutes as the port's API takes a laytime: an ISO duration (`PT2H30M`, `PT0S` for none). */
export function isoLaytime({ hours, minutes }: HoursMinutes): string {
  const h = Math.max(0, Math.floor(hours));
  const m = Math.max(0, Math.floor(minutes));
  if (h === 0 && m === 0) return 'PT0S';
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}`;
}

/** `2 h 30 min` for a person; the text itself when unreadable. */
export function formatLaytime(value: string | null | undefined): string {
  const parsed = parseLaytime(value);
  if (!parsed) return value ?? '';
  if (parsed.minutes === 0) return `${parsed.hours} h`;
  return parsed.hours === 0 ? `${parsed.minutes} min` : `${parsed.hours} h ${parsed.minutes} min`;
}

// ---- berth priority ----

/** The list with the item at `index` moved by `by` places (kept inside the list). */
export function moveItem<T>(items: readonly T[], index: number, by: number): T[] {
  const target = Math.min(items.length - 1, Math.max(0, index + by));
  if (index < 0 || index >= items.length || target === index) return [...items];
  const next = [...items];
  const [item] = next.splice(index, 1);
  next.splice(target, 0, item);
  return next;
}

// ---- the calendar ----

export const DAY_MS = 24 * 3_600_000;

export const timeMs = (value: string | null | undefined) =>
  value ? new Date(normaliseTime(value)).getTime() : Number.NaN;

/** A time as the API takes it back (`YYYY-MM-DDTHH:mm:ss+00:00`; the lists give PostgreSQL's text); '' for none. */
export function apiTime(value: string | null | undefined): string {
  const ms = timeMs(value);
  return Number.isFinite(ms) ? `${new Date(ms).toISOString().slice(0, 19)}+00:00` : '';
}

/** Local midnight of the day holding `ms`. */
export function startOfDay(ms: number): number {
  const date = new Date(ms);
  date.setHours(0, 0, 0, 0);
  return date.getTime();
}

export interface Bar {
  reservation: BerthReservation;
  /** Percent of the shown period from its start, and of its length. */
  left: number;
  width: number;
}

/** The reservations that touch [from, from + days), as bars placed in percent of that period. */
export function barsOf(reservations: readonly BerthReservation[], from: number, days: number): Bar[] {
  const to = from + days * DAY_MS;
  const span = to - from;
  return reservations
    .map((reservation) => ({
      reservation,
      start: timeMs(reservation.reservation_start),
      end: timeMs(reservation.reservation_end),
    }))
    .filter(({ start, end }) => Number.isFinite(start) && Number.isFinite(end) && end > from && start < to)
    .sort((a, b) => a.start - b.start)
    .map(({ reservation, start, end }) => {
      const left = ((Math.max(start, from) - from) / span) * 100;
      const right = ((Math.min(end, to) - from) / span) * 100;
      return { reservation, left, width: Math.max(right - left, 0.5) };
    });
}
