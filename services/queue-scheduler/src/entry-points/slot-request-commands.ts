// The slot requests' commands (docs/queue.md): decode, load what the decision reads (the IMO's nominations and their
// berths' calendars for a placement; the request with its berth, nomination and the berth's other vessels for a
// change) in one statement, decide (domain/slot-requests.ts), append every stream it changes in one statement with
// the versions read, write the rows with the ingest work it leaves, reply; the rest after the commit
// (after-commit.ts). A placement reads many berths but appends to one, and that berth's expected version keeps two
// requests off one gap; a change of a berth's vessels takes the berth's lock, so they take turns.

import { type CommandFunction, decodeCommand, eventMetadata } from '@pcas/commands';
import {
  type Actor,
  ApiError,
  berthStream,
  type CancelSlotRequestInput,
  QueueCommands,
  type SlotRequestData,
  type SlotRequestEvent,
  type SlotRequestInput,
} from '@pcas/contracts';
import type { EventMetadata } from '@pcas/eventstore';
import { RPC_ID_HEADER } from '@pcas/messaging';
import type { Queryable } from '@pcas/sql';
import {
  loadPlacementInputs,
  loadSlotRequest,
  loadSlotRequestForChange,
  pendingSlotRequestIds,
  type SlotRequestForChange,
} from '../adapters/states.ts';
import type { Versioned } from '../adapters/streams.ts';
import { GatheredWrites } from '../adapters/timestamp-outbox.ts';
import { queueSettings } from '../domain/queue-rules.ts';
import {
  cannotFindSlotRequest,
  checkLaytimeBound,
  decideCancel,
  decideComplete,
  decideResolve,
  decideUpdate,
  place,
  readSlotRequest,
  receivedEvent,
} from '../domain/slot-requests.ts';
import { OK, type QueueCommandContext } from './command-context.ts';
import {
  afterCommit,
  appendParts,
  berthPart,
  nominationPart,
  placementParts,
  recordIngestWork,
  type StreamPart,
  settingsOf,
  slotPart,
} from './decision-parts.ts';

/** Every pending slot request (or those of one IMO) placed again, each in its own transaction. */
export async function resolve(
  ctx: QueueCommandContext,
  metadata: EventMetadata,
  actor: Actor,
  imo?: number,
): Promise<void> {
  const { db, store, now, transact } = ctx;
  for (const id of await pendingSlotRequestIds(db, imo)) {
    const after = afterCommit();
    await transact(async (tx) => {
      after.slots = [];
      const loaded = await loadSlotRequest(tx, id);
      if (!loaded) return;
      const slot = loaded.state;
      const nominationId = slot.status === 'no_free_slot' ? slot.nomination_id : null;
      // No lock: a placement may read many berths but appends to one, and that berth's expected version refuses
      // it if another placement took the calendar on meanwhile (then it decides again), so unrelated requests on
      // the other berths never wait for each other.
      const inputs = await loadPlacementInputs(tx, slot.imo, nominationId, false);
      const { nominations, berths } = inputs;
      after.settings = queueSettings(inputs.settings);
      const placed = decideResolve(slot, {
        settings: after.settings,
        now: now(),
        nominations: nominations.map((n) => n.state),
        berths: (berthId) => berths.get(berthId)?.state,
        reservationId: inputs.reservationId,
      });
      if (!placed) return;
      const event: SlotRequestEvent = { type: 'SlotRequestResolved', data: { id, ...placed.placement } };
      const writes = new GatheredWrites();
      const actorId = metadata.user_id ?? null;
      await appendParts(
        tx,
        store,
        [slotPart(id, [event], loaded.version, actorId), ...placementParts(placed, berths, nominations, actorId)],
        metadata,
        writes,
      );
      after.slots.push({ state: { ...slot, ...placed.placement }, event, firstEta: true });
      await recordIngestWork(tx, after, actor, now(), writes);
    });
    ctx.after.finishLater(after);
  }
}

async function createSlotRequest(ctx: QueueCommandContext, payload: unknown, headers: Record<string, unknown>) {
  const { store, now, transact } = ctx;
  const { actor, input } = decodeCommand<SlotRequestInput>(payload);
  const request = readSlotRequest(input);
  const metadata = eventMetadata(actor, headers);
  const after = afterCommit();
  // A request delivered again (its reply lost in a crash) answers OK and creates nothing more: no second slot
  // request, reservation or nomination taken, nothing left to do after the commit. As decideOnce (libs/commands)
  // does, the request's RPC id is claimed in the decision's transaction, here in its first statement and with its
  // reply (always OK) at once: a rollback takes both back, a concurrent delivery waits for the claim's outcome.
  const rpcId = headers[RPC_ID_HEADER];
  const claim = typeof rpcId === 'string' && rpcId !== '' ? { rpcId, reply: OK } : undefined;
  await transact(async (tx) => {
    after.slots = [];
    after.work = [];
    // One statement: the claim, the ids, the IMO's open nominations, their berths' calendars and the settings.
    // No lock (see resolve): the berth's expected version keeps two placements off one gap.
    const inputs = await loadPlacementInputs(tx, request.imo, null, true, claim);
    if (!inputs.claimed) return;
    const { nominations, berths, reservationId } = inputs;
    const id = inputs.slotId as number;
    after.settings = queueSettings(inputs.settings);
    // The bound is a setting, read here: a refusal rolls back the claim and stores nothing.
    checkLaytimeBound(request.laytimeMs, input.agent, after.settings);
    const placed = place(
      id,
      { ...request, nomination_id: null },
      {
        settings: after.settings,
        now: now(),
        nominations: nominations.map((n) => n.state),
        berths: (berthId) => berths.get(berthId)?.state,
        reservationId,
      },
    );
    const event = receivedEvent(id, request, placed);
    // The three streams in one append; the rows go with the ingest work in one statement.
    const writes = new GatheredWrites();
    const actorId = metadata.user_id ?? null;
    await appendParts(
      tx,
      store,
      [slotPart(id, [event], 'no_stream', actorId), ...placementParts(placed, berths, nominations, actorId)],
      metadata,
      writes,
    );
    after.slots.push({ state: event.data as SlotRequestData, event, firstEta: true });
    await recordIngestWork(tx, after, actor, now(), writes);
  });
  ctx.after.finishLater(after);
  return OK;
}

/**
 * Reads a slot request for a change with its berth's lock (loadSlotRequestForChange) and decides on it. Those reads
 * may be from before the lock was had: a decision is checked at its end (appendParts, recordIngestWork), and a
 * refusal stands only once read again under the lock (one statement more, for refusals only).
 */
async function decideOnSlotForChange<T>(
  tx: Queryable,
  id: number,
  decide: (context: SlotRequestForChange) => T,
): Promise<{ context: SlotRequestForChange; decided: T }> {
  for (let again = false; ; again = true) {
    const context = await loadSlotRequestForChange(tx, id);
    try {
      if (!context) throw cannotFindSlotRequest(id);
      return { context, decided: decide(context) };
    } catch (error) {
      if (again || !(error instanceof ApiError)) throw error;
    }
  }
}

/** The berth a change read, to be checked at its end when it appends nothing to it (its parts). */
const berthToCheck = (context: SlotRequestForChange, parts: readonly StreamPart[]) => {
  const id = context.slot.state.berth_id;
  if (!context.berth || id === null || parts.some((p) => p.streamId === berthStream(id))) return undefined;
  return { id, version: context.berth.version };
};

async function updateSlotRequest(ctx: QueueCommandContext, payload: unknown, headers: Record<string, unknown>) {
  const { store, now, transact } = ctx;
  const { actor, input } = decodeCommand<SlotRequestInput & { id: number }>(payload);
  const metadata = eventMetadata(actor, headers);
  const after = afterCommit();
  await transact(async (tx) => {
    after.slots = [];
    after.blocks = [];
    // The slot request, its berth's lock, its berth, nomination, the berth's other vessels (a push forward may
    // move them) and the settings, in one statement.
    const { context, decided: update } = await decideOnSlotForChange(tx, input.id, (c) =>
      decideUpdate(
        c.slot.state,
        {
          laytime: input.laytime,
          jit_eta: input.jit_eta,
          rta_window_start: input.rta_window_start,
          agent: input.agent,
        },
        {
          settings: queueSettings(c.settings),
          berth: c.berth?.state ?? { berth: null, reservations: new Map() },
          nomination: c.nomination?.state,
          slotRequests: (id) => c.others.get(id)?.state,
          nominationWindowEnd: (id) => c.otherWindowEnds.get(id),
        },
      ),
    );
    const { slot: loaded, berth, others } = context;
    const slot = loaded.state;
    after.settings = queueSettings(context.settings);
    // Every stream in one append. The slot requests' rows (one write each) go with the ingest work in one
    // statement; the berth's, when written several times, at once.
    const shifted = update.shiftedSlotEvents.map((e) => e.data.id);
    const oncePerRow = update.slotEvents.length <= 1 && new Set(shifted).size === shifted.length;
    const writes = oncePerRow ? new GatheredWrites() : undefined;
    const actorId = metadata.user_id ?? null;
    const parts: StreamPart[] = [slotPart(slot.id, update.slotEvents, loaded.version, actorId)];
    if (update.berthEvents.length > 0 && berth && slot.berth_id !== null) {
      parts.push(berthPart(slot.berth_id, update.berthEvents, berth.version, actor.user_id));
    }
    for (const event of update.shiftedSlotEvents) {
      const other = others.get(event.data.id) as Versioned<SlotRequestData>;
      parts.push(slotPart(other.state.id, [event], other.version, actorId));
      after.slots.push({ state: { ...other.state, ...event.data } as SlotRequestData, event, firstEta: false });
    }
    await appendParts(tx, store, parts, metadata, writes);
    const own = update.slotEvents[0];
    after.slots.unshift({ state: { ...slot, ...own.data } as SlotRequestData, event: own, firstEta: false });
    after.blocks.push(...update.shiftedBlocks);
    await recordIngestWork(tx, after, actor, now(), writes, berthToCheck(context, parts));
  });
  ctx.after.finishLater(after);
  return OK;
}

async function cancelSlotRequest(ctx: QueueCommandContext, payload: unknown, headers: Record<string, unknown>) {
  const { store, now, transact } = ctx;
  const { actor, input } = decodeCommand<CancelSlotRequestInput>(payload);
  const metadata = eventMetadata(actor, headers);
  const after = afterCommit();
  await transact(async (tx) => {
    after.slots = [];
    const { context, decided: cancel } = await decideOnSlotForChange(tx, input.id, (c) =>
      decideCancel(c.slot.state, input.by_vessel === true, c.berth?.state, c.nomination?.state),
    );
    const { slot: loaded, berth, nomination } = context;
    const slot = loaded.state;
    // Every stream in one append; the rows (one each of the slot request, berth, reservation and nomination)
    // go with the ingest work in one statement.
    const parts: StreamPart[] = [slotPart(slot.id, [cancel.slotEvent], loaded.version, metadata.user_id ?? null)];
    if (cancel.berthEvent && berth && slot.berth_id !== null) {
      parts.push(berthPart(slot.berth_id, [cancel.berthEvent], berth.version, actor.user_id));
    }
    if (cancel.nominationEvent && nomination && slot.nomination_id !== null) {
      parts.push(nominationPart(slot.nomination_id, [cancel.nominationEvent], nomination.version, actor.user_id));
    }
    const writes = new GatheredWrites();
    await appendParts(tx, store, parts, metadata, writes);
    const status = (cancel.slotEvent.data as { status: SlotRequestData['status'] }).status;
    after.slots.push({ state: { ...slot, status }, event: cancel.slotEvent, firstEta: false });
    after.removeTimestampsOf = [slot.id];
    await recordIngestWork(tx, after, actor, now(), writes, berthToCheck(context, parts));
  });
  ctx.after.finishLater(after);
  return OK;
}

/** The completion job: records a slot request completed once its time has passed. */
export async function completeSlotRequest(ctx: QueueCommandContext, id: number): Promise<void> {
  const { store, now, transact } = ctx;
  await transact(async (tx) => {
    const loaded = await loadSlotRequest(tx, id);
    if (!loaded) return;
    const events = decideComplete(loaded.state, await settingsOf(tx), now());
    if (events.length === 0) return;
    await appendParts(tx, store, [slotPart(id, events, loaded.version, null)], {});
  });
}

export function slotRequestCommands(ctx: QueueCommandContext): Record<string, CommandFunction> {
  return {
    [QueueCommands.createSlotRequest]: (payload, headers = {}) => createSlotRequest(ctx, payload, headers),
    [QueueCommands.updateSlotRequest]: (payload, headers = {}) => updateSlotRequest(ctx, payload, headers),
    [QueueCommands.cancelSlotRequest]: (payload, headers = {}) => cancelSlotRequest(ctx, payload, headers),
  };
}
