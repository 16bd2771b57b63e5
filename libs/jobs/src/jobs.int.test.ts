// Both adapters of the delayed-jobs port, the same expectations: a job runs at its time (not before), an id
// scheduled twice runs once, a cancelled job never runs, a failing handler is retried and then given up. BullMQ
// against the real Redis (a key prefix of its own per test).

import { createLogger } from '@pcas/observability';
import { redis, uniqueName, waitFor } from '@pcas/testing';
import { describe, expect, it } from 'vitest';
import { createBullJobs, createInProcessJobs, type DelayedJobs, type DueJob, type JobHandler } from './index.ts';

const log = createLogger('jobs-test', 'silent');

const redisUrl = (await redis())?.url;

const adapters: [string, boolean, (handler: JobHandler) => Promise<DelayedJobs>][] = [
  [
    'in-process',
    true,
    async (handler) => createInProcessJobs({ queue: 'test', handler, log, maxAttempts: 3, retryBaseMs: 20 }),
  ],
  [
    'bullmq',
    redisUrl !== undefined,
    (handler) =>
      createBullJobs({
        queue: 'test',
        redisUrl: redisUrl!,
        prefix: uniqueName('bull-test'),
        handler,
        log,
        maxAttempts: 3,
        retryBaseMs: 20,
      }),
  ],
];

describe.each(adapters)('%s jobs', (_name, available, create) => {
  it.skipIf(!available)('runs each job at its time, once; a cancelled one never', async () => {
    const runs: { id: string; at: number; data: unknown }[] = [];
    const jobs = await create(async (job: DueJob) => {
      runs.push({ id: job.id, at: Date.now(), data: job.data });
    });
    try {
      // Due times are seconds apart, so a loaded machine (slow schedule/cancel calls) cannot let a-1 run before its
      // second schedule, or c-1 before its cancel.
      const start = Date.now();
      await jobs.schedule('a-1', new Date(start + 3_000), { n: 1 });
      await jobs.schedule('a-1', new Date(start + 50), { n: 2 });
      await jobs.schedule('b-1', new Date(start - 1_000), { n: 3 });
      await jobs.schedule('c-1', new Date(start + 2_500), { n: 4 });
      await jobs.cancel('c-1');
      await jobs.cancel('nothing-1');
      // A barrier: z-1 is due after every other job, so once it ran, a second a-1 or the cancelled c-1 would have too.
      await jobs.schedule('z-1', new Date(start + 3_500), { n: 6 });
      await waitFor(() => runs.some((r) => r.id === 'z-1'));
      expect(runs.map((r) => [r.id, r.data])).toEqual([
        ['b-1', { n: 3 }],
        ['a-1', { n: 1 }],
        ['z-1', { n: 6 }],
      ]);
      expect(runs[1].at).toBeGreaterThanOrEqual(start + 3_000 - 5);
      // Done jobs are gone: the id can be scheduled again.
      await jobs.schedule('a-1', new Date(), { n: 5 });
      await waitFor(() => runs.length >= 4);
      expect(runs[3].data).toEqual({ n: 5 });
    } finally {
      await jobs.close();
    }
  });

  it.skipIf(!available)('retries a failing handler, then gives the job up', async () => {
    const attempts: number[] = [];
    const jobs = await create(async (job) => {
      attempts.push(job.attempt);
      if (job.id === 'flaky-1' && job.attempt < 2) throw new Error('not yet');
      if (job.id === 'broken-1') throw new Error('never');
    });
    try {
      await jobs.schedule('flaky-1', new Date(), {});
      await waitFor(() => attempts.length === 2);
      await jobs.schedule('broken-1', new Date(), {});
      await waitFor(() => attempts.length === 5);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(attempts).toEqual([1, 2, 1, 2, 3]);
    } finally {
      await jobs.close();
    }
  });
});
