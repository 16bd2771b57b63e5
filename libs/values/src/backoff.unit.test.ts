import { describe, expect, it } from 'vitest';
import { retryDelayMs } from './backoff.ts';

describe('retryDelayMs', () => {
  const policy = { baseMs: 250, maxMs: 8_000 };

  it('doubles after each failure in a row, up to the cap', () => {
    const top = (n: number) => retryDelayMs(n, policy, () => 1);
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(top)).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('waits between half and all of the step, so senders coming back do not knock together', () => {
    expect(retryDelayMs(3, policy, () => 0)).toBe(500);
    expect(retryDelayMs(3, policy, () => 0.5)).toBe(750);
    expect(retryDelayMs(0, policy, () => 1)).toBe(250);
  });
});
