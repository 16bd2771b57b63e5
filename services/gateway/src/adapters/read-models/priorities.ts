// GET /timestamp-api-key-weights and GET /payload-key-api-key-weights: read-only queries on the ingest service's
// weight tables joined with the gateway's API keys (docs/domain.md#priorities).

import type { Queryable } from '@pcas/sql';

export interface PriorityApiKey {
  id: number;
  name: string;
  is_active: boolean;
}

export interface WeightedApiKey {
  api_key_id: number;
  api_key_name: string;
  weight: number;
}

export interface TimestampWeightRow extends WeightedApiKey {
  time_type: string;
  state: string;
}

export interface PayloadKeyWeightRow extends WeightedApiKey {
  payload_key: string;
}

/** Ingest creates its tables when it starts; until then (a gateway started first) there are no weights. */
async function rowsOrNone<R>(query: Promise<{ rows: R[] }>): Promise<R[]> {
  try {
    return (await query).rows;
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === '42P01') return [];
    throw error;
  }
}

/** Every API key, active or not, sorted by name (ignoring case): what the priority lists are chosen from. */
export async function listPriorityApiKeys(db: Queryable): Promise<PriorityApiKey[]> {
  const { rows } = await db.query<PriorityApiKey>(
    'SELECT id, name, is_active FROM gateway.api_keys ORDER BY lower(name), name, id',
  );
  return rows;
}

/** The keys of these ids that exist (active or not). */
export async function existingApiKeyIds(db: Queryable, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const { rows } = await db.query<{ id: number }>('SELECT id FROM gateway.api_keys WHERE id = ANY($1::int[])', [
    [...ids],
  ]);
  return new Set(rows.map((r) => r.id));
}

/** Every timestamp weight with its key's name, highest weight first within a pair. */
export async function listTimestampWeights(db: Queryable): Promise<TimestampWeightRow[]> {
  return rowsOrNone(
    db.query<TimestampWeightRow>(
      `SELECT w.time_type, w.state, w.api_key_id, k.name AS api_key_name, w.weight
         FROM ingest.timestamp_api_key_weights w JOIN gateway.api_keys k ON k.id = w.api_key_id
        ORDER BY w.time_type, w.state, w.weight DESC, w.api_key_id`,
    ),
  );
}

/** Every payload-key weight with its key's name, by payload key, highest weight first. */
export async function listPayloadKeyWeights(db: Queryable): Promise<PayloadKeyWeightRow[]> {
  return rowsOrNone(
    db.query<PayloadKeyWeightRow>(
      `SELECT w.payload_key, w.api_key_id, k.name AS api_key_name, w.weight
         FROM ingest.payload_key_api_key_weights w JOIN gateway.api_keys k ON k.id = w.api_key_id
        ORDER BY w.payload_key, w.weight DESC, w.api_key_id`,
    ),
  );
}
