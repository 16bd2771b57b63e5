// Times as a person in the port reads them: in the browser's time zone, day.month.year hours:minutes (the
// original's format), with a relative form ("in 2 h", "5 min ago") for the timeline.

const absolute = new Intl.DateTimeFormat(undefined, {
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' });

/** `22.11.2026 06:50` in the browser's zone; an empty string for no time, the text itself when unparsable. */
export function formatTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(typeof value === 'number' ? value : normaliseTime(value));
  if (Number.isNaN(date.getTime())) return String(value);
  return absolute.format(date).replace(',', '');
}

/** `in 2 hr`, `5 min ago`, relative to `now`. */
export function formatRelative(value: string | null | undefined, now: number = Date.now()): string {
  if (!value) return '';
  const time = new Date(normaliseTime(value)).getTime();
  if (Number.isNaN(time)) return '';
  const seconds = Math.round((time - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return relative.format(seconds, 'second');
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400 * 2) return relative.format(Math.round(seconds / 3600), 'hour');
  return relative.format(Math.round(seconds / 86400), 'day');
}

/** PostgreSQL's `2026-11-22 06:50:00+00` is not ISO enough for every browser's Date. */
export function normaliseTime(value: string): string {
  return value.replace(/^(\d{4}-\d\d-\d\d) (\d)/, '$1T$2').replace(/([+-]\d\d)$/, '$1:00');
}

/** The value of a `datetime-local` input (browser's zone) as the API's UTC form `YYYY-MM-DDTHH:mm:ss+00:00`. */
export function localInputToUtc(value: string): string | null {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  return `${date.toISOString().slice(0, 19)}+00:00`;
}

/** A time as the value of a `datetime-local` input, in the browser's zone. */
export function toLocalInput(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = value instanceof Date ? value : new Date(normaliseTime(value));
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}
