// PHP's DATE_ATOM, the original's strict date-time form (`DateTools::isValidIsoDateTime`): exactly
// `YYYY-MM-DDThh:mm:ss±hh:mm`, a real calendar time. The agents' looser forms are @pcas/contracts' parseAgentTime.

const MINUTE_MS = 60_000;

/** The two ASCII digits at `i`, or -1 when either is not one. */
function twoDigits(text: string, i: number): number {
  const a = text.charCodeAt(i) - 48;
  const b = text.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * `YYYY-MM-DDThh:mm:ss±hh:mm`, a real calendar time, as epoch ms; else undefined. Read by character codes, not a
 * regular expression: every reservation time of a berth's calendar goes through here on each placement.
 *
 * Years 0000-0099 are read as 1900-1999 (Date.UTC's two-digit years); a caller that must refuse them says so
 * (the port-call projector's parseStrictIso).
 */
export function parseAtom(text: unknown): number | undefined {
  if (typeof text !== 'string' || text.length !== 25) return undefined;
  const sign = text.charCodeAt(19);
  if (
    text.charCodeAt(4) !== 45 || // -
    text.charCodeAt(7) !== 45 ||
    text.charCodeAt(10) !== 84 || // T
    text.charCodeAt(13) !== 58 || // :
    text.charCodeAt(16) !== 58 ||
    text.charCodeAt(22) !== 58 ||
    (sign !== 43 && sign !== 45) // + or -
  ) {
    return undefined;
  }
  const y1 = twoDigits(text, 0);
  const y2 = twoDigits(text, 2);
  const mo = twoDigits(text, 5);
  const d = twoDigits(text, 8);
  const h = twoDigits(text, 11);
  const mi = twoDigits(text, 14);
  const s = twoDigits(text, 17);
  const oh = twoDigits(text, 20);
  const om = twoDigits(text, 23);
  if (y1 < 0 || y2 < 0 || d < 0 || s < 0) return undefined;
  if (mo < 1 || mo > 12 || h < 0 || h > 23 || mi < 0 || mi > 59 || s > 59 || oh < 0 || oh > 23 || om < 0 || om > 59) {
    return undefined;
  }
  const local = Date.UTC(y1 * 100 + y2, mo - 1, d, h, mi, s);
  // Days 1–28 exist in every month; others (0 and 29–99) are checked against the calendar as Date.UTC rolls them.
  if ((d < 1 || d > 28) && new Date(local).getUTCDate() !== d) return undefined;
  return local - (sign === 45 ? -1 : 1) * (oh * 60 + om) * MINUTE_MS;
}
