import { describe, expect, it } from 'vitest';
import { isoInZone, isTimeZone, wallClock } from './zone-time.ts';

describe('wall-clock time in a zone', () => {
  it('writes an instant with the offset the zone has then, winter and summer', () => {
    expect(isoInZone(Date.parse('2020-02-23T20:15:00.900Z'), 'Europe/Helsinki')).toBe('2020-02-23T22:15:00+02:00');
    expect(isoInZone(Date.parse('2020-07-01T09:00:00Z'), 'Europe/Helsinki')).toBe('2020-07-01T12:00:00+03:00');
    expect(isoInZone(Date.parse('2020-07-01T09:00:00Z'), 'America/St_Johns')).toBe('2020-07-01T06:30:00-02:30');
    expect(isoInZone(Date.parse('2020-07-01T09:00:00Z'), 'UTC')).toBe('2020-07-01T09:00:00+00:00');
  });

  it('gives the wall clock with a zero-based month, midnight as hour 0', () => {
    expect(wallClock(Date.parse('2024-12-31T22:00:00Z'), 'Europe/Helsinki')).toEqual([2025, 0, 1, 0, 0, 0]);
  });

  it('knows real zones only', () => {
    expect(isTimeZone('Europe/Stockholm')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(() => isoInZone(0, 'Mars/Olympus')).toThrow(/Invalid time zone/);
  });
});
