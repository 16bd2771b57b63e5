// RPC handlers of `cmd.portcall-projector`: the manual port-call corrections (shared/reference/original-app.md
// §5.11). Each is decided against the vessel's current state (the read model caught up with its stream, under
// the vessel's lock) and appended to `vessel-<imo>` with the stream's version as the expected version, so two
// racing corrections cannot both apply to a state that one of them changed. The projection then applies the event
// like any other; the reply waits (boundedly) until it has, so the caller reads its own change.

import {
  type Actor,
  ApiError,
  type AttachOrphansCommand,
  type CommandBody,
  type PortCallIdCommand,
  type PortCallRangeReply,
  PortcallCommands,
  type RebuildVesselCommand,
  type SetPortCallRangeCommand,
  type SetVesselVisibilityCommand,
  type UnsetPortCallIdCommand,
  type UpdatePortCallIdCommand,
  vesselStream,
} from '@pcas/contracts';
import { type EventMetadata, type EventStore, WrongExpectedVersionError } from '@pcas/eventstore';
import type { Logger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import { syncPriorities } from '../adapters/priorities.ts';
import { currentVessel, type ProjectorRules, rebuildVessels, type TimerChange } from '../adapters/projection.ts';
import { imoOfStream } from '../adapters/vessel-streams.ts';
import {
  decideAttachOrphans,
  decideForceClose,
  decideForceScan,
  decideSetPortCallRange,
  decideUnsetPortCallId,
  decideUpdatePortCallId,
  decideVesselVisibility,
  invalidPortCallId,
  type PortCallCommandEvent,
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

// Racing writers of one vessel stream (data sources posting) each cost a retry; a handful covers any burst.
const ATTEMPTS = 5;

function bodyOf<P>(payload: unknown): { actor: Actor; input: Partial<Record<keyof P, unknown>> } {
  const { actor, input } = (payload ?? {}) as Partial<CommandBody<P>>;
  if (input === null || typeof input !== 'object') throw ApiError.badRequest('Invalid command');
  const id = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);
  return { actor: { user_id: id(actor?.user_id), api_key_id: id(actor?.api_key_id) }, input: input as never };
}

function metadataOf(actor: Actor, headers: Record<string, unknown>): EventMetadata {
  const metadata: EventMetadata = { user_id: actor.user_id, api_key_id: actor.api_key_id };
  for (const key of ['correlation_id', 'traceparent', 'tracestate'] as const) {
    if (typeof headers[key] === 'string') metadata[key] = headers[key];
  }
  return metadata;
}

/** A positive whole number (or its digits); undefined otherwise. */
function idOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

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
    const id = idOf(value);
    const found = id === undefined ? undefined : await vesselOfPosition(id);
    if (!found) throw invalidPortCallId(value);
    return { id: id!, imo: found.imo };
  }

  async function vesselOfTimestamp(value: unknown): Promise<{ id: number; imo: number }> {
    const id = idOf(value);
    const found = id === undefined ? undefined : await vesselOfPosition(id);
    if (found?.type !== 'TimestampReceived') throw ApiError.badRequest(`Invalid timestamp id: ${String(value)}`);
    return { id: id!, imo: found.imo };
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
    decide: (state: VesselPortCalls, streamVersion: number) => PortCallCommandEvent[],
    metadata: EventMetadata,
  ): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const appended = await db.transaction(async (tx) => {
          const { state, streamVersion } = await currentVessel(tx, store, rules, imo);
          const events = decide(state, streamVersion);
          if (events.length === 0) return undefined;
          return store.append(
            vesselStream(imo),
            events.map((e) => ({ ...e, metadata })),
            { tx, expectedVersion: streamVersion },
          );
        });
        if (appended && waitMs > 0) await awaitProjection(imo, appended.events.at(-1)!.globalPosition);
        return;
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        if (attempt >= ATTEMPTS) throw ApiError.unavailable('Vessel is being updated concurrently; retry');
        log.debug({ imo, attempt }, 'vessel stream moved on; deciding again');
      }
    }
  }

  async function forceClose(payload: unknown, headers: Record<string, unknown> = {}): Promise<Ok> {
    const { actor, input } = bodyOf<PortCallIdCommand>(payload);
    const pc = await vesselOfPortCall(input.port_call_id);
    await decideAndAppend(pc.imo, (state) => decideForceClose(state, pc.id), metadataOf(actor, headers));
    return OK;
  }

  async function forceScan(payload: unknown, headers: Record<string, unknown> = {}): Promise<Ok> {
    const { actor, input } = bodyOf<PortCallIdCommand>(payload);
    const pc = await vesselOfPortCall(input.port_call_id);
    await decideAndAppend(pc.imo, (state) => decideForceScan(state, pc.id), metadataOf(actor, headers));
    return OK;
  }

  async function setPortCallRange(payload: unknown, headers: Record<string, unknown> = {}): Promise<null> {
    const { actor, input } = bodyOf<SetPortCallRangeCommand>(payload);
    const pc = await vesselOfPortCall(input.port_call_id);
    await decideAndAppend(
      pc.imo,
      (state) => decideSetPortCallRange(state, { port_call_id: pc.id, start: input.start, end: input.end }),
      metadataOf(actor, headers),
    );
    return null;
  }

  async function getPortCallRange(payload: unknown): Promise<PortCallRangeReply> {
    const { input } = bodyOf<PortCallIdCommand>(payload);
    const pc = await vesselOfPortCall(input.port_call_id);
    const found = portCallOf((await readState(pc.imo)).state, pc.id);
    if (!found) throw invalidPortCallId(input.port_call_id);
    return portCallRange(found);
  }

  async function updatePortCallId(payload: unknown, headers: Record<string, unknown> = {}): Promise<Ok> {
    const { actor, input } = bodyOf<UpdatePortCallIdCommand>(payload);
    // The port call must exist somewhere before anything else is said about the timestamp.
    const pc = await vesselOfPortCall(input.portCallId);
    if (!portCallOf((await readState(pc.imo)).state, pc.id)) throw invalidPortCallId(input.portCallId);
    const ts = await vesselOfTimestamp(input.id);
    await decideAndAppend(ts.imo, (state) => decideUpdatePortCallId(state, ts.id, pc.id), metadataOf(actor, headers));
    return OK;
  }

  async function unsetPortCallId(payload: unknown, headers: Record<string, unknown> = {}): Promise<Ok> {
    const { actor, input } = bodyOf<UnsetPortCallIdCommand>(payload);
    const ts = await vesselOfTimestamp(input.id);
    await decideAndAppend(ts.imo, (state) => decideUnsetPortCallId(state, ts.id), metadataOf(actor, headers));
    return OK;
  }

  function imoOf(value: unknown): number {
    const imo = idOf(value);
    if (imo === undefined) throw ApiError.badRequest(`Invalid IMO: ${String(value)}`);
    return imo;
  }

  async function attachOrphans(payload: unknown, headers: Record<string, unknown> = {}): Promise<Ok> {
    const { actor, input } = bodyOf<AttachOrphansCommand>(payload);
    const imo = imoOf(input.imo);
    const isFromAgent = flagOf(input.isFromAgent, false);
    if (isFromAgent === undefined) throw ApiError.badRequest(`Invalid isFromAgent: ${String(input.isFromAgent)}`);
    const ignoreStatus = flagOf(input.ignoreStatus, false);
    if (ignoreStatus === undefined) throw ApiError.badRequest(`Invalid ignoreStatus: ${String(input.ignoreStatus)}`);
    // A vessel without a stream has no timestamps to attach: nothing to record.
    await decideAndAppend(
      imo,
      (state, version) => (version === 0 ? [] : decideAttachOrphans(state, { isFromAgent, ignoreStatus })),
      metadataOf(actor, headers),
    );
    return OK;
  }

  async function setVesselVisibility(payload: unknown, headers: Record<string, unknown> = {}): Promise<Ok> {
    const { actor, input } = bodyOf<SetVesselVisibilityCommand>(payload);
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
      metadataOf(actor, headers),
    );
    return known ? OK : { result: 'ERROR' };
  }

  async function rebuildVessel(payload: unknown): Promise<Ok> {
    const { input } = bodyOf<RebuildVesselCommand>(payload);
    const imo = imoOf(input.imo);
    const outcome = await db.transaction(async (tx) => {
      await syncPriorities(tx, store);
      return rebuildVessels(tx, store, rules, [imo]);
    });
    await deps.onTimers?.(outcome.timers);
    return OK;
  }

  /** The `cmd.portcall-projector` RPC handler. */
  async function handle(command: string, payload: unknown, headers: Record<string, unknown>): Promise<unknown> {
    switch (command) {
      case PortcallCommands.forceClose:
        return forceClose(payload, headers);
      case PortcallCommands.forceScan:
        return forceScan(payload, headers);
      case PortcallCommands.setPortCallRange:
        return setPortCallRange(payload, headers);
      case PortcallCommands.getPortCallRange:
        return getPortCallRange(payload);
      case PortcallCommands.updatePortCallId:
        return updatePortCallId(payload, headers);
      case PortcallCommands.unsetPortCallId:
        return unsetPortCallId(payload, headers);
      case PortcallCommands.attachOrphans:
        return attachOrphans(payload, headers);
      case PortcallCommands.setVesselVisibility:
        return setVesselVisibility(payload, headers);
      case PortcallCommands.rebuildVessel:
        return rebuildVessel(payload);
      default:
        throw ApiError.badRequest(`Unknown command: ${command}`);
    }
  }

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
    handle,
  };
}

export type PortcallCommandHandlers = ReturnType<typeof createPortcallCommands>;
