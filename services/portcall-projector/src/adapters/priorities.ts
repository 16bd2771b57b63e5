// The priorities as the projection applies them (docs/domain.md#priorities): rows of
// portcall.timestamp_weights and portcall.payload_key_weights, kept from the priorities-* streams (owned by
// ingest) by the live projection, and caught up from the log before a rebuild. Each stream's last applied event
// is remembered, so an event applied twice (redelivery, a rebuild that read it first) changes nothing.

import {
  PAYLOAD_KEY_PRIORITIES_STREAM,
  type PayloadKeyApiKeyWeightsSet,
  TIMESTAMP_PRIORITIES_STREAM,
  type TimestampApiKeyWeightsSet,
} from '@pcas/contracts';
import type { EventStore, RecordedEvent } from '@pcas/eventstore';
import { lockForTransaction, type Queryable } from '@pcas/sql';
import type { Priorities } from '../domain/port-calls.ts';

export const PRIORITY_STREAMS = [TIMESTAMP_PRIORITIES_STREAM, PAYLOAD_KEY_PRIORITIES_STREAM] as const;

export const isPriorityEvent = (event: Pick<RecordedEvent, 'streamId'>): boolean =>
  (PRIORITY_STREAMS as readonly string[]).includes(event.streamId);

// Both tables in one round trip (read once per projected batch).
const LOAD_PRIORITIES = `SELECT
  (SELECT COALESCE(json_agg(json_build_object('time_type', time_type, 'state', state, 'api_key_id', api_key_id,
            'weight', weight) ORDER BY time_type, state, api_key_id), '[]')
     FROM portcall.timestamp_weights) AS timestamp_weights,
  (SELECT COALESCE(json_agg(json_build_object('payload_key', payload_key, 'api_key_id', api_key_id,
            'weight', weight) ORDER BY payload_key, api_key_id), '[]')
     FROM portcall.payload_key_weights) AS payload_key_weights`;

// The same after taking the vessels' locks (portcall.lock_vessels), one round trip for both: the projection's batch
// needs them together. The priorities are not under those locks, so reading them in the same statement changes
// nothing.
const LOCK_AND_LOAD_PRIORITIES = LOAD_PRIORITIES.replace(
  'SELECT',
  'SELECT portcall.lock_vessels($1::bigint[]) IS NULL AS locked,',
);

export async function loadPriorities(q: Queryable): Promise<Priorities> {
  const { rows } = await q.query<Priorities>(LOAD_PRIORITIES);
  return { timestamp_weights: rows[0].timestamp_weights, payload_key_weights: rows[0].payload_key_weights };
}

/** Takes the vessels' advisory locks (ascending IMO, as lockVessels) and reads the priorities. */
export async function lockVesselsLoadingPriorities(q: Queryable, imos: readonly number[]): Promise<Priorities> {
  const { rows } = await q.query<Priorities>(LOCK_AND_LOAD_PRIORITIES, [imos]);
  return { timestamp_weights: rows[0].timestamp_weights, payload_key_weights: rows[0].payload_key_weights };
}

async function versions(tx: Queryable): Promise<Map<string, number>> {
  const { rows } = await tx.query<{ stream_id: string; version: number }>(
    'SELECT stream_id, version FROM portcall.priority_versions',
  );
  return new Map(rows.map((r) => [r.stream_id, Number(r.version)]));
}

async function applyOne(tx: Queryable, event: RecordedEvent): Promise<void> {
  if (event.type === 'TimestampApiKeyWeightsSet') {
    const d = event.data as TimestampApiKeyWeightsSet;
    await tx.query('DELETE FROM portcall.timestamp_weights WHERE time_type = $1 AND state = $2', [
      d.time_type,
      d.state,
    ]);
    if (d.weights.length > 0) {
      await tx.query(
        `INSERT INTO portcall.timestamp_weights (time_type, state, api_key_id, weight)
         SELECT $1, $2, w.api_key_id, w.weight FROM unnest($3::int[], $4::int[]) AS w(api_key_id, weight)
         ON CONFLICT (time_type, state, api_key_id) DO UPDATE SET weight = EXCLUDED.weight`,
        [d.time_type, d.state, d.weights.map((w) => w.api_key_id), d.weights.map((w) => w.weight)],
      );
    }
  } else if (event.type === 'PayloadKeyApiKeyWeightsSet') {
    const d = event.data as PayloadKeyApiKeyWeightsSet;
    await tx.query('DELETE FROM portcall.payload_key_weights WHERE payload_key = $1', [d.payload_key]);
    if (d.weights.length > 0) {
      await tx.query(
        `INSERT INTO portcall.payload_key_weights (payload_key, api_key_id, weight)
         SELECT $1, w.api_key_id, w.weight FROM unnest($2::int[], $3::int[]) AS w(api_key_id, weight)
         ON CONFLICT (payload_key, api_key_id) DO UPDATE SET weight = EXCLUDED.weight`,
        [d.payload_key, d.weights.map((w) => w.api_key_id), d.weights.map((w) => w.weight)],
      );
    }
  }
}

/** Applies priority events (in stream order); those at or before a stream's applied version are skipped. */
export async function applyPriorityEvents(tx: Queryable, events: readonly RecordedEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  // The live projection and a rebuild may both apply the same events: one after the other, never interleaved.
  await lockForTransaction(tx, 'portcall', 'priorities');
  const applied = await versions(tx);
  let count = 0;
  for (const event of events) {
    if (event.globalPosition <= (applied.get(event.streamId) ?? 0)) continue;
    await applyOne(tx, event);
    applied.set(event.streamId, event.globalPosition);
    count++;
    await tx.query(
      `INSERT INTO portcall.priority_versions (stream_id, version) VALUES ($1, $2)
       ON CONFLICT (stream_id) DO UPDATE SET version = EXCLUDED.version`,
      [event.streamId, event.globalPosition],
    );
  }
  return count;
}

/** Catches the priority tables up with the log (before a rebuild: "the priorities as they are set now"). */
export async function syncPriorities(tx: Queryable, store: EventStore): Promise<number> {
  let count = 0;
  for (const stream of PRIORITY_STREAMS) {
    count += await applyPriorityEvents(tx, await store.readStream(stream, { tx }));
  }
  return count;
}
