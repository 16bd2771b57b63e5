// MMSI and IMO as a data source posts them (positions, fixed vessels), and the MMSI's own format.

/**
 * IMO or MMSI as posted: null when absent (undefined, null, '', 0, '0'); a whole number above zero (a JSON number
 * or its digits as text); anything else is 'invalid'. The original checks no more than this (no MMSI length).
 */
export function postedVesselIdentity(value: unknown): number | null | 'invalid' {
  if (value === undefined || value === null || value === '' || value === 0 || value === '0') return null;
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : 'invalid';
}

/**
 * An MMSI's format (ITU-R M.585): nine digits, leading zeros kept, as text or a number (a number loses leading
 * zeros, so only 100000000..999999999). No endpoint refuses an MMSI by this (the original took any whole number
 * above zero, postedVesselIdentity); it is for what shows or compares MMSIs.
 */
export function isMmsiFormat(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 100_000_000 && value <= 999_999_999;
  return typeof value === 'string' && /^\d{9}$/.test(value);
}
