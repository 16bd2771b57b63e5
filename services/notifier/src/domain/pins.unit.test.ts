import { describe, expect, it } from 'vitest';
import { checkPinnedVessels, decideSetPins, isPinnableImo, MAX_PINNED_VESSELS } from './pins.ts';

describe('checkPinnedVessels', () => {
  it('keeps a list of distinct IMOs in its order (checked seven-digit ones and made-up ones)', () => {
    expect(checkPinnedVessels([9074729, 100000001, 9201827])).toEqual([9074729, 100000001, 9201827]);
    expect(checkPinnedVessels([])).toEqual([]);
  });

  it.each([
    [{ 0: 9074729 }, 'vessel_ids should be a list of IMO numbers'],
    ['9074729', 'vessel_ids should be a list of IMO numbers'],
    [['9074729'], 'Invalid IMO: "9074729"'],
    [[9074729.5], 'Invalid IMO: 9074729.5'],
    [[9074728], 'Invalid IMO: 9074728'],
    [[123], 'Invalid IMO: 123'],
    [[0], 'Invalid IMO: 0'],
    [[-9074729], 'Invalid IMO: -9074729'],
    [[null], 'Invalid IMO: null'],
    [[{ imo: 9074729 }], 'Invalid IMO: {"imo":9074729}'],
    [[100000000 + 2 ** 31], `Invalid IMO: ${100000000 + 2 ** 31}`],
    [[9074729, 9201827, 9074729], 'Duplicate IMO: 9074729'],
  ])('refuses %j: %s', (value, message) => {
    expect(() => checkPinnedVessels(value)).toThrow(message);
  });

  it('refuses more than the maximum', () => {
    const many = Array.from({ length: MAX_PINNED_VESSELS + 1 }, (_, i) => 100_000_000 + i);
    expect(() => checkPinnedVessels(many)).toThrow(`Too many pinned vessels: at most ${MAX_PINNED_VESSELS}`);
    expect(checkPinnedVessels(many.slice(1))).toHaveLength(MAX_PINNED_VESSELS);
  });

  it('cuts a long value short in the message', () => {
    expect(() => checkPinnedVessels(['x'.repeat(1000)])).toThrow(`Invalid IMO: "${'x'.repeat(39)}…`);
  });

  it('knows the check digit', () => {
    expect(isPinnableImo(9074729)).toBe(true);
    expect(isPinnableImo(9074720)).toBe(false);
  });
});

describe('decideSetPins', () => {
  it('sets a changed list, in its order', () => {
    expect(decideSetPins(7, [9074729], [9201827, 9074729])).toEqual([
      { type: 'PinnedVesselsSet', data: { user_id: 7, imos: [9201827, 9074729] } },
    ]);
    expect(decideSetPins(7, [9074729, 9201827], [9201827, 9074729])).toHaveLength(1);
    expect(decideSetPins(7, [9074729], [])).toEqual([{ type: 'PinnedVesselsSet', data: { user_id: 7, imos: [] } }]);
  });

  it('decides nothing for the same list again', () => {
    expect(decideSetPins(7, [9074729, 9201827], [9074729, 9201827])).toEqual([]);
    expect(decideSetPins(7, [], [])).toEqual([]);
  });
});
