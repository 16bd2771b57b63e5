// The port-call timesheet as CSV (GET /port-call-csv, shared/reference/original-app.md §17.1): one row per
// timeline slot in template order, times in the caller's IANA zone.

import { ApiError } from '@pcas/contracts';
import { isoInZone, isTimeZone } from './port-call-time.ts';
import type { Ship } from './ship.ts';
import type { TimelineSlot } from './timeline.ts';

const HEADER = '"IMO","Name","Nationality","From","To","Next","Berth","Event","Time"';

const SHIP_COLUMNS = ['imo', 'vessel_name', 'nationality', 'from_port', 'to_port', 'next_port', 'berth_name'] as const;

/**
 * Every field double-quoted. The original pasted ship values in unescaped (a quote in a vessel name broke the
 * row); here quotes are doubled as CSV expects. Event names keep the original's rule: quotes become spaces.
 */
const quote = (value: unknown): string =>
  value === undefined || value === null || value === '' ? '""' : `"${String(value).replaceAll('"', '""')}"`;

/** PHP's urlencode: letters, digits and `-_.` stay, a space is `+`, everything else %XX. */
export function phpUrlencode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll('%20', '+');
}

export interface TimesheetOptions {
  /** IANA zone of the times, e.g. `Europe/Helsinki`; an unknown zone is a 400. */
  timeZone: string;
  /** The translation of an event name ("Estimated Arrival Vessel PortArea") in the port's namespace and language. */
  translate?: (text: string) => string | undefined;
}

export interface Timesheet {
  /** `<port call id>-<imo>-<url-encoded vessel name>.csv` */
  filename: string;
  /** Served as `application/csv`; lines end with `\n`. */
  body: string;
}

export function timesheetCsv(ship: Ship, slots: readonly TimelineSlot[], options: TimesheetOptions): Timesheet {
  if (!isTimeZone(options.timeZone)) throw ApiError.badRequest(`Invalid time zone: ${String(options.timeZone)}`);
  const common = SHIP_COLUMNS.map((c) => quote(ship[c])).join(',');
  const lines = [HEADER];
  for (const slot of slots) {
    const name = `${slot.time_type}_${slot.state}`.replaceAll('_', ' ');
    const event = (options.translate?.(name) || name).replaceAll('"', ' ');
    const time = typeof slot.time === 'string' && slot.time !== '' ? isoInZone(slot.time, options.timeZone) : '';
    lines.push(`${common},"${event}",${quote(time)}`);
  }
  return {
    filename: `${ship.id}-${ship.imo}-${phpUrlencode(ship.vessel_name)}.csv`,
    body: `${lines.join('\n')}\n`,
  };
}
