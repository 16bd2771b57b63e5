// The generated timestamps' way to ingest (docs/queue.md): the rows of ingest work the decisions recorded
// (adapters/timestamp-outbox.ts) done after the commit. Concurrent decisions' rows are claimed together (a lease),
// posted in one RPC (a batcher) and deleted together; what ingest was too busy to store is posted again with a
// growing delay; a cancellation's removal deletes what was posted. What a crash or a long-busy ingest left is
// swept at start and every minute, by whichever process claims it.

import { createBatcher } from '@pcas/batching';
import { type Actor, ApiError, INGEST, IngestCommands, type ItemReply, MAX_TIMESTAMP_BATCH } from '@pcas/contracts';
import type { Bus } from '@pcas/messaging';
import type { Logger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import type { GeneratedTimestamp } from '../domain/generated-timestamps.ts';
import {
  type ClaimedWork,
  claimableTimestampWork,
  claimTimestampWork,
  forgetGeneratedTimestamp,
  generatedTimestampIds,
  nextTimestampWork,
  type RecordedWork,
  releaseTimestampWork,
  saveGeneratedTimestamps,
  timestampWorkDone,
} from './timestamp-outbox.ts';

// Posting or removing the generated timestamps: 6 attempts over about 15 s.
const TIMESTAMP_ATTEMPTS = 6;
const TIMESTAMP_RETRY_MS = 500;
// A claim on a row of ingest work outlives those attempts; a crashed poster's expires and the sweep takes it.
export const CLAIM_SECONDS = 120;

/** What a batch did with one row of recorded ingest work. */
type IngestOutcome =
  | { kind: 'skipped' }
  | { kind: 'removal'; row: ClaimedWork<GeneratedTimestamp> }
  | { kind: 'posted'; row: ClaimedWork<GeneratedTimestamp>; again: GeneratedTimestamp[] };

export interface IngestWork {
  /** Does recorded ingest work (its rows in the order recorded); true when all of it is done. */
  doIngestWork(work: readonly RecordedWork<GeneratedTimestamp>[]): Promise<boolean>;
  /** The work left undone, queued per slot request with `enqueue` (behind what this process still does for it). */
  sweepTimestampWork(enqueue: (keys: string[], work: () => Promise<void>) => void): Promise<number>;
}

interface IngestDeps {
  db: Db;
  bus: Bus;
  log: Logger;
}

/** A post of one generated timestamp as ingest takes it: the port's own (manual), whatever the key's priorities. */
const postItem = (actor: Actor, ts: GeneratedTimestamp) => ({
  body: { actor: { user_id: actor.user_id, api_key_id: null }, input: { ...ts, manual: true } },
});

/**
 * Recorded ingest work done together: the rows of many slot requests claimed in one statement (but those their
 * decision recorded claimed already), their timestamps posted in one RPC (one commit in ingest) and the finished
 * rows deleted, with the ids ingest gave, in one statement. A row that is not claimed (another process has it, or
 * an older row of its slot request is left) is skipped: whoever holds it, or the sweep, does it. A removal is
 * claimed here and done by the caller.
 */
function ingestBatcher({ db, bus, log }: IngestDeps) {
  return createBatcher<RecordedWork<GeneratedTimestamp>, IngestOutcome>(
    async (recorded) => {
      const seqs = recorded.map((r) => r.seq);
      const held = recorded.flatMap((r) => (r.held ? [r.held] : []));
      const toClaim = recorded.filter((r) => !r.held).map((r) => r.seq);
      const claimed = new Map(
        [...held, ...(await claimTimestampWork<GeneratedTimestamp>(db, toClaim, CLAIM_SECONDS))]
          .sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1))
          .map((row) => [row.seq, row]),
      );
      const posts = [...claimed.values()].filter((row) => row.timestamps !== null);
      const again = new Map<string, GeneratedTimestamp[]>();
      const saved: { slot_reservation_id: number; timestamp_id: number }[] = [];
      const items = posts.flatMap((row) => (row.timestamps ?? []).map((ts) => postItem(row.actor as Actor, ts)));
      if (items.length > 0) {
        let replies: ItemReply<{ id: number }>[];
        try {
          replies = (await bus.rpc(INGEST, IngestCommands.postTimestamps, { items })) as ItemReply<{ id: number }>[];
        } catch (error) {
          if (error instanceof ApiError && error.status < 500) {
            await releaseTimestampWork(db, [...claimed.keys()]);
            throw error;
          }
          replies = items.map(() => ({ ok: false, status: 503, error: String(error) }));
        }
        let at = 0;
        for (const row of posts) {
          const list = row.timestamps ?? [];
          const mine = replies.slice(at, at + list.length);
          at += list.length;
          const missing: GeneratedTimestamp[] = [];
          mine.forEach((reply, i) => {
            if (reply.ok) saved.push({ slot_reservation_id: row.slot_reservation_id, timestamp_id: reply.result.id });
            else if (reply.status >= 500) missing.push(list[i] as GeneratedTimestamp);
            else
              log.warn(
                { slot_reservation_id: row.slot_reservation_id, error: reply.error },
                'a generated timestamp was refused',
              );
          });
          if (missing.length > 0) again.set(row.seq, missing);
        }
      }
      const done = posts.filter((row) => !again.has(row.seq)).map((row) => row.seq);
      if (done.length > 0 || saved.length > 0) await timestampWorkDone(db, done, saved);
      return seqs.map((seq): { ok: true; value: IngestOutcome } => {
        const row = claimed.get(seq);
        if (!row) return { ok: true, value: { kind: 'skipped' } };
        if (row.timestamps === null) return { ok: true, value: { kind: 'removal', row } };
        return { ok: true, value: { kind: 'posted', row, again: again.get(seq) ?? [] } };
      });
    },
    // A slot request's row holds at most 5 timestamps: 32 rows stay well inside one ingest batch.
    { maxItems: Math.floor(MAX_TIMESTAMP_BATCH / 8), maxInFlight: 2 },
  );
}

/** Posts again, with a growing delay, the timestamps ingest was too busy to store (a refusal is final). */
async function postAgain(
  { db, bus, log }: IngestDeps,
  row: ClaimedWork<GeneratedTimestamp>,
  missing: GeneratedTimestamp[],
) {
  let pending = missing;
  for (let attempt = 2; pending.length > 0; attempt++) {
    if (attempt > TIMESTAMP_ATTEMPTS) throw new Error('ingest did not store them yet');
    await new Promise((r) => setTimeout(r, TIMESTAMP_RETRY_MS * 2 ** (attempt - 2)));
    let replies: ItemReply<{ id: number }>[];
    try {
      replies = (await bus.rpc(INGEST, IngestCommands.postTimestamps, {
        items: pending.map((ts) => postItem(row.actor as Actor, ts)),
      })) as ItemReply<{ id: number }>[];
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) throw error;
      replies = pending.map(() => ({ ok: false, status: 503, error: String(error) }));
    }
    const ids: number[] = [];
    const still: GeneratedTimestamp[] = [];
    replies.forEach((reply, i) => {
      if (reply.ok) ids.push(reply.result.id);
      else if (reply.status >= 500) still.push(pending[i] as GeneratedTimestamp);
      else
        log.warn(
          { slot_reservation_id: row.slot_reservation_id, error: reply.error },
          'a generated timestamp was refused',
        );
    });
    await saveGeneratedTimestamps(db, row.slot_reservation_id, ids);
    pending = still;
  }
  await timestampWorkDone(db, [row.seq]);
}

/** Removes a cancelled slot request's generated timestamps from ingest (one already deleted counts as removed). */
async function removeTimestamps({ db, bus }: IngestDeps, slotRequestId: number, actor: Actor) {
  for (const id of await generatedTimestampIds(db, slotRequestId)) {
    for (let attempt = 1; ; attempt++) {
      try {
        await bus.rpc(INGEST, IngestCommands.deleteTimestamp, { actor, input: { id } });
        break;
      } catch (error) {
        // Already deleted by someone: nothing left to remove. Ingest busy: again, as for posting.
        if (error instanceof ApiError && error.status < 500) break;
        if (attempt >= TIMESTAMP_ATTEMPTS) throw error;
        await new Promise((r) => setTimeout(r, TIMESTAMP_RETRY_MS * 2 ** (attempt - 1)));
      }
    }
    await forgetGeneratedTimestamp(db, slotRequestId, id);
  }
}

export function createIngestWork(deps: IngestDeps): IngestWork {
  const { db, log } = deps;
  const ingestTogether = ingestBatcher(deps);

  /**
   * Does recorded ingest work (its rows in the order recorded); true when all of it is done. A row skipped (held
   * elsewhere, or an older one of its slot request left) leaves that slot request's later rows for the sweep.
   */
  async function doIngestWork(work: readonly RecordedWork<GeneratedTimestamp>[]): Promise<boolean> {
    const blocked = new Set<number>();
    let all = true;
    for (const recorded of work) {
      let outcome: IngestOutcome;
      try {
        outcome = await ingestTogether(recorded);
      } catch (err) {
        log.error({ err }, 'generated timestamps not done yet; retried later');
        return false;
      }
      if (outcome.kind === 'skipped' || blocked.has(outcome.row.slot_reservation_id)) {
        if (outcome.kind !== 'skipped') await releaseTimestampWork(db, [outcome.row.seq]);
        all = false;
        continue;
      }
      const { row } = outcome;
      try {
        if (outcome.kind === 'removal') {
          await removeTimestamps(deps, row.slot_reservation_id, row.actor as Actor);
          await timestampWorkDone(db, [row.seq]);
        } else if (outcome.again.length > 0) await postAgain(deps, row, outcome.again);
      } catch (err) {
        log.error(
          { err, slot_reservation_id: row.slot_reservation_id },
          'generated timestamps not done yet; retried later',
        );
        await releaseTimestampWork(db, [row.seq]).catch(() => {});
        blocked.add(row.slot_reservation_id);
        all = false;
      }
    }
    return all;
  }

  /**
   * The ingest work a crash or a busy ingest left undone (at start, then regularly): per slot request, its rows
   * in order, queued behind what this process still does for it. Several processes may sweep at once: the claims
   * let one of them do each row, in order.
   */
  async function sweepTimestampWork(enqueue: (keys: string[], work: () => Promise<void>) => void): Promise<number> {
    const heads = await claimableTimestampWork(db);
    for (const { slot_reservation_id: id, seq } of heads) {
      enqueue([`slot-${id}`], async () => {
        for (let next: string | undefined = seq; next !== undefined; ) {
          if (!(await doIngestWork([{ seq: next }]))) return;
          next = await nextTimestampWork(db, id, next);
        }
      });
    }
    return heads.length;
  }

  return { doIngestWork, sweepTimestampWork };
}
