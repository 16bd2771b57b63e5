// RPC handlers of `cmd.ingest`: decode, decide, append to `vessel-<imo>` (with the vessels table in the same
// transaction when the vessel changes), reply.
//
// Hot path: a known vessel posting under its current name costs one append. Known vessels are cached as
// snapshots {name, stream version}; every append carries the cached version as its expected version, so a stale
// cache (another process renamed or registered the vessel) fails the append instead of writing wrong events,
// and the handler catches up on the missed events and decides again.

import {
  type Actor,
  ApiError,
  type CommandBody,
  IngestCommands,
  type PostTimestampCommand,
  type TimestampIdCommand,
  type TimestampReceived,
  vesselStream,
} from '@pcas/contracts';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type NewEvent,
  WrongExpectedVersionError,
} from '@pcas/eventstore';
import type { Logger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import { catchUpVessel, loadTrash } from '../adapters/vessel-streams.ts';
import { findVesselByName, insertFakeImoVessel, lockVesselName, saveVessel } from '../adapters/vessels.ts';
import { decidePostTimestamp, validateTimestamp } from '../domain/timestamp.ts';
import { decideDeleteTimestamp, decideRestoreTimestamp, parseTimestampId, type TrashEvent } from '../domain/trash.ts';
import type { Vessel, VesselSnapshot } from '../domain/vessel.ts';

export interface PostTimestampReply {
  result: 'OK';
  /** Global position of the TimestampReceived event: the timestamp's id (the gateway strips it). */
  id: number;
}

export interface IngestCommandDeps {
  db: Db;
  store: EventStore;
  log: Logger;
  /** Injectable clock for tests. */
  now?: () => Date;
  /** Cached vessel snapshots kept at most (least recently used go first). */
  cacheSize?: number;
}

// Concurrent writers to one vessel stream each cost a retry; a handful covers any realistic burst.
const POST_ATTEMPTS = 5;
const TRASH_ATTEMPTS = 2;

/** A bounded least-recently-used map (Map keeps insertion order; a hit is moved to the end). */
class SnapshotCache {
  private readonly entries = new Map<number, VesselSnapshot>();
  constructor(private readonly max: number) {}

  get(imo: number): VesselSnapshot | undefined {
    const hit = this.entries.get(imo);
    if (hit) {
      this.entries.delete(imo);
      this.entries.set(imo, hit);
    }
    return hit;
  }

  set(imo: number, snapshot: VesselSnapshot): void {
    this.entries.delete(imo);
    this.entries.set(imo, snapshot);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(imo: number): void {
    this.entries.delete(imo);
  }
}

/** Another writer got there first: re-read and decide again. */
function isConflict(error: unknown): boolean {
  return error instanceof WrongExpectedVersionError || (error as { code?: unknown })?.code === '23505';
}

function bodyOf<P>(payload: unknown): { actor: Actor; input: P } {
  const { actor, input } = (payload ?? {}) as Partial<CommandBody<P>>;
  if (input === null || typeof input !== 'object') throw ApiError.badRequest('Invalid command');
  const id = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : null);
  return { actor: { user_id: id(actor?.user_id), api_key_id: id(actor?.api_key_id) }, input: input as P };
}

function metadataOf(actor: Actor, headers: Record<string, unknown>): EventMetadata {
  const metadata: EventMetadata = { user_id: actor.user_id, api_key_id: actor.api_key_id };
  for (const key of ['correlation_id', 'traceparent', 'tracestate'] as const) {
    if (typeof headers[key] === 'string') metadata[key] = headers[key];
  }
  return metadata;
}

export function createIngestCommands(deps: IngestCommandDeps) {
  const { db, store, log } = deps;
  const now = deps.now ?? (() => new Date());
  const cache = new SnapshotCache(deps.cacheSize ?? 50_000);

  /** Decide against the snapshot and append; on a conflict catch up and try again. */
  async function postForImo(
    imo: number,
    input: PostTimestampCommand,
    actor: Actor,
    at: Date,
    metadata: EventMetadata,
  ): Promise<PostTimestampReply> {
    const stream = vesselStream(imo);
    let snapshot = cache.get(imo) ?? (await catchUpVessel(store, imo));
    for (let attempt = 1; ; attempt++) {
      // assignedImo only matters for an IMO-0 post whose name matched a row without a stream yet.
      const decision = decidePostTimestamp(input, {
        now: at,
        actor,
        manual: input.manual === true,
        knownVessel: snapshot.vessel,
        assignedImo: imo,
      });
      const events: NewEvent[] = decision.events.map((e) => ({ ...e, metadata }));
      // A timestamp for a known vessel under its current name depends on no other state: append it whatever
      // the stream's version, so concurrent posts for one vessel never conflict. Only vessel changes (register,
      // rename) are decided against an exact version.
      const plainTimestamp = decision.vesselChange === 'none' && snapshot.vessel !== undefined;
      const expectedVersion = plainTimestamp ? 'any' : snapshot.version === 0 ? 'no_stream' : snapshot.version;
      try {
        const result =
          decision.vesselChange === 'none'
            ? await store.append(stream, events, { expectedVersion })
            : await db.transaction(async (tx) => {
                // Append first: the event store needs the stream's lock before this transaction's first write.
                const appended = await store.append(stream, events, { expectedVersion, tx });
                await saveVessel(tx, decision.vessel, actor.user_id);
                return appended;
              });
        // An append that only repeats stored events succeeds at whatever version the stream has reached, so
        // the snapshot is current only when the version moved by exactly what we added.
        const added = result.events.filter((e) => !e.duplicate).length;
        if (result.nextExpectedVersion === snapshot.version + added) {
          cache.set(imo, { vessel: decision.vessel, version: result.nextExpectedVersion });
        } else if (plainTimestamp) {
          // Others wrote meanwhile. Read just what they wrote: if they renamed the vessel, the name this post
          // carries is the newest one and must win, so decide again (our timestamp is then a stored duplicate).
          const caughtUp = await catchUpVessel(store, imo, snapshot);
          cache.set(imo, caughtUp);
          const again = decidePostTimestamp(input, {
            now: at,
            actor,
            manual: input.manual === true,
            knownVessel: caughtUp.vessel,
            assignedImo: imo,
          });
          if (again.vesselChange !== 'none' && attempt < POST_ATTEMPTS) {
            snapshot = caughtUp;
            continue;
          }
        } else cache.delete(imo);
        return { result: 'OK', id: result.events.at(-1)!.globalPosition };
      } catch (error) {
        // Whatever happened, the cached snapshot may no longer be the stream's state.
        cache.delete(imo);
        if (!isConflict(error)) throw error;
        if (attempt >= POST_ATTEMPTS) throw ApiError.unavailable('Vessel is being updated concurrently; retry');
        log.debug({ imo, attempt }, 'vessel stream moved on; catching up');
        snapshot = await catchUpVessel(store, imo, snapshot);
      }
    }
  }

  /**
   * IMO 0 and no vessel of that name: create it under a fake IMO, in one transaction with its events. Resolves
   * to the IMO to post under instead when another post created the vessel first.
   */
  async function registerByName(
    input: PostTimestampCommand,
    vesselName: string,
    actor: Actor,
    at: Date,
    metadata: EventMetadata,
  ): Promise<{ reply: PostTimestampReply } | { imo: number }> {
    type Outcome = { imo: number; registered?: { vessel: Vessel; result: AppendResult } };
    const outcome = await db.transaction(async (tx): Promise<Outcome> => {
      await lockVesselName(tx, vesselName);
      const found = await findVesselByName(tx, vesselName);
      if (found) return { imo: found.imo };
      const imo = await insertFakeImoVessel(tx, vesselName, actor.user_id);
      const decision = decidePostTimestamp(input, { now: at, actor, manual: input.manual === true, assignedImo: imo });
      const events: NewEvent[] = decision.events.map((e) => ({ ...e, metadata }));
      const result = await store.append(vesselStream(imo), events, { expectedVersion: 'no_stream', tx });
      return { imo, registered: { vessel: decision.vessel, result } };
    });
    if (!outcome.registered) return { imo: outcome.imo };
    const { vessel, result } = outcome.registered;
    cache.set(outcome.imo, { vessel, version: result.nextExpectedVersion });
    return { reply: { result: 'OK', id: result.events.at(-1)!.globalPosition } };
  }

  async function postTimestamp(payload: unknown, headers: Record<string, unknown> = {}): Promise<PostTimestampReply> {
    const { actor, input } = bodyOf<PostTimestampCommand>(payload);
    const at = now();
    // Invalid input is refused before any I/O.
    const ts = validateTimestamp(input, at);
    const metadata = metadataOf(actor, headers);
    if (ts.imo !== 0) return postForImo(ts.imo, input, actor, at, metadata);
    const found = await findVesselByName(db, ts.vessel_name);
    if (found) return postForImo(found.imo, input, actor, at, metadata);
    const registered = await registerByName(input, ts.vessel_name, actor, at, metadata);
    return 'reply' in registered ? registered.reply : postForImo(registered.imo, input, actor, at, metadata);
  }

  async function changeTrash(
    payload: unknown,
    headers: Record<string, unknown>,
    decide: (state: Parameters<typeof decideDeleteTimestamp>[0], id: number) => TrashEvent[],
  ): Promise<true> {
    const { actor, input } = bodyOf<TimestampIdCommand>(payload);
    const id = parseTimestampId(input.id);
    const received = await store.readByGlobalPosition(id);
    if (received?.type !== 'TimestampReceived') throw ApiError.badRequest(`Invalid timestamp id: ${id}`);
    const imo = (received.data as TimestampReceived).imo;
    const metadata = metadataOf(actor, headers);
    for (let attempt = 1; ; attempt++) {
      const { state, version } = await loadTrash(store, received.streamId);
      const events = decide(state, id);
      if (events.length === 0) return true;
      try {
        const result = await store.append(
          received.streamId,
          events.map((e) => ({ ...e, metadata })),
          { expectedVersion: version },
        );
        // Keep a cached snapshot that was current: trash events do not change the vessel, only the version.
        const cached = cache.get(imo);
        if (cached?.version === version) cache.set(imo, { ...cached, version: result.nextExpectedVersion });
        return true;
      } catch (error) {
        if (!isConflict(error) || attempt >= TRASH_ATTEMPTS) throw error;
      }
    }
  }

  const deleteTimestamp = (payload: unknown, headers: Record<string, unknown> = {}) =>
    changeTrash(payload, headers, decideDeleteTimestamp);
  const restoreTimestamp = (payload: unknown, headers: Record<string, unknown> = {}) =>
    changeTrash(payload, headers, decideRestoreTimestamp);

  /** The `cmd.ingest` RPC handler. */
  async function handle(command: string, payload: unknown, headers: Record<string, unknown>): Promise<unknown> {
    switch (command) {
      case IngestCommands.postTimestamp:
        return postTimestamp(payload, headers);
      case IngestCommands.deleteTimestamp:
        return deleteTimestamp(payload, headers);
      case IngestCommands.restoreTimestamp:
        return restoreTimestamp(payload, headers);
      default:
        throw ApiError.badRequest(`Unknown command: ${command}`);
    }
  }

  return { postTimestamp, deleteTimestamp, restoreTimestamp, handle };
}

export type IngestCommandHandlers = ReturnType<typeof createIngestCommands>;
