// The event store over @pcas/sql (PostgreSQL or PGlite). SQL lives in append.ts (appends), read.ts (reads and
// checkpoints) and schema.ts; decisions that need no database live in plan.ts. This file wires them.

import { randomUUID } from 'node:crypto';
import {
  createLogger,
  currentTraceCarrier,
  eventAppendDuration,
  type Logger,
  timed,
  withSpan,
} from '@pcas/observability';
import { type Db, type Queryable, setUpSchema } from '@pcas/sql';
import { createAppends } from './append.ts';
import { planAppend } from './plan.ts';
import {
  head,
  readAll,
  readByGlobalPosition,
  readCheckpoint,
  readStream,
  readStreams,
  saveCheckpoint,
  saveCheckpointIf,
} from './read.ts';
import { SCHEMA_STATEMENTS, WAKE_CHANNEL } from './schema.ts';
import { CatchUpSubscription } from './subscription.ts';
import type { AppendOptions, AppendResult, Checkpoint, EventStore, ExpectedVersion, NewEvent } from './types.ts';
import { WakeThrottle } from './wake.ts';

export interface EventStoreOptions {
  /**
   * Subscribers are woken (NOTIFY) at most about once per this many ms per process, and within about this
   * long after a commit (0: every append notifies; negative: never, subscribers only poll). See wake.ts.
   */
  notifyIntervalMs?: number;
  /**
   * Group commit of concurrent appends (see appendsTogether in append.ts): most batches on their way at once
   * (0: every append alone) and most appends in one.
   */
  groupCommit?: { maxInFlight?: number; maxItems?: number };
  logger?: Logger;
}

/** Chosen by measurement (bench/append.ts, 16 writers on 2 cores). */
export const DEFAULT_GROUP_COMMIT = { maxInFlight: 2, maxItems: 64 };

/** Chosen by measurement (bench/append.ts): a NOTIFY per append serializes concurrent commits. */
export const DEFAULT_NOTIFY_INTERVAL_MS = 10;

export function createEventStore(db: Db, options: EventStoreOptions = {}): EventStore {
  const notifyIntervalMs = options.notifyIntervalMs ?? DEFAULT_NOTIFY_INTERVAL_MS;
  const log = options.logger ?? createLogger('eventstore');
  const groupCommit = { ...DEFAULT_GROUP_COMMIT, ...options.groupCommit };
  const wake = new WakeThrottle(notifyIntervalMs, async () => {
    try {
      await db.query(`SELECT pg_notify('${WAKE_CHANNEL}', '')`);
    } catch (error) {
      // Only a wake-up lost (e.g. the Db was closed meanwhile): subscribers still poll.
      log.debug({ error: (error as Error).message }, 'trailing NOTIFY failed');
    }
  });
  const { appendNow, appendManyNow, appendsTogether } = createAppends(db, wake, groupCommit);

  const store: EventStore = {
    async init() {
      await setUpSchema(db, 'eventstore', SCHEMA_STATEMENTS);
    },

    append(streamId: string, events: NewEvent[], appendOptions: AppendOptions = {}): Promise<AppendResult> {
      const expected: ExpectedVersion = appendOptions.expectedVersion ?? 'any';
      // The latency metric: to the commit, or for an append inside the caller's transaction, to its statement's end.
      const appending = () =>
        withSpan(
          'eventstore.append',
          { attributes: { 'eventstore.stream_id': streamId, 'eventstore.event_count': events.length } },
          async () => {
            if (appendOptions.tx || expected !== 'any' || events.length === 0 || appendsTogether === undefined) {
              return appendNow(appendOptions.tx ?? db, streamId, events, expected);
            }
            // Ids, correlation and trace context are the caller's, fixed now: the batch leaves from another call.
            const plan = planAppend(events, randomUUID, currentTraceCarrier());
            const metadata = new Map(plan.events.map((e) => [e.id, e.metadata]));
            const planned = events.map((e, i) => ({ ...e, id: plan.ids[i], metadata: metadata.get(plan.ids[i]) }));
            return appendsTogether({ streamId, events: planned });
          },
        );
      return timed(eventAppendDuration, { kind: 'append' }, appending);
    },

    appendMany(entries, appendOptions = {}) {
      const count = entries.reduce((n, entry) => n + entry.events.length, 0);
      return timed(eventAppendDuration, { kind: 'append_many' }, () =>
        withSpan(
          'eventstore.append_many',
          { attributes: { 'eventstore.stream_count': entries.length, 'eventstore.event_count': count } },
          () => appendManyNow(appendOptions.tx ?? db, entries, appendOptions.tx !== undefined),
        ),
      );
    },

    readStream: (streamId, readOptions) => readStream(db, streamId, readOptions),

    readStreams: (reads, tx) => readStreams(db, reads, tx),

    readByGlobalPosition: (globalPosition, tx) => readByGlobalPosition(db, globalPosition, tx),

    readAll: (after, limit, readOptions) => readAll(db, after, limit, readOptions),

    subscribe(consumer, handler, subscriptionOptions = {}) {
      return new CatchUpSubscription(db, store, consumer, handler, subscriptionOptions, {
        notifyIntervalMs,
        log: log.child({ consumer }),
        head: () => head(db),
        saveCheckpointIf,
      });
    },

    readCheckpoint: (consumer, tx) => readCheckpoint(db, consumer, tx),

    saveCheckpoint,
  };

  return store;
}

export type SubscriptionDeps = {
  notifyIntervalMs: number;
  log: Logger;
  head: () => Promise<Checkpoint | null>;
  saveCheckpointIf: (tx: Queryable, consumer: string, from: Checkpoint | null, to: Checkpoint) => Promise<boolean>;
};
