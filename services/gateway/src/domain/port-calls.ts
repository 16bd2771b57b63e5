// What the gateway adds to the projector's port-call read models before serving them
// (docs/domain.md#the-timeline, #exports-and-the-timesheet): the name of whoever created each filled timeline slot,
// GET /port-call's flat slot list, and the timesheet CSV in the caller's time zone. Pure.

import { ApiError, isoInZone as isoOfInstantInZone, isTimeZone } from '@pcas/contracts';

/** A filled slot (a timestamp plus `source`) or a template placeholder `{time_type, state[, payload]}`. */
export interface TimelineSlot {
  time_type: string;
  state: string;
  [field: string]: unknown;
}

export interface TimelineEvent {
  id: number;
  location: string;
  timestamps: TimelineSlot[];
}

/** `{"id":1,"events":[sea arriving, at berth, sea departing]}` as the read model stores it. */
export interface Timeline {
  id: number;
  events: TimelineEvent[];
}

/** A user that created timestamps, and the API key bound to it when it is a data source's user. */
export interface Creator {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  api_key_name: string | null;
}

/** The original's userOrApiKeyName: the API key's name for a data source, else "First Last (email)". */
export function creatorName(creator: Creator): string {
  if (creator.api_key_name !== null) return creator.api_key_name;
  return `${creator.first_name} ${creator.last_name} (${creator.email})`;
}

// The projector leaves `source` empty in every filled slot and nowhere else: that is how a filled slot is known.
const isFilled = (slot: TimelineSlot): boolean => Object.hasOwn(slot, 'source');

const idOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isSafeInteger(value)
    ? value
    : typeof value === 'string' && /^\d{1,15}$/.test(value)
      ? Number(value)
      : null;

/** The distinct creators (user ids) of the filled slots of these timelines. */
export function creatorIds(timelines: readonly Timeline[]): number[] {
  const ids = new Set<number>();
  for (const timeline of timelines) {
    for (const event of timeline.events) {
      for (const slot of event.timestamps) {
        const id = isFilled(slot) ? idOf(slot.created_by) : null;
        if (id !== null) ids.add(id);
      }
    }
  }
  return [...ids].sort((a, b) => a - b);
}

/** The timeline with each filled slot's `source` naming its creator ("" when unknown, as the original). */
export function withSources(timeline: Timeline, names: ReadonlyMap<number, string>): Timeline {
  return {
    ...timeline,
    events: timeline.events.map((event) => ({
      ...event,
      timestamps: event.timestamps.map((slot) => {
        if (!isFilled(slot)) return slot;
        const id = idOf(slot.created_by);
        return { ...slot, source: (id === null ? undefined : names.get(id)) ?? '' };
      }),
    })),
  };
}

/** GET /port-call's `timestamps`: every slot of the three groups in order, placeholders included. */
export const timelineSlots = (timeline: Timeline): TimelineSlot[] => timeline.events.flatMap((e) => e.timestamps);

// ---- time zones ----

export { isTimeZone };

/** An instant as ISO 8601 local time of the zone with its offset, e.g. `2020-02-23T22:15:00+02:00`. */
export function isoInZone(instant: string, zone: string): string {
  if (!isTimeZone(zone)) throw ApiError.badRequest(`Invalid time zone: ${zone}`);
  const ms = Date.parse(instant);
  return Number.isFinite(ms) ? isoOfInstantInZone(ms, zone) : '';
}

// ---- the timesheet CSV ----

const CSV_HEADER = '"IMO","Name","Nationality","From","To","Next","Berth","Event","Time"';
const SHIP_COLUMNS = ['imo', 'vessel_name', 'nationality', 'from_port', 'to_port', 'next_port', 'berth_name'] as const;

/**
 * Every field double-quoted. The original pasted values in as they were, so a quote in a vessel name broke the
 * row; here a quote is doubled, as CSV readers expect.
 */
const quoted = (value: unknown): string =>
  value === undefined || value === null ? '""' : `"${String(value).replaceAll('"', '""')}"`;

/** PHP's urlencode: letters, digits and `-_.` stay, a space becomes `+`, everything else `%XX`. */
export function phpUrlencode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replaceAll('%20', '+');
}

export interface TimesheetShip {
  id: number;
  imo: number;
  vessel_name: string;
  [field: string]: unknown;
}

export interface Timesheet {
  /** `<port call id>-<imo>-<url-encoded vessel name>.csv` */
  filename: string;
  body: string;
}

/**
 * The timesheet of GET /port-call-csv: a header row, then one row per timeline slot in template order
 * (placeholders too, with an empty time); the event is the translation of "<time type> <state, spaced>" or that
 * text itself, with `"` made a space; times in the zone with its offset. Lines end with `\n`.
 */
export function timesheetCsv(
  ship: TimesheetShip,
  slots: readonly TimelineSlot[],
  options: { timeZone: string; translate?: (text: string) => string | undefined },
): Timesheet {
  if (!isTimeZone(options.timeZone)) throw ApiError.badRequest(`Invalid time zone: ${options.timeZone}`);
  const shipFields = SHIP_COLUMNS.map((column) => quoted(ship[column] ?? '')).join(',');
  const lines = [CSV_HEADER];
  for (const slot of slots) {
    const text = `${slot.time_type} ${String(slot.state).replaceAll('_', ' ')}`;
    const event = (options.translate?.(text) || text).replaceAll('"', ' ');
    const time = typeof slot.time === 'string' && slot.time !== '' ? isoInZone(slot.time, options.timeZone) : '';
    lines.push(`${shipFields},"${event}",${quoted(time)}`);
  }
  return {
    filename: `${ship.id}-${ship.imo}-${phpUrlencode(String(ship.vessel_name ?? ''))}.csv`,
    body: `${lines.join('\n')}\n`,
  };
}
