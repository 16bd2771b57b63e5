import { describe, expect, it } from 'vitest';
import { assertValidImo, FAKE_IMO_BASE, fakeImo } from './imo.ts';

// Which numbers are IMOs is @pcas/values' (libs/values/src/imo.unit.test.ts); here, the original's messages.
const LENGTH = 'IMO length should 7 digits or IMO should be 0';
const CHECK = 'IMO number is not valid (automatic check calculation)';

describe('IMO check', () => {
  it.each([9074729, 1234567, 9201827, 9321483, 1000007])('accepts %i', (imo) => {
    expect(() => assertValidImo(imo)).not.toThrow();
  });

  it.each([9074728, 9074720, 1234560, 1234568, 9999999])('rejects %i by the check digit', (imo) => {
    expect(() => assertValidImo(imo)).toThrow(CHECK);
  });

  it.each([0, 123456, 999999, 10000000, 12345678, 100000001, -1234567, 1234567.5])('rejects %s by length', (imo) => {
    expect(() => assertValidImo(imo)).toThrow(LENGTH);
  });

  it('throws 400 ApiErrors', () => {
    try {
      assertValidImo(1234568);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ name: 'ApiError', status: 400, message: CHECK });
    }
  });

  it('makes fake IMOs from the vessels row id, beyond any real IMO', () => {
    expect(FAKE_IMO_BASE).toBe(100000000);
    expect(fakeImo(1)).toBe(100000001);
    expect(fakeImo(42)).toBe(100000042);
    expect(() => assertValidImo(fakeImo(1))).toThrow(LENGTH);
  });
});
