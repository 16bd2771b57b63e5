// Waking subscribers without slowing writers. PostgreSQL makes every transaction that NOTIFYs take one
// database-wide lock from pre-commit until after its commit record is flushed, so NOTIFY on every append
// turns concurrent commits into a queue (bench/append.ts: about 3x fewer appends/s at 16 writers). Instead,
// per process: the first append in a window of `intervalMs` notifies inside its own transaction; appends
// that skipped it are followed, after they committed, by one trailing NOTIFY at the end of the window. So a
// committed event is announced within about `intervalMs`, at a cost of at most two NOTIFYs per window.

import { AsyncResource } from 'node:async_hooks';

export class WakeThrottle {
  private lastNotify = Number.NEGATIVE_INFINITY;
  private trailing: NodeJS.Timeout | undefined;
  // The trailing NOTIFY runs in the creator's async context, not in that of the append that scheduled it
  // (which may be inside a caller's transaction callback, where PGlite refuses outside queries).
  private readonly scope = new AsyncResource('eventstore.wake');

  /**
   * @param intervalMs 0: every append notifies; negative: none does (subscribers only poll).
   * @param notify sends one NOTIFY on its own (the trailing one).
   */
  constructor(
    private readonly intervalMs: number,
    private readonly notify: () => Promise<void>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the append about to run should NOTIFY in its own transaction. */
  claim(): boolean {
    if (this.intervalMs === 0) return true;
    if (this.intervalMs < 0) return false;
    const now = this.now();
    if (now - this.lastNotify < this.intervalMs) return false;
    this.lastNotify = now;
    return true;
  }

  /** Called after an append that did not notify has committed: schedules the trailing NOTIFY if none is. */
  committedWithoutNotify(): void {
    if (this.intervalMs <= 0 || this.trailing) return;
    const delay = Math.max(0, this.lastNotify + this.intervalMs - this.now());
    this.trailing = setTimeout(() => {
      this.trailing = undefined;
      this.lastNotify = this.now();
      void this.scope.runInAsyncScope(this.notify);
    }, delay);
    // A pending wake-up must not keep the process alive.
    this.trailing.unref();
  }
}
