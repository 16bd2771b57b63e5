// ISO 8601 durations in the one grammar the original's PHP DateInterval accepts: whole numbers, designators in
// order (Y M W D, then T H M S), at least one of them, a `T` only before a time part. PHP 8 accepts weeks together
// with days, so this does too. No sign, no fractions, no lower case, no blanks.

const ISO_DURATION =
  /^P(?!$)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

/** A duration's parts as written; weeks are counted into days (as DateInterval does). */
export interface IsoDuration {
  years: number;
  months: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** The designators a duration was written with (undefined: not written); weeks kept apart, for showing it. */
export interface IsoDurationFields {
  years?: number;
  months?: number;
  weeks?: number;
  days?: number;
  hours?: number;
  minutes?: number;
  seconds?: number;
}

export const ZERO_DURATION: IsoDuration = Object.freeze({
  years: 0,
  months: 0,
  days: 0,
  hours: 0,
  minutes: 0,
  seconds: 0,
});

/** A duration DateInterval accepts, e.g. `PT30M`, `PT1H30M`, `P1D`, `P1W2D`; false for anything not a string. */
export function isIsoDuration(text: unknown): boolean {
  return typeof text === 'string' && ISO_DURATION.test(text);
}

// A module-level helper, not a closure per call: the build names every closure it creates (a property write each).
const part = (m: RegExpExecArray, i: number): number => (m[i] === undefined ? 0 : Number(m[i]));
const field = (m: RegExpExecArray, i: number): number | undefined => (m[i] === undefined ? undefined : Number(m[i]));

/** `PT30M`, `PT1H30M`, `P1D` … as parts; undefined when the original would not take it. */
export function parseIsoDuration(text: unknown): IsoDuration | undefined {
  if (typeof text !== 'string') return undefined;
  const m = ISO_DURATION.exec(text);
  if (!m) return undefined;
  return {
    years: part(m, 1),
    months: part(m, 2),
    days: part(m, 3) * 7 + part(m, 4),
    hours: part(m, 5),
    minutes: part(m, 6),
    seconds: part(m, 7),
  };
}

/** The designators as written (weeks apart from days); undefined when the original would not take it. */
export function isoDurationFields(text: unknown): IsoDurationFields | undefined {
  if (typeof text !== 'string') return undefined;
  const m = ISO_DURATION.exec(text);
  if (!m) return undefined;
  const fields: IsoDurationFields = {};
  const names = ['years', 'months', 'weeks', 'days', 'hours', 'minutes', 'seconds'] as const;
  for (let i = 0; i < names.length; i++) {
    const value = field(m, i + 1);
    if (value !== undefined) fields[names[i]] = value;
  }
  return fields;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** A year as 8,766 hours and a month as 731 (365.25 and 30.4375 days), the lengths the original's `HH:MM` gives them. */
export const YEAR_HOURS = 8766;
export const MONTH_HOURS = 731;

/** Durations read before, by text (cleared when it reaches DURATIONS_KEPT). */
const durationsMs = new Map<string, number | undefined>();
const DURATIONS_KEPT = 1000;

/**
 * A duration as a fixed number of milliseconds, or undefined when not one. Years and months take fixed lengths
 * (YEAR_HOURS, MONTH_HOURS): for a length that does not depend on the calendar (the queue's search, laytimes).
 * To add a duration to a time the calendar way use the parts (parseIsoDuration).
 */
export function isoDurationMs(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  // Settings and laytimes are a few texts read on every decision: each is parsed once.
  if (durationsMs.has(text)) return durationsMs.get(text);
  const d = parseIsoDuration(text);
  const ms =
    d === undefined
      ? undefined
      : (d.years * YEAR_HOURS + d.months * MONTH_HOURS + d.days * 24 + d.hours) * HOUR_MS +
        d.minutes * MINUTE_MS +
        d.seconds * 1000;
  if (durationsMs.size >= DURATIONS_KEPT) durationsMs.clear();
  durationsMs.set(text, ms);
  return ms;
}
