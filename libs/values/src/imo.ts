// IMO numbers as the original checks them (docs/domain.md#imo-numbers): seven digits whose last digit is the last
// digit of the weighted sum of the first six (weights 7..2).

/** Why a number is not an IMO: not a seven-digit whole number, or a wrong check digit. */
export type ImoProblem = 'length' | 'check-digit';

/** The check digit of an IMO's first six digits (0..999999, leading zeros counted as digits). */
export function imoCheckDigit(six: number): number {
  const digits = String(six).padStart(6, '0');
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(digits[i]) * (7 - i);
  return sum % 10;
}

/** Six digits with their check digit appended: `imoWithCheckDigit(907472)` is 9074729 (for test data and benchmarks). */
export const imoWithCheckDigit = (six: number): number => six * 10 + imoCheckDigit(six);

/** What is wrong with `imo` as an IMO number, or null when it is one. */
export function imoProblem(imo: unknown): ImoProblem | null {
  if (typeof imo !== 'number' || !Number.isInteger(imo) || imo < 1_000_000 || imo > 9_999_999) return 'length';
  return imoCheckDigit(Math.floor(imo / 10)) === imo % 10 ? null : 'check-digit';
}

/** A seven-digit IMO number with the right check digit. */
export function isValidImo(imo: unknown): imo is number {
  return imoProblem(imo) === null;
}
