// Delayed jobs (docs/architecture.md#time-and-jobs): work that must happen at a given time without new traffic.
// One small port, two adapters: BullMQ on Redis in the fleet (jobs survive a restart, one worker runs each job),
// an in-process timer in the embedded mode. Both run the handler at (or soon after) the job's time, retry a failing handler
// with a growing delay a bounded number of times, and treat scheduling an id that is already waiting as a no-op,
// so callers make ids idempotent (e.g. from what the job is about and when it is due).

import { collectGauge, type Logger } from '@pcas/observability';
import { type Job, Queue, Worker } from 'bullmq';

export interface DueJob {
  id: string;
  data: unknown;
  /** 1 on the first run. */
  attempt: number;
}

export type JobHandler = (job: DueJob) => Promise<void>;

export interface DelayedJobs {
  readonly kind: 'bullmq' | 'in-process';
  /** Runs the handler with `data` at `at` (at once when `at` has passed). An id already waiting stays as it is. */
  schedule(id: string, at: Date, data: unknown): Promise<void>;
  /** Drops a waiting job; nothing happens when there is none or it is running. */
  cancel(id: string): Promise<void>;
  /** Stops running jobs (waits for the ones in progress); waiting jobs stay in Redis, in-process ones are gone. */
  close(): Promise<void>;
}

export interface JobsOptions {
  /** Queue name (BullMQ queue; a label for the in-process adapter). */
  queue: string;
  handler: JobHandler;
  log: Logger;
  /** Runs of a failing handler before the job is given up (default 5). */
  maxAttempts?: number;
  /** Delay before the first retry; doubles each time (default 1000 ms). */
  retryBaseMs?: number;
}

const DEFAULT_ATTEMPTS = 5;
const DEFAULT_RETRY_MS = 1_000;
// setTimeout takes at most 2^31-1 ms (about 24.8 days); longer waits are done in steps.
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** The embedded mode's adapter: a timer per job in this process. Waiting jobs are lost on exit (callers re-schedule at start). */
export function createInProcessJobs(options: JobsOptions & { now?: () => number }): DelayedJobs {
  const { handler, log } = options;
  const now = options.now ?? Date.now;
  const maxAttempts = options.maxAttempts ?? DEFAULT_ATTEMPTS;
  const retryBaseMs = options.retryBaseMs ?? DEFAULT_RETRY_MS;
  const waiting = new Map<string, NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let closed = false;

  const arm = (id: string, atMs: number, data: unknown, attempt: number) => {
    const delay = Math.max(0, atMs - now());
    const timer = setTimeout(
      () => {
        if (closed) return;
        if (delay > MAX_TIMEOUT_MS) return arm(id, atMs, data, attempt);
        waiting.delete(id);
        const run = (async () => {
          try {
            await handler({ id, data, attempt });
          } catch (error) {
            if (closed) return;
            if (attempt >= maxAttempts) {
              log.error({ err: error, job: id, queue: options.queue, attempt }, 'job failed; giving up');
              return;
            }
            log.warn({ err: error, job: id, queue: options.queue, attempt }, 'job failed; retrying');
            if (!waiting.has(id)) arm(id, now() + retryBaseMs * 2 ** (attempt - 1), data, attempt + 1);
          }
        })();
        running.add(run);
        void run.finally(() => running.delete(run));
      },
      Math.min(delay, MAX_TIMEOUT_MS),
    );
    timer.unref?.();
    waiting.set(id, timer);
  };

  return {
    kind: 'in-process',
    async schedule(id, at, data) {
      if (closed || waiting.has(id)) return;
      arm(id, at.getTime(), structuredClone(data), 1);
    },
    async cancel(id) {
      const timer = waiting.get(id);
      if (timer) clearTimeout(timer);
      waiting.delete(id);
    },
    async close() {
      closed = true;
      for (const timer of waiting.values()) clearTimeout(timer);
      waiting.clear();
      await Promise.allSettled([...running]);
    },
  };
}

/**
 * BullMQ keys per database (`bull-<database name>`): fleets on different databases sharing one Redis (test runs,
 * staging beside production) never run each other's jobs.
 */
function jobsPrefixFor(databaseUrl: string | undefined): string {
  let name = '';
  try {
    name = databaseUrl ? decodeURIComponent(new URL(databaseUrl).pathname.slice(1)) : '';
  } catch {}
  return `bull-${name.replace(/[^A-Za-z0-9_-]/g, '_') || 'default'}`;
}

export interface BullJobsOptions extends JobsOptions {
  redisUrl: string;
  /** Redis key prefix (default `bull`); tests use their own. */
  prefix?: string;
  /** Jobs run at once by this process (default 4). */
  concurrency?: number;
}

/**
 * The fleet's adapter: BullMQ delayed jobs. Every instance runs a worker; BullMQ hands each job to one of them.
 * Finished and given-up jobs are removed, so an id can be scheduled again later.
 */
export async function createBullJobs(options: BullJobsOptions): Promise<DelayedJobs> {
  const { handler, log } = options;
  const connection = { url: options.redisUrl, maxRetriesPerRequest: null };
  const prefix = options.prefix ?? 'bull';
  const queue = new Queue(options.queue, { connection, prefix });
  const worker = new Worker(
    options.queue,
    async (job: Job) => {
      await handler({ id: String(job.id), data: job.data, attempt: job.attemptsMade + 1 });
    },
    { connection, prefix, concurrency: options.concurrency ?? 4 },
  );
  // Connection trouble is logged; ioredis reconnects by itself.
  queue.on('error', (error) => log.warn({ err: error, queue: options.queue }, 'job queue error'));
  worker.on('error', (error) => log.warn({ err: error, queue: options.queue }, 'job worker error'));
  worker.on('failed', (job, error) =>
    log.warn({ err: error, job: job?.id, queue: options.queue, attempts: job?.attemptsMade }, 'job failed'),
  );
  await Promise.all([queue.waitUntilReady(), worker.waitUntilReady()]);
  // Read from Redis at each scrape; every process using the queue reports the same counts (take max per queue).
  const removeGauge = collectGauge(
    'bullmq_queue_jobs',
    'Jobs of a BullMQ queue by state (waiting, delayed, active, failed)',
    ['queue', 'state'],
    async (set) => {
      const counts = await queue.getJobCounts('waiting', 'delayed', 'active', 'failed');
      for (const [state, count] of Object.entries(counts)) set({ queue: options.queue, state }, count);
    },
  );
  return {
    kind: 'bullmq',
    async schedule(id, at, data) {
      await queue.add('due', data, {
        jobId: id,
        delay: Math.max(0, at.getTime() - Date.now()),
        attempts: options.maxAttempts ?? DEFAULT_ATTEMPTS,
        backoff: { type: 'exponential', delay: options.retryBaseMs ?? DEFAULT_RETRY_MS },
        removeOnComplete: true,
        removeOnFail: true,
      });
    },
    async cancel(id) {
      try {
        await queue.remove(id);
      } catch (error) {
        // A running (locked) job cannot be removed; it finds nothing to do and ends.
        log.debug({ err: error, job: id }, 'job not cancelled');
      }
    },
    async close() {
      removeGauge();
      await worker.close();
      await queue.close();
    },
  };
}

/** How a service runs, as far as its jobs go (the service's config). */
export interface JobsRunMode {
  mode: 'embedded' | 'fleet';
  redisUrl: string | undefined;
  databaseUrl: string | undefined;
}

/**
 * A service's delayed jobs as it runs: BullMQ on the fleet's Redis (keys under `prefix`, else the database's
 * jobsPrefixFor), in-process timers in the embedded mode or a fleet without Redis.
 */
export async function createJobs(
  run: JobsRunMode,
  options: JobsOptions & Pick<BullJobsOptions, 'prefix' | 'concurrency'>,
): Promise<DelayedJobs> {
  if (run.mode === 'fleet' && run.redisUrl) {
    return createBullJobs({
      ...options,
      redisUrl: run.redisUrl,
      prefix: options.prefix ?? jobsPrefixFor(run.databaseUrl),
    });
  }
  return createInProcessJobs(options);
}
