import { describe, expect, it } from 'vitest';
import {
  alertOf,
  apiTime,
  type BerthReservation,
  barsOf,
  cancellable,
  changeable,
  DAY_MS,
  formatLaytime,
  isoLaytime,
  moveItem,
  parseLaytime,
} from './model.ts';

describe('the queue model', () => {
  it.each([
    ['PT2H30M', { hours: 2, minutes: 30 }],
    ['P1DT2H', { hours: 26, minutes: 0 }],
    ['PT45M', { hours: 0, minutes: 45 }],
    ['02:05', { hours: 2, minutes: 5 }],
    ['12:30:00', { hours: 12, minutes: 30 }],
    ['P', null],
    // Read as the queue reads laytimes (@pcas/values' isoDurationMs): the API's own form, and only DateInterval's.
    ['PT1H2M3S', { hours: 1, minutes: 2 }],
    [' PT2H ', { hours: 2, minutes: 0 }],
    ['PT1.5S', null],
    ['two hours', null],
  ])('reads the laytime %j in the API’s forms as %j', (laytime, parsed) => {
    expect(parseLaytime(laytime)).toEqual(parsed);
  });

  it('writes laytimes back as ISO durations and in words', () => {
    expect(isoLaytime({ hours: 12, minutes: 30 })).toBe('PT12H30M');
    expect(isoLaytime({ hours: 0, minutes: 5 })).toBe('PT5M');
    expect(isoLaytime({ hours: 3, minutes: 0 })).toBe('PT3H');
    expect(isoLaytime({ hours: 0, minutes: 0 })).toBe('PT0S');
    expect(formatLaytime('PT2H30M')).toBe('2 h 30 min');
    expect(formatLaytime('PT2H')).toBe('2 h');
    expect(formatLaytime('00:40')).toBe('40 min');
    expect(formatLaytime('odd')).toBe('odd');
  });

  it('moves a berth in the priority list and keeps it inside the list', () => {
    expect(moveItem([1, 2, 3], 2, -1)).toEqual([1, 3, 2]);
    expect(moveItem([1, 2, 3], 0, 1)).toEqual([2, 1, 3]);
    expect(moveItem([1, 2, 3], 0, -1)).toEqual([1, 2, 3]);
    expect(moveItem([1, 2, 3], 2, 5)).toEqual([1, 2, 3]);
  });

  it('says the alert in words, and none before there is a JIT ETA', () => {
    expect(alertOf({ jit_eta: '2030-01-10 02:00:00+00', jit_eta_alert_state: 'orange' })?.label).toBe('Late');
    expect(alertOf({ jit_eta: '2030-01-10 02:00:00+00', jit_eta_alert_state: 'red' })?.label).toBe('Alert');
    expect(alertOf({ jit_eta: '2030-01-10 02:00:00+00', jit_eta_alert_state: 'green' })?.label).toBe('On time');
    expect(alertOf({ jit_eta: null, jit_eta_alert_state: 'green' })).toBeNull();
    expect(alertOf({ jit_eta: '2030-01-10 02:00:00+00', jit_eta_alert_state: 'purple' })).toBeNull();
  });

  it('knows which slot requests the port may still change or cancel', () => {
    expect(['offered', 'accepted', 'updated'].every(changeable)).toBe(true);
    expect(changeable('no_free_slot')).toBe(false);
    expect(cancellable('no_nomination')).toBe(true);
    expect(cancellable('cancelled_by_vessel')).toBe(false);
    expect(cancellable('completed')).toBe(false);
  });

  it('gives PostgreSQL’s text back as the API’s ISO form', () => {
    expect(apiTime('2030-01-10 02:00:00+00')).toBe('2030-01-10T02:00:00+00:00');
    expect(apiTime('2030-01-10T02:00:00+00:00')).toBe('2030-01-10T02:00:00+00:00');
    expect(apiTime(null)).toBe('');
  });

  it('places the reservations touching the week as bars, clipped to it', () => {
    const from = Date.UTC(2030, 0, 7);
    const at = (hours: number) => new Date(from + hours * 3_600_000).toISOString();
    const reservation = (id: number, start: string, end: string): BerthReservation => ({
      id,
      berth_id: 1,
      berth_reservation_type: 'port_blocked',
      readable_berth_reservation_type: 'Blocked by port',
      reservation_start: start,
      reservation_end: end,
      slot_reservation_id: null,
      vessel_name: null,
    });
    const bars = barsOf(
      [
        reservation(2, at(7 * 24 - 12), at(7 * 24 + 12)), // over the week's end: clipped
        reservation(1, at(-12), at(12)), // from before the week: clipped at its start
        reservation(3, at(-48), at(-24)), // before the week: left out
        reservation(4, at(84), at(84 + 16.8)), // the middle, a tenth of a day
      ],
      from,
      7,
    );
    expect(bars.map((bar) => bar.reservation.id)).toEqual([1, 4, 2]);
    const span = 7 * DAY_MS;
    expect(bars[0].left).toBe(0);
    expect(bars[0].width).toBeCloseTo((12 * 3_600_000 * 100) / span);
    expect(bars[1].left).toBeCloseTo(50);
    expect(bars[1].width).toBeCloseTo(10);
    expect(bars[2].left + bars[2].width).toBeCloseTo(100);
  });
});
