import { describe, expect, it } from 'vitest';
import {
  generatedTimestamps,
  isGeneratedBy,
  type SlotRequestForTimestamps,
  slotRequestExternalId,
} from './generated-timestamps.ts';
import { HOUR_MS, MINUTE_MS, queueSettings, type SlotRequestStatus } from './queue-rules.ts';

const settings = queueSettings();
const now = Date.UTC(2026, 10, 27, 9, 15, 42);
const at = (iso: string) => Date.parse(iso);
const request = (over: Partial<SlotRequestForTimestamps> = {}): SlotRequestForTimestamps => ({
  id: 12,
  imo: 9_074_729,
  vessel_name: 'Ship A',
  status: 'offered',
  eta: at('2026-11-28T10:00:00Z'),
  rta_window_start: at('2026-11-28T10:30:00Z'),
  rta_window_end: at('2026-11-28T11:00:00Z'),
  jit_eta: null,
  laytime: 'PT2H30M',
  laytimeMs: 150 * MINUTE_MS,
  loa: 120.5,
  beam: 20,
  draft: 7.25,
  ...over,
});
const rows = (r: SlotRequestForTimestamps, firstEta = false) =>
  generatedTimestamps(r, { firstEta, now, settings }).map((x) => [x.time_type, x.state, x.time]);

describe('timestamps generated from a slot request', () => {
  it('carry the original’s payload keys, the jit_eta_form source and the slot request as external id', () => {
    const [first] = generatedTimestamps(request(), { firstEta: false, now, settings });
    expect(first).toEqual({
      imo: 9_074_729,
      vessel_name: 'Ship A',
      time_type: 'Recommended',
      state: 'Arrival_Vessel_PortArea',
      time: '2026-11-28T10:30:00+00:00',
      payload: {
        source: 'jit_eta_form',
        external_id: 'slot_reservation_id12',
        slot_reservation_id: 12,
        slot_reservation_status: 'offered',
        rta_window_start: '2026-11-28T10:30:00+00:00',
        rta_window_end: '2026-11-28T11:00:00+00:00',
        laytime: 'PT2H30M',
        loa: 120.5,
        beam: 20,
        draft: 7.25,
        dummy: '2026-11-27T09:15:42+00:00',
      },
    });
    expect(slotRequestExternalId(7)).toBe('slot_reservation_id7');
  });

  it('with the first ETA: Estimated arrival at the ETA and departure at ETA + travel + laytime, then the RTA', () => {
    expect(rows(request(), true)).toEqual([
      ['Estimated', 'Arrival_Vessel_PortArea', '2026-11-28T10:00:00+00:00'],
      ['Estimated', 'Departure_Vessel_Berth', '2026-11-28T13:00:00+00:00'],
      ['Recommended', 'Arrival_Vessel_PortArea', '2026-11-28T10:30:00+00:00'],
    ]);
  });

  it('updated: the Recommended arrival at the new RTA window start', () => {
    expect(rows(request({ status: 'updated', rta_window_start: at('2026-11-28T12:00:00Z') }))).toEqual([
      ['Recommended', 'Arrival_Vessel_PortArea', '2026-11-28T12:00:00+00:00'],
    ]);
  });

  it('accepted: Planned arrival at the JIT ETA and Planned departure at JIT ETA + travel + laytime', () => {
    const accepted = request({ status: 'accepted', jit_eta: at('2026-11-28T10:45:00Z'), laytimeMs: 26 * HOUR_MS });
    expect(rows(accepted)).toEqual([
      ['Planned', 'Arrival_Vessel_PortArea', '2026-11-28T10:45:00+00:00'],
      ['Planned', 'Departure_Vessel_Berth', '2026-11-29T13:15:00+00:00'],
    ]);
    expect(generatedTimestamps(accepted, { firstEta: false, now, settings })[0]?.payload.slot_reservation_status).toBe(
      'accepted',
    );
  });

  it('none in any other status, not even the first ETA', () => {
    const others: SlotRequestStatus[] = [
      'requested',
      'no_nomination',
      'no_free_slot',
      'cancelled_by_vessel',
      'cancelled_by_port',
      'completed',
    ];
    for (const status of others) expect(rows(request({ status }), true), status).toEqual([]);
  });

  it('are recognised by their slot request id for removal on cancellation', () => {
    const [first] = generatedTimestamps(request(), { firstEta: true, now, settings });
    expect(isGeneratedBy(first?.payload, 12)).toBe(true);
    expect(isGeneratedBy(first?.payload, 13)).toBe(false);
    expect(isGeneratedBy({ slot_reservation_id: '12' }, 12)).toBe(false);
    expect(isGeneratedBy(null, 12)).toBe(false);
  });
});
