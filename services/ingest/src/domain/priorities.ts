// Priorities (docs/domain.md#priorities): API-key weights per timestamp (time type, state) and
// per payload key, set as ordered lists, and the admission rule they imply for timestamps posted with an API
// key. Pure: the caller loads the current weights and stores the events.

import {
  type Actor,
  ApiError,
  type ApiKeyWeight,
  type PayloadKeyApiKeyWeightsSet,
  type SetPayloadKeyApiKeyWeightsCommand,
  type SetTimestampApiKeyWeightsCommand,
  type TimestampApiKeyWeightsSet,
} from '@pcas/contracts';
import { priorityPairProblem, type TimestampPair } from '@pcas/s211';

/** What a manual timestamp weighs: more than any API key (`MAX_TIMESTAMP_WEIGHT`). */
export const MANUAL_TIMESTAMP_WEIGHT = 999;

export const NO_PERMISSION_TO_POST = 'No permission to post given timestamp data';

/**
 * The weight a post is admitted with (docs/domain.md#admission): a timestamp posted with an API key needs that key's
 * weight for its (time type, state), else 403 and nothing is stored; a person's manual timestamp always gets in
 * and weighs 999. A data-source post without a key has no weight either.
 */
export function admitTimestamp(post: { manual: boolean; actor: Actor }, keyWeight: number | undefined): number {
  if (post.actor.api_key_id === null && post.manual) return MANUAL_TIMESTAMP_WEIGHT;
  if (keyWeight === undefined) throw ApiError.forbidden(NO_PERMISSION_TO_POST);
  return keyWeight;
}

/** Whether admitting the post needs a weight lookup at all. */
export const needsKeyWeight = (post: { manual: boolean; actor: Actor }): boolean =>
  !(post.actor.api_key_id === null && post.manual);

/** An ordered priority list, first = highest: weight N − index, so [k2, k1] gives k2 2 and k1 1. */
export function weightsFromOrder(apiKeyIds: readonly number[]): ApiKeyWeight[] {
  return apiKeyIds.map((api_key_id, index) => ({ api_key_id, weight: apiKeyIds.length - index }));
}

/** The same weights, whatever their order. */
export function sameWeights(a: readonly ApiKeyWeight[], b: readonly ApiKeyWeight[]): boolean {
  if (a.length !== b.length) return false;
  const byKey = new Map(a.map((w) => [w.api_key_id, w.weight]));
  return b.every((w) => byKey.get(w.api_key_id) === w.weight);
}

/** Highest weight first, as the lists are shown. */
export const byWeightDesc = (weights: readonly ApiKeyWeight[]): ApiKeyWeight[] =>
  [...weights].sort((x, y) => y.weight - x.weight || x.api_key_id - y.api_key_id);

// ---- input checks, in the original's order: duplicates, then the pair, then each id ----

const wrongType = (name: string, type: string, value: unknown) =>
  ApiError.badRequest(`Wrong parameter type: ${name} should be ${type} but got '${String(value)}'`);

function requireString(name: string, value: unknown): string {
  if (typeof value !== 'string') throw wrongType(name, 'string', value);
  return value;
}

/** A PHP array: a JSON list, or an object by its values in order. */
function idList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value !== null && typeof value === 'object') return Object.values(value);
  throw wrongType('api_key_ids', 'array', value);
}

/** PHP's array_unique compares values as strings, so 5 and "5" are the same id. */
function assertNoDuplicates(ids: readonly unknown[]): void {
  if (new Set(ids.map((id) => (typeof id === 'object' ? JSON.stringify(id) : String(id)))).size !== ids.length) {
    throw ApiError.badRequest('Duplicate API key ID values not allowed');
  }
}

/** Largest id an API key can have (the tables' integer columns). */
const MAX_API_KEY_ID = 2_147_483_647;

/** An id as a positive integer (JSON number or digit string), or 400 naming it. */
export function apiKeyIdOf(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^[0-9]{1,15}$/.test(value) ? +value : NaN;
  if (!Number.isSafeInteger(n) || n <= 0 || n > MAX_API_KEY_ID) {
    throw ApiError.badRequest(
      `Invalid api key ID: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
    );
  }
  return n;
}

/**
 * Only the port's template can have priorities: its time types and its states, each checked on its own as the
 * original app does (see `priorityPairProblem`).
 */
export function assertTemplatePair(pairs: readonly TimestampPair[], timeType: string, state: string): void {
  const problem = priorityPairProblem(pairs, timeType, state);
  if (problem) throw ApiError.badRequest(problem);
}

/** Checks a timestamp-weights command against the port's template pairs; returns it with numeric ids. */
export function validateTimestampWeights(
  input: Partial<Record<keyof SetTimestampApiKeyWeightsCommand, unknown>>,
  pairs: readonly TimestampPair[],
): SetTimestampApiKeyWeightsCommand {
  const timeType = requireString('timestamp_time_type', input.time_type);
  const state = requireString('timestamp_state', input.state);
  const ids = idList(input.api_key_ids);
  assertNoDuplicates(ids);
  assertTemplatePair(pairs, timeType, state);
  return { time_type: timeType, state, api_key_ids: ids.map(apiKeyIdOf) };
}

/** Any payload key string is accepted (only the keys the port-call scan maps have an effect). */
export function validatePayloadKeyWeights(
  input: Partial<Record<keyof SetPayloadKeyApiKeyWeightsCommand, unknown>>,
): SetPayloadKeyApiKeyWeightsCommand {
  const payloadKey = requireString('payload_key', input.payload_key);
  const ids = idList(input.api_key_ids);
  assertNoDuplicates(ids);
  return { payload_key: payloadKey, api_key_ids: ids.map(apiKeyIdOf) };
}

// ---- state from the priorities-* streams, and what a change appends ----

export type PriorityEvent =
  | { type: 'TimestampApiKeyWeightsSet'; data: TimestampApiKeyWeightsSet }
  | { type: 'PayloadKeyApiKeyWeightsSet'; data: PayloadKeyApiKeyWeightsSet };

/** Current weights by key: `time_type\0state` for timestamps, the payload key for payload keys. */
export type WeightsState = ReadonlyMap<string, readonly ApiKeyWeight[]>;

export const pairKey = (timeType: string, state: string): string => `${timeType}\u0000${state}`;

/** Folds weight events into the current weights; other events are ignored. */
export function evolveWeights(events: readonly { type: string; data: unknown }[]): WeightsState {
  const state = new Map<string, readonly ApiKeyWeight[]>();
  for (const event of events) {
    let key: string;
    let weights: readonly ApiKeyWeight[];
    if (event.type === 'TimestampApiKeyWeightsSet') {
      const data = event.data as TimestampApiKeyWeightsSet;
      key = pairKey(data.time_type, data.state);
      weights = data.weights;
    } else if (event.type === 'PayloadKeyApiKeyWeightsSet') {
      const data = event.data as PayloadKeyApiKeyWeightsSet;
      key = data.payload_key;
      weights = data.weights;
    } else continue;
    if (weights.length === 0) state.delete(key);
    else state.set(key, weights);
  }
  return state;
}

/** Replace semantics: the list's weights become the pair's weights; nothing is appended when they are unchanged. */
export function decideTimestampWeights(
  state: WeightsState,
  command: SetTimestampApiKeyWeightsCommand,
): PriorityEvent[] {
  const weights = weightsFromOrder(command.api_key_ids);
  if (sameWeights(state.get(pairKey(command.time_type, command.state)) ?? [], weights)) return [];
  return [{ type: 'TimestampApiKeyWeightsSet', data: { time_type: command.time_type, state: command.state, weights } }];
}

export function decidePayloadKeyWeights(
  state: WeightsState,
  command: SetPayloadKeyApiKeyWeightsCommand,
): PriorityEvent[] {
  const weights = weightsFromOrder(command.api_key_ids);
  if (sameWeights(state.get(command.payload_key) ?? [], weights)) return [];
  return [{ type: 'PayloadKeyApiKeyWeightsSet', data: { payload_key: command.payload_key, weights } }];
}
