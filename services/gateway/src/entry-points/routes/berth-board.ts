// GET /berth-board (docs/web-ui.md#the-berth-board): the board's berths × time in one answer. The port calls' stays
// at their berths are the projector's (`@pcas/portcall-projector/queries`), the berths and their reservations (JIT
// slots and port blocks) the queue's (`@pcas/queue-scheduler/queries`); each stay is placed on the queue's berth
// whose code or name the port call names, else on a row of the port call's own berth name. Nothing here changes data.

import { ApiError } from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import { type BerthStay, berthBoardStays } from '@pcas/portcall-projector/queries';
import { type BoardBerth, boardBerths, boardReservations } from '@pcas/queue-scheduler/queries';
import type { GatewayDeps } from '../deps.ts';
import { optionalText } from './params.ts';
import { isIsoDateTime } from './timestamps.ts';

const HOUR_MS = 3_600_000;
/** The default window: 12 hours back, 48 ahead. */
export const BOARD_BEFORE_MS = 12 * HOUR_MS;
export const BOARD_AFTER_MS = 48 * HOUR_MS;
/** The widest window one answer covers. */
export const BOARD_MAX_SPAN_MS = 31 * 24 * HOUR_MS;

export interface BoardRow {
  /** `q<berth id>` for a queue berth, `b<berth text>` for a berth only port calls name, `none` for no berth. */
  key: string;
  berth_id: number | null;
  code: string;
  name: string;
}

const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}+00:00`;

function timeParam(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (!isIsoDateTime(value)) throw ApiError.badRequest(`Given ${name} is not in ISO format: ${value}`);
  return Date.parse(value);
}

/** The rows of the board and each stay's row key: queue berths first (by name), then berths only port calls name. */
export function boardRows(
  berths: readonly BoardBerth[],
  stays: readonly BerthStay[],
): { rows: BoardRow[]; rowOf: Map<number, string> } {
  const rows: BoardRow[] = berths.map((b) => ({ key: `q${b.id}`, berth_id: b.id, code: b.code, name: b.name }));
  const byCode = new Map<string, string>();
  const byName = new Map<string, string>();
  for (const b of berths) {
    if (b.code.trim()) byCode.set(b.code.trim().toLowerCase(), `q${b.id}`);
    if (b.name.trim()) byName.set(b.name.trim().toLowerCase(), `q${b.id}`);
  }
  const extra = new Map<string, BoardRow>();
  const rowOf = new Map<number, string>();
  let unassigned = false;
  for (const stay of stays) {
    const code = stay.berth.trim().toLowerCase();
    const name = stay.berth_name.trim().toLowerCase();
    let key = (code && (byCode.get(code) ?? byName.get(code))) || (name && (byName.get(name) ?? byCode.get(name)));
    if (!key && (code || name)) {
      key = `b${code || name}`;
      if (!extra.has(key)) {
        extra.set(key, { key, berth_id: null, code: stay.berth.trim(), name: stay.berth_name.trim() || stay.berth });
      }
    }
    if (!key) {
      key = 'none';
      unassigned = true;
    }
    rowOf.set(stay.id, key);
  }
  rows.push(...[...extra.values()].sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true })));
  if (unassigned) rows.push({ key: 'none', berth_id: null, code: '', name: '' });
  return { rows, rowOf };
}

export function berthBoardRoutes(deps: GatewayDeps): Route[] {
  const { db } = deps;
  return [
    {
      method: 'GET',
      path: '/berth-board',
      // As the port-call list it draws from (GET /ongoing-port-calls, GET /port-calls).
      permission: 'basic_user_action',
      module: 'activity',
      params: {
        from: optionalText(32),
        to: optionalText(32),
      },
      async handle({ params }) {
        const now = Date.now();
        const from = timeParam(params.from, 'from', now - BOARD_BEFORE_MS);
        const to = timeParam(params.to, 'to', (params.from ? from : now) + BOARD_AFTER_MS);
        if (to <= from) throw ApiError.badRequest('to must be after from');
        if (to - from > BOARD_MAX_SPAN_MS) throw ApiError.badRequest('The board spans at most 31 days');
        const [stays, berths, reservations] = await Promise.all([
          berthBoardStays(db, from, to),
          boardBerths(db),
          boardReservations(db, from, to),
        ]);
        const { rows, rowOf } = boardRows(berths, stays);
        return {
          from: iso(from),
          to: iso(to),
          now: iso(now),
          berths: rows,
          port_calls: stays.map((stay) => ({
            id: stay.id,
            imo: stay.imo,
            vessel_name: stay.vessel_name,
            status: stay.status,
            berth: rowOf.get(stay.id) ?? 'none',
            start: iso(stay.start),
            end: iso(stay.end),
            start_kind: stay.start_kind,
            end_kind: stay.end_kind,
          })),
          reservations: reservations.map((r) => ({
            id: r.id,
            berth: `q${r.berth_id}`,
            kind: r.kind,
            start: iso(r.start),
            end: iso(r.end),
            vessel_name: r.vessel_name,
            imo: r.imo,
            slot_reservation_id: r.slot_reservation_id,
            port_call_id: r.port_call_id,
          })),
        };
      },
    },
  ];
}
