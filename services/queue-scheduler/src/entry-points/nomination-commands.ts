// The nominations' commands (docs/queue.md): decode, load the nomination (and the berths it names), decide
// (domain/nominations.ts), append with the version read, write its row, reply; then its expiry is armed and the
// vessel's waiting slot requests are placed again. A create is decided once per request (decideOnce).

import { type CommandFunction, decodeCommand, eventMetadata } from '@pcas/commands';
import {
  type IdInput,
  type NominationEvent,
  type NominationInput,
  nominationStream,
  QueueCommands,
} from '@pcas/contracts';
import type { Queryable } from '@pcas/sql';
import { parseAtom } from '@pcas/values';
import { projectNomination } from '../adapters/read-models.ts';
import { loadBerth, loadNomination } from '../adapters/states.ts';
import { appendTo, nextId } from '../adapters/streams.ts';
import type { BerthState } from '../domain/berths.ts';
import {
  decideCreateNomination,
  decideDeleteNomination,
  decideExpireNomination,
  decideUpdateNomination,
  type NominationContext,
} from '../domain/nominations.ts';
import { OK, type QueueCommandContext } from './command-context.ts';

export function nominationCommands(context: QueueCommandContext) {
  const { store, now, timeZone, createOnce, decideAndAppend, resolve } = context;

  /** The berths a nomination names, as they are now (unknown ones left out: the decision refuses them). */
  async function nominationContext(tx: Queryable, berthIds: unknown[] | undefined): Promise<NominationContext> {
    const berths = new Map<number, NonNullable<BerthState['berth']>>();
    for (const raw of berthIds ?? []) {
      const id = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : raw;
      if (typeof id !== 'number' || !Number.isSafeInteger(id) || id > 2_147_483_647 || id < 0) continue;
      const berth = (await loadBerth(tx, id)).state.berth;
      if (berth) berths.set(id, berth);
    }
    return { now: now(), timeZone, berths: (id) => berths.get(id) };
  }

  async function scheduleExpiry(id: number, windowEnd: string) {
    const at = parseAtom(windowEnd);
    if (at !== undefined) await context.jobs?.expireNomination(id, at + 1000);
  }

  async function createNomination(payload: unknown, headers: Record<string, unknown> = {}) {
    const { actor, input } = decodeCommand<NominationInput>(payload);
    const metadata = eventMetadata(actor, headers);
    // A request delivered again answers with what the first delivery created (its expiry armed again: a no-op).
    const created = await createOnce(headers, async (tx) => {
      const berths = await nominationContext(tx, input.berth_ids);
      const id = await nextId(tx, 'nomination_ids');
      const events = decideCreateNomination(id, input, berths, input.owner_user_id ?? actor.user_id);
      const next = await appendTo(tx, store, nominationStream(id), events, 'no_stream', metadata);
      await projectNomination(tx, events, next, actor.user_id);
      const { window_end } = events[0].data as { window_end: string };
      return { id, window_end };
    });
    await scheduleExpiry(created.id, created.window_end);
    await resolve(metadata, actor, input.imo);
    return OK;
  }

  async function updateNomination(payload: unknown, headers: Record<string, unknown> = {}) {
    const { actor, input } = decodeCommand<NominationInput & { id: number }>(payload);
    const metadata = eventMetadata(actor, headers);
    const { events } = await decideAndAppend({
      streamId: nominationStream(input.id),
      async load(tx) {
        const { state, version } = await loadNomination(tx, input.id);
        return { state: { nomination: state, berths: await nominationContext(tx, input.berth_ids) }, version };
      },
      decide: ({ nomination, berths }) => decideUpdateNomination(nomination, input, berths, actor.user_id),
      metadata,
      project: (tx, decided, appended) => projectNomination(tx, decided, appended.nextExpectedVersion, actor.user_id),
    });
    const updated = events[0]?.data as { id: number; window_end: string; imo: number } | undefined;
    if (updated) {
      await scheduleExpiry(updated.id, updated.window_end);
      await resolve(metadata, actor, updated.imo);
    }
    return OK;
  }

  /** A nomination's change that needs nothing but the nomination itself. */
  const decideOnNomination = (
    id: number,
    decide: (state: Awaited<ReturnType<typeof loadNomination>>['state']) => NominationEvent[],
    metadata: ReturnType<typeof eventMetadata>,
    actorId: number | null,
  ) =>
    decideAndAppend({
      streamId: nominationStream(id),
      load: (tx) => loadNomination(tx, id),
      decide,
      metadata,
      project: (tx, events, appended) => projectNomination(tx, events, appended.nextExpectedVersion, actorId),
    });

  async function deleteNomination(payload: unknown, headers: Record<string, unknown> = {}) {
    const { actor, input } = decodeCommand<IdInput & { own?: boolean }>(payload);
    await decideOnNomination(
      input.id,
      (state) => decideDeleteNomination(state, input.id, now(), actor.user_id, input.own === true),
      eventMetadata(actor, headers),
      actor.user_id,
    );
    return OK;
  }

  /** The expiry job: records an ended window (nothing when it is no longer due). */
  async function expireNomination(id: number): Promise<void> {
    await decideOnNomination(id, (state) => decideExpireNomination(state, now()), {}, null);
  }

  const handlers: Record<string, CommandFunction> = {
    [QueueCommands.createNomination]: createNomination,
    [QueueCommands.updateNomination]: updateNomination,
    [QueueCommands.deleteNomination]: deleteNomination,
  };
  return { handlers, expireNomination };
}
