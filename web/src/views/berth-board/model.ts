// The berth board's data: GET berth-board read defensively, the bars placed on their berth's row (stacked in lanes
// where they overlap) and the conflicts found. Pure functions, tested without a browser (model.test.ts).

import { normaliseTime } from '../../components/time.ts';

export const HOUR_MS = 3_600_000;
/** The default window: 12 hours back, 48 ahead. */
export const DEFAULT_BEFORE_MS = 12 * HOUR_MS;
export const DEFAULT_SPAN_MS = 60 * HOUR_MS;

/** What a bar is: a port call's stay at the berth (by how far it has got), a JIT slot, or a block by the port. */
export type BarKind = 'expected' | 'at-berth' | 'departed' | 'slot' | 'block';

export interface Bar {
  key: string;
  kind: BarKind;
  row: string;
  start: number;
  end: number;
  /** The vessel's name, '' for a port block. */
  vessel: string;
  imo: number | null;
  /** The port call (its timesheet), when there is one. */
  portCallId: number | null;
  /** How the ends are known: `actual`, `estimated`, `planned` or `unknown` (no departure reported). */
  startKind: string;
  endKind: string;
}

export interface BoardRow {
  key: string;
  /** The berth's name (its code when it has no name); '' for the port calls with no berth. */
  name: string;
  code: string;
}

export interface Board {
  from: number;
  to: number;
  rows: BoardRow[];
  bars: Bar[];
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const integer = (value: unknown): number | null => {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) ? number : null;
};
const timeOf = (value: unknown): number => (typeof value === 'string' ? Date.parse(normaliseTime(value)) : Number.NaN);

function stayKind(startKind: string, endKind: string): BarKind {
  if (startKind !== 'actual') return 'expected';
  return endKind === 'actual' ? 'departed' : 'at-berth';
}

/** GET berth-board, whatever it holds: rows and bars with times in epoch ms (a bar without both times left out). */
export function boardOf(raw: unknown): Board {
  const body = isObject(raw) ? raw : {};
  const rows: BoardRow[] = (Array.isArray(body.berths) ? body.berths : []).filter(isObject).map((berth) => ({
    key: text(berth.key),
    name: text(berth.name) || text(berth.code),
    code: text(berth.code),
  }));
  const bars: Bar[] = [];
  for (const call of Array.isArray(body.port_calls) ? body.port_calls.filter(isObject) : []) {
    const startKind = text(call.start_kind);
    const endKind = text(call.end_kind);
    bars.push({
      key: `pc-${integer(call.id) ?? bars.length}`,
      kind: stayKind(startKind, endKind),
      row: text(call.berth),
      start: timeOf(call.start),
      end: timeOf(call.end),
      vessel: text(call.vessel_name),
      imo: integer(call.imo),
      portCallId: integer(call.id),
      startKind,
      endKind,
    });
  }
  for (const reservation of Array.isArray(body.reservations) ? body.reservations.filter(isObject) : []) {
    const block = reservation.kind === 'block';
    bars.push({
      key: `r-${integer(reservation.id) ?? bars.length}`,
      kind: block ? 'block' : 'slot',
      row: text(reservation.berth),
      start: timeOf(reservation.start),
      end: timeOf(reservation.end),
      vessel: block ? '' : text(reservation.vessel_name),
      imo: integer(reservation.imo),
      portCallId: integer(reservation.port_call_id),
      startKind: 'planned',
      endKind: 'planned',
    });
  }
  const known = new Set(rows.map((row) => row.key));
  return {
    from: timeOf(body.from),
    to: timeOf(body.to),
    rows,
    bars: bars.filter((bar) => known.has(bar.row) && !Number.isNaN(bar.start) && !Number.isNaN(bar.end)),
  };
}

/** Whether two bars of one berth are the same vessel's (its stay and its own JIT slot do not conflict). */
function sameVessel(a: Bar, b: Bar): boolean {
  if (a.portCallId !== null && a.portCallId === b.portCallId) return true;
  return a.imo !== null && a.imo === b.imo;
}

export interface Conflict {
  row: string;
  a: Bar;
  b: Bar;
  start: number;
  end: number;
}

export interface PlacedRow {
  row: BoardRow;
  /** The row's bars, each with its lane (0 at the top), by start. */
  bars: Array<{ bar: Bar; lane: number; conflict: boolean }>;
  lanes: number;
}

/**
 * Each row's bars in lanes (a bar goes into the first lane free at its start, so overlapping bars stack), and the
 * conflicts: two bars of one berth that overlap in time and are not the same vessel's.
 */
export function placeBars(board: Board): { rows: PlacedRow[]; conflicts: Conflict[] } {
  const byRow = new Map<string, Bar[]>(board.rows.map((row) => [row.key, []]));
  for (const bar of board.bars) byRow.get(bar.row)?.push(bar);
  const conflicts: Conflict[] = [];
  const rows = board.rows.map((row) => {
    const bars = (byRow.get(row.key) ?? []).sort((a, b) => a.start - b.start || a.end - b.end);
    const laneEnds: number[] = [];
    const inConflict = new Set<Bar>();
    const placed = bars.map((bar, index) => {
      let lane = laneEnds.findIndex((end) => end <= bar.start);
      if (lane === -1) lane = laneEnds.length;
      laneEnds[lane] = bar.end;
      // The port calls with no berth share a row, not a berth: nothing there conflicts.
      if (row.key !== 'none') {
        for (const other of bars.slice(0, index)) {
          if (other.end > bar.start && !sameVessel(other, bar)) {
            inConflict.add(other).add(bar);
            conflicts.push({ row: row.key, a: other, b: bar, start: bar.start, end: Math.min(other.end, bar.end) });
          }
        }
      }
      return { bar, lane };
    });
    return {
      row,
      bars: placed.map((p) => ({ ...p, conflict: inConflict.has(p.bar) })),
      lanes: Math.max(1, laneEnds.length),
    };
  });
  return { rows, conflicts };
}

/** Where a time is across the window, in percent (clamped to the window). */
export function percentOf(ms: number, from: number, to: number): number {
  return Math.min(100, Math.max(0, ((ms - from) / (to - from)) * 100));
}

/** The hour marks of the window: every `step` hours, on whole hours of the browser's zone. */
export function ticksOf(from: number, to: number): { step: number; ticks: number[] } {
  const hours = (to - from) / HOUR_MS;
  const step = hours <= 26 ? 2 : hours <= 72 ? 6 : 12;
  const first = new Date(from);
  first.setMinutes(0, 0, 0);
  while (first.getTime() < from || first.getHours() % step !== 0) first.setTime(first.getTime() + HOUR_MS);
  const ticks: number[] = [];
  for (let t = first.getTime(); t <= to; t += step * HOUR_MS) ticks.push(t);
  return { step, ticks };
}
