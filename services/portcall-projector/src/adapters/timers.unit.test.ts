// Which moved timers touch their jobs: a timer moved later keeps the job already waiting before it (its early
// firing arms the next due time then, see fireTimer), everything else cancels and arms as before.

import type { DelayedJobs } from '@pcas/jobs';
import { createLogger } from '@pcas/observability';
import { describe, expect, it } from 'vitest';
import { ARMED_AHEAD_MS, armTimers, needsArming, timerJobId } from './timers.ts';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const at = (ms: number) => new Date(NOW + ms).toISOString();
const HOUR = 3_600_000;

describe('needsArming', () => {
  it('a first timer, a cleared one and one moved earlier are armed', () => {
    expect(needsArming({ imo: 1, previous: null, next: at(HOUR) }, NOW)).toBe(true);
    expect(needsArming({ imo: 1, previous: at(HOUR), next: null }, NOW)).toBe(true);
    expect(needsArming({ imo: 1, previous: at(2 * HOUR), next: at(HOUR) }, NOW)).toBe(true);
  });

  it('a timer moved later while its previous due time is well ahead keeps the waiting job', () => {
    expect(needsArming({ imo: 1, previous: at(HOUR), next: at(2 * HOUR) }, NOW)).toBe(false);
    expect(needsArming({ imo: 1, previous: at(ARMED_AHEAD_MS + 1), next: at(HOUR) }, NOW)).toBe(false);
  });

  it('a timer moved later from a due time passed or close (the job that fired moved it) is armed', () => {
    expect(needsArming({ imo: 1, previous: at(-1_000), next: at(HOUR) }, NOW)).toBe(true);
    expect(needsArming({ imo: 1, previous: at(ARMED_AHEAD_MS), next: at(HOUR) }, NOW)).toBe(true);
  });
});

describe('armTimers', () => {
  it('touches only the jobs of the timers that need it', async () => {
    const calls: string[] = [];
    const jobs = {
      kind: 'in-process',
      schedule: async (id: string) => void calls.push(`schedule ${id}`),
      cancel: async (id: string) => void calls.push(`cancel ${id}`),
      close: async () => {},
    } as unknown as DelayedJobs;
    const soon = new Date(Date.now() + 1_000).toISOString();
    const later = new Date(Date.now() + 10 * HOUR).toISOString();
    const latest = new Date(Date.now() + 20 * HOUR).toISOString();
    await armTimers(
      jobs,
      [
        { imo: 1, previous: null, next: later },
        { imo: 2, previous: later, next: latest },
        { imo: 3, previous: soon, next: later },
      ],
      createLogger('timers-test', 'silent'),
    );
    expect(calls).toEqual([
      `schedule ${timerJobId(1, later)}`,
      `cancel ${timerJobId(3, soon)}`,
      `schedule ${timerJobId(3, later)}`,
    ]);
  });
});
