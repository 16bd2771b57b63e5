// setTimestampApiKeyWeights and setPayloadKeyApiKeyWeights (the data sources' priorities): decode, validate, load
// the priorities stream under its lock, decide (domain/priorities.ts), append with the loaded version and write the
// weight table in the same transaction (libs/commands), reply.

import { decideAndAppendInTransaction, decodeCommand, eventMetadata } from '@pcas/commands';
import {
  type Actor,
  ApiError,
  PAYLOAD_KEY_PRIORITIES_STREAM,
  type SetPayloadKeyApiKeyWeightsCommand,
  type SetTimestampApiKeyWeightsCommand,
  TIMESTAMP_PRIORITIES_STREAM,
} from '@pcas/contracts';
import { templatePairs } from '@pcas/s211';
import type { Queryable } from '@pcas/sql';
import { loadWeights, lockPriorities, savePayloadKeyWeights, saveTimestampWeights } from '../adapters/priorities.ts';
import {
  decidePayloadKeyWeights,
  decideTimestampWeights,
  type PriorityEvent,
  validatePayloadKeyWeights,
  validateTimestampWeights,
  type WeightsState,
} from '../domain/priorities.ts';
import type { Headers, IngestContext } from './command-context.ts';

export function createPriorityCommands(ctx: IngestContext) {
  const { db, store } = ctx;

  /**
   * Decides a priority change against its stream and appends it with the stream's version, the weight table in the
   * same transaction. Operators changing priorities at the same moment (from any process) take turns on a
   * transaction lock, so each decides against the other's result; the expected version still guards the stream.
   */
  async function changePriorities(
    streamId: string,
    actor: Actor,
    headers: Headers,
    decide: (state: WeightsState) => PriorityEvent[],
    save: (tx: Queryable, event: PriorityEvent) => Promise<void>,
  ): Promise<{ result: 'OK' }> {
    await decideAndAppendInTransaction(db, store, {
      streamId,
      async load(tx) {
        await lockPriorities(tx, streamId);
        return loadWeights(store, streamId, tx);
      },
      decide,
      metadata: eventMetadata(actor, headers),
      async project(tx, events) {
        for (const event of events) await save(tx, event);
      },
    });
    return { result: 'OK' };
  }

  /** POST /timestamp-api-key-weights (the gateway has checked that the API keys exist). */
  async function setTimestampApiKeyWeights(payload: unknown, headers: Headers = {}): Promise<{ result: 'OK' }> {
    const { actor, input } = decodeCommand<SetTimestampApiKeyWeightsCommand>(payload);
    const pairs = templatePairs(ctx.namespace);
    if (!pairs) throw ApiError.badRequest(`No port call template for namespace ${ctx.namespace}`);
    const command = validateTimestampWeights(input, pairs);
    return changePriorities(
      TIMESTAMP_PRIORITIES_STREAM,
      actor,
      headers,
      (state) => decideTimestampWeights(state, command),
      (tx, event) =>
        event.type === 'TimestampApiKeyWeightsSet'
          ? saveTimestampWeights(tx, event.data.time_type, event.data.state, event.data.weights, actor.user_id)
          : Promise.resolve(),
    );
  }

  /** POST /payload-key-api-key-weights. */
  async function setPayloadKeyApiKeyWeights(payload: unknown, headers: Headers = {}): Promise<{ result: 'OK' }> {
    const { actor, input } = decodeCommand<SetPayloadKeyApiKeyWeightsCommand>(payload);
    const command = validatePayloadKeyWeights(input);
    return changePriorities(
      PAYLOAD_KEY_PRIORITIES_STREAM,
      actor,
      headers,
      (state) => decidePayloadKeyWeights(state, command),
      (tx, event) =>
        event.type === 'PayloadKeyApiKeyWeightsSet'
          ? savePayloadKeyWeights(tx, event.data.payload_key, event.data.weights, actor.user_id)
          : Promise.resolve(),
    );
  }

  return { setTimestampApiKeyWeights, setPayloadKeyApiKeyWeights };
}
