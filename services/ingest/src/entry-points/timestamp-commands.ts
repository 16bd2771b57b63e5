// postTimestamp and postTimestamps (docs/port-calls.md#ingest): decode, validate, admit (priorities), then decide
// against the vessel's snapshot (domain/timestamp.ts) and append to `vessel-<imo>` with the snapshot's version,
// the vessels table in the same transaction when the vessel changes; reply with the timestamp's id.
//
// Hot path: a known vessel posting under its current name costs one append. Known vessels are cached as snapshots
// {name, stream version} (adapters/vessel-cache.ts); a stale snapshot fails the append or is caught up on, and the
// post is decided again. Batches go through the timestamp batcher's paths (adapters/timestamp-batch.ts) first.

import { decodeCommand, eventMetadata } from '@pcas/commands';
import {
  ApiError,
  type ItemReply,
  MAX_TIMESTAMP_BATCH,
  type PostTimestampCommand,
  type PostTimestampsCommand,
  vesselStream,
} from '@pcas/contracts';
import type { AppendResult } from '@pcas/eventstore';
import { findTimestampWeight, findTimestampWeights, weightKey } from '../adapters/priorities.ts';
import {
  type AdmittedPost,
  appendCachedPosts,
  type BatchItem,
  type BatchWriter,
  byVessel,
  decidePost,
  isConflict,
  type PostTimestampReply,
  postedReply,
  registerNewVessels,
  withMetadata,
} from '../adapters/timestamp-batch.ts';
import { catchUpVessel } from '../adapters/vessel-streams.ts';
import { findVesselByName, insertFakeImoVessel, lockVesselName, saveVessel } from '../adapters/vessels.ts';
import { admitTimestamp, needsKeyWeight } from '../domain/priorities.ts';
import { validateTimestamp } from '../domain/timestamp.ts';
import type { Vessel } from '../domain/vessel.ts';
import type { Headers, IngestContext } from './command-context.ts';
import { VESSEL_BUSY } from './command-context.ts';

// Concurrent writers to one vessel stream each cost a retry; a handful covers any realistic burst.
const POST_ATTEMPTS = 5;

export function createTimestampCommands(ctx: IngestContext) {
  const { db, store, log, cache } = ctx;

  /** Decide against the snapshot and append; on a conflict catch up and try again. */
  async function postForImo(imo: number, post: AdmittedPost): Promise<PostTimestampReply> {
    const stream = vesselStream(imo);
    let snapshot = cache.get(imo) ?? (await catchUpVessel(store, imo));
    for (let attempt = 1; ; attempt++) {
      // assignedImo only matters for an IMO-0 post whose name matched a row without a stream yet.
      const decision = decidePost(post, imo, snapshot.vessel);
      const events = withMetadata(decision.events, post.metadata);
      // A timestamp for a known vessel under its current name depends on no other state: append it whatever the
      // stream's version, so concurrent posts for one vessel never conflict. Only vessel changes (register,
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
                await saveVessel(tx, decision.vessel, post.actor.user_id);
                return appended;
              });
        // An append that only repeats stored events succeeds at whatever version the stream has reached, so the
        // snapshot is current only when the version moved by exactly what we added.
        const added = result.events.filter((e) => !e.duplicate).length;
        if (result.nextExpectedVersion === snapshot.version + added) {
          cache.set(imo, { vessel: decision.vessel, version: result.nextExpectedVersion });
        } else if (plainTimestamp) {
          // Others wrote meanwhile. Read just what they wrote: if they renamed the vessel, the name this post
          // carries is the newest one and must win, so decide again (our timestamp is then a stored duplicate).
          const caughtUp = await catchUpVessel(store, imo, snapshot);
          cache.set(imo, caughtUp);
          const again = decidePost(post, imo, caughtUp.vessel);
          if (again.vesselChange !== 'none' && attempt < POST_ATTEMPTS) {
            snapshot = caughtUp;
            continue;
          }
        } else cache.delete(imo);
        return postedReply(result);
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
   * IMO 0 and no vessel of that name: create it under a fake IMO, in one transaction with its events. Resolves to
   * the IMO to post under instead when another post created the vessel first.
   */
  async function registerByName(post: AdmittedPost): Promise<{ reply: PostTimestampReply } | { imo: number }> {
    const name = post.ts.vessel_name;
    type Outcome = { imo: number; registered?: { vessel: Vessel; result: AppendResult } };
    const outcome = await db.transaction(async (tx): Promise<Outcome> => {
      await lockVesselName(tx, name);
      const found = await findVesselByName(tx, name);
      if (found) return { imo: found.imo };
      const imo = await insertFakeImoVessel(tx, name, post.actor.user_id);
      const decision = decidePost(post, imo);
      const events = withMetadata(decision.events, post.metadata);
      const result = await store.append(vesselStream(imo), events, { expectedVersion: 'no_stream', tx });
      return { imo, registered: { vessel: decision.vessel, result } };
    });
    if (!outcome.registered) return { imo: outcome.imo };
    const { vessel, result } = outcome.registered;
    cache.set(outcome.imo, { vessel, version: result.nextExpectedVersion });
    return { reply: postedReply(result) };
  }

  /** A validated, admitted post: vessel found or registered by name, then decided and appended. */
  async function postAdmitted(post: AdmittedPost): Promise<PostTimestampReply> {
    if (post.ts.imo !== 0) return postForImo(post.ts.imo, post);
    const found = await findVesselByName(db, post.ts.vessel_name);
    if (found) return postForImo(found.imo, post);
    const registered = await registerByName(post);
    return 'reply' in registered ? registered.reply : postForImo(registered.imo, post);
  }

  async function postTimestamp(payload: unknown, headers: Headers = {}): Promise<PostTimestampReply> {
    const { actor, input } = decodeCommand<PostTimestampCommand>(payload);
    const at = ctx.now();
    // Invalid input is refused before any I/O; then admission (403, nothing stored), as the original's order.
    const ts = validateTimestamp(input, at);
    const manual = input.manual === true;
    const keyWeight =
      needsKeyWeight({ manual, actor }) && actor.api_key_id !== null
        ? await findTimestampWeight(db, ts.time_type, ts.state, actor.api_key_id)
        : undefined;
    const weight = admitTimestamp({ manual, actor }, keyWeight);
    return postAdmitted({ ts, manual, actor, at, metadata: eventMetadata(actor, headers), weight });
  }

  return { postTimestamp, postTimestamps: timestampBatchCommand(ctx, postAdmitted) };
}

/**
 * postTimestamps: many posts at once (the gateway gathers concurrent ones): one weight look-up for all, then the
 * batcher's paths (adapters/timestamp-batch.ts), then the single path (`postAdmitted`) for what they left. Each item
 * gets its own reply, as if posted alone.
 */
function timestampBatchCommand(ctx: IngestContext, postAdmitted: (post: AdmittedPost) => Promise<PostTimestampReply>) {
  const { db, store, log, cache } = ctx;

  /** Decodes, validates and admits a batch's items: the admitted posts; each refused item is answered. */
  async function admitBatch(items: PostTimestampsCommand['items'], at: Date, writer: BatchWriter) {
    const valid: (Omit<AdmittedPost, 'weight' | 'metadata'> & { index: number; headers: Headers })[] = [];
    items.forEach((item, index) => {
      try {
        const { actor, input } = decodeCommand<PostTimestampCommand>(item?.body);
        const ts = validateTimestamp(input, at);
        valid.push({ index, ts, manual: input.manual === true, actor, at, headers: item?.headers ?? {} });
      } catch (error) {
        fail(writer, index, error);
      }
    });
    const weights = await findTimestampWeights(
      db,
      valid
        .filter((v) => needsKeyWeight(v) && v.actor.api_key_id !== null)
        .map((v) => ({ time_type: v.ts.time_type, state: v.ts.state, api_key_id: v.actor.api_key_id! })),
    );
    const admitted: BatchItem[] = [];
    for (const { index, headers, ...v } of valid) {
      try {
        const keyWeight =
          v.actor.api_key_id === null
            ? undefined
            : weights.get(weightKey(v.ts.time_type, v.ts.state, v.actor.api_key_id));
        const weight = admitTimestamp(v, keyWeight);
        admitted.push({ index, post: { ...v, metadata: eventMetadata(v.actor, headers), weight } });
      } catch (error) {
        fail(writer, index, error);
      }
    }
    return admitted;
  }

  /** One post's failure must not take the others' replies with it: it answers as it would alone. */
  function fail(writer: BatchWriter, index: number, error: unknown): void {
    if (error instanceof ApiError) {
      writer.answer(index, { ok: false, status: error.status, error: error.message });
      return;
    }
    log.error({ err: error }, 'timestamp post in a batch failed');
    writer.answer(index, { ok: false, status: 500, error: 'Internal server error' });
  }

  async function postTimestamps(payload: unknown): Promise<ItemReply<PostTimestampReply>[]> {
    const items = (payload as Partial<PostTimestampsCommand> | null)?.items;
    if (!Array.isArray(items) || items.length === 0 || items.length > MAX_TIMESTAMP_BATCH) {
      throw ApiError.badRequest('Invalid command');
    }
    const replies: ItemReply<PostTimestampReply>[] = new Array(items.length);
    const writer: BatchWriter = { db, store, cache, log, answer: (index, reply) => (replies[index] = reply) };
    const admitted = await admitBatch(items, ctx.now(), writer);
    const single = async ({ index, post }: BatchItem) => {
      try {
        replies[index] = { ok: true, result: await postAdmitted(post) };
      } catch (error) {
        fail(writer, index, error);
      }
    };
    // The posts that missed the cache (e.g. the first posts for a vessel new here): vessels new here are registered
    // with their posts together; otherwise the first of each vessel takes the single path, which registers the
    // vessel and caches it, and the vessel's others then go together into one appendMany. Run at once they would
    // race to register it, and each loser roll back, catch up and decide again.
    const missed = byVessel(await appendCachedPosts(writer, admitted));
    const { firsts, rest } = await registerNewVessels(writer, missed);
    await Promise.all(firsts.map(single));
    const left = await appendCachedPosts(writer, rest);
    // What still takes the single path: one vessel's posts one after another, in the batch's order.
    await Promise.all(
      byVessel(left).map(async (group) => {
        for (const item of group) await single(item);
      }),
    );
    return replies;
  }

  return postTimestamps;
}
