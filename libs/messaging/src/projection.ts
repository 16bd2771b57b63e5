// The idempotent projection consumer: one transaction per delivered batch records the event ids in
// messaging.inbox and moves messaging.consumer_progress (one statement), then applies only the ids not seen
// before. A redelivered message (broker retry, relay republish after a crash) therefore changes nothing.

import type { RecordedEvent } from '@pcas/eventstore';
import type { Logger } from '@pcas/observability';
import { type Db, type Queryable, setUpSchema } from '@pcas/sql';
import { PARTITION_HEADER, partitionOfLabel, partitionOfSql, partitionQueue } from './partitions.ts';
import { bindingCategories, bindingsToRegex } from './routing.ts';
import type { Bus, BusMessage, Consumer } from './types.ts';

export interface ProjectionOptions {
  bus: Bus;
  db: Db;
  /** Consumer name: queue `projection.<name>`, inbox and progress rows. */
  name: string;
  /** Routing-key patterns, e.g. `vessel.*`. */
  bindings: string[];
  /** Applies new events (delivery order) inside the batch's transaction. */
  apply: (tx: Queryable, events: RecordedEvent[]) => Promise<void>;
  /**
   * Runs after the batch's transaction committed, before the batch is acked: for effects outside the database
   * (broadcasts) that must not happen for a batch that rolled back. A crash between the two loses them.
   */
  afterCommit?: () => Promise<void>;
  /**
   * Spread over the bus's partitions (ConsumeOptions.partitioned): for projections that need each stream's order
   * only. Progress (and so lag) is then kept per partition, as `<name>.pNN`.
   */
  partitioned?: boolean;
  /** Of a partitioned projection: the bindings whose events every partition gets (ConsumeOptions.everyPartition). */
  everyPartition?: string[];
  log: Logger;
  maxBatch?: number;
  prefetch?: number;
  maxAttempts?: number;
}

const SCHEMA = [
  'CREATE SCHEMA IF NOT EXISTS messaging',
  `CREATE TABLE IF NOT EXISTS messaging.inbox (
    consumer text NOT NULL,
    event_id text NOT NULL,
    processed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, event_id)
  )`,
  `CREATE TABLE IF NOT EXISTS messaging.consumer_progress (
    consumer text PRIMARY KEY,
    categories text[] NOT NULL,
    routing_pattern text NOT NULL,
    last_global_position bigint NOT NULL DEFAULT 0,
    last_event_created timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  // A partition's row: which partition of how many, so its lag counts only the events of its streams.
  'ALTER TABLE messaging.consumer_progress ADD COLUMN IF NOT EXISTS partition int NULL',
  'ALTER TABLE messaging.consumer_progress ADD COLUMN IF NOT EXISTS partitions int NULL',
];

/** Creates the messaging schema if missing (idempotent). */
export async function ensureMessagingSchema(db: Db): Promise<void> {
  await setUpSchema(db, 'messaging', SCHEMA);
}

/** A delivered event back as a RecordedEvent (created was sent as an ISO string). */
export function toRecordedEvent(message: BusMessage): RecordedEvent {
  const body = message.body as Record<string, unknown> | null;
  if (!body || typeof body !== 'object' || typeof body.streamId !== 'string' || typeof body.type !== 'string') {
    throw new Error(`message ${message.id} (${message.routingKey}) is not an event`);
  }
  const created = new Date(String(body.created));
  if (Number.isNaN(created.getTime())) throw new Error(`message ${message.id} has no valid created time`);
  return {
    id: String(body.id ?? message.id),
    streamId: body.streamId,
    streamPosition: Number(body.streamPosition),
    globalPosition: Number(body.globalPosition),
    transactionId: String(body.transactionId ?? ''),
    type: body.type,
    data: body.data,
    metadata: (body.metadata ?? {}) as RecordedEvent['metadata'],
    created,
  };
}

/** Progress rows, one per partition (or the one row), each moved to its newest position ($4, $5 arrays). */
const UPSERT_PROGRESS = `
  INSERT INTO messaging.consumer_progress AS p
    (consumer, categories, routing_pattern, last_global_position, last_event_created, partition, partitions, updated_at)
  SELECT u.consumer, $2, $3, u.position, u.created, u.partition, $7, now()
    FROM unnest($1::text[], $4::bigint[], $5::timestamptz[], $6::int[]) AS u(consumer, position, created, partition)
  ON CONFLICT (consumer) DO UPDATE SET
    partition = EXCLUDED.partition,
    partitions = EXCLUDED.partitions,
    categories = EXCLUDED.categories,
    routing_pattern = EXCLUDED.routing_pattern,
    last_event_created = CASE WHEN EXCLUDED.last_global_position > p.last_global_position
                              THEN EXCLUDED.last_event_created ELSE p.last_event_created END,
    last_global_position = GREATEST(p.last_global_position, EXCLUDED.last_global_position),
    updated_at = now()`;

/**
 * A delivered batch: its new event ids recorded in the inbox (the ones returned), the progress moved. The inbox is
 * the projection's ($9), whichever partition brought the event; the progress rows are the partitions' ($1).
 */
const RECORD_BATCH = `
  WITH progress AS (${UPSERT_PROGRESS})
  INSERT INTO messaging.inbox (consumer, event_id) SELECT $9, unnest($8::text[])
  ON CONFLICT DO NOTHING RETURNING event_id`;

/**
 * The newest event of each partition in a batch (a joined batch holds several), as UPSERT_PROGRESS's arrays. A
 * partition is the one whose queue delivered the event: an event every partition gets moves each one's progress.
 */
function progressOf(name: string, partitions: number, messages: BusMessage[], events: RecordedEvent[]) {
  const newest = new Map<number | null, RecordedEvent>();
  events.forEach((event, i) => {
    const partition =
      partitions > 1
        ? (messages[i].partition ?? partitionOfLabel(messages[i].headers[PARTITION_HEADER]) ?? null)
        : null;
    const seen = newest.get(partition);
    if (!seen || event.globalPosition > seen.globalPosition) newest.set(partition, event);
  });
  const rows = [...newest.entries()];
  return {
    consumers: rows.map(([p]) => (p === null ? name : partitionQueue(name, p))),
    positions: rows.map(([, e]) => e.globalPosition),
    created: rows.map(([, e]) => e.created),
    partitions: rows.map(([p]) => p),
  };
}

/** Rows of partitions this projection no longer has (a smaller count), or of itself before it was partitioned. */
const FORGET_OLD_PROGRESS = `
  DELETE FROM messaging.consumer_progress
   WHERE (consumer = $1 AND $2::int > 1)
      OR (consumer LIKE $1 || '.p%' AND (partitions IS DISTINCT FROM $2::int OR $2::int <= 1))`;

export async function startProjection(options: ProjectionOptions): Promise<Consumer> {
  const { bus, db, name, bindings, apply, afterCommit, log } = options;
  const categories = bindingCategories(bindings);
  const pattern = bindingsToRegex(bindings);
  const partitions = options.partitioned ? bus.partitions : 1;
  await ensureMessagingSchema(db);
  // Registered at start, so the lag check sees a consumer (or partition) that has not received anything yet.
  await db.query(FORGET_OLD_PROGRESS, [name, partitions]);
  const all = Array.from({ length: partitions }, (_, p) => p);
  if (partitions > 1) {
    const consumers = all.map((p) => partitionQueue(name, p));
    await db.query(UPSERT_PROGRESS, [
      consumers,
      categories,
      pattern,
      all.map(() => 0),
      all.map(() => null),
      all,
      partitions,
    ]);
  } else await db.query(UPSERT_PROGRESS, [[name], categories, pattern, [0], [null], [null], null]);

  const handle = async (messages: BusMessage[]) => {
    const events = messages.map(toRecordedEvent);
    const progress = progressOf(name, partitions, messages, events);
    await db.transaction(async (tx) => {
      const ids = [...new Set(events.map((e) => e.id))];
      // The progress moves in the same statement: one round trip fewer per batch, and the transaction keeps
      // both or neither.
      const { rows } = await tx.query<{ event_id: string }>(RECORD_BATCH, [
        progress.consumers,
        categories,
        pattern,
        progress.positions,
        progress.created,
        progress.partitions,
        partitions > 1 ? partitions : null,
        ids,
        name,
      ]);
      const fresh = new Set(rows.map((r) => r.event_id));
      // Delivery order kept; an id twice in one batch is applied once (delete on first sight).
      const toApply = events.filter((e) => fresh.delete(e.id));
      if (toApply.length > 0) await apply(tx, toApply);
      if (toApply.length < events.length)
        log.debug({ consumer: name, duplicates: events.length - toApply.length }, 'duplicates skipped');
    });
    await afterCommit?.();
  };

  return bus.consume(`projection.${name}`, handle, {
    bindings,
    maxBatch: options.maxBatch,
    prefetch: options.prefetch,
    maxAttempts: options.maxAttempts,
    partitioned: partitions > 1,
    everyPartition: options.everyPartition,
  });
}

/**
 * Per consumer (per partition of a partitioned one): age in seconds of the oldest event in the log it should receive
 * (its bindings, its partition) that lies beyond the newest one it applied; 0 when it is up to date. Used by
 * /health-check and the projection-lag gauge. The event store's and messaging's schemas exist by then (each
 * process sets both up at its start).
 */
export async function projectionLag(db: Queryable): Promise<{ consumer: string; lag_seconds: number }[]> {
  const { rows } = await db.query<{ consumer: string; lag_seconds: number | string }>(
    `SELECT p.consumer,
            COALESCE((
              SELECT EXTRACT(EPOCH FROM (now() - min(e.created)))
                FROM eventstore.events e
               WHERE e.global_position > p.last_global_position
                 AND ('*' = ANY (p.categories) OR split_part(e.stream_id, '-', 1) = ANY (p.categories))
                 AND ('.' || split_part(e.stream_id, '-', 1) || '.' || e.event_type) ~ p.routing_pattern
                 AND (p.partition IS NULL OR ${partitionOfSql('e.stream_id', 'p.partitions')} = p.partition)
            ), 0)::float8 AS lag_seconds
       FROM messaging.consumer_progress p
      ORDER BY p.consumer`,
  );
  return rows.map((r) => ({ consumer: r.consumer, lag_seconds: Math.max(0, Number(r.lag_seconds)) }));
}
