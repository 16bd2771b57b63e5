// Reading vessel streams for replays: many streams in one query (a rebuild reads thousands), and the list of
// vessel streams with their lengths. These read eventstore.events directly (its layout is documented in
// libs/eventstore/README.md): the store's port reads one stream per call, which costs a round trip per vessel.

import { vesselStream } from '@pcas/contracts';
import type { Queryable } from '@pcas/sql';
import type { VesselEvent } from '../domain/timestamp-rows.ts';

/** The IMO of a `vessel-<imo>` stream, or undefined for any other stream. */
export function imoOfStream(streamId: string): number | undefined {
  const match = /^vessel-(\d{1,15})$/.exec(streamId);
  return match ? Number(match[1]) : undefined;
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
