// RPC handlers of `cmd.ingest`: decode, decide, append to `vessel-<imo>` (with the vessels table in the same
// transaction when the vessel changes), reply. Priorities go to the priorities-* streams with their weight tables.
//
// Hot path: a known vessel posting under its current name costs one append. Known vessels are cached as
// snapshots {name, stream version}; every append carries the cached version as its expected version, so a stale
// cache (another process renamed or registered the vessel) fails the append instead of writing wrong events,
// and the handler catches up on the missed events and decides again.

import {
  commandHandler,
  decideAndAppend,
  decideAndAppendInTransaction,
  decodeCommand,
  eventMetadata,
  invalidTimestampId,
  isVersionConflict,
  parseTimestampId,
  positiveId,
} from '@pcas/commands';
import {
  type Actor,
  ApiError,
  IngestCommands,
  type ItemReply,
  MAX_TIMESTAMP_BATCH,
  PAYLOAD_KEY_PRIORITIES_STREAM,
  type PostTimestampCommand,
  type PostTimestampsCommand,
  type SetPayloadKeyApiKeyWeightsCommand,
  type SetTimestampApiKeyWeightsCommand,
  type SetVesselTypeCommand,
  TIMESTAMP_PRIORITIES_STREAM,
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
import { templatePairs } from '@pcas/s211';
import type { Db, Queryable } from '@pcas/sql';
import {
  findTimestampWeight,
  findTimestampWeights,
  loadWeights,
  lockPriorities,
  savePayloadKeyWeights,
  saveTimestampWeights,
  weightKey,
} from '../adapters/priorities.ts';
import { catchUpVessel, loadTrash } from '../adapters/vessel-streams.ts';
import {
  findVesselByName,
  findVesselType,
  insertFakeImoVessel,
  knownImos,
  lockVesselName,
  lockVesselType,
  saveNewVessels,
  saveVessel,
  saveVesselType,
} from '../adapters/vessels.ts';
import {
  admitTimestamp,
  decidePayloadKeyWeights,
  decideTimestampWeights,
  needsKeyWeight,
  type PriorityEvent,
  validatePayloadKeyWeights,
  validateTimestampWeights,
  type WeightsState,
} from '../domain/priorities.ts';
import {
  decideTimestamp,
  type ValidTimestamp,
  type VesselStreamEvent,
  validateTimestamp,
} from '../domain/timestamp.ts';
import { decideDeleteTimestamp, decideRestoreTimestamp, type TrashEvent } from '../domain/trash.ts';
import type { Vessel, VesselSnapshot } from '../domain/vessel.ts';
import { decideSetVesselType } from '../domain/vessel-type.ts';

interface AdmittedPost {
  input: PostTimestampCommand;
  ts: ValidTimestamp;
  actor: Actor;
  at: Date;
  metadata: EventMetadata;
  weight: number;
}

export interface PostTimestampReply {
  result: 'OK';
  /** Global position of the TimestampReceived event: the timestamp's id (the gateway strips it). */
  id: number;
}

export interface IngestCommandDeps {
  db: Db;
  store: EventStore;
  log: Logger;
  /** The port's namespace (config NAMESPACE): its port-call template decides which pairs can have priorities. */
  namespace: string;
  /** Injectable clock for tests. */
  now?: () => Date;
  /** Cached vessel snapshots kept at most (least recently used go first). */
  cacheSize?: number;
}

// Concurrent writers to one vessel stream each cost a retry; a handful covers any realistic burst.
const POST_ATTEMPTS = 5;
const TRASH_ATTEMPTS = 2;
const VESSEL_BUSY = 'Vessel is being updated concurrently; retry';

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

/** The decided events with who and why, to append (written out: a spread per event took the slow path). */
function withMetadata(events: readonly VesselStreamEvent[], metadata: EventMetadata): NewEvent[] {
  return events.map((e) =>
    e.id === undefined ? { type: e.type, data: e.data, metadata } : { id: e.id, type: e.type, data: e.data, metadata },
  );
}

/** Another writer got there first (the stream, or the vessels table's name): re-read and decide again. */
function isConflict(error: unknown): boolean {
  return isVersionConflict(error) || (error as { code?: unknown })?.code === '23505';
}

export function createIngestCommands(deps: IngestCommandDeps) {
  const { db, store, log } = deps;
  const now = deps.now ?? (() => new Date());
  const cache = new SnapshotCache(deps.cacheSize ?? 50_000);

  /** Decide against the snapshot and append; on a conflict catch up and try again. */
  async function postForImo(
    imo: number,
    input: PostTimestampCommand,
    ts: ValidTimestamp,
    actor: Actor,
    at: Date,
    metadata: EventMetadata,
    weight: number,
  ): Promise<PostTimestampReply> {
    const stream = vesselStream(imo);
    let snapshot = cache.get(imo) ?? (await catchUpVessel(store, imo));
    for (let attempt = 1; ; attempt++) {
      // assignedImo only matters for an IMO-0 post whose name matched a row without a stream yet.
      const decision = decideTimestamp(ts, {
        now: at,
        actor,
        manual: input.manual === true,
        knownVessel: snapshot.vessel,
        assignedImo: imo,
        weight,
      });
      const events: NewEvent[] = withMetadata(decision.events, metadata);
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
          const again = decideTimestamp(ts, {
            now: at,
            actor,
            manual: input.manual === true,
            knownVessel: caughtUp.vessel,
            assignedImo: imo,
            weight,
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
        if (attempt >= POST_ATTEMPTS) throw ApiError.unavailable(VESSEL_BUSY);
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
    ts: ValidTimestamp,
    vesselName: string,
    actor: Actor,
    at: Date,
    metadata: EventMetadata,
    weight: number,
  ): Promise<{ reply: PostTimestampReply } | { imo: number }> {
    type Outcome = { imo: number; registered?: { vessel: Vessel; result: AppendResult } };
    const outcome = await db.transaction(async (tx): Promise<Outcome> => {
      await lockVesselName(tx, vesselName);
      const found = await findVesselByName(tx, vesselName);
      if (found) return { imo: found.imo };
      const imo = await insertFakeImoVessel(tx, vesselName, actor.user_id);
      const decision = decideTimestamp(ts, {
        now: at,
        actor,
        manual: input.manual === true,
        assignedImo: imo,
        weight,
      });
      const events: NewEvent[] = withMetadata(decision.events, metadata);
      const result = await store.append(vesselStream(imo), events, { expectedVersion: 'no_stream', tx });
      return { imo, registered: { vessel: decision.vessel, result } };
    });
    if (!outcome.registered) return { imo: outcome.imo };
    const { vessel, result } = outcome.registered;
    cache.set(outcome.imo, { vessel, version: result.nextExpectedVersion });
    return { reply: { result: 'OK', id: result.events.at(-1)!.globalPosition } };
  }

  /** A validated, admitted post: vessel found or registered by name, then decided and appended. */
  async function postAdmitted(post: AdmittedPost): Promise<PostTimestampReply> {
    const { input, ts, actor, at, metadata, weight } = post;
    if (ts.imo !== 0) return postForImo(ts.imo, input, ts, actor, at, metadata, weight);
    const found = await findVesselByName(db, ts.vessel_name);
    if (found) return postForImo(found.imo, input, ts, actor, at, metadata, weight);
    const registered = await registerByName(input, ts, ts.vessel_name, actor, at, metadata, weight);
    return 'reply' in registered
      ? registered.reply
      : postForImo(registered.imo, input, ts, actor, at, metadata, weight);
  }

  async function postTimestamp(payload: unknown, headers: Record<string, unknown> = {}): Promise<PostTimestampReply> {
    const { actor, input } = decodeCommand<PostTimestampCommand>(payload);
    const at = now();
    // Invalid input is refused before any I/O; then admission (403, nothing stored), as the original's order.
    const ts = validateTimestamp(input, at);
    const post = { manual: input.manual === true, actor };
    const keyWeight =
      needsKeyWeight(post) && actor.api_key_id !== null
        ? await findTimestampWeight(db, ts.time_type, ts.state, actor.api_key_id)
        : undefined;
    const weight = admitTimestamp(post, keyWeight);
    return postAdmitted({ input, ts, actor, at, metadata: eventMetadata(actor, headers), weight });
  }

  /**
   * Many posts at once (the gateway gathers concurrent ones): one weight look-up for all, then every post for a
   * cached vessel under its current name goes into ONE appendMany (one round trip, one commit); the rest (new
   * vessels, renames, IMO 0) take the single-post path. Each item gets its own reply, as if posted alone.
   */
  async function postTimestamps(payload: unknown): Promise<ItemReply<PostTimestampReply>[]> {
    const items = (payload as Partial<PostTimestampsCommand> | null)?.items;
    if (!Array.isArray(items) || items.length === 0 || items.length > MAX_TIMESTAMP_BATCH) {
      throw ApiError.badRequest('Invalid command');
    }
    const at = now();
    const replies: ItemReply<PostTimestampReply>[] = new Array(items.length);
    const fail = (index: number, error: unknown) => {
      if (error instanceof ApiError) {
        replies[index] = { ok: false, status: error.status, error: error.message };
        return;
      }
      // One post's failure must not take the others' replies with it: this one answers 500, as alone.
      log.error({ err: error }, 'timestamp post in a batch failed');
      replies[index] = { ok: false, status: 500, error: 'Internal server error' };
    };

    const valid: {
      index: number;
      input: PostTimestampCommand;
      ts: ValidTimestamp;
      actor: Actor;
      headers: Record<string, unknown>;
    }[] = [];
    items.forEach((item, index) => {
      try {
        const { actor, input } = decodeCommand<PostTimestampCommand>(item?.body);
        valid.push({ index, input, ts: validateTimestamp(input, at), actor, headers: item?.headers ?? {} });
      } catch (error) {
        fail(index, error);
      }
    });
    const needed = valid.filter((v) => needsKeyWeight({ manual: v.input.manual === true, actor: v.actor }));
    const weights = await findTimestampWeights(
      db,
      needed
        .filter((v) => v.actor.api_key_id !== null)
        .map((v) => ({ time_type: v.ts.time_type, state: v.ts.state, api_key_id: v.actor.api_key_id! })),
    );

    const admitted: { index: number; post: AdmittedPost }[] = [];
    for (const v of valid) {
      try {
        const keyWeight =
          v.actor.api_key_id === null
            ? undefined
            : weights.get(weightKey(v.ts.time_type, v.ts.state, v.actor.api_key_id));
        const weight = admitTimestamp({ manual: v.input.manual === true, actor: v.actor }, keyWeight);
        const post = {
          input: v.input,
          ts: v.ts,
          actor: v.actor,
          at,
          metadata: eventMetadata(v.actor, v.headers),
          weight,
        };
        admitted.push({ index: v.index, post });
      } catch (error) {
        fail(v.index, error);
      }
    }

    /**
     * Every post for a cached vessel under its current name goes into ONE appendMany; the others are returned for
     * the single path.
     */
    async function appendCached(posts: { index: number; post: AdmittedPost }[]) {
      const fast: { index: number; imo: number; post: AdmittedPost; events: NewEvent[]; vessel: Vessel }[] = [];
      const slow: { index: number; post: AdmittedPost }[] = [];
      for (const { index, post } of posts) {
        const snapshot = post.ts.imo === 0 ? undefined : cache.get(post.ts.imo);
        if (snapshot?.vessel) {
          const decision = decideTimestamp(post.ts, {
            now: at,
            actor: post.actor,
            manual: post.input.manual === true,
            knownVessel: snapshot.vessel,
            assignedImo: post.ts.imo,
            weight: post.weight,
          });
          if (decision.vesselChange === 'none') {
            const events = withMetadata(decision.events, post.metadata);
            fast.push({ index, imo: post.ts.imo, post, events, vessel: decision.vessel });
            continue;
          }
        }
        slow.push({ index, post });
      }
      if (fast.length === 0) return slow;
      const versionsBefore = new Map(fast.map((f) => [f.imo, cache.get(f.imo)?.version ?? 0]));
      const results = await store.appendMany(fast.map((f) => ({ streamId: vesselStream(f.imo), events: f.events })));
      const added = new Map<number, number>();
      const version = new Map<number, number>();
      results.forEach((result, i) => {
        const imo = fast[i].imo;
        added.set(imo, (added.get(imo) ?? 0) + result.events.filter((e) => !e.duplicate).length);
        version.set(imo, result.nextExpectedVersion);
      });
      results.forEach((result, i) => {
        const f = fast[i];
        // As in postForImo: the snapshot stays only if nobody else wrote to the stream meanwhile. Otherwise the
        // post is decided again on the single path (its event is then a stored duplicate; a rename by someone
        // else is caught up on there).
        if (version.get(f.imo) === (versionsBefore.get(f.imo) ?? 0) + (added.get(f.imo) ?? 0)) {
          cache.set(f.imo, { vessel: f.vessel, version: version.get(f.imo)! });
          replies[f.index] = { ok: true, result: { result: 'OK', id: result.events.at(-1)!.globalPosition } };
        } else {
          cache.delete(f.imo);
          slow.push({ index: f.index, post: f.post });
        }
      });
      return slow;
    }

    /**
     * The posts of vessels new here (an IMO without a row), registered together: every such vessel's first post
     * (its registration and timestamp) and its other posts that change nothing about it, all in ONE appendMany in
     * one transaction with the vessels' rows. Each vessel's stream must not have existed: its first event has to
     * land at position 1 as new, else the transaction rolls back (as an append expecting no stream would).
     * Returns what is left for the later paths: the groups' first posts for the single path and their other posts
     * for appendCached; all of them when the transaction fails (a vessel registered meanwhile is a conflict), which
     * then decide again one by one.
     */
    async function registerNewVessels(groups: { index: number; post: AdmittedPost }[][]) {
      const all = {
        firsts: groups.map((group) => group[0]!),
        rest: groups.flatMap((group) => group.slice(1)),
      };
      const candidates = groups.filter(([first]) => first!.post.ts.imo !== 0 && !cache.get(first!.post.ts.imo));
      if (candidates.length === 0) return all;
      const known = await knownImos(
        db,
        candidates.map(([first]) => first!.post.ts.imo),
      );
      type Entry = { index: number; events: NewEvent[] };
      const fresh: { imo: number; userId: number | null; vessel: Vessel; entries: Entry[] }[] = [];
      for (const [first, ...others] of candidates) {
        const { index, post } = first!;
        const imo = post.ts.imo;
        if (known.has(imo)) continue;
        let decision: ReturnType<typeof decideTimestamp>;
        try {
          decision = decideTimestamp(post.ts, {
            now: at,
            actor: post.actor,
            manual: post.input.manual === true,
            assignedImo: imo,
            weight: post.weight,
          });
        } catch {
          continue; // Refused: the single path answers it.
        }
        if (decision.vesselChange !== 'registered') continue;
        const vessel = decision.vessel;
        const entries: Entry[] = [{ index, events: withMetadata(decision.events, post.metadata) }];
        // As appendCached would decide them against the vessel just registered: those that change nothing about
        // it go along; a rename is left for the single path, after these (as there).
        for (const other of others) {
          let again: ReturnType<typeof decideTimestamp>;
          try {
            again = decideTimestamp(other.post.ts, {
              now: at,
              actor: other.post.actor,
              manual: other.post.input.manual === true,
              knownVessel: vessel,
              assignedImo: imo,
              weight: other.post.weight,
            });
          } catch {
            continue; // Left for appendCached, which decides it again.
          }
          if (again.vesselChange !== 'none') continue;
          entries.push({
            index: other.index,
            events: withMetadata(again.events, other.post.metadata),
          });
        }
        fresh.push({ imo, userId: post.actor.user_id, vessel, entries });
      }
      if (fresh.length === 0) return all;
      // In IMO order, as the vessels' rows; the event store takes the streams' locks in its own fixed order.
      fresh.sort((a, b) => a.imo - b.imo);
      const appends = fresh.flatMap((f) => f.entries.map((e) => ({ streamId: vesselStream(f.imo), events: e.events })));
      let results: AppendResult[];
      try {
        results = await db.transaction(async (tx) => {
          // Append first: the event store needs the streams' locks before this transaction's first write.
          const appended = await store.appendMany(appends, { tx });
          let first = 0;
          for (const f of fresh) {
            const registration = appended[first]!;
            if (registration.events[0]?.streamPosition !== 1 || registration.events.some((e) => e.duplicate)) {
              const streamId = vesselStream(f.imo);
              const actual = registration.events[0]!.streamPosition - 1;
              throw new WrongExpectedVersionError(streamId, 'no_stream', actual);
            }
            first += f.entries.length;
          }
          await saveNewVessels(
            tx,
            fresh.map((f) => ({ vessel: f.vessel, userId: f.userId })),
          );
          return appended;
        });
      } catch (error) {
        if (!isConflict(error)) log.warn({ err: error }, 'registering new vessels together failed; one by one');
        return all;
      }
      const taken = new Set<number>();
      let i = 0;
      for (const f of fresh) {
        for (const entry of f.entries) {
          const result = results[i++]!;
          taken.add(entry.index);
          replies[entry.index] = { ok: true, result: { result: 'OK', id: result.events.at(-1)!.globalPosition } };
        }
        cache.set(f.imo, { vessel: f.vessel, version: results[i - 1]!.nextExpectedVersion });
      }
      return {
        firsts: all.firsts.filter(({ index }) => !taken.has(index)),
        rest: all.rest.filter(({ index }) => !taken.has(index)),
      };
    }

    const single = async ({ index, post }: { index: number; post: AdmittedPost }) => {
      try {
        replies[index] = { ok: true, result: await postAdmitted(post) };
      } catch (error) {
        fail(index, error);
      }
    };
    const byVessel = (posts: { index: number; post: AdmittedPost }[]) => {
      const groups = new Map<string, { index: number; post: AdmittedPost }[]>();
      for (const item of posts.sort((a, b) => a.index - b.index)) {
        const key = item.post.ts.imo === 0 ? `name:${item.post.ts.vessel_name}` : `imo:${item.post.ts.imo}`;
        const group = groups.get(key);
        if (group) group.push(item);
        else groups.set(key, [item]);
      }
      return [...groups.values()];
    };

    // The posts that missed the cache (e.g. the first posts for a vessel new here): vessels new here are registered
    // with their posts together; otherwise the first of each vessel takes the single path, which registers the
    // vessel and caches it, and the vessel's others then go together into one appendMany. Run at once they would
    // race to register it, and each loser roll back, catch up and decide again.
    const missed = byVessel(await appendCached(admitted));
    const { firsts, rest } = await registerNewVessels(missed);
    await Promise.all(firsts.map(single));
    const left = await appendCached(rest);
    // What still takes the single path: one vessel's posts one after another, in the batch's order.
    await Promise.all(
      byVessel(left).map(async (group) => {
        for (const item of group) await single(item);
      }),
    );
    return replies;
  }

  async function changeTrash(
    payload: unknown,
    headers: Record<string, unknown>,
    decide: (state: Parameters<typeof decideDeleteTimestamp>[0], id: number) => TrashEvent[],
  ): Promise<true> {
    const { actor, input } = decodeCommand<TimestampIdCommand>(payload);
    const id = parseTimestampId(input.id);
    const received = await store.readByGlobalPosition(id);
    if (received?.type !== 'TimestampReceived') throw invalidTimestampId(id);
    const imo = (received.data as TimestampReceived).imo;
    const { version, appended } = await decideAndAppend(
      store,
      {
        streamId: received.streamId,
        load: () => loadTrash(store, received.streamId),
        decide: (state) => decide(state, id),
        metadata: eventMetadata(actor, headers),
      },
      { attempts: TRASH_ATTEMPTS, busyMessage: VESSEL_BUSY, log },
    );
    if (appended) {
      // Keep a cached snapshot that was current: trash events do not change the vessel, only the version.
      const cached = cache.get(imo);
      if (cached?.version === version) cache.set(imo, { ...cached, version: appended.nextExpectedVersion });
    }
    return true;
  }

  const deleteTimestamp = (payload: unknown, headers: Record<string, unknown> = {}) =>
    changeTrash(payload, headers, decideDeleteTimestamp);
  const restoreTimestamp = (payload: unknown, headers: Record<string, unknown> = {}) =>
    changeTrash(payload, headers, decideRestoreTimestamp);

  /**
   * Decides a priority change against its stream and appends it with the stream's version, the weight table in
   * the same transaction. Operators changing priorities at the same moment (from any process) take turns on a
   * transaction lock, so each decides against the other's result; the expected version still guards the stream.
   */
  async function changePriorities(
    streamId: string,
    actor: Actor,
    headers: Record<string, unknown>,
    decide: (state: WeightsState) => PriorityEvent[],
    save: (tx: Queryable, event: PriorityEvent) => Promise<void>,
  ): Promise<{ result: 'OK' }> {
    await decideAndAppendInTransaction(db, store, {
      streamId,
      async load(tx) {
        await lockPriorities(tx, streamId);
        return loadWeights(store, streamId, tx);
      },
      decide,
      metadata: eventMetadata(actor, headers),
      async project(tx, events) {
        for (const event of events) await save(tx, event);
      },
    });
    return { result: 'OK' };
  }

  /** POST /timestamp-api-key-weights (the gateway has checked that the API keys exist). */
  async function setTimestampApiKeyWeights(
    payload: unknown,
    headers: Record<string, unknown> = {},
  ): Promise<{ result: 'OK' }> {
    const { actor, input } = decodeCommand<SetTimestampApiKeyWeightsCommand>(payload);
    const pairs = templatePairs(deps.namespace);
    if (!pairs) throw ApiError.badRequest(`No port call template for namespace ${deps.namespace}`);
    const command = validateTimestampWeights(input, pairs);
    return changePriorities(
      TIMESTAMP_PRIORITIES_STREAM,
      actor,
      headers,
      (state) => decideTimestampWeights(state, command),
      (tx, event) =>
        event.type === 'TimestampApiKeyWeightsSet'
          ? saveTimestampWeights(tx, event.data.time_type, event.data.state, event.data.weights, actor.user_id)
          : Promise.resolve(),
    );
  }

  /** POST /payload-key-api-key-weights. */
  async function setPayloadKeyApiKeyWeights(
    payload: unknown,
    headers: Record<string, unknown> = {},
  ): Promise<{ result: 'OK' }> {
    const { actor, input } = decodeCommand<SetPayloadKeyApiKeyWeightsCommand>(payload);
    const command = validatePayloadKeyWeights(input);
    return changePriorities(
      PAYLOAD_KEY_PRIORITIES_STREAM,
      actor,
      headers,
      (state) => decidePayloadKeyWeights(state, command),
      (tx, event) =>
        event.type === 'PayloadKeyApiKeyWeightsSet'
          ? savePayloadKeyWeights(tx, event.data.payload_key, event.data.weights, actor.user_id)
          : Promise.resolve(),
    );
  }

  /**
   * PUT /vessel (by the vessel's row id) and POST /agent/rest/vessel-type (by IMO): decided against the vessels
   * row under the vessel's type lock, appended to `vessel-<imo>` with the row's update in one transaction. The
   * decision depends on the row alone, which only this command changes and only under that lock, so the append
   * needs no expected version and concurrent timestamp posts of the vessel never conflict with it.
   */
  async function setVesselType(payload: unknown, headers: Record<string, unknown> = {}): Promise<{ result: 'OK' }> {
    const { actor, input } = decodeCommand<SetVesselTypeCommand>(payload);
    const id = positiveId(input.id);
    const imo = positiveId(input.imo);
    const key = id !== undefined ? { id } : imo !== undefined ? { imo } : undefined;
    const found = key && (await findVesselType(db, key));
    await db.transaction(async (tx) => {
      if (found) await lockVesselType(tx, found.imo);
      const current = found && (await findVesselType(tx, { imo: found.imo }));
      const events = decideSetVesselType(current, input.vessel_type);
      if (!current || events.length === 0) return;
      const metadata = eventMetadata(actor, headers);
      await store.append(
        vesselStream(current.imo),
        events.map((e) => ({ ...e, metadata })),
        { expectedVersion: 'any', tx },
      );
      await saveVesselType(tx, current.imo, events[0].data.vessel_type, actor.user_id);
      // A cached snapshot is one event behind now; the next post reads it again.
      cache.delete(current.imo);
    });
    return { result: 'OK' };
  }

  /** The `cmd.ingest` RPC handler. */
  const handle = commandHandler({
    [IngestCommands.postTimestamp]: postTimestamp,
    [IngestCommands.postTimestamps]: postTimestamps,
    [IngestCommands.deleteTimestamp]: deleteTimestamp,
    [IngestCommands.restoreTimestamp]: restoreTimestamp,
    [IngestCommands.setTimestampApiKeyWeights]: setTimestampApiKeyWeights,
    [IngestCommands.setPayloadKeyApiKeyWeights]: setPayloadKeyApiKeyWeights,
    [IngestCommands.setVesselType]: setVesselType,
  });

  return {
    postTimestamp,
    postTimestamps,
    deleteTimestamp,
    restoreTimestamp,
    setTimestampApiKeyWeights,
    setPayloadKeyApiKeyWeights,
    setVesselType,
    handle,
  };
}

export type IngestCommandHandlers = ReturnType<typeof createIngestCommands>;
