// Priorities between data sources (docs/domain.md#priorities): which API keys may post a
// (time type, state) and which one wins, and the same ordering per payload key. The gateway checks the input
// (it owns the API keys) and lists the weights; the ingest service owns and stores them.

import {
  ApiError,
  INGEST,
  IngestCommands,
  type SetPayloadKeyApiKeyWeightsCommand,
  type SetTimestampApiKeyWeightsCommand,
} from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import { priorityPairProblem, type TimestampPair, templatePairs } from '@pcas/s211';
import {
  existingApiKeyIds,
  listPayloadKeyWeights,
  listPriorityApiKeys,
  listTimestampWeights,
  type WeightedApiKey,
} from '../../adapters/read-models/priorities.ts';
import { sendAs } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { array, text } from './params.ts';

const shown = (value: unknown) => (value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value));

/** The template's pairs (the only ones that can have priorities), or the original's 400 when there is none. */
function pairsOf(namespace: string): readonly TimestampPair[] {
  const pairs = templatePairs(namespace);
  if (!pairs) throw ApiError.badRequest(`No port call template for namespace ${namespace}`);
  return pairs;
}

/** `api_key_ids` is a PHP array: a JSON list, or an object by its values in order. */
const idList = (value: unknown[] | Record<string, unknown>): unknown[] =>
  Array.isArray(value) ? value : Object.values(value);

/** PHP's array_unique compares values as strings, so 5 and "5" are the same id. */
function assertNoDuplicates(ids: readonly unknown[]): void {
  if (new Set(ids.map(shown)).size !== ids.length) throw ApiError.badRequest('Duplicate API key ID values not allowed');
}

/** Each id must name an API key (active or not), in list order; returns them as numbers. */
async function knownApiKeyIds(deps: GatewayDeps, ids: readonly unknown[]): Promise<number[]> {
  const numbers = ids.map((id) =>
    typeof id === 'number' && Number.isSafeInteger(id) && id > 0
      ? id
      : typeof id === 'string' && /^[0-9]{1,9}$/.test(id) && Number(id) > 0
        ? Number(id)
        : null,
  );
  const existing = await existingApiKeyIds(
    deps.db,
    numbers.filter((n): n is number => n !== null && n <= 2_147_483_647),
  );
  numbers.forEach((n, i) => {
    if (n === null || !existing.has(n)) throw ApiError.badRequest(`Invalid api key ID: ${shown(ids[i])}`);
  });
  return numbers as number[];
}

const toListed = ({ api_key_id, api_key_name, weight }: WeightedApiKey): WeightedApiKey => ({
  api_key_id,
  api_key_name,
  weight,
});

export function priorityRoutes(deps: GatewayDeps): Route[] {
  const { db, bus, config } = deps;

  return [
    {
      method: 'GET',
      path: '/timestamp-api-key-weights',
      permission: 'manage_api_key',
      params: {},
      async handle() {
        const pairs = pairsOf(config.namespace);
        const [apiKeys, rows] = await Promise.all([listPriorityApiKeys(db), listTimestampWeights(db)]);
        return {
          api_keys: apiKeys,
          // One entry per template pair, listed or not; weights of pairs no longer in the template are not shown.
          timestamps: pairs.map(({ time_type, state }) => ({
            time_type,
            state,
            api_keys: rows.filter((r) => r.time_type === time_type && r.state === state).map(toListed),
          })),
        };
      },
    },
    {
      method: 'POST',
      path: '/timestamp-api-key-weights',
      permission: 'manage_api_key',
      params: {
        timestamp_time_type: text(),
        timestamp_state: text(),
        api_key_ids: array(),
      },
      async handle(ctx) {
        const { timestamp_time_type: timeType, timestamp_state: state } = ctx.params;
        const ids = idList(ctx.params.api_key_ids);
        assertNoDuplicates(ids);
        const pairs = pairsOf(config.namespace);
        const problem = priorityPairProblem(pairs, timeType, state);
        if (problem) throw ApiError.badRequest(problem);
        await sendAs<SetTimestampApiKeyWeightsCommand>(
          bus,
          INGEST,
          IngestCommands.setTimestampApiKeyWeights,
          ctx.auth,
          { time_type: timeType, state, api_key_ids: await knownApiKeyIds(deps, ids) },
        );
        return { result: 'OK' };
      },
    },
    {
      method: 'GET',
      path: '/payload-key-api-key-weights',
      permission: 'manage_api_key',
      params: {},
      async handle() {
        const [apiKeys, rows] = await Promise.all([listPriorityApiKeys(db), listPayloadKeyWeights(db)]);
        // Only keys that have weights, in the rows' order (by key).
        const byKey = new Map<string, WeightedApiKey[]>();
        for (const row of rows) {
          const listed = byKey.get(row.payload_key) ?? [];
          listed.push(toListed(row));
          byKey.set(row.payload_key, listed);
        }
        return {
          api_keys: apiKeys,
          payload_keys: [...byKey].map(([key, apiKeyWeights]) => ({ key, api_keys: apiKeyWeights })),
        };
      },
    },
    {
      method: 'POST',
      path: '/payload-key-api-key-weights',
      permission: 'manage_api_key',
      params: {
        payload_key: text(),
        api_key_ids: array(),
      },
      async handle(ctx) {
        const ids = idList(ctx.params.api_key_ids);
        assertNoDuplicates(ids);
        await sendAs<SetPayloadKeyApiKeyWeightsCommand>(
          bus,
          INGEST,
          IngestCommands.setPayloadKeyApiKeyWeights,
          ctx.auth,
          { payload_key: ctx.params.payload_key, api_key_ids: await knownApiKeyIds(deps, ids) },
        );
        return { result: 'OK' };
      },
    },
  ];
}
