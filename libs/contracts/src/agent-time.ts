// The agent time formats (docs/domain.md#time-formats), one check for every agent endpoint (timestamps in ingest,
// gate passages in logistics): `YYYY-MM-DDThh:mm:ss` with an optional `.vvv` and then `Z`, `±hh:mm` or `±hhmm`.
// Stored as UTC `YYYY-MM-DDThh:mm:ss+00:00`, milliseconds dropped as the original does. Unlike the original (PHP
// rolls 2026-02-30 over to March 2) impossible dates are rejected.

import { ApiError } from '@pcas/errors';

const FORMAT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{3})?(?:Z|([+-])(\d{2}):?(\d{2}))$/;

export function invalidDateFormat(value: string): ApiError {
  return ApiError.badRequest(
    `Invalid date format: ${value}. ` +
      'Use format YYYY-MM-DDThh:mm:ssZ, e.g. 2019-01-30T07:00:00Z ' +
      'or YYYY-MM-DDThh:mm:ss+hh:mm, e.g. 2019-01-30T07:00:00+00:00 ' +
      'or YYYY-MM-DDThh:mm:ss+hhmm, e.g. 2019-01-30T07:00:00+0000 ' +
      'or YYYY-MM-DDThh:mm:ss.vvvZ, e.g. 2019-01-30T07:00:00.000Z ' +
      'or YYYY-MM-DDThh:mm:ss.vvv+hh:mm, e.g. 2019-01-30T07:00:00.000+00:00 ' +
      'or YYYY-MM-DDThh:mm:ss.vvv+hhmm, e.g. 2019-01-30T07:00:00.000+0000.',
  );
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `YYYY-MM-DDThh:mm:ss+00:00`, seconds precision (the original's ATOM format in UTC). */
export function formatUtc(date: Date): string {
  return (
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}+00:00`
  );
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
// Day 0 of the next month is the last day of this one; 2000 stands in for leap years, 2001 for the others.
const daysInMonth = (year: number, month: number) =>
  new Date(Date.UTC(isLeap(year) ? 2000 : 2001, month, 0)).getUTCDate();

/** Parses an agent time into a Date (whole seconds); throws ApiError 400 "Invalid date format: ...". */
export function parseAgentTime(value: string): Date {
  const m = FORMAT.exec(value);
  if (!m) throw invalidDateFormat(value);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const [sign, offHours, offMinutes] = [m[7], Number(m[8] ?? 0), Number(m[9] ?? 0)];
  if (
    year < 1 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    offHours > 23 ||
    offMinutes > 59
  ) {
    throw invalidDateFormat(value);
  }
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0–99 to 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const offsetMs = (offHours * 60 + offMinutes) * 60_000;
  const utc = new Date(date.getTime() - (sign === '-' ? -offsetMs : offsetMs));
  // An offset can push year 0001 or 9999 out of the four-digit range the stored format has.
  if (utc.getUTCFullYear() < 1 || utc.getUTCFullYear() > 9999) throw invalidDateFormat(value);
  return utc;
}

/** An agent time converted to the stored UTC form `YYYY-MM-DDThh:mm:ss+00:00`. */
export function toUtcTimestamp(value: string): string {
  return formatUtc(parseAgentTime(value));
}
