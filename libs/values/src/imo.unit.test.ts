import { describe, expect, it } from 'vitest';
import { imoCheckDigit, imoProblem, imoWithCheckDigit, isValidImo } from './imo.ts';

describe('IMO numbers', () => {
  it.each([9074729, 1234567, 9201827, 9321483, 1000007])('accepts %i', (imo) => {
    expect(imoProblem(imo)).toBeNull();
    expect(isValidImo(imo)).toBe(true);
  });

  it.each([9074728, 9074720, 1234560, 1234568, 9999999])('rejects %i by the check digit', (imo) => {
    expect(imoProblem(imo)).toBe('check-digit');
    expect(isValidImo(imo)).toBe(false);
  });

  it.each([0, 123456, 999999, 10000000, 12345678, 100000001, -1234567, 1234567.5, Number.NaN])(
    'rejects %s by length',
    (imo) => {
      expect(imoProblem(imo)).toBe('length');
      expect(isValidImo(imo)).toBe(false);
    },
  );

  it('takes only numbers (an IMO as text is not one)', () => {
    for (const value of ['9074729', null, undefined, {}, [9074729]]) expect(isValidImo(value)).toBe(false);
  });

  it('appends the check digit to six digits', () => {
    expect(imoWithCheckDigit(907472)).toBe(9074729);
    expect(imoCheckDigit(123456)).toBe(7);
    for (let six = 100_000; six < 1_000_000; six += 7_919)
      expect(isValidImo(imoWithCheckDigit(six)), String(six)).toBe(true);
    // Leading zeros count as digits (a base below 100000 makes no seven-digit IMO, but its digit is the same rule's).
    expect(imoCheckDigit(1)).toBe(2);
  });
});
