// RPC handlers of `cmd.portcall-projector`: the manual port-call corrections (docs/domain.md#corrections).
// Each is decided against the vessel's current state (the read model caught up with its stream, under
// the vessel's lock) and appended to `vessel-<imo>` with the stream's version as the expected version, so two
// racing corrections cannot both apply to a state that one of them changed. The projection then applies the event
// like any other; the reply waits (boundedly) until it has, so the caller reads its own change.

// Shared lookups and the decide-and-append step are in command-support.ts.

import { commandHandler, decodeCommand, eventMetadata, type Unchecked } from '@pcas/commands';
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
} from '@pcas/contracts';
import { syncPriorities } from '../adapters/priorities.ts';
import { rebuildVessels } from '../adapters/projection.ts';
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
  portCallOf,
  portCallRange,
  type VesselPortCalls,
} from '../domain/port-calls.ts';
import {
  type CommandSupport,
  createCommandSupport,
  flagOf,
  imoOf,
  OK,
  type Ok,
  type PortcallCommandDeps,
} from './command-support.ts';
import { masterPortCallQuery } from './master-port-call.ts';

export type { PortcallCommandDeps } from './command-support.ts';

/** Corrections of one port call, or of one timestamp's port call. */
function portCallCorrections({ vesselOfPortCall, vesselOfTimestamp, readState, decideAndAppend }: CommandSupport) {
  /** A correction that names only the port call: decided on its vessel's stream. */
  const onPortCall =
    (decide: (state: VesselPortCalls, portCallId: number) => PortCallCommandEvent[]) =>
    async (payload: unknown, headers: Record<string, unknown> = {}): Promise<Ok> => {
      const { actor, input } = decodeCommand<Unchecked<PortCallIdCommand>>(payload);
      const pc = await vesselOfPortCall(input.port_call_id);
      await decideAndAppend(pc.imo, (state) => decide(state, pc.id), eventMetadata(actor, headers));
      return OK;
    };
  const forceClose = onPortCall(decideForceClose);
  const forceScan = onPortCall(decideForceScan);

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

  return { forceClose, forceScan, setPortCallRange, getPortCallRange, updatePortCallId, unsetPortCallId };
}

/** Corrections of a whole vessel, and its rebuild. */
function vesselCorrections({ decideAndAppend }: CommandSupport, deps: PortcallCommandDeps) {
  const { db, store, rules } = deps;

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

  return { attachOrphans, setVesselVisibility, setPortCallRta, setLiveEta, rebuildVessel };
}

export function createPortcallCommands(deps: PortcallCommandDeps) {
  const support = createCommandSupport(deps);
  const { forceClose, forceScan, setPortCallRange, getPortCallRange, updatePortCallId, unsetPortCallId } =
    portCallCorrections(support);
  const { attachOrphans, setVesselVisibility, setPortCallRta, setLiveEta, rebuildVessel } = vesselCorrections(
    support,
    deps,
  );

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
    ...masterPortCallQuery(deps.db),
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
