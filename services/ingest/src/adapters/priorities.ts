// The priorities-* streams and their read tables: `ingest.timestamp_api_key_weights` (admission reads it on every
// API-key post; the gateway lists it) and `ingest.payload_key_api_key_weights` (the gateway lists it). Both are
// written in the same transaction as the event that changes them.

import type { ApiKeyWeight } from '@pcas/contracts';
import type { EventStore } from '@pcas/eventstore';
import { lockForTransaction, type Queryable } from '@pcas/sql';
import { evolveWeights, type WeightsState } from '../domain/priorities.ts';

/** Serialises changes of one priorities stream until the transaction ends (they are rare and made by hand). */
export async function lockPriorities(tx: Queryable, streamId: string): Promise<void> {
  await lockForTransaction(tx, 'ingest-priorities', streamId);
}

/** The stream's current weights and its version (0: no stream yet). */
export async function loadWeights(
  store: EventStore,
  streamId: string,
  tx?: Queryable,
): Promise<{ state: WeightsState; version: number }> {
  const events = await store.readStream(streamId, { tx });
  return { state: evolveWeights(events), version: events.at(-1)?.streamPosition ?? 0 };
}

/** The key's weight for (time type, state); undefined when it has none (its posts of the pair are refused). */
export async function findTimestampWeight(
  q: Queryable,
  timeType: string,
  state: string,
  apiKeyId: number,
): Promise<number | undefined> {
  const { rows } = await q.query<{ weight: number }>(
    'SELECT weight FROM ingest.timestamp_api_key_weights WHERE time_type = $1 AND state = $2 AND api_key_id = $3',
    [timeType, state, apiKeyId],
  );
  return rows[0]?.weight;
}

/** Weights of many (time type, state, API key) at once: `time_type|state|api_key_id` → weight, for those that have one. */
export async function findTimestampWeights(
  q: Queryable,
  wanted: { time_type: string; state: string; api_key_id: number }[],
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  if (wanted.length === 0) return found;
  const { rows } = await q.query<{ time_type: string; state: string; api_key_id: number; weight: number }>(
    `SELECT w.time_type, w.state, w.api_key_id, w.weight FROM ingest.timestamp_api_key_weights w
       JOIN unnest($1::text[], $2::text[], $3::int[]) AS x (time_type, state, api_key_id)
         ON w.time_type = x.time_type AND w.state = x.state AND w.api_key_id = x.api_key_id`,
    [wanted.map((w) => w.time_type), wanted.map((w) => w.state), wanted.map((w) => w.api_key_id)],
  );
  for (const r of rows) found.set(weightKey(r.time_type, r.state, r.api_key_id), r.weight);
  return found;
}

export const weightKey = (timeType: string, state: string, apiKeyId: number) => `${timeType}|${state}|${apiKeyId}`;

/** Replaces the pair's rows with these weights (none: the pair has no priorities any more). */
export async function saveTimestampWeights(
  tx: Queryable,
  timeType: string,
  state: string,
  weights: readonly ApiKeyWeight[],
  userId: number | null,
): Promise<void> {
  await tx.query('DELETE FROM ingest.timestamp_api_key_weights WHERE time_type = $1 AND state = $2', [timeType, state]);
  if (weights.length === 0) return;
  await tx.query(
    `INSERT INTO ingest.timestamp_api_key_weights (time_type, state, api_key_id, weight, modified_by)
     SELECT $1, $2, w.api_key_id, w.weight, $5 FROM unnest($3::int[], $4::int[]) AS w(api_key_id, weight)`,
    [timeType, state, weights.map((w) => w.api_key_id), weights.map((w) => w.weight), userId],
  );
}

export async function savePayloadKeyWeights(
  tx: Queryable,
  payloadKey: string,
  weights: readonly ApiKeyWeight[],
  userId: number | null,
): Promise<void> {
  await tx.query('DELETE FROM ingest.payload_key_api_key_weights WHERE payload_key = $1', [payloadKey]);
  if (weights.length === 0) return;
  await tx.query(
    `INSERT INTO ingest.payload_key_api_key_weights (payload_key, api_key_id, weight, modified_by)
     SELECT $1, w.api_key_id, w.weight, $4 FROM unnest($2::int[], $3::int[]) AS w(api_key_id, weight)`,
    [payloadKey, weights.map((w) => w.api_key_id), weights.map((w) => w.weight), userId],
  );
}
