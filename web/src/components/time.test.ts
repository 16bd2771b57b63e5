import { describe, expect, it } from 'vitest';
import { formatRelative, localInputToUtc, normaliseTime, toLocalInput } from './time.ts';

describe('times', () => {
  it('reads PostgreSQL text times and ISO times alike', () => {
    expect(new Date(normaliseTime('2026-11-22 06:50:00+00')).toISOString()).toBe('2026-11-22T06:50:00.000Z');
    expect(normaliseTime('2026-11-22T06:50:00+00:00')).toBe('2026-11-22T06:50:00+00:00');
  });

  it('sends a picked local time to the API in UTC and back', () => {
    const utc = localInputToUtc('2026-11-22T08:50')!;
    expect(utc).toMatch(/^2026-11-2\dT\d\d:50:00\+00:00$/);
    expect(toLocalInput(utc)).toBe('2026-11-22T08:50');
    expect(localInputToUtc('not a time')).toBeNull();
  });

  it('says how far a time is from now', () => {
    const now = Date.parse('2026-11-22T06:00:00Z');
    expect(formatRelative('2026-11-22T08:00:00Z', now)).toBe('in 2 hr.');
    expect(formatRelative('2026-11-22T05:55:00Z', now)).toBe('5 min. ago');
  });
});
