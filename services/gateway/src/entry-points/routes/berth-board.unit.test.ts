import type { BerthStay } from '@pcas/portcall-projector/queries';
import { describe, expect, it } from 'vitest';
import { boardRows } from './berth-board.ts';

const stay = (id: number, berth: string, berth_name: string): BerthStay => ({
  id,
  imo: 9074729,
  vessel_name: `V${id}`,
  status: 'arriving',
  berth,
  berth_name,
  start: 0,
  end: 1,
  start_kind: 'estimated',
  end_kind: 'estimated',
});

describe('the berth board’s rows', () => {
  it('places a stay on the queue’s berth by code or name, else on a row of its own berth, else on "no berth"', () => {
    const { rows, rowOf } = boardRows(
      [
        { id: 1, code: 'B1', name: 'North quay' },
        { id: 2, code: 'B2', name: 'South quay' },
      ],
      [
        stay(10, 'b1', ''),
        stay(11, '', 'South Quay'),
        stay(12, 'X9', 'Oil pier'),
        stay(13, 'X9', ''),
        stay(14, '', ''),
      ],
    );
    expect(rows.map((row) => row.key)).toEqual(['q1', 'q2', 'bx9', 'none']);
    expect(rows[2]).toEqual({ key: 'bx9', berth_id: null, code: 'X9', name: 'Oil pier' });
    expect(Object.fromEntries(rowOf)).toEqual({ 10: 'q1', 11: 'q2', 12: 'bx9', 13: 'bx9', 14: 'none' });
  });
});

describe('the rows of berths the queue does not know', () => {
  it('come in the order a person reads their names: Quay 2 before Quay 10', () => {
    const { rows } = boardRows([], [stay(1, '', 'Quay 10'), stay(2, '', 'Quay 2'), stay(3, '', 'Quay 1')]);
    expect(rows.map((r) => r.name)).toEqual(['Quay 1', 'Quay 2', 'Quay 10']);
  });
});
