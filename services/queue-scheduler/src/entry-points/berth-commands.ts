// The berths' commands (docs/queue.md): decode, load the berth under its lock, decide (domain/berths.ts), append
// with the version read, write its row, reply. A create is decided once per request (libs/commands decideOnce).

import {
  type CommandFunction,
  decideAndAppendInTransaction,
  decideOnce,
  decodeCommand,
  eventMetadata,
} from '@pcas/commands';
import { type BerthEvent, type BerthInput, berthStream, QueueCommands } from '@pcas/contracts';
import { projectBerth } from '../adapters/read-models.ts';
import { loadBerth } from '../adapters/states.ts';
import { appendTo, lockBerths, nextId } from '../adapters/streams.ts';
import { type BerthState, decideCreateBerth, decideDeleteBerth, decideUpdateBerth } from '../domain/berths.ts';
import { OK, type QueueCommandContext } from './command-context.ts';

type BerthChange = (state: BerthState, input: BerthInput & { id: number }) => BerthEvent[];

export function berthCommands({ db, store, transact, retry }: QueueCommandContext): Record<string, CommandFunction> {
  async function createBerth(payload: unknown, headers: Record<string, unknown> = {}) {
    const { actor, input } = decodeCommand<BerthInput>(payload);
    const metadata = eventMetadata(actor, headers);
    return transact((tx) =>
      decideOnce(tx, 'queue', headers, async () => {
        const id = await nextId(tx, 'berth_ids');
        const events = decideCreateBerth(id, input);
        const next = await appendTo(tx, store, berthStream(id), events, 'no_stream', metadata);
        await projectBerth(tx, id, events, next, actor.user_id);
        return OK;
      }),
    );
  }

  const changeBerth =
    (decide: BerthChange) =>
    async (payload: unknown, headers: Record<string, unknown> = {}) => {
      const { actor, input } = decodeCommand<BerthInput & { id: number }>(payload);
      await decideAndAppendInTransaction(
        db,
        store,
        {
          streamId: berthStream(input.id),
          async load(tx) {
            await lockBerths(tx, [input.id]);
            return loadBerth(tx, input.id);
          },
          decide: (state) => decide(state, input),
          metadata: eventMetadata(actor, headers),
          project: (tx, events, appended) =>
            projectBerth(tx, input.id, events, appended.nextExpectedVersion, actor.user_id),
        },
        retry,
      );
      return OK;
    };

  return {
    [QueueCommands.createBerth]: createBerth,
    [QueueCommands.updateBerth]: changeBerth(decideUpdateBerth),
    [QueueCommands.deleteBerth]: changeBerth((state, input) => decideDeleteBerth(state, input.id)),
  };
}
