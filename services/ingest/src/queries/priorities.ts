// GET /timestamp-api-key-weights and GET /payload-key-api-key-weights, run by the gateway in its process
// (`@pcas/ingest/queries`): read-only queries on this service's weight tables (docs/domain.md#priorities), each
// weight with its API key's name, joined by the SQL the gateway (which owns the API keys) lends.

import type { Queryable } from '@pcas/sql';

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

/** The API key a weight names: a join on the key id expression `id`, and the key's name. */
export interface ApiKeyNames {
  join(id: string): string;
  name: string;
}

/** Every timestamp weight with its key's name, highest weight first within a pair. */
export async function listTimestampWeights(db: Queryable, keys: ApiKeyNames): Promise<TimestampWeightRow[]> {
  return db
    .query<TimestampWeightRow>(
      `SELECT w.time_type, w.state, w.api_key_id, ${keys.name} AS api_key_name, w.weight
         FROM ingest.timestamp_api_key_weights w ${keys.join('w.api_key_id')}
        ORDER BY w.time_type, w.state, w.weight DESC, w.api_key_id`,
    )
    .then((found) => found.rows);
}

/** Every payload-key weight with its key's name, by payload key, highest weight first. */
export async function listPayloadKeyWeights(db: Queryable, keys: ApiKeyNames): Promise<PayloadKeyWeightRow[]> {
  return db
    .query<PayloadKeyWeightRow>(
      `SELECT w.payload_key, w.api_key_id, ${keys.name} AS api_key_name, w.weight
         FROM ingest.payload_key_api_key_weights w ${keys.join('w.api_key_id')}
        ORDER BY w.payload_key, w.weight DESC, w.api_key_id`,
    )
    .then((found) => found.rows);
}
