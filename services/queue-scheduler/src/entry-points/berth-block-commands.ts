// The berth reservations the port makes by hand, its blocks (docs/queue.md): decode, load the berth's calendar
// under the berth's lock, decide (domain/berths.ts), append with the version read, write the rows, reply; then the
// slot requests waiting for a free slot are placed again. A create is decided once per request (decideOnce).

import { type CommandFunction, decodeCommand, eventMetadata } from '@pcas/commands';
import { ApiError, type BerthEvent, type BerthReservationInput, berthStream, QueueCommands } from '@pcas/contracts';
import { projectBerth } from '../adapters/read-models.ts';
import { berthOfReservation, loadBerth, loadSlotRequest } from '../adapters/states.ts';
import { appendTo, lockBerths, nextId } from '../adapters/streams.ts';
import {
  type BerthState,
  decideCreateReservation,
  decideMoveReservation,
  decideRemoveReservation,
} from '../domain/berths.ts';
import { decideOnBerth } from './berth-commands.ts';
import { OK, type QueueCommandContext } from './command-context.ts';

type BlockChange = (state: BerthState, input: BerthReservationInput & { id: number }) => BerthEvent[];

export function berthBlockCommands(context: QueueCommandContext): Record<string, CommandFunction> {
  const { db, store, createOnce, resolve } = context;

  async function createBerthReservation(payload: unknown, headers: Record<string, unknown> = {}) {
    const { actor, input } = decodeCommand<BerthReservationInput>(payload);
    const metadata = eventMetadata(actor, headers);
    const berthId = input.berth_id as number;
    await createOnce(headers, async (tx) => {
      await lockBerths(tx, [berthId]);
      const { state, version } = await loadBerth(tx, berthId);
      const slotId = input.slot_reservation_id ?? null;
      const slotExists = slotId !== null && (await loadSlotRequest(tx, slotId)) !== undefined;
      const id = await nextId(tx, 'berth_reservation_ids');
      const events = decideCreateReservation(state, berthId, id, input, slotExists);
      const next = await appendTo(tx, store, berthStream(berthId), events, version, metadata);
      await projectBerth(tx, berthId, events, next, actor.user_id);
      return OK;
    });
    await resolve(metadata, actor);
    return OK;
  }

  const changeReservation =
    (decide: BlockChange) =>
    async (payload: unknown, headers: Record<string, unknown> = {}) => {
      const { actor, input } = decodeCommand<BerthReservationInput & { id: number }>(payload);
      const metadata = eventMetadata(actor, headers);
      // A reservation stays on the berth it was made on: which berth is read once, its calendar under its lock.
      const berthId = await berthOfReservation(db, input.id);
      if (berthId === undefined) {
        throw ApiError.badRequest(`Cannot find berth reservation instance with given id: ${input.id}`);
      }
      const { appended } = await decideOnBerth(
        context,
        berthId,
        (state) => decide(state, input),
        metadata,
        actor.user_id,
      );
      if (appended) await resolve(metadata, actor);
      return OK;
    };

  return {
    [QueueCommands.createBerthReservation]: createBerthReservation,
    [QueueCommands.updateBerthReservation]: changeReservation((state, input) =>
      decideMoveReservation(state, input.id, input),
    ),
    [QueueCommands.deleteBerthReservation]: changeReservation((state, input) =>
      decideRemoveReservation(state, input.id),
    ),
  };
}
