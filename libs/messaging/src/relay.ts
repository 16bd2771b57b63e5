// The relay (docs/architecture.md#events-out): tails the event log in commit order and publishes every event to
// the bus (but those of streams it is told to pass over), routing key `<stream category>.<event type>`, message id = event id. The checkpoint moves past a batch only
// after every publish of it was confirmed, and is saved at most every checkpointIntervalMs while events flow (a
// save per round was a transaction per round), so a crash republishes what came after the last save (consumers
// dedupe on the id) and never skips. One relay is active across processes (a PostgreSQL advisory lock); the
// others stand by.

import type { EventStore, RecordedEvent } from '@pcas/eventstore';
import type { Logger } from '@pcas/observability';
import { advisoryLockKey, type Db } from '@pcas/sql';
import { eventRoutingKey, retryDelayMs } from './routing.ts';
import type { Bus } from './types.ts';

export interface RelayOptions {
  store: EventStore;
  db: Db;
  bus: Bus;
  log: Logger;
  /** Checkpoint and lock name (default `relay`). */
  name?: string;
  /** Events read and published per round (default 500). */
  batchSize?: number;
  /** Poll interval when no NOTIFY arrives (default 50 ms). */
  pollIntervalMs?: number;
  /** How often a standby instance tries to take over (default 3 s). */
  standbyRetryMs?: number;
  /**
   * Least time between two checkpoint saves while events keep coming (default 100 ms); an idle relay saves at its
   * next read that finds nothing (a NOTIFY or the poll), a stopping one at once. A restart republishes at most what was published since the last save.
   */
  checkpointIntervalMs?: number;
  /**
   * Least time between two reads of the log while events keep coming (default 40 ms); a read after a quiet spell
   * goes at once. Under load every commit NOTIFYs; reading once per commit made the relay's reads its busiest
   * statement. Each read is one publish round whose confirms wait for every queue it reached to write the messages
   * down, so a partitioned projection's 16 queues made small rounds costly for the broker: 40 ms rounds cost the
   * ingest path some 30 ms of visibility and gave back 5–25% of its rate against 5 ms ones (docs/benchmarks.md).
   */
  minReadIntervalMs?: number;
  /** LISTEN channel that wakes the relay (default: the store's `wakeChannel`, else `eventstore_events`). */
  wakeChannel?: string;
  /**
   * Turns a stored event into the one published (default: as stored). The services pass the contracts' upcaster,
   * which drops the secrets older events still carry, so none reaches the broker (libs/contracts/src/legacy-secrets.ts).
   */
  upcast?: (event: RecordedEvent) => RecordedEvent;
  /**
   * Streams no bus consumer needs, by id prefix: they stay in the log and are passed over (vessel positions,
   * thousands a second, travel as one signal per batch instead).
   */
  skipStreamPrefixes?: readonly string[];
}

export interface Relay {
  /** True while this instance holds the lock and publishes. */
  readonly active: boolean;
  stop(): Promise<void>;
}

/** The event as it travels: the RecordedEvent as JSON, `created` as an ISO string. */
export function eventMessage(event: RecordedEvent): Record<string, unknown> {
  return { ...event, created: event.created.toISOString() };
}

/** Trace context of the request that wrote the event, so consumers continue its trace. */
export function eventHeaders(event: RecordedEvent): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  const { traceparent, tracestate } = event.metadata ?? {};
  if (typeof traceparent === 'string') headers.traceparent = traceparent;
  if (typeof tracestate === 'string') headers.tracestate = tracestate;
  return headers;
}

// The NOTIFY channel @pcas/eventstore's append signals on (its schema.ts); a store may announce another one.
const EVENTSTORE_WAKE_CHANNEL = 'eventstore_events';

/** Sleeps until the timeout, an abort of any signal, or a wake-up call (one that came early counts too). */
class Waiter {
  private wake: (() => void) | undefined;
  private early = false;

  notify(): void {
    if (this.wake) this.wake();
    else this.early = true;
  }

  wait(ms: number, ...signals: AbortSignal[]): Promise<void> {
    if (this.early || signals.some((s) => s.aborted)) {
      this.early = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        for (const s of signals) s.removeEventListener('abort', done);
        if (this.wake === done) this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      for (const s of signals) s.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
  }
}

const abortableSleep = (ms: number, ...signals: AbortSignal[]) =>
  new Promise<void>((resolve) => {
    if (signals.some((s) => s.aborted)) return resolve();
    const done = () => {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    for (const s of signals) s.addEventListener('abort', done, { once: true });
  });

export async function startRelay(options: RelayOptions): Promise<Relay> {
  const { store, db, bus, log } = options;
  const name = options.name ?? 'relay';
  const batchSize = options.batchSize ?? 500;
  const pollIntervalMs = options.pollIntervalMs ?? 50;
  const standbyRetryMs = options.standbyRetryMs ?? 3_000;
  const checkpointIntervalMs = options.checkpointIntervalMs ?? 100;
  const minReadIntervalMs = options.minReadIntervalMs ?? 40;
  const lockId = advisoryLockKey('relay', name);
  const stopping = new AbortController();
  const waiter = new Waiter();
  let active = false;

  const wakeChannel = options.wakeChannel ?? (store as { wakeChannel?: string }).wakeChannel ?? EVENTSTORE_WAKE_CHANNEL;
  let unlisten: (() => Promise<void>) | undefined;
  try {
    unlisten = await db.listen(wakeChannel, () => waiter.notify());
  } catch (error) {
    log.warn({ err: error, wakeChannel }, 'relay cannot LISTEN; polling only');
  }

  const publishBatch = async (stored: RecordedEvent[]): Promise<number> => {
    const events = options.upcast ? stored.map(options.upcast) : stored;
    // All at once on one confirm channel: many publishes in flight, each resolved by its own confirm.
    const results = await Promise.allSettled(
      events.map((event) =>
        bus.publish(eventRoutingKey(event), eventMessage(event), {
          messageId: event.id,
          headers: eventHeaders(event),
          // Partitioned consumers get each stream's events in one partition, in order.
          partitionKey: event.streamId,
        }),
      ),
    );
    const failed = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    if (failed.length > 0)
      log.warn(
        { err: failed[0].reason, failed: failed.length, of: events.length },
        'relay publish failed; retrying the batch',
      );
    return failed.length;
  };

  const runActive = async (lost: AbortSignal) => {
    active = true;
    log.info({ name }, 'relay active');
    let checkpoint = await store.readCheckpoint(name);
    let saved = checkpoint;
    let savedAt = performance.now();
    // One statement, no transaction of its own. Not while another instance may own the log: it starts from the
    // saved checkpoint, which must not move under it.
    const save = async () => {
      if (checkpoint === saved || checkpoint === null || lost.aborted) return;
      const at = checkpoint;
      await store.saveCheckpoint(db, name, at);
      saved = at;
      savedAt = performance.now();
    };
    let failures = 0;
    let readAt = Number.NEGATIVE_INFINITY;
    while (!stopping.signal.aborted && !lost.aborted) {
      const early = readAt + minReadIntervalMs - performance.now();
      if (early > 0) await abortableSleep(early, stopping.signal, lost);
      readAt = performance.now();
      const { events, checkpoint: next } = await store.readAll(checkpoint, batchSize, {
        skipStreamPrefixes: options.skipStreamPrefixes,
      });
      if (events.length === 0 && next !== checkpoint) {
        // Only passed-over events: nothing to publish, but the checkpoint moves past them.
        checkpoint = next;
        if (performance.now() - savedAt >= checkpointIntervalMs) await save();
        continue;
      }
      if (events.length === 0) {
        await save();
        await waiter.wait(pollIntervalMs, stopping.signal, lost);
        continue;
      }
      if ((await publishBatch(events)) > 0) {
        // Unconfirmed: the whole batch goes again from the same checkpoint (duplicates are deduped downstream).
        // A real backoff: new events (NOTIFY) do not make the broker come back sooner.
        await abortableSleep(retryDelayMs(++failures, 200, 5_000), stopping.signal, lost);
        continue;
      }
      failures = 0;
      if (lost.aborted || next === null) break;
      // Published and confirmed: the next read starts here. Saved now and then (consumers dedupe a republish).
      checkpoint = next;
      if (performance.now() - savedAt >= checkpointIntervalMs) await save();
      // A batch that ended before the limit (its last row was an event published, not one passed over) read all
      // there was: the next read waits for a commit's NOTIFY (one that came meanwhile counts) or the poll, instead
      // of a read that would mostly find nothing.
      const last = events[events.length - 1] as RecordedEvent;
      if (events.length < batchSize && next.globalPosition === last.globalPosition)
        await waiter.wait(pollIntervalMs, stopping.signal, lost);
    }
    await save();
  };

  const loop = (async () => {
    let failures = 0;
    while (!stopping.signal.aborted) {
      try {
        const { acquired } = await db.tryWithAdvisoryLock(lockId, runActive);
        if (!acquired) log.debug({ name }, 'relay standing by');
        failures = 0;
      } catch (error) {
        log.error({ err: error, name }, 'relay failed; restarting');
        failures++;
      } finally {
        if (active) log.info({ name }, 'relay inactive');
        active = false;
      }
      if (stopping.signal.aborted) break;
      // Not the NOTIFY waiter: each try opens a connection, so a standby tries on its own schedule only.
      await abortableSleep(
        failures > 0 ? retryDelayMs(failures, 200, standbyRetryMs) : standbyRetryMs,
        stopping.signal,
      );
    }
  })();

  return {
    get active() {
      return active;
    },
    async stop() {
      stopping.abort();
      waiter.notify();
      await loop;
      await unlisten?.().catch(() => {});
    },
  };
}
