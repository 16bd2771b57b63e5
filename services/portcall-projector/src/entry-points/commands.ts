// RPC handlers of `cmd.portcall-projector`: the manual port-call corrections (docs/domain.md#corrections).
// Each is decided against the vessel's current state (the read model caught up with its stream, under
// the vessel's lock) and appended to `vessel-<imo>` with the stream's version as the expected version, so two
// racing corrections cannot both apply to a state that one of them changed. The projection then applies the event
// like any other; the reply waits (boundedly) until it has, so the caller reads its own change.

import {
  commandHandler,
  decideAndAppendInTransaction,
  decodeCommand,
  eventMetadata,
  invalidTimestampId,
  parseTimestampId,
  positiveId,
  type Unchecked,
} from '@pcas/commands';
import {
  ApiError,
  type AttachOrphansCommand,
  type PortCallIdCommand,
  type PortCallRangeReply,
  PortcallCommands,
  type RebuildVesselCommand,
  type SetLiveEtaCommand,
  type SetPortCallRangeCommand,
  type SetPortCallRtaCommand,
  type SetVesselVisibilityCommand,
  type UnsetPortCallIdCommand,
  type UpdatePortCallIdCommand,
  vesselStream,
} from '@pcas/contracts';
import type { EventMetadata, EventStore } from '@pcas/eventstore';
import type { Logger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import { syncPriorities } from '../adapters/priorities.ts';
import { currentVessel, type ProjectorRules, rebuildVessels, type TimerChange } from '../adapters/projection.ts';
import { imoOfStream } from '../adapters/vessel-streams.ts';
import {
  decideAttachOrphans,
  decideForceClose,
  decideForceScan,
  decideSetLiveEta,
  decideSetPortCallRange,
  decideSetPortCallRta,
  decideUnsetPortCallId,
  decideUpdatePortCallId,
  decideVesselVisibility,
  invalidPortCallId,
  type PortCallCommandEvent,
  type PortCallRtaEvent,
  portCallOf,
  portCallRange,
  type VesselPortCalls,
} from '../domain/port-calls.ts';

export interface PortcallCommandDeps {
  db: Db;
  store: EventStore;
  rules: ProjectorRules;
  log: Logger;
  /** Arms the timers a rebuild moved (after its commit). */
  onTimers?: (changes: TimerChange[]) => Promise<void>;
  /** How long a reply waits for the projection to apply the appended event (default 3000 ms; 0: no wait). */
  projectionWaitMs?: number;
}

type Ok = { result: 'OK' | 'ERROR' };
const OK: Ok = { result: 'OK' };

function flagOf(value: unknown, fallback: boolean): boolean | undefined {
  if (value === undefined || value === null || value === '') return fallback;
  if (value === true || value === 'true' || value === 1 || value === '1') return true;
  if (value === false || value === 'false' || value === 0 || value === '0') return false;
  return undefined;
}

export function createPortcallCommands(deps: PortcallCommandDeps) {
  const { db, store, rules, log } = deps;
  const waitMs = deps.projectionWaitMs ?? 3_000;

  /** The vessel whose stream holds this global position (port-call and timestamp ids are such positions). */
  async function vesselOfPosition(position: number): Promise<{ imo: number; type: string } | undefined> {
    const event = await store.readByGlobalPosition(position);
    const imo = event ? imoOfStream(event.streamId) : undefined;
    return imo === undefined ? undefined : { imo, type: event!.type };
  }

  async function vesselOfPortCall(value: unknown): Promise<{ id: number; imo: number }> {
    const id = positiveId(value);
    const found = id === undefined ? undefined : await vesselOfPosition(id);
    if (!found) throw invalidPortCallId(value);
    return { id: id!, imo: found.imo };
  }

  async function vesselOfTimestamp(value: unknown): Promise<{ id: number; imo: number }> {
    const id = parseTimestampId(value);
    const found = await vesselOfPosition(id);
    if (found?.type !== 'TimestampReceived') throw invalidTimestampId(value);
    return { id, imo: found.imo };
  }

  const readState = (imo: number) => db.transaction((tx) => currentVessel(tx, store, rules, imo));

  /** Until the projection has applied `position` for the vessel, or the wait bound passes. */
  async function awaitProjection(imo: number, position: number): Promise<void> {
    const until = Date.now() + waitMs;
    while (Date.now() < until) {
      const { rows } = await db.query<{ version: number }>('SELECT version FROM portcall.vessels WHERE imo = $1', [
        imo,
      ]);
      if (rows[0] && Number(rows[0].version) >= position) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    log.debug({ imo, position }, 'reply before the projection applied the correction');
  }

  /** Decide against the current state and append with its version; on a race, decide again. */
  async function decideAndAppend(
    imo: number,
    decide: (state: VesselPortCalls, streamVersion: number) => (PortCallCommandEvent | PortCallRtaEvent)[],
    metadata: EventMetadata,
  ): Promise<void> {
    const { appended } = await decideAndAppendInTransaction(
      db,
      store,
      {
        streamId: vesselStream(imo),
        async load(tx) {
          const { state, streamVersion } = await currentVessel(tx, store, rules, imo);
          return { state, version: streamVersion };
        },
        decide,
        metadata,
      },
      { busyMessage: 'Vessel is being updated concurrently; retry', log },
    );
    if (appended && waitMs > 0) await awaitProjection(imo, appended.events.at(-1)!.globalPosition);
  }

  async function forceClose(payload: unknown, headers: Record<string, unknown> = {}): Promise<Ok> {
    const { actor, input } = decodeCommand<Unchecked<PortCallIdCommand>>(payload);
    const pc = await vesselOfPortCall(input.port_call_id);
    await decideAndAppend(pc.imo, (state) => decideForceClose(state, pc.id), eventMetadata(actor, headers));
    return OK;
  }

  async function forceScan(payload: unknown, headers: Record<string, unknown> = {}): Promise<Ok> {
    const { actor, input } = decodeCommand<Unchecked<PortCallIdCommand>>(payload);
    const pc = await vesselOfPortCall(input.port_call_id);
    await decideAndAppend(pc.imo, (state) => decideForceScan(state, pc.id), eventMetadata(actor, headers));
    return OK;
  }

  async function setPortCallRange(payload: unknown, headers: Record<string, unknown> = {}): Promise<null> {
    const { actor, input } = decodeCommand<Unchecked<SetPortCallRangeCommand>>(payload);
    const pc = await vesselOfPortCall(input.port_call_id);
    await decideAndAppend(
      pc.imo,
      (state) => decideSetPortCallRange(state, { port_call_id: pc.id, start: input.start, end: input.end }),
      eventMetadata(actor, headers),
    );
    return null;
  }

  async function getPortCallRange(payload: unknown): Promise<PortCallRangeReply> {
    const { input } = decodeCommand<Unchecked<PortCallIdCommand>>(payload);
    const pc = await vesselOfPortCall(input.port_call_id);
    const found = portCallOf((await readState(pc.imo)).state, pc.id);
    if (!found) throw invalidPortCallId(input.port_call_id);
    return portCallRange(found);
  }

  async function updatePortCallId(payload: unknown, headers: Record<string, unknown> = {}): Promise<Ok> {
    const { actor, input } = decodeCommand<Unchecked<UpdatePortCallIdCommand>>(payload);
    // The port call must exist somewhere before anything else is said about the timestamp.
    const pc = await vesselOfPortCall(input.portCallId);
    if (!portCallOf((await readState(pc.imo)).state, pc.id)) throw invalidPortCallId(input.portCallId);
    const ts = await vesselOfTimestamp(input.id);
    await decideAndAppend(
      ts.imo,
      (state) => decideUpdatePortCallId(state, ts.id, pc.id),
      eventMetadata(actor, headers),
    );
    return OK;
  }

  async function unsetPortCallId(payload: unknown, headers: Record<string, unknown> = {}): Promise<Ok> {
    const { actor, input } = decodeCommand<Unchecked<UnsetPortCallIdCommand>>(payload);
    const ts = await vesselOfTimestamp(input.id);
    await decideAndAppend(ts.imo, (state) => decideUnsetPortCallId(state, ts.id), eventMetadata(actor, headers));
    return OK;
  }

  function imoOf(value: unknown): number {
    const imo = positiveId(value);
    if (imo === undefined) throw ApiError.badRequest(`Invalid IMO: ${String(value)}`);
    return imo;
  }

  async function attachOrphans(payload: unknown, headers: Record<string, unknown> = {}): Promise<Ok> {
    const { actor, input } = decodeCommand<Unchecked<AttachOrphansCommand>>(payload);
    const imo = imoOf(input.imo);
    const isFromAgent = flagOf(input.isFromAgent, false);
    if (isFromAgent === undefined) throw ApiError.badRequest(`Invalid isFromAgent: ${String(input.isFromAgent)}`);
    const ignoreStatus = flagOf(input.ignoreStatus, false);
    if (ignoreStatus === undefined) throw ApiError.badRequest(`Invalid ignoreStatus: ${String(input.ignoreStatus)}`);
    // A vessel without a stream has no timestamps to attach: nothing to record.
    await decideAndAppend(
      imo,
      (state, version) => (version === 0 ? [] : decideAttachOrphans(state, { isFromAgent, ignoreStatus })),
      eventMetadata(actor, headers),
    );
    return OK;
  }

  async function setVesselVisibility(payload: unknown, headers: Record<string, unknown> = {}): Promise<Ok> {
    const { actor, input } = decodeCommand<Unchecked<SetVesselVisibilityCommand>>(payload);
    const imo = imoOf(input.imo);
    const visible = flagOf(input.visible, true);
    if (visible === undefined || input.visible === undefined) {
      throw ApiError.badRequest(`Invalid visible: ${String(input.visible)}`);
    }
    let known = true;
    await decideAndAppend(
      imo,
      (state, version) => {
        // The original answered {"result":"ERROR"} for a vessel it did not know.
        known = version > 0;
        return known ? decideVesselVisibility(state, visible) : [];
      },
      eventMetadata(actor, headers),
    );
    return known ? OK : { result: 'ERROR' };
  }

  /** The RTA web form and the VIS bridge (port-call-rta.ts). Replies which port call got it. */
  async function setPortCallRta(
    payload: unknown,
    headers: Record<string, unknown> = {},
  ): Promise<{ result: 'OK'; port_call_id: number }> {
    const { actor, input } = decodeCommand<Unchecked<SetPortCallRtaCommand>>(payload);
    const imo = imoOf(input.imo);
    let portCallId = 0;
    await decideAndAppend(
      imo,
      (state) => {
        const events = decideSetPortCallRta(state, input);
        portCallId = events[0].data.port_call_id;
        return events;
      },
      eventMetadata(actor, headers),
    );
    return { result: 'OK', port_call_id: portCallId };
  }

  /** POST /agent/rest/live-eta (port-call-rta.ts). */
  async function setLiveEta(payload: unknown, headers: Record<string, unknown> = {}): Promise<Ok> {
    const { actor, input } = decodeCommand<Unchecked<SetLiveEtaCommand>>(payload);
    const imo = imoOf(input.imo);
    await decideAndAppend(imo, (state) => decideSetLiveEta(state, input), eventMetadata(actor, headers));
    return OK;
  }

  async function rebuildVessel(payload: unknown): Promise<Ok> {
    const { input } = decodeCommand<Unchecked<RebuildVesselCommand>>(payload);
    const imo = imoOf(input.imo);
    const outcome = await db.transaction(async (tx) => {
      await syncPriorities(tx, store);
      return rebuildVessels(tx, store, rules, [imo]);
    });
    await deps.onTimers?.(outcome.timers);
    return OK;
  }

  /** The `cmd.portcall-projector` RPC handler. */
  const handle = commandHandler({
    [PortcallCommands.forceClose]: forceClose,
    [PortcallCommands.forceScan]: forceScan,
    [PortcallCommands.setPortCallRange]: setPortCallRange,
    [PortcallCommands.getPortCallRange]: getPortCallRange,
    [PortcallCommands.updatePortCallId]: updatePortCallId,
    [PortcallCommands.unsetPortCallId]: unsetPortCallId,
    [PortcallCommands.attachOrphans]: attachOrphans,
    [PortcallCommands.setVesselVisibility]: setVesselVisibility,
    [PortcallCommands.rebuildVessel]: rebuildVessel,
    [PortcallCommands.setPortCallRta]: setPortCallRta,
    [PortcallCommands.setLiveEta]: setLiveEta,
  });

  return {
    forceClose,
    forceScan,
    setPortCallRange,
    getPortCallRange,
    updatePortCallId,
    unsetPortCallId,
    attachOrphans,
    setVesselVisibility,
    rebuildVessel,
    setPortCallRta,
    setLiveEta,
    handle,
  };
}

export type PortcallCommandHandlers = ReturnType<typeof createPortcallCommands>;
