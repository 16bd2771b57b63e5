import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WakeThrottle } from './wake.ts';

describe('WakeThrottle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets the first append of each window notify in its own transaction', () => {
    const throttle = new WakeThrottle(10, async () => {});
    expect(throttle.claim()).toBe(true);
    expect(throttle.claim()).toBe(false);
    vi.advanceTimersByTime(9);
    expect(throttle.claim()).toBe(false);
    vi.advanceTimersByTime(1);
    expect(throttle.claim()).toBe(true);
  });

  it('follows appends that did not notify with one trailing NOTIFY at the end of the window', async () => {
    const notify = vi.fn(async () => {});
    const throttle = new WakeThrottle(10, notify);
    expect(throttle.claim()).toBe(true);
    vi.advanceTimersByTime(3);
    for (let i = 0; i < 5; i++) {
      expect(throttle.claim()).toBe(false);
      throttle.committedWithoutNotify();
    }
    vi.advanceTimersByTime(6);
    expect(notify).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(notify).toHaveBeenCalledTimes(1);
    // The trailing NOTIFY opened a new window.
    expect(throttle.claim()).toBe(false);
    vi.advanceTimersByTime(10);
    expect(throttle.claim()).toBe(true);
  });

  it('notifies on every append with 0 and never with a negative interval', () => {
    const notify = vi.fn(async () => {});
    const every = new WakeThrottle(0, notify);
    expect([every.claim(), every.claim()]).toEqual([true, true]);
    const never = new WakeThrottle(-1, notify);
    expect(never.claim()).toBe(false);
    never.committedWithoutNotify();
    vi.advanceTimersByTime(1_000);
    expect(notify).not.toHaveBeenCalled();
  });
});
