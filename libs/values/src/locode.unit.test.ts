import { describe, expect, it } from 'vitest';
import { isUnLocode } from './locode.ts';

describe('UN/LOCODE', () => {
  it('is two letters and three letters or digits 2-9', () => {
    for (const ok of ['FIRAU', 'SEGVX', 'SEKAS', 'US2NY', 'GB999']) expect(isUnLocode(ok), ok).toBe(true);
    for (const bad of ['firau', 'FIRA', 'FIRAUX', 'FI RAU', 'F1RAU', 'FIRA0', 'FIRA1', ' FIRAU', 'ÅÄRAU', '', 12345]) {
      expect(isUnLocode(bad), String(bad)).toBe(false);
    }
  });
});
