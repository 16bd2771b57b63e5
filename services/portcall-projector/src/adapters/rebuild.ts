// Rebuilding port calls from the log (docs/architecture.md#replay): every vessel (or the ones named) replayed
// through the same projection code as the live path, a few vessels per transaction. Safe while traffic flows: a chunk holds its
// vessels' locks from reading their streams to its commit, so the live projection waits for those vessels and
// then skips what the rebuild already applied (the state's version says so); nothing is lost or applied twice.
// The priorities are first caught up with the log, so the rebuild applies the ones set now.

import { Worker } from 'node:worker_threads';
import type { EventStore } from '@pcas/eventstore';
import type { Logger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import { loadPriorities, syncPriorities } from './priorities.ts';
import { type ProjectionOutcome, type ProjectorRules, rebuildVessels, type TimerChange } from './projection.ts';
import type { RebuildWorkerData } from './rebuild-worker.ts';
import { listVesselStreams } from './vessel-streams.ts';

export interface RebuildProgress {
  vessels: number;
  totalVessels: number;
  events: number;
  totalEvents: number;
}

export interface RebuildOptions {
  db: Db;
  store: EventStore;
  rules: ProjectorRules;
  log: Logger;
  /** Only these vessels (default: every vessel stream of the log). */
  imos?: readonly number[];
  /**
   * Events per transaction, about (default 5,000: the live projection waits for a chunk's vessels no longer than
   * that takes, and a small chunk's objects are short-lived).
   */
  chunkEvents?: number;
  /** Chunks in flight at once per thread: one folds while another waits for the database (default 2). */
  concurrency?: number;
  /**
   * Worker threads that rebuild chunks besides this thread, each with its own connections to `databaseUrl`
   * (PostgreSQL only; the process must run under tsx, whose loader the threads inherit). 0 (default): this thread
   * alone; 1 uses a second core.
   */
  workers?: number;
  databaseUrl?: string;
  onProgress?: (progress: RebuildProgress) => void;
}

export interface RebuildSummary {
  vessels: number;
  events: number;
  signals: number;
  seconds: number;
  events_per_second: number;
  /** Timers the rebuild moved; the caller arms them (a running projector also re-arms due ones by its sweep). */
  timers: TimerChange[];
}

/** Splits vessels into chunks of about `budget` events each (a long history gets a chunk of its own). */
export function chunkVessels(streams: readonly { imo: number; events: number }[], budget: number): number[][] {
  const chunks: number[][] = [];
  let current: number[] = [];
  let size = 0;
  for (const s of streams) {
    if (current.length > 0 && size + s.events > budget) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(s.imo);
    size += s.events;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

export async function rebuildAll(options: RebuildOptions): Promise<RebuildSummary> {
  const { db, store, rules, log } = options;
  const started = performance.now();
  await db.transaction((tx) => syncPriorities(tx, store));
  const priorities = await loadPriorities(db);
  const all = await listVesselStreams(db);
  const wanted = options.imos ? new Set(options.imos) : undefined;
  const streams = wanted ? all.filter((s) => wanted.has(s.imo)) : all;
  // Named vessels without a stream still get their rows cleared.
  if (wanted) for (const imo of wanted) if (!streams.some((s) => s.imo === imo)) streams.push({ imo, events: 0 });
  const chunks = chunkVessels(streams, options.chunkEvents ?? 5_000);
  const progress: RebuildProgress = {
    vessels: 0,
    totalVessels: streams.length,
    events: 0,
    totalEvents: streams.reduce((n, s) => n + s.events, 0),
  };
  options.onProgress?.({ ...progress });
  const summary = { vessels: 0, events: 0, signals: 0, timers: [] as TimerChange[] };
  const done = (chunk: readonly number[], outcome: ProjectionOutcome) => {
    summary.vessels += outcome.vessels;
    summary.events += outcome.events;
    summary.signals += outcome.signals;
    summary.timers.push(...outcome.timers);
    progress.vessels += chunk.length;
    progress.events += outcome.events;
    options.onProgress?.({ ...progress });
  };
  const concurrency = db.kind === 'pglite' ? 1 : Math.max(1, options.concurrency ?? 2);
  const threads = db.kind === 'postgres' && options.databaseUrl ? Math.max(0, options.workers ?? 0) : 0;
  // One queue of chunks for this thread and the worker threads: whoever is free takes the next. The first failure
  // stops the taking; chunks in flight end (each its own transaction) before it is thrown.
  let next = 0;
  let failure: { error: unknown } | undefined;
  const take = () => (failure === undefined && next < chunks.length ? chunks[next++] : undefined);
  const fail = (error: unknown) => {
    failure ??= { error };
  };
  const here = async () => {
    for (let chunk = take(); chunk; chunk = take()) {
      const vessels = chunk;
      done(vessels, await db.transaction((tx) => rebuildVessels(tx, store, rules, vessels, priorities)));
    }
  };
  const runs = Array.from({ length: Math.min(concurrency, chunks.length) }, () => here().catch(fail));
  // Worker threads only when this thread has more than it takes at once (a vessel or two need none).
  if (threads > 0 && chunks.length > runs.length) {
    const data = { databaseUrl: options.databaseUrl!, rules, priorities };
    runs.push(inWorkers(take, data, threads, concurrency, done).catch(fail));
  }
  await Promise.all(runs);
  if (failure) throw failure.error;
  const seconds = (performance.now() - started) / 1000;
  log.info({ vessels: summary.vessels, events: summary.events, seconds }, 'port calls rebuilt');
  return {
    ...summary,
    seconds,
    events_per_second: seconds > 0 ? Math.round(summary.events / seconds) : 0,
  };
}

/**
 * Worker threads taking chunks from the shared queue, `perWorker` in flight on each; the first failure stops them
 * all (this thread's own chunks see it when they end).
 */
async function inWorkers(
  take: () => number[] | undefined,
  data: RebuildWorkerData,
  threads: number,
  perWorker: number,
  done: (chunk: readonly number[], outcome: ProjectionOutcome) => void,
): Promise<void> {
  const workers = Array.from({ length: threads }, () => {
    return new Worker(new URL('./rebuild-worker.mjs', import.meta.url), { workerData: data });
  });
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            let inFlight = 0;
            let drained = false;
            const feed = () => {
              while (inFlight < perWorker && !drained) {
                const chunk = take();
                if (!chunk) drained = true;
                else {
                  inFlight++;
                  worker.postMessage({ chunk });
                }
              }
              if (inFlight === 0) resolve();
            };
            worker.on(
              'message',
              (message: {
                ready?: true;
                ok?: boolean;
                chunk: number[];
                outcome?: ProjectionOutcome;
                error?: string;
              }) => {
                if (message.ready) return feed();
                inFlight--;
                if (!message.ok)
                  return reject(new Error(`rebuild of vessels ${message.chunk.join(', ')} failed: ${message.error}`));
                done(message.chunk, message.outcome!);
                feed();
              },
            );
            worker.on('error', reject);
            worker.on('exit', (code) => {
              if (inFlight > 0 || !drained) reject(new Error(`rebuild worker exited (${code})`));
            });
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
