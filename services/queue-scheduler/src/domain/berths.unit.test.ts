// A berth's calendar as the slot search reads it: the one kept from the last read given again only while the
// berth's reservations and their times are those it was built from.

import type { BerthReservationData } from '@pcas/contracts';
import { parseAtom } from '@pcas/values';
import { describe, expect, it } from 'vitest';
import { type BerthState, calendarOf } from './berths.ts';
import { isoUtc } from './queue-rules.ts';
import { type BerthCalendar, berthCalendar } from './slot-search.ts';

const HOUR = 3_600_000;
const T0 = Date.UTC(2030, 0, 10);

const reservation = (id: number, start: number, end: number): BerthReservationData => ({
  id,
  berth_id: 1,
  berth_reservation_type: 'vessel_reserved',
  reservation_start: isoUtc(start),
  reservation_end: isoUtc(end),
  slot_reservation_id: null,
});

// As the store hands them: new objects and new strings on every read.
const read = (reservations: BerthReservationData[], nominatable = true): BerthState => ({
  berth: { id: 1, code: 'B1', name: 'Berth 1', nominatable },
  reservations: new Map(
    reservations.map((r) => [
      r.id,
      {
        ...r,
        reservation_start: ` ${r.reservation_start}`.slice(1),
        reservation_end: ` ${r.reservation_end}`.slice(1),
      },
    ]),
  ),
});

/** The calendar built afresh, as before any was kept. */
const built = (state: BerthState, berthId: number): BerthCalendar =>
  berthCalendar(
    berthId,
    [...state.reservations.values()].map((r) => ({
      id: r.id,
      start: parseAtom(r.reservation_start) as number,
      end: parseAtom(r.reservation_end) as number,
    })),
    { nominatable: state.berth?.nominatable ?? false },
  );

describe('a berth’s calendar read again', () => {
  const a = reservation(1, T0, T0 + 2 * HOUR);
  const b = reservation(2, T0 + 3 * HOUR, T0 + 5 * HOUR);
  const c = reservation(3, T0 - 4 * HOUR, T0 - HOUR);

  it('is the calendar the reservations give, through additions, moves, removals and a berth closed', () => {
    const reads: [BerthReservationData[], boolean][] = [
      [[a, b], true],
      [[a, b], true],
      [[b, a], true],
      [[a, b, c], true],
      [[a, { ...b, reservation_end: isoUtc(T0 + 6 * HOUR) }, c], true],
      [[a, { ...b, reservation_start: isoUtc(T0 + 4 * HOUR) }, c], true],
      [[a, c], true],
      [[a, { ...c, id: 4 }], true],
      [[a, { ...c, id: 4 }], false],
      [[], false],
      [[], true],
      [[a], true],
    ];
    for (const [reservations, nominatable] of reads) {
      const state = read(reservations, nominatable);
      expect(calendarOf(state, 1)).toEqual(built(state, 1));
    }
  });

  it('is kept per berth, and given again while nothing changed', () => {
    const first = calendarOf(read([a, b]), 7);
    const other = calendarOf(read([c]), 8);
    expect(calendarOf(read([b, a]), 7)).toBe(first);
    expect(calendarOf(read([c]), 8)).toBe(other);
    expect(other).toEqual(built(read([c]), 8));
  });
});
