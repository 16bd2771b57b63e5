// The queue's streams (berth-<id>, nomination-<id>, slotrequest-<id>) as its commands write them: new ids, a
// decision's events appended with the versions it read (one stream or several in one statement), and the berth
// locks that make changes of one berth take turns (docs/queue.md#why-the-rows-are-a-cache-of-the-streams).

import { type EventMetadata, type EventStore, type ExpectedVersion, WrongExpectedVersionError } from '@pcas/eventstore';
import type { Queryable } from '@pcas/sql';
import { berthLockKey } from './locks.ts';

export type IdSequence = 'berth_ids' | 'nomination_ids' | 'berth_reservation_ids' | 'slot_reservation_ids';

export async function nextId(q: Queryable, sequence: IdSequence): Promise<number> {
  return (await q.query<{ id: number }>(`SELECT nextval('queue.${sequence}')::int AS id`)).rows[0].id;
}

/** Appends to one stream inside `tx` with the expected version; returns the stream's new version. */
export async function appendTo(
  tx: Queryable,
  store: EventStore,
  streamId: string,
  events: readonly { type: string; data: unknown }[],
  expectedVersion: ExpectedVersion,
  metadata: EventMetadata,
): Promise<number> {
  const result = await store.append(
    streamId,
    events.map((e) => ({ type: e.type, data: e.data, metadata })),
    { tx, expectedVersion },
  );
  return result.nextExpectedVersion;
}

/** One stream's part of a decision: its events and the version the decision read it at. */
export interface StreamWrite {
  streamId: string;
  events: readonly { type: string; data: unknown }[];
  expectedVersion: number | 'no_stream';
}

/**
 * Appends a decision's events to all its streams inside `tx` in one statement (the event store's appendMany; a
 * single stream goes through append); returns each stream's new version, in the given order. appendMany takes no
 * expected versions (it appends at each stream's end, under the stream's lock), so they are checked on what it
 * stored: a stream's first new event must sit right after the version read (1 for 'no_stream'). A stream another
 * writer moved on meanwhile gets a later position and the decision is refused (WrongExpectedVersionError, the
 * transaction rolled back with what was appended), as append's own check refuses it.
 */
export async function appendStreams(
  tx: Queryable,
  store: EventStore,
  writes: readonly StreamWrite[],
  metadata: EventMetadata,
): Promise<number[]> {
  const parts = writes.filter((w) => w.events.length > 0);
  const versions = new Map<string, number>();
  const versionOf = (w: StreamWrite) =>
    versions.get(w.streamId) ?? (w.expectedVersion === 'no_stream' ? 0 : w.expectedVersion);
  if (new Set(parts.map((w) => w.streamId)).size !== parts.length) throw new Error('appendStreams: each stream once');
  if (parts.length <= 1) {
    for (const w of parts) {
      versions.set(w.streamId, await appendTo(tx, store, w.streamId, w.events, w.expectedVersion, metadata));
    }
    return writes.map(versionOf);
  }
  const results = await store.appendMany(
    parts.map((w) => ({
      streamId: w.streamId,
      events: w.events.map((e) => ({ type: e.type, data: e.data, metadata })),
    })),
    { tx },
  );
  parts.forEach((w, i) => {
    const expected = w.expectedVersion === 'no_stream' ? 0 : w.expectedVersion;
    const first = results[i].events[0];
    if (first.duplicate || first.streamPosition !== expected + 1) {
      throw new WrongExpectedVersionError(w.streamId, w.expectedVersion, first.streamPosition - 1);
    }
    versions.set(w.streamId, results[i].nextExpectedVersion);
  });
  return writes.map(versionOf);
}

/** Serialises writers of these berths (ascending, so two transactions never wait on each other in a circle). */
export async function lockBerths(tx: Queryable, berthIds: readonly number[]): Promise<void> {
  if (berthIds.length === 0) return;
  // One statement; the sorted subquery gives the order the locks are taken in (the berths', not the keys').
  const keys = [...new Set(berthIds)].sort((a, b) => a - b).map(berthLockKey);
  await tx.query(
    `SELECT pg_advisory_xact_lock(key)
       FROM (SELECT key FROM unnest($1::bigint[]) WITH ORDINALITY AS u(key, n) ORDER BY n) AS sorted`,
    [keys],
  );
}

export interface Versioned<S> {
  state: S;
  version: number;
}
