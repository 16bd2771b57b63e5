// The sea chart's commands on cmd.ingest (docs/domain.md#sea-chart): vessel positions from AIS agents, fixed
// vessels from operators; the AIS agents' MMSI→IMO map in Redis (fleet only: the embedded mode has no Redis,
// and no agent to read it); and the retention job that compacts old position events.

import { type CommandFunction, decodeCommand, eventMetadata } from '@pcas/commands';
import {
  type AddFixedVesselCommand,
  ApiError,
  type ChangeFixedVesselCommand,
  FIXED_VESSELS_MMSI_IMO_MAP_KEY,
  type FixedVesselReply,
  MAX_POSITION_BATCH,
  type RecordVesselPositionsCommand,
  type RecordVesselPositionsReply,
  type RemoveFixedVesselCommand,
  SeaChartCommands,
  type ServiceDeps,
} from '@pcas/contracts';
import type { DelayedJobs } from '@pcas/jobs';
import type { Queryable } from '@pcas/sql';
import {
  lockFixedVessels,
  nextFixedVesselId,
  readFixedVesselContext,
  readMmsiImoPairs,
  saveFixedVesselChange,
} from '../adapters/fixed-vessels.ts';
import { ongoingPortCallsLookup } from '../adapters/ongoing-port-calls.ts';
import { compactPositions, recordPositions } from '../adapters/positions.ts';
import {
  decideAddFixedVessel,
  decideChangeFixedVessel,
  decideRemoveFixedVessel,
  FixedVesselRefused,
  phpSerializeMmsiImoMap,
  readFixedVessel,
} from '../domain/fixed-vessels.ts';
import { decidePositions, identitiesOf } from '../domain/positions.ts';

/** The one Redis call the map needs (ioredis' `set`), so tests and the embedded mode can do without Redis. */
export interface MapStore {
  set(key: string, value: string): Promise<unknown>;
}

export interface SeaChartCommandsOptions {
  /** Fleet: where the AIS agents read the fixed vessels' MMSI→IMO map; absent (embedded): no map. */
  mapStore?: MapStore;
}

export function seaChartCommands(deps: ServiceDeps, options: SeaChartCommandsOptions = {}) {
  const { db, store, log } = deps;
  const ongoingByMmsi = ongoingPortCallsLookup(deps.bus, log);

  // Writes of the map go one after another, each reading the rows when it starts, so the last write holds the
  // last change of this process (another process's late write is healed by the periodic refresh). Callers that
  // come while a write waits for the one before share it: a burst of changes costs two writes, not one each.
  let tail: Promise<void> = Promise.resolve();
  let queued: Promise<void> | undefined;
  const refreshMap = (): Promise<void> => {
    const { mapStore } = options;
    if (!mapStore) return Promise.resolve();
    if (queued) return queued;
    const next = tail.then(async () => {
      queued = undefined;
      try {
        await mapStore.set(FIXED_VESSELS_MMSI_IMO_MAP_KEY, phpSerializeMmsiImoMap(await readMmsiImoPairs(db)));
      } catch (error) {
        log.warn({ err: error }, 'fixed vessels MMSI→IMO map not written');
      }
    });
    queued = next;
    tail = next;
    return next;
  };

  async function recordVesselPositions(
    payload: unknown,
    headers: Record<string, unknown> = {},
  ): Promise<RecordVesselPositionsReply> {
    const { actor, input } = decodeCommand<RecordVesselPositionsCommand>(payload);
    const items = input.locations;
    if (!Array.isArray(items)) throw ApiError.badRequest('Missing parameter: locations');
    if (items.length > MAX_POSITION_BATCH) {
      throw ApiError.badRequest(`Too many locations: at most ${MAX_POSITION_BATCH} in one request`);
    }
    const ids = identitiesOf(items);
    const { events, reply, fresh } = await recordPositions(
      db,
      store,
      ids,
      await ongoingByMmsi(ids.mmsis),
      (lookups) => decidePositions(items, lookups),
      eventMetadata(actor, headers),
    );
    log.debug({ accepted: events.length, fresh, failed: reply.failed.length }, 'vessel positions');
    return reply;
  }

  /** Runs a fixed-vessel change under the lock; a business refusal is the original's 200 ERROR answer. */
  async function fixedVesselChange(change: (tx: Queryable) => Promise<void>): Promise<FixedVesselReply> {
    try {
      await db.transaction(async (tx) => {
        await lockFixedVessels(tx);
        await change(tx);
      });
    } catch (error) {
      if (error instanceof FixedVesselRefused) return { result: 'ERROR', message: error.message };
      throw error;
    }
    await refreshMap();
    return { result: 'OK' };
  }

  async function addFixedVessel(payload: unknown, headers: Record<string, unknown> = {}): Promise<FixedVesselReply> {
    const { actor, input } = decodeCommand<AddFixedVesselCommand>(payload);
    return fixedVesselChange(async (tx) => {
      const vessel = readFixedVessel(input);
      const context = await readFixedVesselContext(tx, null, vessel);
      const id = await nextFixedVesselId(tx);
      const events = decideAddFixedVessel(id, vessel, context);
      await saveFixedVesselChange(tx, store, id, events, eventMetadata(actor, headers), actor.user_id, null);
    });
  }

  async function changeFixedVessel(payload: unknown, headers: Record<string, unknown> = {}): Promise<FixedVesselReply> {
    const { actor, input } = decodeCommand<ChangeFixedVesselCommand>(payload);
    return fixedVesselChange(async (tx) => {
      const vessel = readFixedVessel(input);
      const context = await readFixedVesselContext(tx, input.id, vessel);
      const events = decideChangeFixedVessel(input.id, vessel, context);
      const metadata = eventMetadata(actor, headers);
      await saveFixedVesselChange(tx, store, input.id, events, metadata, actor.user_id, context.current);
    });
  }

  async function removeFixedVessel(payload: unknown, headers: Record<string, unknown> = {}): Promise<FixedVesselReply> {
    const { actor, input } = decodeCommand<RemoveFixedVesselCommand>(payload);
    return fixedVesselChange(async (tx) => {
      const context = await readFixedVesselContext(tx, input.id, { imo: null, mmsi: null });
      const events = decideRemoveFixedVessel(input.id, context.current);
      const metadata = eventMetadata(actor, headers);
      await saveFixedVesselChange(tx, store, input.id, events, metadata, actor.user_id, context.current);
    });
  }

  const commands: Record<string, CommandFunction> = {
    [SeaChartCommands.recordVesselPositions]: recordVesselPositions,
    [SeaChartCommands.addFixedVessel]: addFixedVessel,
    [SeaChartCommands.changeFixedVessel]: changeFixedVessel,
    [SeaChartCommands.removeFixedVessel]: removeFixedVessel,
  };
  return { commands, refreshMap };
}

// ---- retention ----

export const RETENTION_QUEUE = 'sea-chart-retention';
/** How often the retention job runs. */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

/** The job's id for the run due at `at`: one per interval, so every ingest process arming it arms one job. */
export const retentionJobId = (at: number): string => `sea-chart-retention-${Math.floor(at / RETENTION_INTERVAL_MS)}`;

/**
 * The retention job's handler: compacts the position events older than `days` and arms the next run. Arm the
 * first run with `armRetention` at start.
 */
export function retentionJob(deps: ServiceDeps, days: number, jobs: () => DelayedJobs, now: () => number = Date.now) {
  return async (): Promise<void> => {
    const before = new Date(now() - days * 24 * 60 * 60 * 1000);
    const removed = await compactPositions(deps.db, deps.store, before);
    if (removed > 0) deps.log.info({ removed, before: before.toISOString() }, 'old vessel positions compacted');
    await armRetention(jobs(), now() + RETENTION_INTERVAL_MS);
  };
}

/** Arms the retention run due at `at` (an id already waiting stays as it is). */
export async function armRetention(jobs: DelayedJobs, at: number): Promise<void> {
  await jobs.schedule(retentionJobId(at), new Date(at), {});
}
