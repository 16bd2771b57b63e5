import { describe, expect, it } from 'vitest';
import {
  isIsoDuration,
  isoDurationFields,
  isoDurationMs,
  MONTH_HOURS,
  parseIsoDuration,
  YEAR_HOURS,
  ZERO_DURATION,
} from './duration.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

describe('ISO durations, as the settings API checks them', () => {
  it('accepts the ISO 8601 durations PHP DateInterval accepts, and nothing else', () => {
    for (const ok of ['PT30M', 'PT1H', 'PT2H', 'PT1H30M', 'P1D', 'P1DT12H', 'P1Y2M3W4DT5H6M7S', 'PT0M', 'PT90S']) {
      expect(isIsoDuration(ok), ok).toBe(true);
    }
    for (const bad of ['', 'P', 'PT', 'P1DT', 'PT1.5H', 'pt30m', 'PT30', '30M', 'PT-1H', 'P1H', 'PT1M1H', ' PT1H']) {
      expect(isIsoDuration(bad), bad).toBe(false);
    }
  });
});

describe('ISO durations', () => {
  it('take what PHP’s DateInterval takes', () => {
    for (const ok of ['PT30M', 'PT1H', 'PT1H30M', 'P1D', 'P1DT12H', 'PT0M', 'PT90S', 'P1W', 'P1Y2M3W4DT5H6M7S']) {
      expect(parseIsoDuration(ok), ok).toBeDefined();
    }
    for (const bad of ['', 'P', 'PT', 'P1DT', '30M', 'PT1.5H', 'pt30m', 'PT-1H', 'PT1M1H', ' PT1H', 7, null]) {
      expect(parseIsoDuration(bad), String(bad)).toBeUndefined();
    }
  });

  it('in milliseconds, weeks as 7 days, months and years as 731 and 8,766 hours (as the original renders them)', () => {
    expect(isoDurationMs('PT1H30M')).toBe(90 * MINUTE_MS);
    expect(isoDurationMs('P1W1DT1S')).toBe(8 * 24 * HOUR_MS + 1000);
    expect(isoDurationMs('P1Y1M')).toBe((8766 + 731) * HOUR_MS);
    expect(isoDurationMs('nope')).toBeUndefined();
  });
});

describe('durations read again', () => {
  it('give what they gave the first time, also past the texts kept', () => {
    const texts = Array.from({ length: 2_500 }, (_, i) =>
      i % 3 === 0 ? `PT${i}M` : i % 3 === 1 ? `P${i}DT1H` : `x${i}`,
    );
    const first = texts.map((t) => isoDurationMs(t));
    expect(first.slice(0, 3)).toEqual([0, (24 + 1) * HOUR_MS, undefined]);
    for (let round = 0; round < 2; round++) expect(texts.map((t) => isoDurationMs(t))).toEqual(first);
    expect(texts.map((t) => isoDurationMs(t)).reverse()).toEqual([...first].reverse());
    expect(isoDurationMs(undefined)).toBeUndefined();
    expect(isoDurationMs(30)).toBeUndefined();
  });
});

describe('ISO durations as written', () => {
  it('keep weeks apart and leave out what was not written', () => {
    expect(isoDurationFields('P1W2DT0S')).toEqual({ weeks: 1, days: 2, seconds: 0 });
    expect(isoDurationFields('P1Y2M3W4DT5H6M7S')).toEqual({
      years: 1,
      months: 2,
      weeks: 3,
      days: 4,
      hours: 5,
      minutes: 6,
      seconds: 7,
    });
    expect(isoDurationFields('PT')).toBeUndefined();
    expect(isoDurationFields(7)).toBeUndefined();
  });

  it('count weeks into days when read as parts; the fixed lengths are the original’s', () => {
    expect(parseIsoDuration('P1W2DT3H4M5S')).toEqual({ ...ZERO_DURATION, days: 9, hours: 3, minutes: 4, seconds: 5 });
    for (const bad of ['', 'P', 'PT', '6H', 'P1.5D', '-PT1H']) expect(parseIsoDuration(bad)).toBeUndefined();
    expect(parseIsoDuration('PT0S')).toEqual(ZERO_DURATION);
    expect([YEAR_HOURS, MONTH_HOURS]).toEqual([8766, 731]);
  });
});
