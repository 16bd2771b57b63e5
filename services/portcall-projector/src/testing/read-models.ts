// Test support: appending generated posts to the event store, reading the log back in commit order, and the
// read models as plain rows (every column that the projection decides; not the write times or revision tokens).

import { vesselStream } from '@pcas/contracts';
import type { EventStore, RecordedEvent } from '@pcas/eventstore';
import type { Queryable } from '@pcas/sql';
import type { Post } from './traffic.ts';

/** Appends posts as TimestampReceived events, `batch` posts per round trip, in the given order. */
export async function appendPosts(store: EventStore, posts: readonly Post[], batch = 2_000): Promise<void> {
  for (let i = 0; i < posts.length; i += batch) {
    await store.appendMany(
      posts.slice(i, i + batch).map((p) => ({
        streamId: vesselStream(p.data.imo),
        events: [
          {
            type: 'TimestampReceived',
            data: p.data,
            metadata: { user_id: p.data.user_id, api_key_id: p.data.api_key_id },
          },
        ],
      })),
    );
  }
}

/**
 * The whole log in commit order (what the relay publishes), once it holds at least `atLeast` events: the store
 * reads only transactions older than every running one in the whole server, so a long transaction elsewhere
 * (another database, another test run) holds back what is readable for a while.
 */
export async function readLog(store: EventStore, atLeast = 0): Promise<RecordedEvent[]> {
  const until = Date.now() + 60_000;
  for (;;) {
    const out: RecordedEvent[] = [];
    let checkpoint = null;
    for (;;) {
      const page = await store.readAll(checkpoint, 5_000);
      if (page.events.length === 0) break;
      out.push(...page.events);
      checkpoint = page.checkpoint;
    }
    if (out.length >= atLeast || Date.now() > until) return out;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface ReadModels {
  port_calls: Record<string, unknown>[];
  timestamps: Record<string, unknown>[];
  vessels: Record<string, unknown>[];
}

/** Every read-model row the projection decides, ordered by key. */
export async function readModels(q: Queryable, imos?: readonly number[]): Promise<ReadModels> {
  const where = imos ? 'WHERE imo = ANY($1::bigint[])' : '';
  const params = imos ? [imos] : [];
  const [port_calls, timestamps, vessels] = [
    (await q.query(`SELECT * FROM portcall.port_calls ${where} ORDER BY id`, params)).rows,
    (await q.query(`SELECT * FROM portcall.timestamps ${where} ORDER BY id`, params)).rows,
    (await q.query(`SELECT * FROM portcall.vessels ${where} ORDER BY imo`, params)).rows,
  ];
  for (const row of port_calls) delete row.updated_at;
  for (const row of vessels) {
    delete row.updated_at;
    delete row.revision;
  }
  return { port_calls, timestamps, vessels };
}

/** portcall.timestamp_counts, by IMO. */
export async function timestampCounts(q: Queryable): Promise<{ imo: number; timestamps: number }[]> {
  const { rows } = await q.query<{ imo: number; timestamps: number }>(
    'SELECT imo, timestamps::int8 AS timestamps FROM portcall.timestamp_counts ORDER BY imo',
  );
  return rows;
}

/** What portcall.timestamp_counts should hold: the rows of portcall.timestamps counted per IMO. */
export async function countedRows(q: Queryable): Promise<{ imo: number; timestamps: number }[]> {
  const { rows } = await q.query<{ imo: number; timestamps: number }>(
    'SELECT imo, count(*)::int8 AS timestamps FROM portcall.timestamps GROUP BY imo ORDER BY imo',
  );
  return rows;
}
