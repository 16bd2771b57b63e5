// The berth board's port calls (GET /berth-board, docs/web-ui.md#the-berth-board), run by the gateway in its
// process (`@pcas/portcall-projector/queries`): each shown port call whose stay at its berth may meet the board's
// window, and the stay itself, from the arrival at the berth to the departure from it. Where the vessel arrived or
// left, the actual time; else the newest report of the port call's timeline (which already holds each (time type,
// state)'s winner by the priorities); else the port call's current ETA or ETD.

import type { Queryable } from '@pcas/sql';

/** How a stay's end is known: reported as happened, expected (estimated, planned, …), or not reported at all. */
export type StayEndKind = 'actual' | 'estimated' | 'planned' | 'unknown';

/** One port call's stay at its berth, times in epoch milliseconds. */
export interface BerthStay {
  id: number;
  imo: number;
  vessel_name: string;
  status: string;
  berth: string;
  berth_name: string;
  start: number;
  end: number;
  start_kind: StayEndKind;
  end_kind: StayEndKind;
}

/** A stay with no departure reported is drawn this long (its end marked `unknown`). */
export const OPEN_STAY_MS = 24 * 3_600_000;
/** Shortest stay drawn, so a bar stays visible and clickable. */
const MIN_STAY_MS = 15 * 60_000;

export interface BerthBoardRow {
  id: string | number;
  imo: string | number;
  vessel_name: string;
  status: string;
  berth: string | null;
  berth_name: string | null;
  ata: string | number | null;
  atd: string | number | null;
  current_eta: string | number | null;
  current_etd: string | number | null;
  slots: unknown;
}

// The port calls worth computing: shown, not long departed, and not arriving after the window. The bar itself is
// checked against the window once computed (the estimates it is made of are in the timeline document).
const SQL = `SELECT p.id, p.imo, p.vessel_name, p.status, p.berth, p.berth_name,
    (extract(epoch FROM p.ata) * 1000)::bigint AS ata, (extract(epoch FROM p.atd) * 1000)::bigint AS atd,
    (extract(epoch FROM p.current_eta) * 1000)::bigint AS current_eta,
    (extract(epoch FROM p.current_etd) * 1000)::bigint AS current_etd,
    (SELECT coalesce(jsonb_agg(s), '[]'::jsonb)
       FROM jsonb_array_elements(CASE WHEN jsonb_typeof(p.timeline->'events') = 'array' THEN p.timeline->'events'
                                      ELSE '[]'::jsonb END) e,
            jsonb_array_elements(CASE WHEN jsonb_typeof(e->'timestamps') = 'array' THEN e->'timestamps'
                                      ELSE '[]'::jsonb END) s
      WHERE s->>'state' IN ('Arrival_Vessel_Berth', 'Departure_Vessel_Berth') AND coalesce(s->>'time', '') <> '') AS slots
   FROM portcall.port_calls p
  WHERE p.shown
    AND (p.atd IS NULL OR p.atd >= to_timestamp($1::double precision / 1000))
    AND coalesce(p.ata, p.current_eta, p.master_start, '-infinity') <= to_timestamp($2::double precision / 1000)
  ORDER BY p.id
  LIMIT $3`;

/** The most port calls one board answer holds. */
export const BOARD_MAX_PORT_CALLS = 5000;

/** PostgreSQL's text (`2020-02-23 20:15:00+00`) or ISO 8601, in epoch ms; NaN when it is neither. */
export function timeOf(text: string): number {
  const iso = text
    .trim()
    .replace(' ', 'T')
    .replace(/([+-]\d\d)$/, '$1:00');
  return Date.parse(iso);
}

const numberOf = (value: string | number | null): number => (value === null ? Number.NaN : Number(value));

interface Reported {
  time_type: string;
  ms: number;
  createdMs: number;
}

function reportedOf(slots: unknown, state: string): Reported[] {
  if (!Array.isArray(slots)) return [];
  const found: Reported[] = [];
  for (const slot of slots) {
    if (typeof slot !== 'object' || slot === null) continue;
    const { time_type, state: slotState, time, created_at } = slot as Record<string, unknown>;
    if (slotState !== state || typeof time_type !== 'string' || typeof time !== 'string') continue;
    const ms = timeOf(time);
    if (Number.isNaN(ms)) continue;
    found.push({ time_type, ms, createdMs: typeof created_at === 'string' ? timeOf(created_at) : Number.NaN });
  }
  return found;
}

/** The actual report, else the newest received of the others; null when there is none. */
export function bestReport(reported: readonly Reported[]): { ms: number; kind: StayEndKind } | null {
  const actual = reported.find((r) => r.time_type === 'Actual');
  if (actual) return { ms: actual.ms, kind: 'actual' };
  let best: Reported | null = null;
  for (const r of reported) {
    const created = Number.isNaN(r.createdMs) ? -1 : r.createdMs;
    const bestCreated = best === null || Number.isNaN(best.createdMs) ? -1 : best.createdMs;
    if (best === null || created > bestCreated) best = r;
  }
  if (best === null) return null;
  return { ms: best.ms, kind: best.time_type === 'Planned' ? 'planned' : 'estimated' };
}

type End = { ms: number; kind: StayEndKind };

/** The actual report, else the port call's actual time, else the newest expected report, else the fallback. */
function endOf(slots: unknown, state: string, actual: number, fallback: number): End | null {
  const best = bestReport(reportedOf(slots, state));
  if (best?.kind === 'actual') return best;
  if (!Number.isNaN(actual)) return { ms: actual, kind: 'actual' };
  if (best) return best;
  return Number.isNaN(fallback) ? null : { ms: fallback, kind: 'estimated' };
}

/** One port call's stay at its berth; null when nothing says when it arrives there. */
export function berthStayOf(row: BerthBoardRow): BerthStay | null {
  const arrival = endOf(row.slots, 'Arrival_Vessel_Berth', numberOf(row.ata), numberOf(row.current_eta));
  if (arrival === null) return null;
  const departure = endOf(row.slots, 'Departure_Vessel_Berth', numberOf(row.atd), numberOf(row.current_etd)) ?? {
    ms: arrival.ms + OPEN_STAY_MS,
    kind: 'unknown' as const,
  };
  return {
    id: Number(row.id),
    imo: Number(row.imo),
    vessel_name: row.vessel_name,
    status: row.status,
    berth: row.berth ?? '',
    berth_name: row.berth_name ?? '',
    start: arrival.ms,
    end: Math.max(departure.ms, arrival.ms + MIN_STAY_MS),
    start_kind: arrival.kind,
    end_kind: departure.kind,
  };
}

/** The stays at a berth that meet [from, to] (epoch ms), in port call id order. */
export async function berthBoardStays(db: Queryable, from: number, to: number): Promise<BerthStay[]> {
  const rows = (await db.query<BerthBoardRow>(SQL, [from, to, BOARD_MAX_PORT_CALLS])).rows;
  const stays: BerthStay[] = [];
  for (const row of rows) {
    const stay = berthStayOf(row);
    if (stay && stay.end >= from && stay.start <= to) stays.push(stay);
  }
  return stays;
}
