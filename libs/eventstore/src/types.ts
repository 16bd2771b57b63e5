// The event store port (PostgreSQL 15 in the fleet, PGlite embedded). Semantics:
// docs/architecture.md#the-event-store.

import type { Queryable } from '@pcas/sql';

/** 'any' | 'no_stream' | 'stream_exists' | an exact stream version (the position of its last event). */
export type ExpectedVersion = 'any' | 'no_stream' | 'stream_exists' | number;

export interface EventMetadata {
  user_id?: number | null;
  api_key_id?: number | null;
  correlation_id?: string;
  causation_id?: string;
  traceparent?: string;
  tracestate?: string;
  [key: string]: unknown;
}

export interface NewEvent<D = unknown> {
  /** UUID; repeated in the same stream it is stored once (idempotent retries). Generated when absent. */
  id?: string;
  type: string;
  data: D;
  metadata?: EventMetadata;
}

export interface RecordedEvent<D = unknown> {
  id: string;
  streamId: string;
  /** 1-based position within the stream. */
  streamPosition: number;
  /** Unique, increasing in insert order; NOT commit order (read "all" by checkpoint, never by this alone). */
  globalPosition: number;
  /** xid8 of the writing transaction, as a decimal string. */
  transactionId: string;
  type: string;
  data: D;
  metadata: EventMetadata;
  created: Date;
}

/** Position in commit order: (transaction id, global position). Opaque outside this lib. */
export interface Checkpoint {
  transactionId: string;
  globalPosition: number;
}

export interface AppendResult {
  /** The stream's version after the append. */
  nextExpectedVersion: number;
  /** Per appended event (same order as given), including ones that were already stored. */
  events: { id: string; streamPosition: number; globalPosition: number; duplicate: boolean }[];
}

export interface StreamAppend {
  streamId: string;
  events: NewEvent[];
}

export interface AppendOptions {
  expectedVersion?: ExpectedVersion;
  /** Append inside the caller's transaction, so read-model writes commit atomically with the events. */
  tx?: Queryable;
}

export interface SubscriptionOptions {
  batchSize?: number;
  /** Fallback poll interval when no NOTIFY arrives. */
  pollIntervalMs?: number;
  /** Only these event types (others still advance the checkpoint). */
  eventTypes?: string[];
  signal?: AbortSignal;
}

export interface Subscription {
  /** Resolves once the subscriber has caught up with everything committed before the call. */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

export interface EventStore {
  /** Creates the schema if missing (idempotent). */
  init(): Promise<void>;
  append(streamId: string, events: NewEvent[], options?: AppendOptions): Promise<AppendResult>;
  /**
   * Appends to several streams in one round trip and one transaction (the caller's, if given), expected version
   * "any" for each: a batch of independent writes, e.g. many data-source posts at once. A stream may appear in
   * several entries; its events are stored in entry order. One result per entry, in entry order.
   */
  appendMany(entries: StreamAppend[], options?: Pick<AppendOptions, 'tx'>): Promise<AppendResult[]>;
  readStream(streamId: string, options?: { fromPosition?: number; tx?: Queryable }): Promise<RecordedEvent[]>;
  /** Several distinct streams, each from its own position, in one round trip: one list per read, in order. */
  readStreams(
    reads: readonly { streamId: string; fromPosition?: number }[],
    tx?: Queryable,
  ): Promise<RecordedEvent[][]>;
  /** The event with this global position, if any. */
  readByGlobalPosition(globalPosition: number, tx?: Queryable): Promise<RecordedEvent | undefined>;
  /**
   * Events committed after `after` (null: from the start), in commit order, only from settled transactions: at
   * most `limit` read. Streams starting with one of `skipStreamPrefixes` are passed over (not returned, but the
   * checkpoint moves past them).
   */
  readAll(
    after: Checkpoint | null,
    limit: number,
    options?: { skipStreamPrefixes?: readonly string[] },
  ): Promise<{ events: RecordedEvent[]; checkpoint: Checkpoint | null }>;
  /**
   * Catch-up subscription: handler gets batches in commit order inside a transaction; the consumer's checkpoint
   * is written in that same transaction. Woken by LISTEN/NOTIFY, polls as a fallback.
   */
  subscribe(
    consumer: string,
    handler: (events: RecordedEvent[], tx: Queryable) => Promise<void>,
    options?: SubscriptionOptions,
  ): Subscription;
  readCheckpoint(consumer: string, tx?: Queryable): Promise<Checkpoint | null>;
  saveCheckpoint(tx: Queryable, consumer: string, checkpoint: Checkpoint): Promise<void>;
}

export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number,
  ) {
    super(`Wrong expected version for ${streamId}: expected ${String(expected)}, actual ${actual}`);
    this.name = 'WrongExpectedVersionError';
  }
}
