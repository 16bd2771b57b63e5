// Reading vessel streams for replays: many streams in one query (a rebuild reads thousands), and the list of
// vessel streams with their lengths. These read eventstore.events directly (its layout is documented in
// libs/eventstore/README.md): the store's port reads one stream per call, which costs a round trip per vessel.

import { vesselStream } from '@pcas/contracts';
import type { RecordedEvent } from '@pcas/eventstore';
import type { Queryable } from '@pcas/sql';
import type { VesselEvent } from '../domain/timestamp-rows.ts';

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

const toEvent = (row: EventRow): RecordedEvent => ({
  id: row.event_id,
  streamId: row.stream_id,
  streamPosition: Number(row.stream_position),
  globalPosition: Number(row.global_position),
  transactionId: row.transaction_id,
  type: row.event_type,
  data: row.data,
  metadata: row.metadata,
  created: row.created,
});

/** The IMO of a `vessel-<imo>` stream, or undefined for any other stream. */
export function imoOfStream(streamId: string): number | undefined {
  const match = /^vessel-(\d{1,15})$/.exec(streamId);
  return match ? Number(match[1]) : undefined;
}

/**
 * Every event of the vessels' streams, grouped per IMO in stream order (IMOs without events are absent). The
 * metadata holds only the acting user and API key, and there is no transaction id: a replay needs no more.
 */
export async function readVesselStreams(tx: Queryable, imos: readonly number[]): Promise<Map<number, RecordedEvent[]>> {
  const out = new Map<number, RecordedEvent[]>();
  if (imos.length === 0) return out;
  const { rows } = await tx.query<EventRow>(
    // Only what the fold reads of the metadata (a replay reads millions of events: less to parse).
    `SELECT event_id, stream_id, stream_position, global_position, '' AS transaction_id, event_type, data,
            jsonb_build_object('user_id', metadata->'user_id', 'api_key_id', metadata->'api_key_id') AS metadata,
            created
       FROM eventstore.events WHERE stream_id = ANY($1::text[]) ORDER BY stream_id, stream_position`,
    [imos.map(vesselStream)],
  );
  for (const row of rows) {
    const imo = imoOfStream(row.stream_id)!;
    const list = out.get(imo);
    if (list) list.push(toEvent(row));
    else out.set(imo, [toEvent(row)]);
  }
  return out;
}

/** An event as a replay reads it: what the folds read, and its place in the stream. */
export type ReplayEvent = VesselEvent & { streamPosition: number };

/**
 * Every event of the vessels' streams for a replay, grouped per IMO in stream order: only the columns the folds
 * read (a rebuild reads a million events; ids, transaction ids and the rest of the metadata are never looked at).
 */
export async function readVesselHistories(tx: Queryable, imos: readonly number[]): Promise<Map<number, ReplayEvent[]>> {
  const out = new Map<number, ReplayEvent[]>();
  if (imos.length === 0) return out;
  // Rows come back in the events' shape (no copy per event). No ORDER BY: without statistics on the log (a fresh
  // database) the planner would sort the chunk on disk; each stream is put in order here instead (usually it is).
  const { rows } = await tx.query<ReplayEvent & { stream_id: string }>(
    `SELECT stream_id, stream_position AS "streamPosition", global_position AS "globalPosition", event_type AS type,
            data, jsonb_build_object('user_id', metadata->'user_id') AS metadata, created
       FROM eventstore.events WHERE stream_id = ANY($1::text[])`,
    [imos.map(vesselStream)],
  );
  const byStream = new Map<string, ReplayEvent[]>();
  for (const row of rows) {
    const list = byStream.get(row.stream_id);
    if (list) list.push(row);
    else byStream.set(row.stream_id, [row]);
  }
  for (const [streamId, list] of byStream) {
    for (let i = 1; i < list.length; i++) {
      if (list[i - 1].streamPosition > list[i].streamPosition) {
        list.sort((a, b) => a.streamPosition - b.streamPosition);
        break;
      }
    }
    out.set(imoOfStream(streamId)!, list);
  }
  return out;
}

/** Every vessel stream with its length (its last position), ascending IMO. */
export async function listVesselStreams(q: Queryable): Promise<{ imo: number; events: number }[]> {
  const { rows } = await q.query<{ stream_id: string; events: number }>(
    `SELECT stream_id, max(stream_position)::int8 AS events FROM eventstore.events
      WHERE stream_id LIKE 'vessel-%' GROUP BY stream_id`,
  );
  return rows
    .map((r) => ({ imo: imoOfStream(r.stream_id), events: Number(r.events) }))
    .filter((r): r is { imo: number; events: number } => r.imo !== undefined)
    .sort((a, b) => a.imo - b.imo);
}
