import { describe, expect, it } from 'vitest';
import { locodeCoordinates } from './unlocode.ts';

describe('UN/LOCODE coordinates from the bundled lists', () => {
  it("reads the original's examples, quoted names included, and nothing for unknown codes", async () => {
    expect(await locodeCoordinates('FIRAU')).toEqual({ lat: 61.1333, lon: 21.5 });
    expect(await locodeCoordinates('ausyd')).toEqual({ lat: -33.85, lon: 151.2 });
    expect(await locodeCoordinates('USNYC')).toEqual({ lat: 40.7, lon: -74 });
    expect(await locodeCoordinates('FXRAU')).toBeUndefined();
    expect(await locodeCoordinates('12345')).toBeUndefined();
  });
});
