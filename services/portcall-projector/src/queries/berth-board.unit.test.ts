import { describe, expect, it } from 'vitest';
import { type BerthBoardRow, berthStayOf, OPEN_STAY_MS } from './berth-board.ts';

const T = Date.parse('2026-11-29T10:00:00Z');
const H = 3_600_000;
const text = (ms: number) => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 19)}+00`;

const row = (over: Partial<BerthBoardRow> = {}): BerthBoardRow => ({
  id: '7',
  imo: '9074729',
  vessel_name: 'Board',
  status: 'arriving',
  berth: 'B1',
  berth_name: 'Berth one',
  ata: null,
  atd: null,
  current_eta: null,
  current_etd: null,
  slots: [],
  ...over,
});
const slot = (time_type: string, state: string, ms: number, createdMs: number) => ({
  time_type,
  state,
  time: text(ms),
  created_at: text(createdMs),
});

describe('a port call’s stay at its berth', () => {
  it('takes the actual times where the vessel arrived and left', () => {
    const stay = berthStayOf(
      row({
        slots: [
          slot('Estimated', 'Arrival_Vessel_Berth', T - H, T - 5 * H),
          slot('Actual', 'Arrival_Vessel_Berth', T, T - 4 * H),
          slot('Actual', 'Departure_Vessel_Berth', T + 5 * H, T - 3 * H),
        ],
      }),
    );
    expect(stay).toMatchObject({ id: 7, start: T, end: T + 5 * H, start_kind: 'actual', end_kind: 'actual' });
  });

  it('else the newest report of a planned or estimated time', () => {
    const stay = berthStayOf(
      row({
        slots: [
          slot('Planned', 'Arrival_Vessel_Berth', T + H, T - 2 * H),
          slot('Estimated', 'Arrival_Vessel_Berth', T + 2 * H, T - 3 * H),
          slot('Estimated', 'Departure_Vessel_Berth', T + 9 * H, T - 3 * H),
          slot('Planned', 'Departure_Vessel_Berth', T + 8 * H, T - H),
        ],
      }),
    );
    expect(stay).toMatchObject({ start: T + H, start_kind: 'planned', end: T + 8 * H, end_kind: 'planned' });
  });

  it('falls back to the port call’s ETA and ETD, and draws an open stay when no departure is known', () => {
    expect(berthStayOf(row({ current_eta: String(T), current_etd: String(T + 3 * H) }))).toMatchObject({
      start: T,
      end: T + 3 * H,
      start_kind: 'estimated',
      end_kind: 'estimated',
    });
    expect(berthStayOf(row({ ata: T }))).toMatchObject({ start: T, end: T + OPEN_STAY_MS, end_kind: 'unknown' });
    expect(berthStayOf(row())).toBeNull();
  });

  it('draws at least a quarter of an hour, and reads what it cannot understand as nothing', () => {
    const stay = berthStayOf(row({ current_eta: T, current_etd: T - H, slots: [{ state: 'x' }, 'junk', null] }));
    expect(stay).toMatchObject({ start: T, end: T + 15 * 60_000 });
  });
});
