import { describe, expect, it } from 'vitest';
import { boardOf, placeBars, ticksOf } from './model.ts';

const T = Date.parse('2026-11-29T00:00:00Z');
const H = 3_600_000;
const iso = (hours: number) => `${new Date(T + hours * H).toISOString().slice(0, 19)}+00:00`;

const call = (id: number, berth: string, start: number, end: number, extra: Record<string, unknown> = {}) => ({
  id,
  imo: 9000000 + id,
  vessel_name: `V${id}`,
  berth,
  start: iso(start),
  end: iso(end),
  start_kind: 'estimated',
  end_kind: 'estimated',
  ...extra,
});

describe('the berth board', () => {
  const board = boardOf({
    from: iso(-12),
    to: iso(48),
    berths: [
      { key: 'q1', code: 'B1', name: 'North quay' },
      { key: 'q2', code: 'B2', name: '' },
      { key: 'none', code: '', name: '' },
    ],
    port_calls: [
      call(1, 'q1', 0, 10, { start_kind: 'actual', end_kind: 'actual' }),
      call(2, 'q1', 8, 20, { start_kind: 'actual' }),
      call(3, 'q1', 20, 30),
      call(4, 'none', 0, 10),
      call(5, 'none', 5, 10),
      call(6, 'nowhere', 0, 1),
      { id: 7, berth: 'q1', start: 'junk', end: iso(1) },
    ],
    reservations: [
      { id: 1, berth: 'q2', kind: 'block', start: iso(0), end: iso(5) },
      {
        id: 2,
        berth: 'q2',
        kind: 'slot',
        start: iso(4),
        end: iso(9),
        vessel_name: 'V8',
        imo: 9000008,
        port_call_id: 8,
      },
      {
        id: 3,
        berth: 'q1',
        kind: 'slot',
        start: iso(21),
        end: iso(25),
        vessel_name: 'V3',
        imo: 9000003,
        port_call_id: 3,
      },
    ],
  });

  it('reads the answer: rows, bars with their kind, and leaves out what it cannot place', () => {
    expect(board.rows.map((row) => row.name)).toEqual(['North quay', 'B2', '']);
    expect(board.bars.map((bar) => `${bar.key}:${bar.kind}`)).toEqual([
      'pc-1:departed',
      'pc-2:at-berth',
      'pc-3:expected',
      'pc-4:expected',
      'pc-5:expected',
      'r-1:block',
      'r-2:slot',
      'r-3:slot',
    ]);
  });

  it('stacks overlapping bars in lanes and finds the conflicts of different vessels on one berth', () => {
    const { rows, conflicts } = placeBars(board);
    const north = rows[0].bars.map(({ bar, lane, conflict }) => [bar.key, lane, conflict]);
    // A vessel's own JIT slot beside its stay is no conflict; V1 and V2 overlap from 08 to 10.
    expect(north).toEqual([
      ['pc-1', 0, true],
      ['pc-2', 1, true],
      ['pc-3', 0, false],
      ['r-3', 1, false],
    ]);
    expect(rows[0].lanes).toBe(2);
    // A slot over a port block conflicts; the port calls with no berth do not.
    expect(conflicts.map((c) => [c.row, c.a.key, c.b.key, (c.start - T) / H, (c.end - T) / H])).toEqual([
      ['q1', 'pc-1', 'pc-2', 8, 10],
      ['q2', 'r-1', 'r-2', 4, 5],
    ]);
  });

  it('marks the hours: every 6 hours on a window of 60', () => {
    const { step, ticks } = ticksOf(T - 12 * H + 60_000, T + 48 * H);
    expect(step).toBe(6);
    expect(ticks.every((tick) => new Date(tick).getMinutes() === 0 && new Date(tick).getHours() % 6 === 0)).toBe(true);
    expect(ticks.length).toBe(10);
  });
});
