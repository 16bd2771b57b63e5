// Which job operations a moved timer makes: only due times within the arming horizon have jobs (the sweep arms
// the later ones as they come near), so a timer moved far ahead touches no job.

import type { DelayedJobs } from '@pcas/jobs';
import { createLogger } from '@pcas/observability';
import { describe, expect, it } from 'vitest';
import { ARM_AHEAD_MS, armHorizonMs, armTimers, timerJobId, timerJobs } from './timers.ts';

const NOW = Date.parse('2026-11-27T12:00:00Z');
const at = (ms: number) => new Date(NOW + ms).toISOString();
const DAY = 86_400_000;

describe('timerJobs', () => {
  it('a near due time is armed; a near previous one cancelled', () => {
    expect(timerJobs({ imo: 1, previous: null, next: at(60_000) }, NOW)).toEqual({ cancel: null, arm: at(60_000) });
    expect(timerJobs({ imo: 1, previous: at(ARM_AHEAD_MS), next: at(1_000) }, NOW)).toEqual({
      cancel: at(ARM_AHEAD_MS),
      arm: at(1_000),
    });
    expect(timerJobs({ imo: 1, previous: at(-5_000), next: null }, NOW)).toEqual({ cancel: at(-5_000), arm: null });
  });

  it('a due time beyond the horizon has no job: moving it later or to it touches nothing', () => {
    expect(timerJobs({ imo: 1, previous: at(30 * DAY), next: at(31 * DAY) }, NOW)).toEqual({ cancel: null, arm: null });
    expect(timerJobs({ imo: 1, previous: null, next: at(ARM_AHEAD_MS + 1) }, NOW)).toEqual({ cancel: null, arm: null });
    expect(timerJobs({ imo: 1, previous: at(60_000), next: at(30 * DAY) }, NOW)).toEqual({
      cancel: at(60_000),
      arm: null,
    });
  });

  it('the horizon covers two sweeps at least', () => {
    expect(armHorizonMs(60_000)).toBe(ARM_AHEAD_MS);
    expect(armHorizonMs(3_600_000)).toBe(7_200_000);
    expect(timerJobs({ imo: 1, previous: null, next: at(DAY) }, NOW, 2 * DAY).arm).toBe(at(DAY));
  });
});

describe('armTimers', () => {
  it('makes the job operations of each change', async () => {
    const calls: string[] = [];
    const jobs = {
      kind: 'in-process',
      schedule: async (id: string) => void calls.push(`schedule ${id}`),
      cancel: async (id: string) => void calls.push(`cancel ${id}`),
      close: async () => {},
    } as unknown as DelayedJobs;
    const soon = new Date(Date.now() + 1_000).toISOString();
    const later = new Date(Date.now() + 10_000).toISOString();
    const far = new Date(Date.now() + 30 * DAY).toISOString();
    const farther = new Date(Date.now() + 31 * DAY).toISOString();
    await armTimers(
      jobs,
      [
        { imo: 1, previous: null, next: later },
        { imo: 2, previous: far, next: farther },
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
