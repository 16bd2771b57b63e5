// Shared by the end-to-end flow tests (event store → relay → bus → projection): their servers (a fresh
// database, a bus on its own exchange), a projection that records how often each event was applied and in which
// order, and a paced writer of vessel events.

import { createEventStore, type EventStore, type RecordedEvent } from '@pcas/eventstore';
import type { Logger } from '@pcas/observability';
import { type Db, openDb, type Queryable } from '@pcas/sql';
import { freshPostgres, type PostgresForTest, uniqueName } from '@pcas/testing';
import { connect } from 'amqplib';
import { afterAll, beforeAll } from 'vitest';
import { type AmqpBusOptions, createAmqpBus } from '../amqp-bus.ts';
import { partitionQueue } from '../partitions.ts';
import type { Bus } from '../types.ts';

export async function createProjectedTable(db: Db, table: string): Promise<void> {
  await db.query(`CREATE TABLE ${table} (
    event_id uuid PRIMARY KEY,
    stream_id text NOT NULL,
    stream_position int NOT NULL,
    applied int NOT NULL DEFAULT 1,
    applied_seq bigserial
  )`);
}

/** Applies a batch; a second application of the same event bumps `applied` instead of hiding it. */
export const countingApply = (table: string) => async (tx: Queryable, events: RecordedEvent[]) => {
  await tx.query(
    `INSERT INTO ${table} (event_id, stream_id, stream_position)
     SELECT id, stream_id, pos FROM unnest($1::uuid[], $2::text[], $3::int[]) WITH ORDINALITY AS e (id, stream_id, pos, ord)
      ORDER BY ord
     ON CONFLICT (event_id) DO UPDATE SET applied = ${table}.applied + 1`,
    [events.map((e) => e.id), events.map((e) => e.streamId), events.map((e) => e.streamPosition)],
  );
};

export interface ProjectedStats {
  rows: number;
  appliedTwice: number;
  /** Events applied out of stream order (a stream position that does not follow the previous one). */
  outOfOrder: number;
}

export async function projectedStats(db: Queryable, table: string): Promise<ProjectedStats> {
  const { rows } = await db.query<{ rows: string; twice: string; disorder: string }>(
    `SELECT (SELECT count(*) FROM ${table}) AS rows,
            (SELECT count(*) FROM ${table} WHERE applied > 1) AS twice,
            (SELECT count(*) FROM (
               SELECT stream_position, lag(stream_position) OVER (PARTITION BY stream_id ORDER BY applied_seq) AS prev
                 FROM ${table}) x
              WHERE prev IS NOT NULL AND stream_position <> prev + 1) AS disorder`,
  );
  return { rows: Number(rows[0].rows), appliedTwice: Number(rows[0].twice), outOfOrder: Number(rows[0].disorder) };
}

/**
 * Appends `total` events over `streams` vessel streams, `perAppend` per call, a few calls at a time with a pause
 * between rounds, so the flow is still running when a test breaks something.
 */
export async function appendPaced(
  store: EventStore,
  options: { total: number; streams: number; perAppend: number; concurrency: number; pauseMs: number },
): Promise<void> {
  const { total, streams, perAppend, concurrency, pauseMs } = options;
  const calls = Math.ceil(total / perAppend);
  let seq = 0;
  for (let round = 0; round * concurrency < calls; round++) {
    const batch: Promise<unknown>[] = [];
    for (let k = 0; k < concurrency; k++) {
      const call = round * concurrency + k;
      if (call >= calls) break;
      const count = Math.min(perAppend, total - call * perAppend);
      const events = Array.from({ length: count }, () => ({ type: 'TimestampAdded', data: { seq: seq++ } }));
      // Streams differ within a round, so concurrent appends never race on one stream's order.
      batch.push(store.append(`vessel-${9_000_000 + (call % streams)}`, events));
    }
    await Promise.all(batch);
    if (pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
  }
}

/** A fresh real PostgreSQL database with an initialised event store and the counting projection's table. */
export async function openFlowDatabase(table: string): Promise<{ pg: PostgresForTest; db: Db; store: EventStore }> {
  const pg = await freshPostgres('pcas_messaging');
  if (!pg.url) throw new Error('this test needs a real PostgreSQL');
  const db = await openDb({ url: pg.url });
  const store = createEventStore(db);
  await store.init();
  await createProjectedTable(db, table);
  return { pg, db, store };
}

/**
 * Deletes what a flow test declared on the broker: the projection's queues (its partitions' too, with `partitions`)
 * and the test's exchanges.
 */
export async function deleteFlowTopology(
  brokerUrl: string,
  projection: string,
  exchange: string,
  partitions = 0,
): Promise<void> {
  const admin = await connect(brokerUrl);
  const ch = await admin.createChannel();
  const queue = `projection.${projection}`;
  for (let p = 0; p < partitions; p++)
    for (const suffix of ['', '.dlq', '.claim']) await ch.deleteQueue(`${partitionQueue(queue, p)}${suffix}`);
  if (partitions > 0) {
    await ch.deleteQueue(`${queue}.members`);
    await ch.deleteExchange(`${queue}.partitions`);
  }
  await ch.deleteQueue(queue);
  await ch.deleteQueue(`${queue}.dlq`);
  await ch.deleteExchange(exchange);
  await ch.deleteExchange(`${exchange}.dlx`);
  await admin.close();
}

/** Messages ready in a queue (not counting those delivered and not yet acknowledged). */
export async function queueDepth(brokerUrl: string, queue: string): Promise<number> {
  const admin = await connect(brokerUrl);
  try {
    const ch = await admin.createChannel();
    return (await ch.checkQueue(queue)).messageCount;
  } finally {
    await admin.close();
  }
}

/** What a flow suite runs against; the servers are there from its beforeAll on. */
export interface FlowServers {
  /** The projection's name (queue `projection.<name>`) and the suffix of its table. */
  readonly name: string;
  readonly exchange: string;
  readonly table: string;
  /** The database's URL, for a child process. */
  readonly url: string;
  readonly db: Db;
  readonly store: EventStore;
  readonly bus: Bus;
}

/**
 * Registers the suite's set-up and tear-down: a fresh database with the event store and the counting table,
 * and a bus on an exchange of its own. Call it first in the describe: vitest runs after-hooks in reverse, so the
 * suite's own (stopping relays and projections) run before the bus closes.
 */
export function flowServers(
  label: string,
  options: { brokerUrl: () => string; log: Logger; bus?: Partial<AmqpBusOptions> },
): FlowServers {
  const name = uniqueName(label).replace('-', '_');
  const exchange = uniqueName(`events-${label}`);
  const table = `projected_${name}`;
  let pg: PostgresForTest | undefined;
  let opened: { db: Db; store: EventStore; bus: Bus } | undefined;
  beforeAll(async () => {
    const database = await openFlowDatabase(table);
    pg = database.pg;
    const bus = await createAmqpBus({ url: options.brokerUrl(), log: options.log, exchange, ...options.bus });
    opened = { db: database.db, store: database.store, bus };
  });
  afterAll(async () => {
    await opened?.bus.close();
    await deleteFlowTopology(options.brokerUrl(), name, exchange, options.bus?.partitions ?? 0);
    await opened?.db.close();
    await pg?.drop();
  });
  const get = <K extends keyof NonNullable<typeof opened>>(key: K) => {
    if (!opened) throw new Error('flow servers are opened in beforeAll');
    return opened[key];
  };
  return {
    name,
    exchange,
    table,
    get url() {
      if (!pg?.url) throw new Error('flow servers are opened in beforeAll');
      return pg.url;
    },
    get db() {
      return get('db');
    },
    get store() {
      return get('store');
    },
    get bus() {
      return get('bus');
    },
  };
}
