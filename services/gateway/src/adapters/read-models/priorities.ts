// GET /timestamp-api-key-weights and GET /payload-key-api-key-weights: the weights are ingest's queries
// (`@pcas/ingest/queries`), given the join on the gateway's API keys written here; the key lists are the gateway's
// own (docs/domain.md#priorities).

import {
  type ApiKeyNames,
  listPayloadKeyWeights as listPayloadKeyWeightsOf,
  listTimestampWeights as listTimestampWeightsOf,
  type PayloadKeyWeightRow,
  type TimestampWeightRow,
} from '@pcas/ingest/queries';
import type { Queryable } from '@pcas/sql';

export type { PayloadKeyWeightRow, TimestampWeightRow, WeightedApiKey } from '@pcas/ingest/queries';

export interface PriorityApiKey {
  id: number;
  name: string;
  is_active: boolean;
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

/** The gateway's API keys as the weight queries join them (`@pcas/ingest/queries`). */
const KEY_NAMES: ApiKeyNames = { join: (id) => `JOIN gateway.api_keys k ON k.id = ${id}`, name: 'k.name' };

/** Every timestamp weight with its key's name, highest weight first within a pair. */
export const listTimestampWeights = (db: Queryable): Promise<TimestampWeightRow[]> =>
  listTimestampWeightsOf(db, KEY_NAMES);

/** Every payload-key weight with its key's name, by payload key, highest weight first. */
export const listPayloadKeyWeights = (db: Queryable): Promise<PayloadKeyWeightRow[]> =>
  listPayloadKeyWeightsOf(db, KEY_NAMES);
