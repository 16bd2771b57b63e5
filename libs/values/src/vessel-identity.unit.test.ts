import { describe, expect, it } from 'vitest';
import { isMmsiFormat, postedVesselIdentity } from './vessel-identity.ts';

describe('an IMO or MMSI as posted', () => {
  it('is absent as null, empty text or zero', () => {
    for (const value of [undefined, null, '', 0, '0']) expect(postedVesselIdentity(value), String(value)).toBeNull();
  });

  it('is a whole number above zero, or its digits as text', () => {
    expect(postedVesselIdentity(230123456)).toBe(230123456);
    expect(postedVesselIdentity('230123456')).toBe(230123456);
    expect(postedVesselIdentity('007')).toBe(7);
  });

  it('is invalid otherwise', () => {
    for (const value of [-1, 1.5, '1.5', ' 1', '1e3', 'x', Number.MAX_SAFE_INTEGER + 1, '00', true, {}, []]) {
      expect(postedVesselIdentity(value), String(value)).toBe('invalid');
    }
  });
});

describe('the MMSI format', () => {
  it('is nine digits', () => {
    expect(isMmsiFormat(230123456)).toBe(true);
    expect(isMmsiFormat('002301234')).toBe(true);
    for (const value of [23012345, 2301234567, '23012345', '2301234567', '23012345x', 230123456.5, null]) {
      expect(isMmsiFormat(value), String(value)).toBe(false);
    }
  });
});
