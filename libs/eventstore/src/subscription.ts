// Catch-up subscription: read a batch after the checkpoint (settled transactions only, commit order), hand it
// to the handler in a transaction that also moves the checkpoint, repeat; when nothing is left, sleep until a
// NOTIFY or the poll interval. A failing batch is retried as is (never skipped), with a growing delay.

import type { Db, Queryable } from '@pcas/sql';
import { compareCheckpoints, retryDelay } from './plan.ts';
import { WAKE_CHANNEL } from './schema.ts';
import type { SubscriptionDeps } from './store.ts';
import type { Checkpoint, EventStore, RecordedEvent, Subscription, SubscriptionOptions } from './types.ts';

class CheckpointMoved extends Error {
  constructor(consumer: string) {
    super(`checkpoint of ${consumer} was moved by another instance; re-reading it`);
  }
}

interface Waiter {
  target: Checkpoint;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class CatchUpSubscription implements Subscription {
  private readonly batchSize: number;
  private readonly pollMs: number;
  /** After activity, look again this soon: writers that skipped a throttled NOTIFY may have committed since. */
  private readonly trailingMs: number;
  private readonly types: Set<string> | undefined;
  private readonly loop: Promise<void>;
  private stopped = false;
  private woken = false;
  private interrupt: (() => void) | undefined;
  private checkpoint: Checkpoint | null | undefined;
  private waiters: Waiter[] = [];

  constructor(
    private readonly db: Db,
    private readonly store: EventStore,
    private readonly consumer: string,
    private readonly handler: (events: RecordedEvent[], tx: Queryable) => Promise<void>,
    options: SubscriptionOptions,
    private readonly deps: SubscriptionDeps,
  ) {
    this.batchSize = options.batchSize ?? 100;
    this.pollMs = options.pollIntervalMs ?? 100;
    this.trailingMs = Math.min(this.pollMs, Math.max(10, 2 * deps.notifyIntervalMs));
    this.types = options.eventTypes ? new Set(options.eventTypes) : undefined;
    if (options.signal?.aborted) this.stopped = true;
    options.signal?.addEventListener('abort', () => void this.stop(), { once: true });
    this.loop = this.run();
  }

  async caughtUp(): Promise<void> {
    const target = await this.deps.head();
    if (target === null || this.passed(target)) return;
    if (this.stopped) throw new Error(`subscription ${this.consumer} is stopped`);
    return new Promise((resolve, reject) => {
      this.waiters.push({ target, resolve, reject });
      this.wake();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
  }

  private passed(target: Checkpoint) {
    return this.checkpoint !== undefined && compareCheckpoints(this.checkpoint, target) >= 0;
  }

  private settleWaiters() {
    this.waiters = this.waiters.filter((w) => {
      if (!this.passed(w.target)) return true;
      w.resolve();
      return false;
    });
  }

  private wake() {
    this.woken = true;
    this.interrupt?.();
  }

  /** Sleeps `ms`, or less when woken (by NOTIFY, caughtUp or stop) — unless `onlyStop`. */
  private sleep(ms: number, onlyStop = false) {
    if (this.stopped || (!onlyStop && this.woken)) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.interrupt = () => {
        if (this.stopped || !onlyStop) done();
      };
    }).finally(() => {
      this.interrupt = undefined;
      if (!onlyStop) this.woken = false;
    });
  }

  private async run() {
    let trailing = false;
    let unlisten: (() => Promise<void>) | undefined;
    try {
      unlisten = await this.db.listen(WAKE_CHANNEL, () => {
        trailing = true;
        this.wake();
      });
    } catch (error) {
      this.deps.log.warn({ error: (error as Error).message }, 'LISTEN failed; polling only');
    }
    let failures = 0;
    while (!this.stopped) {
      try {
        this.checkpoint ??= await this.store.readCheckpoint(this.consumer);
        this.settleWaiters();
        const from = this.checkpoint;
        const { events, checkpoint: to } = await this.store.readAll(from, this.batchSize);
        if (events.length === 0 || to === null) {
          const wait = trailing ? this.trailingMs : this.pollMs;
          trailing = false;
          await this.sleep(wait);
          continue;
        }
        const wanted = this.types ? events.filter((e) => this.types?.has(e.type)) : events;
        await this.db.transaction(async (tx) => {
          if (wanted.length > 0) await this.handler(wanted, tx);
          if (!(await this.deps.saveCheckpointIf(tx, this.consumer, from, to)))
            throw new CheckpointMoved(this.consumer);
        });
        this.checkpoint = to;
        failures = 0;
        trailing = true;
        this.settleWaiters();
      } catch (error) {
        failures++;
        // Re-read the checkpoint: the batch is retried from wherever it really stands.
        this.checkpoint = undefined;
        const delay = retryDelay(failures, this.pollMs);
        this.deps.log.error({ error: (error as Error).message, failures, retryInMs: delay }, 'batch failed; retrying');
        await this.sleep(delay, true);
      }
    }
    await unlisten?.().catch(() => {});
    for (const w of this.waiters) w.reject(new Error(`subscription ${this.consumer} stopped`));
    this.waiters = [];
  }
}
