// Wall-clock time in an IANA time zone, for what the original showed or computed in the port's (or the server's)
// zone: timesheets, the nomination window's day limits, times in e-mails. Intl does the zone rules; the formats
// are kept per zone (bounded: the names a caller can make up are endless, the zones that exist are not).

const zoneFormats = new Map<string, Intl.DateTimeFormat | null>();

function zoneFormat(zone: string): Intl.DateTimeFormat | null {
  let format = zoneFormats.get(zone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
      });
    } catch {
      format = null;
    }
    if (format !== null || zoneFormats.size < 1_000) zoneFormats.set(zone, format);
  }
  return format;
}

/** Whether the IANA time zone exists (what PHP's DateTimeZone accepts, near enough). */
export const isTimeZone = (zone: unknown): zone is string =>
  typeof zone === 'string' && zone.trim() !== '' && zone.length <= 64 && zoneFormat(zone) !== null;

/** The wall clock of an instant in a zone: [year, month 0–11, day, hour, minute, second]. Throws for an unknown zone. */
export function wallClock(ms: number, zone: string): [number, number, number, number, number, number] {
  const format = zoneFormat(zone);
  if (format === null) throw new RangeError(`Invalid time zone: ${zone}`);
  const parts: Record<string, number> = {};
  for (const p of format.formatToParts(ms)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return [parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second];
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An instant (whole seconds) as ISO 8601 local time of the zone with its offset, e.g. `2020-02-23T22:15:00+02:00`
 * (PHP's ATOM format). Throws for an unknown zone.
 */
export function isoInZone(ms: number, zone: string): string {
  const seconds = Math.floor(ms / 1000) * 1000;
  const [y, mo, d, h, mi, s] = wallClock(seconds, zone);
  const offset = Math.round((Date.UTC(y, mo, d, h, mi, s) - seconds) / 60_000);
  const abs = Math.abs(offset);
  const sign = offset < 0 ? '-' : '+';
  return `${y}-${pad(mo + 1)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
