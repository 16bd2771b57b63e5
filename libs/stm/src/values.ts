// Checks and conversions of attribute and element values shared by the two formats.

import { formatUtc } from '@pcas/contracts';
import { StmFormatError } from './errors.ts';

/** A decimal number (xs:decimal / xs:double lexical form); throws StmFormatError naming `what` otherwise. */
export function toNumber(value: string | undefined, what: string): number {
  const text = value?.trim() ?? '';
  const n = text === '' ? Number.NaN : Number(text);
  if (!Number.isFinite(n)) throw new StmFormatError(`${what} is not a number: ${value ?? ''}`);
  return n;
}

export function optionalNumber(value: string | undefined, what: string): number | undefined {
  return value === undefined || value.trim() === '' ? undefined : toNumber(value, what);
}

export function toLatitude(value: string | undefined, what: string): number {
  const n = toNumber(value, what);
  if (n < -90 || n > 90) throw new StmFormatError(`${what} is out of range: ${value}`);
  return n;
}

export function toLongitude(value: string | undefined, what: string): number {
  const n = toNumber(value, what);
  if (n < -180 || n > 180) throw new StmFormatError(`${what} is out of range: ${value}`);
  return n;
}

// xs:dateTime: date, time, optional fraction of any length, optional zone (a value, not XML, is matched here).
const DATE_TIME = /^(-?\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * An xs:dateTime as a Date (a time without a zone is read as UTC, as STM requires UTC); throws StmFormatError
 * naming `what` when it is not one (impossible dates such as February 30 included).
 */
export function toDate(value: string | undefined, what: string): Date {
  const m = DATE_TIME.exec(value?.trim() ?? '');
  if (m) {
    const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
    const millis = Math.floor(Number(`0${m[7] ?? ''}`) * 1000);
    const local = new Date(0);
    local.setUTCFullYear(year, month - 1, day);
    local.setUTCHours(hour, minute, second, millis);
    // setUTCFullYear rolls an impossible date over to the next month; the components tell.
    if (local.getUTCMonth() === month - 1 && local.getUTCDate() === day && hour < 24 && minute < 60 && second < 60) {
      const zone = m[8] ?? 'Z';
      const offsetMinutes =
        zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
      return new Date(local.getTime() - offsetMinutes * 60_000);
    }
  }
  throw new StmFormatError(`${what} is not a valid date and time: ${value ?? ''}`);
}

/** An xs:dateTime in the stored UTC form `YYYY-MM-DDThh:mm:ss+00:00` (seconds precision, as everywhere else). */
export function toUtc(value: string | undefined, what: string): string {
  return formatUtc(toDate(value, what));
}

/** Whole seconds as an xs:duration (`PT1H30M`, `PT0S`); negative durations are written with a leading minus. */
export function secondsToDuration(totalSeconds: number): string {
  const sign = totalSeconds < 0 ? '-' : '';
  let s = Math.round(Math.abs(totalSeconds));
  const days = Math.floor(s / 86_400);
  s -= days * 86_400;
  const hours = Math.floor(s / 3600);
  s -= hours * 3600;
  const minutes = Math.floor(s / 60);
  s -= minutes * 60;
  let out = `${sign}P${days > 0 ? `${days}D` : ''}T`;
  if (hours > 0) out += `${hours}H`;
  if (minutes > 0) out += `${minutes}M`;
  if (s > 0 || (hours === 0 && minutes === 0)) out += `${s}S`;
  return out;
}
