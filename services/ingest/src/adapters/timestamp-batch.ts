// The timestamp batcher's write paths (docs/port-calls.md#ingest): the posts the gateway gathered into one
// postTimestamps command, written in as few round trips as their vessels allow. Each post is decided by the same
// pure rule as a single post (domain/timestamp.ts); what this adds is only how the appends are grouped, and the
// checks that keep the vessel cache true. Whatever a path cannot take is handed back for the single path.

import { isVersionConflict } from '@pcas/commands';
import { type Actor, type ItemReply, vesselStream } from '@pcas/contracts';
import {
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type NewEvent,
  WrongExpectedVersionError,
} from '@pcas/eventstore';
import type { Logger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import {
  decideTimestamp,
  type PostTimestampDecision,
  type ValidTimestamp,
  type VesselStreamEvent,
} from '../domain/timestamp.ts';
import type { Vessel } from '../domain/vessel.ts';
import type { VesselCache } from './vessel-cache.ts';
import { catchUpVessels } from './vessel-streams.ts';
import { knownImos, saveNewVessels } from './vessels.ts';

/** A post that passed validation and admission: what deciding it needs. */
export interface AdmittedPost {
  ts: ValidTimestamp;
  manual: boolean;
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

/** One post of a batch, by its place in the batch. */
export interface BatchItem {
  index: number;
  post: AdmittedPost;
}

export interface BatchWriter {
  db: Db;
  store: EventStore;
  cache: VesselCache;
  log: Logger;
  /** Records the reply of the batch's item `index`. */
  answer(index: number, reply: ItemReply<PostTimestampReply>): void;
}

/** The post decided for the vessel of `imo`, as known (undefined: not registered yet). */
export const decidePost = (post: AdmittedPost, imo: number, knownVessel?: Vessel): PostTimestampDecision =>
  decideTimestamp(post.ts, {
    now: post.at,
    actor: post.actor,
    manual: post.manual,
    knownVessel,
    assignedImo: imo,
    weight: post.weight,
  });

/** The decided events with who and why, to append (written out: a spread per event took the slow path). */
export function withMetadata(events: readonly VesselStreamEvent[], metadata: EventMetadata): NewEvent[] {
  return events.map((e) =>
    e.id === undefined ? { type: e.type, data: e.data, metadata } : { id: e.id, type: e.type, data: e.data, metadata },
  );
}

/** Another writer got there first (the stream, or the vessels table's name): re-read and decide again. */
export function isConflict(error: unknown): boolean {
  return isVersionConflict(error) || (error as { code?: unknown })?.code === '23505';
}

/** The reply to a post whose TimestampReceived is the last event of `result`. */
export const postedReply = (result: AppendResult): PostTimestampReply => ({
  result: 'OK',
  id: result.events.at(-1)!.globalPosition,
});

/**
 * Every post for a cached vessel under its current name goes into ONE appendMany (one round trip, one commit); the
 * others are returned for the other paths. A stream others wrote to meanwhile is caught up on; a post whose vessel
 * they renamed is returned too (its event is then a stored duplicate, and the single path decides the rename).
 */
export async function appendCachedPosts(w: BatchWriter, posts: readonly BatchItem[]): Promise<BatchItem[]> {
  const fast: { index: number; imo: number; post: AdmittedPost; events: NewEvent[]; vessel: Vessel }[] = [];
  const slow: BatchItem[] = [];
  for (const { index, post } of posts) {
    const snapshot = post.ts.imo === 0 ? undefined : w.cache.get(post.ts.imo);
    if (snapshot?.vessel) {
      const decision = decidePost(post, post.ts.imo, snapshot.vessel);
      if (decision.vesselChange === 'none') {
        const events = withMetadata(decision.events, post.metadata);
        fast.push({ index, imo: post.ts.imo, post, events, vessel: decision.vessel });
        continue;
      }
    }
    slow.push({ index, post });
  }
  if (fast.length === 0) return slow;
  const before = new Map(fast.map((f) => [f.imo, w.cache.get(f.imo)!]));
  const results = await w.store.appendMany(fast.map((f) => ({ streamId: vesselStream(f.imo), events: f.events })));
  const added = new Map<number, number>();
  const version = new Map<number, number>();
  results.forEach((result, i) => {
    const imo = fast[i].imo;
    added.set(imo, (added.get(imo) ?? 0) + result.events.filter((e) => !e.duplicate).length);
    version.set(imo, result.nextExpectedVersion);
  });
  // Streams others wrote to meanwhile (another ingest process): read just what they wrote, as the single path does.
  const moved = [...before.keys()].filter((imo) => version.get(imo) !== before.get(imo)!.version + added.get(imo)!);
  const caughtUp = await catchUpVessels(
    w.store,
    moved.map((imo) => [imo, before.get(imo)!]),
  );
  for (const [imo, snapshot] of caughtUp) w.cache.set(imo, snapshot);
  results.forEach((result, i) => {
    const f = fast[i];
    const newer = caughtUp.get(f.imo);
    if (!newer) {
      w.cache.set(f.imo, { vessel: f.vessel, version: version.get(f.imo)! });
      w.answer(f.index, { ok: true, result: postedReply(result) });
    } else if (decidePost(f.post, f.imo, newer.vessel).vesselChange === 'none') {
      // Its timestamp is stored and nobody renamed the vessel meanwhile: nothing to decide again.
      w.answer(f.index, { ok: true, result: postedReply(result) });
    } else {
      // Renamed by someone else: the name this post carries is the newest and must win (the single path decides
      // it again; its timestamp is then a stored duplicate).
      slow.push({ index: f.index, post: f.post });
    }
  });
  return slow;
}

interface FreshVessel {
  imo: number;
  userId: number | null;
  vessel: Vessel;
  entries: { index: number; events: NewEvent[] }[];
}

/** A vessel new here with its first post (its registration) and the later posts that change nothing about it. */
function freshVessel([first, ...others]: readonly BatchItem[]): FreshVessel | undefined {
  const imo = first.post.ts.imo;
  let decision: PostTimestampDecision;
  try {
    decision = decidePost(first.post, imo);
  } catch {
    return undefined; // Refused: the single path answers it.
  }
  if (decision.vesselChange !== 'registered') return undefined;
  const vessel = decision.vessel;
  const entries = [{ index: first.index, events: withMetadata(decision.events, first.post.metadata) }];
  // As appendCachedPosts would decide them against the vessel just registered: those that change nothing about it
  // go along; a rename is left for the single path, after these (as there).
  for (const other of others) {
    let again: PostTimestampDecision;
    try {
      again = decidePost(other.post, imo, vessel);
    } catch {
      continue; // Left for appendCachedPosts, which decides it again.
    }
    if (again.vesselChange !== 'none') continue;
    entries.push({ index: other.index, events: withMetadata(again.events, other.post.metadata) });
  }
  return { imo, userId: first.post.actor.user_id, vessel, entries };
}

/** Appends the fresh vessels' events and writes their rows in one transaction; a stream that existed rolls it back. */
async function appendFresh(w: BatchWriter, fresh: readonly FreshVessel[]): Promise<AppendResult[]> {
  const appends = fresh.flatMap((f) => f.entries.map((e) => ({ streamId: vesselStream(f.imo), events: e.events })));
  return w.db.transaction(async (tx) => {
    // Append first: the event store needs the streams' locks before this transaction's first write.
    const appended = await w.store.appendMany(appends, { tx });
    let first = 0;
    for (const f of fresh) {
      const registration = appended[first]!;
      if (registration.events[0]?.streamPosition !== 1 || registration.events.some((e) => e.duplicate)) {
        const actual = registration.events[0]!.streamPosition - 1;
        throw new WrongExpectedVersionError(vesselStream(f.imo), 'no_stream', actual);
      }
      first += f.entries.length;
    }
    await saveNewVessels(
      tx,
      fresh.map((f) => ({ vessel: f.vessel, userId: f.userId })),
    );
    return appended;
  });
}

/**
 * The posts of vessels new here (an IMO without a row), registered together: every such vessel's first post (its
 * registration and timestamp) and its other posts that change nothing about it, all in ONE appendMany in one
 * transaction with the vessels' rows. Each vessel's stream must not have existed: its first event has to land at
 * position 1 as new, else the transaction rolls back (as an append expecting no stream would). Returns what is
 * left for the later paths: the groups' first posts for the single path and their other posts for
 * appendCachedPosts; all of them when the transaction fails (a vessel registered meanwhile is a conflict), which
 * then decide again one by one.
 */
export async function registerNewVessels(
  w: BatchWriter,
  groups: readonly BatchItem[][],
): Promise<{ firsts: BatchItem[]; rest: BatchItem[] }> {
  const all = { firsts: groups.map((group) => group[0]!), rest: groups.flatMap((group) => group.slice(1)) };
  const candidates = groups.filter(([first]) => first!.post.ts.imo !== 0 && !w.cache.get(first!.post.ts.imo));
  if (candidates.length === 0) return all;
  const known = await knownImos(
    w.db,
    candidates.map(([first]) => first!.post.ts.imo),
  );
  const fresh = candidates
    .filter(([first]) => !known.has(first!.post.ts.imo))
    .map(freshVessel)
    .filter((f): f is FreshVessel => f !== undefined);
  if (fresh.length === 0) return all;
  // In IMO order, as the vessels' rows; the event store takes the streams' locks in its own fixed order.
  fresh.sort((a, b) => a.imo - b.imo);
  let results: AppendResult[];
  try {
    results = await appendFresh(w, fresh);
  } catch (error) {
    if (!isConflict(error)) w.log.warn({ err: error }, 'registering new vessels together failed; one by one');
    return all;
  }
  const taken = new Set<number>();
  let i = 0;
  for (const f of fresh) {
    for (const entry of f.entries) {
      const result = results[i++]!;
      taken.add(entry.index);
      w.answer(entry.index, { ok: true, result: postedReply(result) });
    }
    w.cache.set(f.imo, { vessel: f.vessel, version: results[i - 1]!.nextExpectedVersion });
  }
  return {
    firsts: all.firsts.filter(({ index }) => !taken.has(index)),
    rest: all.rest.filter(({ index }) => !taken.has(index)),
  };
}

/** The posts grouped by vessel (IMO, or name for IMO 0), each group in the batch's order. */
export function byVessel(posts: BatchItem[]): BatchItem[][] {
  const groups = new Map<string, BatchItem[]>();
  for (const item of posts.sort((a, b) => a.index - b.index)) {
    const key = item.post.ts.imo === 0 ? `name:${item.post.ts.vessel_name}` : `imo:${item.post.ts.imo}`;
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return [...groups.values()];
}
