// UN/LOCODE (UNECE Recommendation 16): two letters of the country (ISO 3166-1 alpha-2), three of the place,
// letters or digits 2-9 (0 and 1 are never used, so they are not confused with O and I).

const LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;

/** Five characters in the UN/LOCODE form, upper case, no space (`FIRAU`, `SEGVX`). */
export function isUnLocode(code: unknown): code is string {
  return typeof code === 'string' && LOCODE.test(code);
}
