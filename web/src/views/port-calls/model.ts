// What the port-call views read from the API, and the small pure helpers around it. Every field may be missing
// or null in what the API sends (an old row, a projector that changed), so nothing here trusts a shape.

import { browserTimeZone } from '../../api/client.ts';
import { normaliseTime } from '../../components/time.ts';

/** The ship object of GET /port-calls and GET /port-call: one port call of one vessel. */
export interface Ship {
  id: number;
  imo: number;
  vessel_name?: string | null;
  status?: string | null;
  from_port?: string | null;
  to_port?: string | null;
  next_port?: string | null;
  berth_name?: string | null;
  current_eta?: string | null;
  rta?: string | null;
  ata?: string | null;
  current_etd?: string | null;
  atd?: string | null;
  master_id?: string | null;
  [field: string]: unknown;
}

/** One slot of GET /port-call's timesheet: a timestamp (with `time` and `source`) or an empty template place. */
export interface TimesheetSlot {
  time_type: string;
  state: string;
  time?: string | null;
  source?: string | null;
  created_at?: string | null;
  payload?: Record<string, unknown> | null;
}

export interface PortCallDetail {
  ship: Ship;
  timestamps: TimesheetSlot[];
}

/** A stored timestamp as GET /port-call-timestamps and GET /non-port-call-timestamps list them. */
export interface TimestampRow {
  id: number;
  port_call_id?: number | null;
  imo?: number | null;
  vessel_name?: string | null;
  time_type?: string | null;
  state?: string | null;
  time?: string | null;
  /** A JSON text, as the original sent it. */
  payload?: string | null;
  is_trash?: string | boolean | null;
  created_at?: string | null;
}

/** GET /port-call-range. */
export interface PortCallRange {
  port_call_id: number;
  start?: string | null;
  end?: string | null;
  master_id?: string | null;
  master_manual?: boolean | null;
}

/** Every query a port-call change can alter: refreshed after a correction and on `portcalls-changed`. */
export const PORT_CALL_PATHS = [
  'port-calls',
  'port-call',
  'port-call-timestamps',
  'non-port-call-timestamps',
  'port-call-range',
];

/** The real-time channel the notifier signals whenever a port call changes. */
export const PORT_CALLS_CHANNEL = 'portcalls-changed';

export const isDone = (ship: Pick<Ship, 'status'> | null | undefined): boolean => ship?.status === 'done';

/** Text of a value that should be text; anything else (null, an object) shows as nothing. */
export function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** `SEGVX → FIHEL → DEHAM`, skipping the unknown legs. */
export function route(ship: Ship): string {
  return [ship.from_port, ship.to_port, ship.next_port].map(text).filter(Boolean).join(' → ');
}

/** A stored flag as the original's PostgreSQL text `t`/`f`, or a boolean. */
export const isTrashed = (row: Pick<TimestampRow, 'is_trash'>): boolean =>
  row.is_trash === true || row.is_trash === 't' || row.is_trash === 'true';

/** The API's UTC form `YYYY-MM-DDTHH:mm:ss+00:00` of any time it sent (`2026-11-25 20:00:00+00`), or ''. */
export function toApiTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(normaliseTime(value));
  if (Number.isNaN(date.getTime())) return '';
  return `${date.toISOString().slice(0, 19)}+00:00`;
}

/** The file a timesheet is saved as: `<id>-<imo>-<name>.csv`, without characters file systems refuse. */
export function timesheetFileName(ship: Pick<Ship, 'id' | 'imo' | 'vessel_name'>): string {
  const name = [...text(ship.vessel_name)]
    .map((char) => (char < ' ' || '\\/:*?"<>|'.includes(char) ? '_' : char))
    .join('')
    .trim();
  return `${ship.id}-${text(ship.imo)}-${name}.csv`;
}

/** The query of GET /port-call-csv: times in the browser's own zone. */
export const timesheetQuery = (id: number) => ({ id, time_zone: browserTimeZone() });

/** Where a timesheet slot happened, when its payload says (`location`, a berth, the pilotage's direction). */
export function slotDetails(slot: TimesheetSlot): { location: string; direction: string } {
  const payload = slot.payload && typeof slot.payload === 'object' ? slot.payload : {};
  return {
    location: text(payload.location) || text(payload.berth_name),
    direction: text(payload.direction),
  };
}
