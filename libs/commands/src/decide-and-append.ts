// The command side's one loop: load a stream's state, decide (a pure domain function), append what was decided
// with the version the state was read at as the expected version, and when another writer got there first, load
// and decide again, a bounded number of times. Two racing commands can therefore never both apply to a state
// one of them changed, and a caller never waits without bound.

import { ApiError } from '@pcas/contracts';
import { type AppendResult, type EventMetadata, type EventStore, WrongExpectedVersionError } from '@pcas/eventstore';
import type { Logger } from '@pcas/observability';
import type { Db, Queryable } from '@pcas/sql';

/** An event as a decide function returns it: the kit adds the command's metadata. */
export interface DecidedEvent {
  id?: string;
  type: string;
  data: unknown;
}

/** A state and the stream version it was read at (0: no stream yet). */
export interface Loaded<S> {
  state: S;
  version: number;
}

export interface StreamCommand<S, E extends DecidedEvent, Q> {
  streamId: string;
  /** Reads the state to decide on; takes whatever lock the command needs first. */
  load(q: Q): Promise<Loaded<S>>;
  /** Pure: the events to append; none means there is nothing to do (nothing is appended). */
  decide(state: S, version: number): readonly E[];
  /** Who and why (see eventMetadata), the same on every event. */
  metadata: EventMetadata;
}

export interface TransactionalCommand<S, E extends DecidedEvent> extends StreamCommand<S, E, Queryable> {
  /**
   * Writes that must commit with the events (a service's own tables), in the same transaction, after the append:
   * the event store takes the stream's lock with the append, which must come before the transaction's own writes.
   * `appended` is the append's result (the stream's new version, for rows that record it).
   */
  project?(tx: Queryable, events: readonly E[], appended: AppendResult): Promise<void>;
}

export interface RetryOptions {
  /** Attempts in all, the first one included (default 5). */
  attempts?: number;
  /** The 503's message after the last attempt lost the race. */
  busyMessage?: string;
  log?: Logger;
}

export interface Decided<E> {
  /** What was decided (and appended, unless empty). */
  events: readonly E[];
  /** The stream version the decision was taken on. */
  version: number;
  /** The append's result; undefined when nothing was decided. */
  appended: AppendResult | undefined;
}

// Racing writers of one stream (data sources posting to a vessel) each cost a retry; a handful covers any burst.
export const DEFAULT_ATTEMPTS = 5;

/** Another writer moved the stream on between the read and the append. */
export const isVersionConflict = (error: unknown): error is WrongExpectedVersionError =>
  error instanceof WrongExpectedVersionError;

/**
 * Runs `attempt` until it does not lose a version race, at most `attempts` times; after the last lost race the
 * caller gets 503 (retry later), never the conflict itself (which would read as an internal error).
 */
export async function retryOnConflict<T>(
  streamId: string,
  attempt: () => Promise<T>,
  options: RetryOptions = {},
): Promise<T> {
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isVersionConflict(error)) throw error;
      if (n >= attempts) {
        throw ApiError.unavailable(options.busyMessage ?? `Stream ${streamId} is being updated concurrently; retry`);
      }
      options.log?.debug({ streamId, attempt: n }, 'stream moved on; deciding again');
    }
  }
}

async function appendDecision<S, E extends DecidedEvent>(
  store: EventStore,
  command: StreamCommand<S, E, unknown>,
  loaded: Loaded<S>,
  tx: Queryable | undefined,
): Promise<Decided<E>> {
  const events = command.decide(loaded.state, loaded.version);
  if (events.length === 0) return { events, version: loaded.version, appended: undefined };
  const { metadata } = command;
  const appended = await store.append(
    command.streamId,
    events.map((e) => ({ ...e, metadata })),
    { expectedVersion: loaded.version, tx },
  );
  return { events, version: loaded.version, appended };
}

/** Load (outside any transaction), decide, append with the loaded version; on a lost race, all again. */
export function decideAndAppend<S, E extends DecidedEvent>(
  store: EventStore,
  command: StreamCommand<S, E, void>,
  options?: RetryOptions,
): Promise<Decided<E>> {
  return retryOnConflict(
    command.streamId,
    async () => appendDecision(store, command, await command.load(), undefined),
    options,
  );
}

/**
 * As decideAndAppend, each attempt in one transaction of `db`: the load (and its locks), the append and the
 * command's `project` writes commit together or not at all.
 */
export function decideAndAppendInTransaction<S, E extends DecidedEvent>(
  db: Db,
  store: EventStore,
  command: TransactionalCommand<S, E>,
  options?: RetryOptions,
): Promise<Decided<E>> {
  return retryOnConflict(
    command.streamId,
    () =>
      db.transaction(async (tx) => {
        const decided = await appendDecision(store, command, await command.load(tx), tx);
        if (decided.appended && command.project) await command.project(tx, decided.events, decided.appended);
        return decided;
      }),
    options,
  );
}
