// Applies a batch of vessel events to portcall.timestamps with at most two statements: one read of the rows the
// batch changes but did not create (deletes/restores), one upsert of every changed row.

import type { RecordedEvent } from '@pcas/eventstore';
import type { Queryable } from '@pcas/sql';
import { evolveBatch, rowsToLoad, type TimestampRow } from '../domain/timestamp-rows.ts';

const COLUMNS = `id bigint, imo bigint, vessel_name text, time_type text, state text, time timestamptz, payload jsonb,
  port_call_id bigint, is_trash boolean, weight int, created_by int, created_at timestamptz, modified_by int,
  modified_at timestamptz, version bigint`;

interface DbRow extends Omit<TimestampRow, 'id' | 'imo' | 'port_call_id' | 'version' | 'time'> {
  id: string | number;
  imo: string | number;
  port_call_id: string | number | null;
  version: string | number;
  time: string;
}

const toRow = (r: DbRow): TimestampRow => ({
  ...r,
  id: Number(r.id),
  imo: Number(r.imo),
  port_call_id: r.port_call_id === null ? null : Number(r.port_call_id),
  version: Number(r.version),
});

async function loadRows(tx: Queryable, ids: number[]): Promise<Map<number, TimestampRow>> {
  if (ids.length === 0) return new Map();
  // time comes back as ISO text so a row round-trips unchanged through the fold.
  const { rows } = await tx.query<DbRow>(
    `SELECT id, imo, vessel_name, time_type, state,
            to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') AS time, payload, port_call_id,
            is_trash, weight, created_by, created_at, modified_by, modified_at, version
       FROM portcall.timestamps WHERE id = ANY($1::bigint[]) FOR UPDATE`,
    [ids],
  );
  return new Map(rows.map((r) => [Number(r.id), toRow(r)]));
}

/** Writes rows; a row already at the same or a newer version stays as it is. */
export async function upsertTimestampRows(tx: Queryable, rows: TimestampRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  // One JSON parameter instead of fifteen arrays: same plan, simpler encoding, and the same on pg and PGlite.
  const result = await tx.query(
    `INSERT INTO portcall.timestamps AS t
       (id, imo, vessel_name, time_type, state, time, payload, port_call_id, is_trash, weight, created_by,
        created_at, modified_by, modified_at, version)
     SELECT id, imo, vessel_name, time_type, state, time, payload, port_call_id, is_trash, weight, created_by,
            created_at, modified_by, modified_at, version
       FROM jsonb_to_recordset($1::jsonb) AS r(${COLUMNS})
     ON CONFLICT (id) DO UPDATE SET
       imo = EXCLUDED.imo, vessel_name = EXCLUDED.vessel_name, time_type = EXCLUDED.time_type,
       state = EXCLUDED.state, time = EXCLUDED.time, payload = EXCLUDED.payload,
       port_call_id = EXCLUDED.port_call_id, is_trash = EXCLUDED.is_trash, weight = EXCLUDED.weight,
       created_by = EXCLUDED.created_by, created_at = EXCLUDED.created_at, modified_by = EXCLUDED.modified_by,
       modified_at = EXCLUDED.modified_at, version = EXCLUDED.version
     WHERE t.version < EXCLUDED.version`,
    [JSON.stringify(rows)],
  );
  return result.rowCount;
}

/** The projection's apply: fold the batch over the rows it touches and write the changed ones. */
export async function applyTimestampEvents(tx: Queryable, events: RecordedEvent[]): Promise<number> {
  const current = await loadRows(tx, rowsToLoad(events));
  return upsertTimestampRows(tx, evolveBatch(current, events));
}
