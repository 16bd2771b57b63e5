// The berths' commands (docs/queue.md): decode, load the berth under its lock, decide (domain/berths.ts), append
// with the version read, write its row, reply. A create is decided once per request (libs/commands decideOnce).

import { type CommandFunction, decodeCommand, eventMetadata } from '@pcas/commands';
import { type BerthEvent, type BerthInput, berthStream, QueueCommands } from '@pcas/contracts';
import type { EventMetadata } from '@pcas/eventstore';
import { projectBerth } from '../adapters/read-models.ts';
import { loadBerth } from '../adapters/states.ts';
import { appendTo, lockBerths, nextId } from '../adapters/streams.ts';
import { type BerthState, decideCreateBerth, decideDeleteBerth, decideUpdateBerth } from '../domain/berths.ts';
import { OK, type QueueCommandContext } from './command-context.ts';

type BerthChange = (state: BerthState, input: BerthInput & { id: number }) => BerthEvent[];

/**
 * A change of a berth or of its calendar (the port's blocks): the berth read under its lock, the decision appended
 * with the version read, its rows written in the same transaction.
 */
export function decideOnBerth(
  { decideAndAppend }: QueueCommandContext,
  berthId: number,
  decide: (state: BerthState) => BerthEvent[],
  metadata: EventMetadata,
  actorId: number | null,
) {
  return decideAndAppend({
    streamId: berthStream(berthId),
    async load(tx) {
      await lockBerths(tx, [berthId]);
      return loadBerth(tx, berthId);
    },
    decide,
    metadata,
    project: (tx, events, appended) => projectBerth(tx, berthId, events, appended.nextExpectedVersion, actorId),
  });
}

export function berthCommands(context: QueueCommandContext): Record<string, CommandFunction> {
  const { store, createOnce } = context;

  async function createBerth(payload: unknown, headers: Record<string, unknown> = {}) {
    const { actor, input } = decodeCommand<BerthInput>(payload);
    const metadata = eventMetadata(actor, headers);
    return createOnce(headers, async (tx) => {
      const id = await nextId(tx, 'berth_ids');
      const events = decideCreateBerth(id, input);
      const next = await appendTo(tx, store, berthStream(id), events, 'no_stream', metadata);
      await projectBerth(tx, id, events, next, actor.user_id);
      return OK;
    });
  }

  const changeBerth =
    (decide: BerthChange) =>
    async (payload: unknown, headers: Record<string, unknown> = {}) => {
      const { actor, input } = decodeCommand<BerthInput & { id: number }>(payload);
      const metadata = eventMetadata(actor, headers);
      await decideOnBerth(context, input.id, (state) => decide(state, input), metadata, actor.user_id);
      return OK;
    };

  return {
    [QueueCommands.createBerth]: createBerth,
    [QueueCommands.updateBerth]: changeBerth(decideUpdateBerth),
    [QueueCommands.deleteBerth]: changeBerth((state, input) => decideDeleteBerth(state, input.id)),
  };
}
