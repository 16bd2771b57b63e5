// Time formats and durations as the port-call rules use them (docs/domain.md#time-formats). Every
// stored time is UTC `YYYY-MM-DDThh:mm:ss+00:00`; these strings sort in time order and parse with Date.parse.

import { type IsoDuration, parseAtom, ZERO_DURATION } from '@pcas/values';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

/** Epoch milliseconds → `YYYY-MM-DDThh:mm:ss+00:00` (whole seconds, as the original stores them). */
export function isoUtc(ms: number): string {
  if (!inFastRange(ms)) return `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
  return `${secondsOf(ms)}+00:00`;
}

// The largest time whose year has four digits (9999-12-31T23:59:59.999Z); beyond, toISOString writes six.
const LAST_FOUR_DIGIT_MS = 253_402_300_799_999;

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

const inFastRange = (ms: number) => ms >= 0 && ms <= LAST_FOUR_DIGIT_MS && Number.isInteger(ms);

/**
 * `Date#toISOString` (`YYYY-MM-DDThh:mm:ss.sssZ`), written out directly for years 1970 to 9999: a replay formats
 * millions of times, and the built-in goes through a printf. Other times (and invalid ones) take the built-in.
 */
export function isoMs(ms: number): string {
  if (!inFastRange(ms)) return new Date(ms).toISOString();
  return `${secondsOf(ms)}.${pad3(ms % 1000)}Z`;
}

/** `YYYY-MM-DDThh:mm:ss` of a time in the fast range (both formats above start so; no slice of a built string). */
function secondsOf(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  let rest = ms - days * DAY_MS;
  const hour = Math.floor(rest / HOUR_MS);
  rest -= hour * HOUR_MS;
  const minute = Math.floor(rest / MINUTE_MS);
  rest -= minute * MINUTE_MS;
  const second = Math.floor(rest / 1000);
  // Civil date from days since 1970-01-01 (proleptic Gregorian, eras of 400 years: H. Hinnant's algorithm).
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${pad2(month)}-${pad2(day)}T${pad2(hour)}:${pad2(minute)}:${pad2(second)}`;
}

export const toMs = (iso: string): number => Date.parse(iso);

/** The PostgreSQL text form the original's raw rows carry: `2020-02-23 20:15:00+00`. */
export function dbText(iso: string | null | undefined): string {
  if (!iso) return '';
  return `${isoUtc(toMs(iso)).slice(0, 19).replace('T', ' ')}+00`;
}

/**
 * The original's strict date check (`DateTools::isValidIsoDateTime`): the string must be exactly
 * `YYYY-MM-DDThh:mm:ss±hh:mm` and a real calendar time. Returns epoch ms, or undefined when invalid.
 *
 * @pcas/values' parseAtom, but refusing the years 0000-0099, as this service always has (its regular expression's
 * round trip through Date.UTC, which reads them as 1900-1999, never matched); the queue takes them as 19xx. Both
 * are kept as they were: an endpoint answers as before.
 */
export function parseStrictIso(value: unknown): number | undefined {
  if (typeof value === 'string' && value.startsWith('00')) return undefined;
  return parseAtom(value);
}

/** Adds (sign 1) or subtracts (sign -1) a duration the calendar way, as PHP's DateTime::add/sub. */
export function shiftMs(ms: number, d: IsoDuration, sign: 1 | -1): number {
  if (d === ZERO_DURATION) return ms;
  const t = new Date(ms);
  return Date.UTC(
    t.getUTCFullYear() + sign * d.years,
    t.getUTCMonth() + sign * d.months,
    t.getUTCDate() + sign * d.days,
    t.getUTCHours() + sign * d.hours,
    t.getUTCMinutes() + sign * d.minutes,
    t.getUTCSeconds() + sign * d.seconds,
    t.getUTCMilliseconds(),
  );
}
