// What a committed decision leaves to do at ingest (queue.timestamp_outbox): recorded in the decision's transaction,
// claimed by one process at a time (a lease that a crashed poster's claim outlives), done in order per slot request
// and deleted; and the ids ingest gave the generated timestamps (queue.generated_timestamps), so a cancellation can
// remove them.

import { type Queryable, type QueryResult, together } from '@pcas/sql';

export async function saveGeneratedTimestamps(
  q: Queryable,
  slotRequestId: number,
  timestampIds: number[],
): Promise<void> {
  if (timestampIds.length === 0) return;
  await q.query(
    `INSERT INTO queue.generated_timestamps (slot_reservation_id, timestamp_id)
     SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`,
    [slotRequestId, timestampIds],
  );
}

export async function generatedTimestampIds(q: Queryable, slotRequestId: number): Promise<number[]> {
  const { rows } = await q.query<{ id: string }>(
    'SELECT timestamp_id::text AS id FROM queue.generated_timestamps WHERE slot_reservation_id = $1',
    [slotRequestId],
  );
  return rows.map((r) => Number(r.id));
}

export async function forgetGeneratedTimestamp(
  q: Queryable,
  slotRequestId: number,
  timestampId: number,
): Promise<void> {
  await q.query('DELETE FROM queue.generated_timestamps WHERE slot_reservation_id = $1 AND timestamp_id = $2', [
    slotRequestId,
    timestampId,
  ]);
}

/** One piece of ingest work a decision left: post `timestamps`, or (null) remove the slot request's. */
export interface TimestampWork<T = unknown> {
  slot_reservation_id: number;
  timestamps: T[] | null;
  actor: unknown;
}

/**
 * Read-model writes (the project* functions given this instead of the transaction) gathered to go to the database
 * with the decision's ingest work as one statement (recordTimestampWork): one round trip instead of one per write.
 * Only for writes to different rows: the parts of one statement see the snapshot it started with, in no order.
 */
export class GatheredWrites implements Queryable {
  readonly statements: { text: string; values: unknown[] }[] = [];
  async query<R>(text: string, values: unknown[] = []): Promise<QueryResult<R>> {
    this.statements.push({ text, values });
    return { rows: [], rowCount: 0 };
  }
}

/** One recorded piece of ingest work, with its row's seq. */
export type ClaimedWork<T> = TimestampWork<T> & { seq: string };

/** A row of ingest work as its decision recorded it: `held` when recorded claimed by this process (its content). */
export interface RecordedWork<T = unknown> {
  seq: string;
  held?: ClaimedWork<T>;
}

/**
 * Records a decision's ingest work in its transaction (one statement, in the given order), with the read-model
 * writes `gathered` (if any) in the same statement; returns the rows in that order, and with `berthId` the version
 * on that berth's row as the statement finds it (what loadSlotRequestForChange's reads are checked against). With
 * `claimSeconds`, a row that
 * is the oldest of its slot request (none recorded before it is left) is recorded claimed by this process for that
 * long, as claimTimestampWork would claim it: its poster right after the commit needs no claim statement. The
 * oldest is known here: every row of a slot request comes with an append to its stream, and this decision holds
 * that stream's lock, so an earlier decision's rows are committed and seen, a later one's wait.
 */
export async function recordTimestampWork<T>(
  tx: Queryable,
  work: readonly TimestampWork<T>[],
  options: { gathered?: GatheredWrites; claimSeconds?: number; berthId?: number } = {},
): Promise<{ work: RecordedWork<T>[]; berthVersion: number | null }> {
  const writes = options.gathered?.statements ?? [];
  const { berthId } = options;
  if (work.length === 0) {
    if (writes.length === 0 && berthId === undefined) return { work: [], berthVersion: null };
    const statement = together(
      writes,
      berthId === undefined
        ? { text: 'SELECT NULL::int AS berth_version', values: [] }
        : { text: 'SELECT (SELECT version FROM queue.berths WHERE id = $1) AS berth_version', values: [berthId] },
    );
    const { rows } = await tx.query<{ berth_version: number | null }>(statement.text, statement.values);
    return { work: [], berthVersion: rows[0]?.berth_version ?? null };
  }
  // Only a slot request's first row here may be its oldest.
  const seen = new Set<number>();
  const first = work.map((w) => {
    if (seen.has(w.slot_reservation_id)) return false;
    seen.add(w.slot_reservation_id);
    return true;
  });
  const statement = together(writes, {
    text: `INSERT INTO queue.timestamp_outbox (slot_reservation_id, timestamps, actor, claimed_until)
     SELECT (w->>'slot_reservation_id')::int, w->'timestamps', w->'actor',
            CASE WHEN $3::int > 0 AND ($2::boolean[])[n] AND NOT EXISTS (SELECT 1 FROM queue.timestamp_outbox p
                       WHERE p.slot_reservation_id = (w->>'slot_reservation_id')::int)
                 THEN now() + make_interval(secs => $3) END
       FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS a(w, n) ORDER BY n
     RETURNING seq::text AS seq, slot_reservation_id, claimed_until IS NOT NULL AS claimed,
       (SELECT version FROM queue.berths WHERE id = $4::int) AS berth_version`,
    values: [JSON.stringify(work), first, options.claimSeconds ?? 0, berthId ?? null],
  });
  const { rows } = await tx.query<{
    seq: string;
    slot_reservation_id: number;
    claimed: boolean;
    berth_version: number | null;
  }>(statement.text, statement.values);
  // The rows' seqs were taken in the order inserted, the order given.
  rows.sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1));
  const recorded = rows.map((row, i): RecordedWork<T> => {
    const given = work[i] as TimestampWork<T>;
    if (row.slot_reservation_id !== given.slot_reservation_id) throw new Error('timestamp work recorded out of order');
    return row.claimed ? { seq: row.seq, held: { ...given, seq: row.seq } } : { seq: row.seq };
  });
  return { work: recorded, berthVersion: rows[0]?.berth_version ?? null };
}

/**
 * Claims rows of ingest work for `leaseSeconds` (one statement): only rows nobody holds (or whose holder's claim
 * expired) and that are the oldest left of their slot request, so two processes never post one row at once and a
 * slot request's work is done in order (a later row waits until the earlier ones are done and deleted).
 */
export async function claimTimestampWork<T>(
  q: Queryable,
  seqs: readonly string[],
  leaseSeconds: number,
): Promise<ClaimedWork<T>[]> {
  if (seqs.length === 0) return [];
  const { rows } = await q.query<ClaimedWork<T>>(
    `UPDATE queue.timestamp_outbox o SET claimed_until = now() + make_interval(secs => $2)
      WHERE o.seq = ANY($1::bigint[]) AND (o.claimed_until IS NULL OR o.claimed_until < now())
        AND NOT EXISTS (SELECT 1 FROM queue.timestamp_outbox p
                         WHERE p.slot_reservation_id = o.slot_reservation_id AND p.seq < o.seq)
      RETURNING o.seq::text AS seq, o.slot_reservation_id, o.timestamps, o.actor`,
    [seqs, leaseSeconds],
  );
  return rows.sort((a, b) => (BigInt(a.seq) < BigInt(b.seq) ? -1 : 1));
}

/** Gives claimed rows back (their work not done; the next sweep takes them). */
export async function releaseTimestampWork(q: Queryable, seqs: readonly string[]): Promise<void> {
  if (seqs.length === 0) return;
  await q.query('UPDATE queue.timestamp_outbox SET claimed_until = NULL WHERE seq = ANY($1::bigint[])', [seqs]);
}

/** The oldest unclaimed ingest work of each slot request that has some (the sweep's start), up to 1,000. */
export async function claimableTimestampWork(q: Queryable): Promise<{ seq: string; slot_reservation_id: number }[]> {
  const { rows } = await q.query<{ seq: string; slot_reservation_id: number }>(
    `SELECT DISTINCT ON (slot_reservation_id) seq::text AS seq, slot_reservation_id FROM queue.timestamp_outbox
      ORDER BY slot_reservation_id, seq LIMIT 1000`,
  );
  return rows;
}

/** The next row of a slot request's ingest work after `seq`, if any. */
export async function nextTimestampWork(q: Queryable, slotRequestId: number, seq: string): Promise<string | undefined> {
  const { rows } = await q.query<{ seq: string }>(
    `SELECT seq::text AS seq FROM queue.timestamp_outbox WHERE slot_reservation_id = $1 AND seq > $2::bigint
      ORDER BY seq LIMIT 1`,
    [slotRequestId, seq],
  );
  return rows[0]?.seq;
}

/**
 * Work done, in one statement: the timestamp ids ingest gave (`saved`, per slot request) kept for a later removal,
 * and the rows `seqs` deleted.
 */
export async function timestampWorkDone(
  q: Queryable,
  seqs: readonly string[],
  saved: readonly { slot_reservation_id: number; timestamp_id: number }[] = [],
): Promise<void> {
  await q.query(
    `WITH saved AS (
       INSERT INTO queue.generated_timestamps (slot_reservation_id, timestamp_id)
       SELECT * FROM unnest($2::int[], $3::bigint[]) ON CONFLICT DO NOTHING)
     DELETE FROM queue.timestamp_outbox WHERE seq = ANY($1::bigint[])`,
    [seqs, saved.map((s) => s.slot_reservation_id), saved.map((s) => s.timestamp_id)],
  );
}
