// What the port-call corrections (commands.ts) share: finding the vessel a port-call or timestamp id belongs to,
// reading its state, and deciding and appending against it, then waiting (boundedly) for the projection.

import { decideAndAppendInTransaction, invalidTimestampId, parseTimestampId, positiveId } from '@pcas/commands';
import { ApiError, vesselStream } from '@pcas/contracts';
import type { EventMetadata, EventStore } from '@pcas/eventstore';
import type { Logger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import { currentVessel, type ProjectorRules, type TimerChange } from '../adapters/projection.ts';
import { imoOfStream } from '../adapters/vessel-streams.ts';
import {
  invalidPortCallId,
  type PortCallCommandEvent,
  type PortCallRtaEvent,
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

export type Ok = { result: 'OK' | 'ERROR' };
export const OK: Ok = { result: 'OK' };

export function flagOf(value: unknown, fallback: boolean): boolean | undefined {
  if (value === undefined || value === null || value === '') return fallback;
  if (value === true || value === 'true' || value === 1 || value === '1') return true;
  if (value === false || value === 'false' || value === 0 || value === '0') return false;
  return undefined;
}

export function imoOf(value: unknown): number {
  const imo = positiveId(value);
  if (imo === undefined) throw ApiError.badRequest(`Invalid IMO: ${String(value)}`);
  return imo;
}

/** The support of every correction, over the service's database and store. */
export function createCommandSupport(deps: PortcallCommandDeps) {
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

  return { vesselOfPortCall, vesselOfTimestamp, readState, decideAndAppend };
}

export type CommandSupport = ReturnType<typeof createCommandSupport>;
