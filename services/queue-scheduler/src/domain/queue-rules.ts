// The queue's rules that are not the slot search (docs/domain.md#queue): its settings and their
// defaults, durations and laytimes in the forms the original reads and writes, the nomination window's checks,
// when a nomination expires and when a slot request completes by itself. Pure: `now` and the zone are given.

import { ApiError, QUEUE_SETTING_DEFAULTS, wallClock } from '@pcas/contracts';
import { isoDurationMs, parseAtom } from '@pcas/values';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;

/** The queue settings by name, as stored (ISO 8601 durations), with the defaults the gateway seeds. */
export { QUEUE_SETTING_DEFAULTS };

export type QueueSettingName = keyof typeof QUEUE_SETTING_DEFAULTS;

/** The queue settings as the algorithms use them: milliseconds. */
export interface QueueSettings {
  /** Synchronisation point → berth (`queue_travel_duration_to_berth`). */
  travelToBerthMs: number;
  /** Width of the RTA window (`queue_rta_window_duration`). */
  rtaWindowMs: number;
  /** Kept free after a laytime (`queue_laytime_buffer_duration`). */
  laytimeBufferMs: number;
  /** How much later than the JIT ETA a live ETA may be and still be on time (`queue_live_eta_alert_buffer_duration`). */
  liveEtaAlertBufferMs: number;
  /** How long a live ETA may stay late (orange) before red and the alert mail (`queue_live_eta_alert_delay_duration`). */
  liveEtaAlertDelayMs: number;
  /** The longest laytime a slot request may have (`queue_max_laytime_duration`). */
  maxLaytimeMs: number;
}

/** Milliseconds as the shortest ISO duration in hours, minutes and seconds: `PT2H`, `PT1H30M`, `PT0S`. */
export function msToIsoDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (total === 0) return 'PT0S';
  return `PT${h > 0 ? `${h}H` : ''}${m > 0 ? `${m}M` : ''}${s > 0 ? `${s}S` : ''}`;
}

/**
 * The settings from stored values by name; a missing or unreadable value takes its default, so a bad row never
 * stops the queue (the settings API refuses bad values anyway).
 */
export function queueSettings(values: Partial<Record<string, string | null | undefined>> = {}): QueueSettings {
  return {
    travelToBerthMs: settingMs(values, 'queue_travel_duration_to_berth'),
    rtaWindowMs: settingMs(values, 'queue_rta_window_duration'),
    laytimeBufferMs: settingMs(values, 'queue_laytime_buffer_duration'),
    liveEtaAlertBufferMs: settingMs(values, 'queue_live_eta_alert_buffer_duration'),
    liveEtaAlertDelayMs: settingMs(values, 'queue_live_eta_alert_delay_duration'),
    maxLaytimeMs: settingMs(values, 'queue_max_laytime_duration'),
  };
}

function settingMs(values: Partial<Record<string, string | null | undefined>>, name: QueueSettingName): number {
  return isoDurationMs(values[name]) ?? (isoDurationMs(QUEUE_SETTING_DEFAULTS[name]) as number);
}

export const DEFAULT_QUEUE_SETTINGS: QueueSettings = Object.freeze(queueSettings());

const HH_MM = /^(\d+):([0-5]\d)$/;

/** A vessel's laytime `hh:mm` (hours ≥ 0, minutes 00–59) as the ISO duration the original stores (`PT{h}H{m}M`); undefined when not that form. */
export function laytimeFromHhMm(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const m = HH_MM.exec(text);
  if (!m) return undefined;
  return `PT${Number(m[1])}H${Number(m[2])}M`;
}

/** Milliseconds as `HH:MM` (hours may pass 24, seconds dropped), the form the slot request's page shows. */
export function msToHhMm(ms: number): string {
  const minutes = Math.floor(Math.abs(ms) / MINUTE_MS);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `${h < 10 ? `0${h}` : h}:${m < 10 ? `0${m}` : m}`;
}

/** An ISO laytime as `HH:MM`; undefined when not a duration. */
export function laytimeToHhMm(iso: unknown): string | undefined {
  const ms = isoDurationMs(iso);
  return ms === undefined ? undefined : msToHhMm(ms);
}

/** Epoch ms as `YYYY-MM-DDThh:mm:ss+00:00` (whole seconds), as the original writes times. */
export function isoUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
}

const offsetAt = (ms: number, timeZone: string): number => {
  const w = wallClock(ms, timeZone);
  return Date.UTC(w[0], w[1], w[2], w[3], w[4], w[5]) - Math.floor(ms / 1000) * 1000;
};

/**
 * The instant of a wall-clock time in `timeZone` (fields may overflow, as PHP's DateTime normalises them). A time
 * that a daylight-saving change skips is taken as the same distance after the change, as PHP does.
 */
function zonedInstant(timeZone: string, y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const asUtc = Date.UTC(y, mo, d, h, mi, s);
  const o1 = offsetAt(asUtc, timeZone);
  const o2 = offsetAt(asUtc - o1, timeZone);
  if (o1 === o2) return asUtc - o1;
  const o3 = offsetAt(asUtc - o2, timeZone);
  if (o2 === o3) return asUtc - o2;
  return asUtc - Math.min(o2, o3);
}

/** Earliest allowed window start: yesterday 00:00 in the server's zone. */
export function earliestWindowStart(now: number, timeZone: string): number {
  const [y, mo, d] = wallClock(now, timeZone);
  return zonedInstant(timeZone, y, mo, d - 1, 0, 0, 0);
}

/** Latest allowed window end: today 23:59:59 in the server's zone, plus one month and one day. */
export function latestWindowEnd(now: number, timeZone: string): number {
  const [y, mo, d] = wallClock(now, timeZone);
  return zonedInstant(timeZone, y, mo + 1, d + 1, 23, 59, 59);
}

/**
 * Whether a nomination's window is given: both dates or neither (an update may leave the window as it is).
 * One alone → 400 "Only one window date given"; the original checks this before the e-mail and the IMO.
 */
export function isWindowGiven(windowStart: unknown, windowEnd: unknown): boolean {
  const start = windowStart !== undefined && windowStart !== null;
  const end = windowEnd !== undefined && windowEnd !== null;
  if (start !== end) throw ApiError.badRequest('Only one window date given');
  return start;
}

/**
 * A nomination's window as the original checks it (after the e-mail and the IMO), in its order and with its
 * messages: both in ISO form, start not after end, start not before yesterday 00:00 and end not after today
 * 23:59:59 + 1 month + 1 day, both in the server's zone. Returns the window as epoch ms.
 */
export function checkNominationWindow(
  windowStart: unknown,
  windowEnd: unknown,
  now: number,
  timeZone: string,
): { start: number; end: number } {
  const start = parseAtom(windowStart);
  if (start === undefined) throw ApiError.badRequest(`Given window start is not in ISO format: ${String(windowStart)}`);
  const end = parseAtom(windowEnd);
  if (end === undefined) throw ApiError.badRequest(`Given window end is not in ISO format: ${String(windowEnd)}`);
  if (start > end) throw ApiError.badRequest('Window start must be before window end');
  if (earliestWindowStart(now, timeZone) > start) throw ApiError.badRequest('Window start must be after current date');
  if (end > latestWindowEnd(now, timeZone)) throw ApiError.badRequest('Window end can be maximum one month in advance');
  return { start, end };
}

export type NominationStatus = 'open' | 'reserved' | 'expired';

/** A nomination not yet expired whose window has ended (window end before now) expires. */
export function nominationExpires(status: NominationStatus, windowEnd: number, now: number): boolean {
  return status !== 'expired' && windowEnd < now;
}

export type SlotRequestStatus =
  | 'requested'
  | 'no_nomination'
  | 'no_free_slot'
  | 'offered'
  | 'accepted'
  | 'updated'
  | 'cancelled_by_vessel'
  | 'cancelled_by_port'
  | 'completed';

const COMPLETES_FROM_ETA: readonly SlotRequestStatus[] = ['requested', 'no_nomination', 'no_free_slot'];
const COMPLETES_FROM_RTA: readonly SlotRequestStatus[] = ['offered', 'accepted', 'updated'];

/** What auto-completion reads of a slot request (times as epoch ms). */
export interface CompletionInput {
  status: SlotRequestStatus;
  eta: number;
  rtaWindowStart: number | null;
  laytimeMs: number;
}

/**
 * When a slot request completes by itself: waiting ones (requested, no nomination, no free slot) once their ETA
 * has passed, offered/accepted/updated ones once their RTA window start has passed, and then only when now is
 * after (RTA window start, else ETA) + laytime + RTA window + travel + laytime buffer. Cancelled ones stay.
 */
export function slotRequestCompletes(request: CompletionInput, settings: QueueSettings, now: number): boolean {
  let due: number | null;
  if (COMPLETES_FROM_ETA.includes(request.status)) due = request.eta;
  else if (COMPLETES_FROM_RTA.includes(request.status)) due = request.rtaWindowStart;
  else return false;
  if (due === null || !(due < now)) return false;
  const from = request.rtaWindowStart ?? request.eta;
  const end = from + request.laytimeMs + settings.rtaWindowMs + settings.travelToBerthMs + settings.laytimeBufferMs;
  return now > end;
}
