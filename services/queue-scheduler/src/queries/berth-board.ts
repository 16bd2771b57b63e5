// The berth board's berths and reservations (GET /berth-board, docs/web-ui.md#the-berth-board), run by the gateway
// in its process (`@pcas/queue-scheduler/queries`): every berth of the queue, and the reservations on them (a JIT
// slot of a vessel, or a block by the port) that meet the board's window. Times in epoch milliseconds.

import type { Queryable } from '@pcas/sql';

export interface BoardBerth {
  id: number;
  code: string;
  name: string;
}

export interface BoardReservation {
  id: number;
  berth_id: number;
  kind: 'slot' | 'block';
  start: number;
  end: number;
  /** The slot request's vessel; '' for a port block. */
  vessel_name: string;
  imo: number | null;
  slot_reservation_id: number | null;
  port_call_id: number | null;
}

/** Every berth, by name. */
export async function boardBerths(db: Queryable): Promise<BoardBerth[]> {
  const rows = (await db.query<BoardBerth>('SELECT id, code, name FROM queue.berths ORDER BY lower(name), id')).rows;
  return rows.map((row) => ({ id: Number(row.id), code: row.code, name: row.name }));
}

/** The reservations that meet [from, to] (epoch ms), by start. */
export async function boardReservations(db: Queryable, from: number, to: number): Promise<BoardReservation[]> {
  const rows = (
    await db.query<Record<string, string | number | null>>(
      `SELECT r.id, r.berth_id, r.berth_reservation_type,
              (extract(epoch FROM r.reservation_start) * 1000)::bigint AS start,
              (extract(epoch FROM r.reservation_end) * 1000)::bigint AS "end",
              r.slot_reservation_id, s.vessel_name, s.imo, s.port_call_id
         FROM queue.berth_reservations r LEFT JOIN queue.slot_reservations s ON s.id = r.slot_reservation_id
        WHERE r.reservation_end >= to_timestamp($1::double precision / 1000)
          AND r.reservation_start <= to_timestamp($2::double precision / 1000)
        ORDER BY r.reservation_start, r.id
        LIMIT 5000`,
      [from, to],
    )
  ).rows;
  const id = (value: string | number | null) => (value === null ? null : Number(value));
  return rows.map((row) => ({
    id: Number(row.id),
    berth_id: Number(row.berth_id),
    kind: row.berth_reservation_type === 'port_blocked' ? 'block' : 'slot',
    start: Number(row.start),
    end: Number(row.end),
    vessel_name: typeof row.vessel_name === 'string' ? row.vessel_name : '',
    imo: id(row.imo),
    slot_reservation_id: id(row.slot_reservation_id),
    port_call_id: id(row.port_call_id),
  }));
}
