// Time formats and durations as the port-call rules use them (docs/domain.md#time-formats). Every
// stored time is UTC `YYYY-MM-DDThh:mm:ss+00:00`; these strings sort in time order and parse with Date.parse.

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

const ATOM = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})([+-])(\d{2}):(\d{2})$/;

/**
 * The original's strict date check (`DateTools::isValidIsoDateTime`): the string must be exactly
 * `YYYY-MM-DDThh:mm:ss±hh:mm` and a real calendar time. Returns epoch ms, or undefined when invalid.
 */
export function parseStrictIso(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = ATOM.exec(value);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s, sign, oh, om] = [
    Number(m[1]),
    Number(m[2]),
    Number(m[3]),
    Number(m[4]),
    Number(m[5]),
    Number(m[6]),
    m[7],
    Number(m[8]),
    Number(m[9]),
  ];
  if (h > 23 || mi > 59 || s > 59 || om > 59 || oh > 23) return undefined;
  const local = Date.UTC(y, mo - 1, d, h, mi, s);
  const back = new Date(local);
  // A round trip rejects dates such as 2019-02-30 that a lenient parser would roll over.
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined;
  const offset = (sign === '-' ? -1 : 1) * (oh * 60 + om) * MINUTE_MS;
  return local - offset;
}

/** An ISO 8601 duration as PHP's DateInterval reads it: calendar parts, no fractions, no sign. */
export interface IsoDuration {
  years: number;
  months: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

export const ZERO_DURATION: IsoDuration = Object.freeze({
  years: 0,
  months: 0,
  days: 0,
  hours: 0,
  minutes: 0,
  seconds: 0,
});

const DURATION = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

/** `PT6H`, `P1D`, `P1DT12H` … ; undefined when not a duration. */
export function parseIsoDuration(value: string | undefined): IsoDuration | undefined {
  if (!value) return undefined;
  const m = DURATION.exec(value.trim());
  if (!m || value.trim() === 'P' || value.trim().endsWith('T')) return undefined;
  const n = (i: number) => (m[i] === undefined ? 0 : Number(m[i]));
  return {
    years: n(1),
    months: n(2),
    days: n(3) * 7 + n(4),
    hours: n(5),
    minutes: n(6),
    seconds: n(7),
  };
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
