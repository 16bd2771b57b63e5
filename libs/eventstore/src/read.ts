// Reading the event store (store.ts wires it): a stream, one event, the whole log in commit order, and the
// consumers' checkpoints.

import type { Queryable } from '@pcas/sql';
import type { Checkpoint, RecordedEvent } from './types.ts';

interface EventRow {
  event_id: string;
  stream_id: string;
  stream_position: number;
  global_position: number;
  transaction_id: string;
  event_type: string;
  data: unknown;
  metadata: Record<string, unknown>;
  created: Date;
}

const COLUMNS = `event_id, stream_id, stream_position, global_position, transaction_id::text AS transaction_id,
  event_type, data, metadata, created`;

// Only transactions older than every running one that could still append are read: a sequence value is taken at
// insert, not at commit, so a younger transaction can commit first (docs/architecture.md#the-event-store). The
// horizon is the read's own snapshot's: its xmax, or the oldest transaction running when it was taken (xip),
// leaving out those that run in another database of the server, which cannot write our log (a running
// backend's database comes from pg_stat_activity, read after the snapshot was taken; a transaction that ended in
// between is not listed there and still counts, which only holds the read back for that moment; readAll is always
// a statement of its own, never in a caller's transaction, whose first look at pg_stat_activity would be kept for
// the rest of it). Not the
// snapshot's xmin, the oldest on the whole server: any other database's open transaction would stop every reader.
const HORIZON = `(SELECT LEAST(pg_snapshot_xmax(c.s), (
    SELECT min(x) FROM pg_snapshot_xip(c.s) AS x
     WHERE (x::text::int8 % 4294967296) NOT IN (
       SELECT a.backend_xid::text::int8 FROM pg_stat_get_activity(NULL) a
        WHERE a.backend_xid IS NOT NULL
          AND a.datid IS DISTINCT FROM (SELECT oid FROM pg_database WHERE datname = current_database())
       UNION ALL
       SELECT p.transaction::text::int8 FROM pg_prepared_xacts p WHERE p.database <> current_database())))
  FROM (SELECT pg_current_snapshot() AS s) c)`;
const SETTLED = `transaction_id < ${HORIZON}`;
// ORDER BY names the table's columns (`e.`): a bare `transaction_id` would mean the text alias in the select
// list, and text order breaks where transaction ids gain a digit ('1000001' < '999999').
const READ_ALL_FROM_START = `SELECT ${COLUMNS} FROM eventstore.events e WHERE ${SETTLED}
  ORDER BY e.transaction_id, e.global_position LIMIT $1`;
const READ_ALL_AFTER = `SELECT ${COLUMNS} FROM eventstore.events e
  WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint) AND ${SETTLED}
  ORDER BY e.transaction_id, e.global_position LIMIT $3`;
// The same with some streams passed over ($4: LIKE patterns): their rows still come, to move the checkpoint past
// them, but as their place only, without the data to send and parse (thousands of vessel positions a second).
// Two statements, from the start and after a checkpoint, as above: one with `$1 IS NULL OR …` was planned as a
// scan of the whole log and a sort, for every read.
const SKIPPED = `e.stream_id LIKE ANY ($2::text[])`;
const readAllSkipping = (after: boolean) => `SELECT e.event_id, e.stream_id, e.stream_position, e.global_position,
    e.transaction_id::text AS transaction_id, e.event_type,
    CASE WHEN ${SKIPPED} THEN NULL ELSE e.data END AS data,
    CASE WHEN ${SKIPPED} THEN NULL ELSE e.metadata END AS metadata, e.created, ${SKIPPED} AS skipped
  FROM eventstore.events e
  WHERE ${after ? '(e.transaction_id, e.global_position) > ($3::xid8, $4::bigint) AND ' : ''}${SETTLED}
  ORDER BY e.transaction_id, e.global_position LIMIT $1`;
const READ_ALL_SKIPPING_FROM_START = readAllSkipping(false);
const READ_ALL_SKIPPING_AFTER = readAllSkipping(true);
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const toEvent = (row: EventRow): RecordedEvent => ({
  id: row.event_id,
  streamId: row.stream_id,
  streamPosition: row.stream_position,
  globalPosition: row.global_position,
  transactionId: row.transaction_id,
  type: row.event_type,
  data: row.data,
  metadata: row.metadata,
  created: row.created,
});

const checkpointOf = (event: RecordedEvent): Checkpoint => ({
  transactionId: event.transactionId,
  globalPosition: event.globalPosition,
});

export async function readStream(
  db: Queryable,
  streamId: string,
  readOptions: { fromPosition?: number; tx?: Queryable } = {},
): Promise<RecordedEvent[]> {
  const { rows } = await (readOptions.tx ?? db).query<EventRow>(
    `SELECT ${COLUMNS} FROM eventstore.events WHERE stream_id = $1 AND stream_position >= $2
      ORDER BY stream_position`,
    [streamId, readOptions.fromPosition ?? 1],
  );
  return rows.map(toEvent);
}

/** Several distinct streams, each from its own position, in one round trip: one list per read, in the reads' order. */
export async function readStreams(
  db: Queryable,
  reads: readonly { streamId: string; fromPosition?: number }[],
  tx?: Queryable,
): Promise<RecordedEvent[][]> {
  if (reads.length === 0) return [];
  const { rows } = await (tx ?? db).query<EventRow>(
    // LATERAL: each stream read by its index, as readStream would (a join let the planner scan the log).
    `SELECT e.* FROM unnest($1::text[], $2::bigint[]) AS r(wanted, from_position)
       CROSS JOIN LATERAL (
         SELECT ${COLUMNS} FROM eventstore.events
          WHERE stream_id = r.wanted AND stream_position >= r.from_position
          ORDER BY stream_position) e`,
    [reads.map((r) => r.streamId), reads.map((r) => r.fromPosition ?? 1)],
  );
  const byStream = new Map<string, RecordedEvent[]>(reads.map((r) => [r.streamId, []]));
  for (const row of rows) {
    const event = toEvent(row);
    byStream.get(event.streamId)?.push(event);
  }
  return reads.map((r) => byStream.get(r.streamId)!);
}

export async function readByGlobalPosition(
  db: Queryable,
  globalPosition: number,
  tx?: Queryable,
): Promise<RecordedEvent | undefined> {
  const { rows } = await (tx ?? db).query<EventRow>(
    `SELECT ${COLUMNS} FROM eventstore.events WHERE global_position = $1`,
    [globalPosition],
  );
  return rows[0] ? toEvent(rows[0]) : undefined;
}

export async function readAll(
  db: Queryable,
  after: Checkpoint | null,
  limit: number,
  readOptions: { skipStreamPrefixes?: readonly string[] } = {},
): Promise<{ events: RecordedEvent[]; checkpoint: Checkpoint | null }> {
  const skip = readOptions.skipStreamPrefixes ?? [];
  if (skip.length > 0) {
    const patterns = skip.map(likePrefix);
    const { rows } = after
      ? await db.query<EventRow & { skipped: boolean }>(READ_ALL_SKIPPING_AFTER, [
          limit,
          patterns,
          after.transactionId,
          after.globalPosition,
        ])
      : await db.query<EventRow & { skipped: boolean }>(READ_ALL_SKIPPING_FROM_START, [limit, patterns]);
    const last = rows.at(-1);
    return {
      events: rows.filter((r) => !r.skipped).map(toEvent),
      checkpoint: last ? checkpointOf(toEvent(last)) : after,
    };
  }
  const { rows } = after
    ? await db.query<EventRow>(READ_ALL_AFTER, [after.transactionId, after.globalPosition, limit])
    : await db.query<EventRow>(READ_ALL_FROM_START, [limit]);
  const events = rows.map(toEvent);
  return { events, checkpoint: events.length > 0 ? checkpointOf(events[events.length - 1]) : after };
}

export async function readCheckpoint(db: Queryable, consumer: string, tx?: Queryable): Promise<Checkpoint | null> {
  const { rows } = await (tx ?? db).query<{ transaction_id: string; global_position: number }>(
    'SELECT transaction_id::text AS transaction_id, global_position FROM eventstore.checkpoints WHERE consumer = $1',
    [consumer],
  );
  return rows[0] ? { transactionId: rows[0].transaction_id, globalPosition: rows[0].global_position } : null;
}

export async function saveCheckpoint(tx: Queryable, consumer: string, checkpoint: Checkpoint): Promise<void> {
  await tx.query(
    `INSERT INTO eventstore.checkpoints (consumer, transaction_id, global_position, updated_at)
     VALUES ($1, $2::xid8, $3, now())
     ON CONFLICT (consumer) DO UPDATE
       SET transaction_id = excluded.transaction_id, global_position = excluded.global_position,
           updated_at = excluded.updated_at`,
    [consumer, checkpoint.transactionId, checkpoint.globalPosition],
  );
}

/** The last event committed so far in commit order (what caughtUp() waits for). */
export async function head(db: Queryable): Promise<Checkpoint | null> {
  const { rows } = await db.query<{ transaction_id: string; global_position: number }>(
    `SELECT e.transaction_id::text AS transaction_id, e.global_position FROM eventstore.events e
      ORDER BY e.transaction_id DESC, e.global_position DESC LIMIT 1`,
  );
  return rows[0] ? { transactionId: rows[0].transaction_id, globalPosition: rows[0].global_position } : null;
}

/**
 * Moves a consumer's checkpoint from `from` to `to`; false when it is no longer at `from`, i.e. another
 * instance of the same consumer processed the batch meanwhile (the caller then rolls back).
 */
export async function saveCheckpointIf(tx: Queryable, consumer: string, from: Checkpoint | null, to: Checkpoint) {
  const { rowCount } = await tx.query(
    `INSERT INTO eventstore.checkpoints AS c (consumer, transaction_id, global_position, updated_at)
     VALUES ($1, $2::xid8, $3, now())
     ON CONFLICT (consumer) DO UPDATE
       SET transaction_id = excluded.transaction_id, global_position = excluded.global_position,
           updated_at = excluded.updated_at
     WHERE c.transaction_id = $4::xid8 AND c.global_position = $5`,
    [consumer, to.transactionId, to.globalPosition, from?.transactionId ?? null, from?.globalPosition ?? null],
  );
  return rowCount === 1;
}
