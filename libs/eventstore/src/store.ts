// The event store over @pcas/sql (PostgreSQL or PGlite). SQL lives here and in schema.ts; decisions that
// need no database live in plan.ts.

import { randomUUID } from 'node:crypto';
import { createBatcher, type ItemOutcome } from '@pcas/batching';
import { createLogger, currentTraceCarrier, type Logger, withSpan } from '@pcas/observability';
import { type Db, type Queryable, setUpSchema } from '@pcas/sql';
import {
  type AppendManyRow,
  type AppendRow,
  appendManyResults,
  appendResult,
  expectedVersionParam,
  planAppend,
  planAppendMany,
  satisfies,
} from './plan.ts';
import { SCHEMA_STATEMENTS, WAKE_CHANNEL, WRONG_EXPECTED_VERSION } from './schema.ts';
import { CatchUpSubscription } from './subscription.ts';
import {
  type AppendOptions,
  type AppendResult,
  type Checkpoint,
  type EventStore,
  type ExpectedVersion,
  type NewEvent,
  type RecordedEvent,
  type StreamAppend,
  WrongExpectedVersionError,
} from './types.ts';
import { WakeThrottle } from './wake.ts';

export interface EventStoreOptions {
  /**
   * Subscribers are woken (NOTIFY) at most about once per this many ms per process, and within about this
   * long after a commit (0: every append notifies; negative: never, subscribers only poll). See wake.ts.
   */
  notifyIntervalMs?: number;
  /**
   * Group commit of concurrent appends (see appendsTogether): most batches on their way at once (0: every append
   * alone) and most appends in one.
   */
  groupCommit?: { maxInFlight?: number; maxItems?: number };
  logger?: Logger;
}

/** Chosen by measurement (bench/append.ts, 16 writers on 2 cores). */
export const DEFAULT_GROUP_COMMIT = { maxInFlight: 2, maxItems: 64 };

/** Chosen by measurement (bench/append.ts): a NOTIFY per append serializes concurrent commits. */
export const DEFAULT_NOTIFY_INTERVAL_MS = 10;

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

const APPEND_MANY_SQL = `SELECT event_id, stream_id, stream_position, global_position, duplicate, stream_version
  FROM eventstore.append_many($1::text[], $2::text[]::uuid[], $3::text[], $4::text[]::jsonb[], $5::text[]::jsonb[],
    $6::boolean)`;
// One event for each of many streams (an AIS agent's batch of positions, one per vessel), in a caller's transaction,
// as one plain statement: every stream's lock in one global order (as append_many) before the first row is
// inserted (the `locks` row needs them all), then each event after its stream's end. As in APPEND_ONE_FAST_SQL the
// snapshot predates the locks: an event whose place another appender took meanwhile, or whose id is stored already
// (a retry), is left out (ON CONFLICT DO NOTHING) and goes through eventstore.append_many after it. Measured with
// 500 streams: about a third of append_many's time (no id probes, version join, window sorts or PL/pgSQL).
const APPEND_DISTINCT_FAST_SQL = `WITH locks AS MATERIALIZED (
    SELECT count(*) AS n FROM (SELECT pg_advisory_xact_lock(k.key) FROM (SELECT DISTINCT hashtextextended(s, 0) AS key
      FROM unnest($1::text[]) AS s ORDER BY key) k) l),
  notified AS MATERIALIZED (SELECT CASE WHEN $6::boolean THEN pg_notify('${WAKE_CHANNEL}', '') END AS n)
  INSERT INTO eventstore.events AS e (stream_id, stream_position, event_id, event_type, data, metadata)
  SELECT i.stream_id,
         COALESCE((SELECT max(x.stream_position) FROM eventstore.events x WHERE x.stream_id = i.stream_id), 0) + 1,
         i.id, i.type, i.data, i.metadata
    FROM locks, notified,
         unnest($1::text[], $2::text[]::uuid[], $3::text[], $4::text[]::jsonb[], $5::text[]::jsonb[]) WITH ORDINALITY
           AS i (stream_id, id, type, data, metadata, ord)
   ORDER BY i.ord
  ON CONFLICT DO NOTHING
  RETURNING e.event_id, e.stream_id, e.stream_position, e.global_position, false AS duplicate,
    e.stream_position AS stream_version`;
// One event, the common case, as one plain statement: the stream's lock, its version and the insert. Its snapshot
// predates the lock, so when another appender held the lock the version read may be stale; the position it gives
// then exists already, the insert does nothing, and eventstore.append_one (which reads after the lock) decides.
// The same happens for a retried event id and an unmet expected version. Measured with pgbench at 16 writers:
// about a fifth more appends/s than calling append_one every time (no PL/pgSQL call, no separate id probe).
const APPEND_ONE_FAST_SQL = `INSERT INTO eventstore.events AS e
    (stream_id, stream_position, event_id, event_type, data, metadata)
  SELECT $1::text, s.version + 1, $3::uuid, $4::text, $5::jsonb, $6::jsonb
    FROM (SELECT pg_advisory_xact_lock(hashtextextended($1::text, 0))) l,
         (SELECT COALESCE(max(x.stream_position), 0) AS version FROM eventstore.events x WHERE x.stream_id = $1::text) s
   WHERE $2::bigint IS NULL OR ($2::bigint = -1 AND s.version > 0) OR ($2::bigint >= 0 AND s.version = $2::bigint)
  ON CONFLICT DO NOTHING
  RETURNING e.event_id, e.stream_position, e.global_position, false AS duplicate, e.stream_position AS stream_version,
    CASE WHEN $7::boolean THEN pg_notify('${WAKE_CHANNEL}', '') END AS notified`;
const APPEND_ONE_SQL = `SELECT event_id, stream_position, global_position, duplicate, stream_version
  FROM eventstore.append_one($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7::boolean)`;
const APPEND_SQL = `SELECT event_id, stream_position, global_position, duplicate, stream_version
  FROM eventstore.append($1, $2, $3::text[]::uuid[], $4::text[], $5::text[]::jsonb[], $6::text[]::jsonb[], $7::boolean)`;

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

/** A call's outcome as a value, for a batch whose callers each get their own. */
async function settle<T>(fn: () => Promise<T>): Promise<ItemOutcome<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

const sqlState = (error: unknown) => (error as { code?: string } | undefined)?.code;

export function createEventStore(db: Db, options: EventStoreOptions = {}): EventStore {
  const notifyIntervalMs = options.notifyIntervalMs ?? DEFAULT_NOTIFY_INTERVAL_MS;
  const log = options.logger ?? createLogger('eventstore');
  const groupCommit = { ...DEFAULT_GROUP_COMMIT, ...options.groupCommit };
  const wake = new WakeThrottle(notifyIntervalMs, async () => {
    try {
      await db.query(`SELECT pg_notify('${WAKE_CHANNEL}', '')`);
    } catch (error) {
      // Only a wake-up lost (e.g. the Db was closed meanwhile): subscribers still poll.
      log.debug({ error: (error as Error).message }, 'trailing NOTIFY failed');
    }
  });

  async function streamVersion(q: Queryable, streamId: string): Promise<number> {
    const { rows } = await q.query<{ stream_position: number }>(
      'SELECT COALESCE(max(stream_position), 0)::int8 AS stream_position FROM eventstore.events WHERE stream_id = $1',
      [streamId],
    );
    return rows[0]?.stream_position ?? 0;
  }

  async function appendNow(
    q: Queryable,
    streamId: string,
    events: NewEvent[],
    expected: ExpectedVersion,
  ): Promise<AppendResult> {
    if (events.length === 0) {
      const current = await streamVersion(q, streamId);
      if (!satisfies(expected, current)) throw new WrongExpectedVersionError(streamId, expected, current);
      return { nextExpectedVersion: current, events: [] };
    }
    const plan = planAppend(events, randomUUID, currentTraceCarrier());
    const notify = wake.claim();
    const one = plan.events.length === 1 ? plan.events[0] : undefined;
    const params = one
      ? [
          streamId,
          expectedVersionParam(expected),
          one.id,
          one.type,
          JSON.stringify(one.data ?? null),
          JSON.stringify(one.metadata),
          notify,
        ]
      : [
          streamId,
          expectedVersionParam(expected),
          plan.events.map((e) => e.id),
          plan.events.map((e) => e.type),
          plan.events.map((e) => JSON.stringify(e.data ?? null)),
          plan.events.map((e) => JSON.stringify(e.metadata)),
          notify,
        ];
    try {
      let rows = one ? (await q.query<AppendRow>(APPEND_ONE_FAST_SQL, params)).rows : [];
      if (rows.length === 0) rows = (await q.query<AppendRow>(one ? APPEND_ONE_SQL : APPEND_SQL, params)).rows;
      const result = appendResult(plan, rows);
      // In a caller's transaction the commit is still to come; the trailing NOTIFY usually follows it
      // anyway (transactions are short), and subscribers poll for the rest.
      if (!notify) wake.committedWithoutNotify();
      return result;
    } catch (error) {
      if (sqlState(error) === WRONG_EXPECTED_VERSION) {
        throw new WrongExpectedVersionError(streamId, expected, Number((error as { detail?: string }).detail));
      }
      throw error;
    }
  }

  /** `callerTx`: q is the caller's transaction (what the fast path's second statement needs). */
  async function appendManyNow(q: Queryable, entries: StreamAppend[], callerTx: boolean): Promise<AppendResult[]> {
    const plan = planAppendMany(entries, randomUUID, currentTraceCarrier());
    if (plan.rows.length === 0) {
      const versions = new Map<string, number>();
      for (const { streamId } of entries) versions.set(streamId, await streamVersion(q, streamId));
      return entries.map(({ streamId }) => ({ nextExpectedVersion: versions.get(streamId) ?? 0, events: [] }));
    }
    const notify = wake.claim();
    const paramsOf = (rows: typeof plan.rows, notifyNow: boolean) => [
      rows.map((r) => r.streamId),
      rows.map((r) => r.event.id),
      rows.map((r) => r.event.type),
      rows.map((r) => JSON.stringify(r.event.data ?? null)),
      rows.map((r) => JSON.stringify(r.event.metadata)),
      notifyNow,
    ];
    let rows: AppendManyRow[];
    if (callerTx && plan.rows.length > 1 && new Set(plan.rows.map((r) => r.streamId)).size === plan.rows.length) {
      rows = (await q.query<AppendManyRow>(APPEND_DISTINCT_FAST_SQL, paramsOf(plan.rows, notify))).rows;
      if (rows.length < plan.rows.length) {
        const inserted = new Set(rows.map((r) => r.stream_id));
        const rest = plan.rows.filter((r) => !inserted.has(r.streamId));
        rows = rows.concat((await q.query<AppendManyRow>(APPEND_MANY_SQL, paramsOf(rest, false))).rows);
      }
    } else {
      rows = (await q.query<AppendManyRow>(APPEND_MANY_SQL, paramsOf(plan.rows, notify))).rows;
    }
    if (!notify) wake.committedWithoutNotify();
    return appendManyResults(plan, rows);
  }

  // Group commit: appends with expected version "any" outside a caller's transaction that arrive while earlier
  // ones are on their way leave together, as one appendMany (one round trip, one transaction); a lone append goes
  // at once. Should the batch fail (say, one event the database refuses), each goes again alone, so every caller
  // gets its own outcome: the batch was one transaction, nothing of it was stored (a batch whose commit was lost
  // on the way is stored, and its retries find their event ids there: duplicates).
  const alone = (item: StreamAppend) => settle(() => appendNow(db, item.streamId, item.events, 'any'));
  const appendsTogether =
    groupCommit.maxInFlight > 0
      ? createBatcher<StreamAppend, AppendResult>(
          async (items) => {
            if (items.length === 1) return [await alone(items[0])];
            try {
              return (await appendManyNow(db, items, false)).map((value) => ({ ok: true as const, value }));
            } catch {
              return Promise.all(items.map(alone));
            }
          },
          { maxItems: groupCommit.maxItems, maxInFlight: groupCommit.maxInFlight },
        )
      : undefined;

  const store: EventStore = {
    async init() {
      await setUpSchema(db, 'eventstore', SCHEMA_STATEMENTS);
    },

    append(streamId: string, events: NewEvent[], appendOptions: AppendOptions = {}): Promise<AppendResult> {
      const expected: ExpectedVersion = appendOptions.expectedVersion ?? 'any';
      return withSpan(
        'eventstore.append',
        { attributes: { 'eventstore.stream_id': streamId, 'eventstore.event_count': events.length } },
        async () => {
          if (appendOptions.tx || expected !== 'any' || events.length === 0 || appendsTogether === undefined) {
            return appendNow(appendOptions.tx ?? db, streamId, events, expected);
          }
          // Ids, correlation and trace context are the caller's, fixed now: the batch leaves from another call.
          const plan = planAppend(events, randomUUID, currentTraceCarrier());
          const metadata = new Map(plan.events.map((e) => [e.id, e.metadata]));
          const planned = events.map((e, i) => ({ ...e, id: plan.ids[i], metadata: metadata.get(plan.ids[i]) }));
          return appendsTogether({ streamId, events: planned });
        },
      );
    },

    appendMany(entries, appendOptions = {}) {
      const count = entries.reduce((n, entry) => n + entry.events.length, 0);
      return withSpan(
        'eventstore.append_many',
        { attributes: { 'eventstore.stream_count': entries.length, 'eventstore.event_count': count } },
        () => appendManyNow(appendOptions.tx ?? db, entries, appendOptions.tx !== undefined),
      );
    },

    async readStream(streamId, readOptions = {}) {
      const { rows } = await (readOptions.tx ?? db).query<EventRow>(
        `SELECT ${COLUMNS} FROM eventstore.events WHERE stream_id = $1 AND stream_position >= $2
          ORDER BY stream_position`,
        [streamId, readOptions.fromPosition ?? 1],
      );
      return rows.map(toEvent);
    },

    async readByGlobalPosition(globalPosition, tx) {
      const { rows } = await (tx ?? db).query<EventRow>(
        `SELECT ${COLUMNS} FROM eventstore.events WHERE global_position = $1`,
        [globalPosition],
      );
      return rows[0] ? toEvent(rows[0]) : undefined;
    },

    async readAll(after, limit, readOptions = {}) {
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
    },

    subscribe(consumer, handler, subscriptionOptions = {}) {
      return new CatchUpSubscription(db, store, consumer, handler, subscriptionOptions, {
        notifyIntervalMs,
        log: log.child({ consumer }),
        head,
        saveCheckpointIf,
      });
    },

    async readCheckpoint(consumer, tx) {
      const { rows } = await (tx ?? db).query<{ transaction_id: string; global_position: number }>(
        'SELECT transaction_id::text AS transaction_id, global_position FROM eventstore.checkpoints WHERE consumer = $1',
        [consumer],
      );
      return rows[0] ? { transactionId: rows[0].transaction_id, globalPosition: rows[0].global_position } : null;
    },

    async saveCheckpoint(tx, consumer, checkpoint) {
      await tx.query(
        `INSERT INTO eventstore.checkpoints (consumer, transaction_id, global_position, updated_at)
         VALUES ($1, $2::xid8, $3, now())
         ON CONFLICT (consumer) DO UPDATE
           SET transaction_id = excluded.transaction_id, global_position = excluded.global_position,
               updated_at = excluded.updated_at`,
        [consumer, checkpoint.transactionId, checkpoint.globalPosition],
      );
    },
  };

  /** The last event committed so far in commit order (what caughtUp() waits for). */
  async function head(): Promise<Checkpoint | null> {
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
  async function saveCheckpointIf(tx: Queryable, consumer: string, from: Checkpoint | null, to: Checkpoint) {
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

  return store;
}

export type SubscriptionDeps = {
  notifyIntervalMs: number;
  log: Logger;
  head: () => Promise<Checkpoint | null>;
  saveCheckpointIf: (tx: Queryable, consumer: string, from: Checkpoint | null, to: Checkpoint) => Promise<boolean>;
};
