// The port call's RTA and live ETA: which port call gets them, the refusals, and what the fold keeps.

import { describe, expect, it } from 'vitest';
import { decideSetLiveEta, decideSetPortCallRta, parseZonedIso } from './port-call-rta.ts';
import { at, context, project, projectMore, VesselStream } from './port-call-test-kit.ts';
import { emptyVesselPortCalls } from './vessel-port-calls.ts';

const ctx = context();

/** Two visits: the first departed and closed (done), the second arriving. */
function twoVisits() {
  const s = new VesselStream();
  s.post('Estimated', 'Arrival_Vessel_PortArea', at(0), { key: 1 });
  s.post('Actual', 'Arrival_Vessel_Berth', at(2), { key: 1 });
  s.post('Actual', 'Departure_Vessel_Berth', at(20), { key: 1 });
  const second = s.now(at(24 * 40)).post('Estimated', 'Arrival_Vessel_PortArea', at(24 * 41), { key: 1 });
  const state = project(s.now(at(24 * 40 + 1)), ctx);
  return { s, state, second };
}

describe('the live ETA', () => {
  it('goes to the first port call not done, with the payload, who and when', () => {
    const { s, state, second } = twoVisits();
    expect(state.port_calls.map((pc) => pc.status)).toEqual(['done', 'arriving']);
    const events = decideSetLiveEta(state, { time: '2024-06-11T10:30:00Z', payload: { source: 'ais' } });
    expect(events).toEqual([
      {
        type: 'PortCallLiveEtaSet',
        data: {
          port_call_id: second,
          live_eta: '2024-06-11T10:30:00+00:00',
          payload: { source: 'ais' },
          slot_reservation_id: null,
        },
      },
    ]);
    const from = s.events.length;
    for (const e of events) s.push(e.type, e.data, { user_id: 7 });
    const after = projectMore(state, s.since(from), ctx);
    const pc = after.port_calls.find((p) => p.id === second)!;
    expect(pc.live_eta).toBe('2024-06-11T10:30:00+00:00');
    expect(pc.live_eta_details).toMatchObject({ source: 'ais', updated_by: 7 });
    expect(typeof pc.live_eta_details?.updated_at).toBe('string');
    // The done port call keeps none.
    expect(after.port_calls[0].live_eta).toBeNull();
  });

  it('names the port call’s slot request, so the queue can compare JIT ETA and live ETA', () => {
    const s = new VesselStream();
    s.post('Estimated', 'Arrival_Vessel_PortArea', at(5), { key: 1, payload: { slot_reservation_id: 42 } });
    const state = project(s, ctx);
    const [event] = decideSetLiveEta(state, { time: at(6), payload: [] });
    expect(event.data).toMatchObject({ slot_reservation_id: 42, payload: {} });
  });

  it('is refused without a port call not done, and for a time that is not ISO 8601 with a zone', () => {
    expect(() => decideSetLiveEta(emptyVesselPortCalls(9074729), { time: at(1), payload: {} })).toThrow(
      'Cannot set live eta for imo: 9074729',
    );
    const { state } = twoVisits();
    expect(() => decideSetLiveEta(state, { time: '2024-06-11 10:30', payload: {} })).toThrow(
      'Invalid time: 2024-06-11 10:30',
    );
  });
});

describe('the RTA', () => {
  it('goes to the named port call with its window; the fold keeps who and when in rta_details', () => {
    const { s, state } = twoVisits();
    const first = state.port_calls[0].id;
    const events = decideSetPortCallRta(state, {
      port_call_id: first,
      rta: '2024-06-11T12:00:00+03:00',
      eta_min: '2024-06-11T08:30:00Z',
      eta_max: '2024-06-11T09:30:00.000Z',
    });
    expect(events[0].data).toEqual({
      port_call_id: first,
      rta: '2024-06-11T09:00:00+00:00',
      eta_min: '2024-06-11T08:30:00+00:00',
      eta_max: '2024-06-11T09:30:00+00:00',
    });
    const from = s.events.length;
    for (const e of events) s.push(e.type, e.data, { user_id: 3 });
    const pc = projectMore(state, s.since(from), ctx).port_calls[0];
    expect(pc.rta).toBe('2024-06-11T09:00:00+00:00');
    expect(pc.rta_details).toMatchObject({
      eta_min: '2024-06-11T08:30:00+00:00',
      eta_max: '2024-06-11T09:30:00+00:00',
      updated_by: 3,
    });
  });

  it('without a port call id goes to the first not done; refusals name the IMO or the bad time', () => {
    const { state, second } = twoVisits();
    expect(decideSetPortCallRta(state, { rta: at(24 * 41) })[0].data).toMatchObject({
      port_call_id: second,
      eta_min: null,
      eta_max: null,
    });
    expect(() => decideSetPortCallRta(state, { port_call_id: 1, rta: at(1) })).toThrow(
      'Cannot set RTA for imo: 9074729',
    );
    expect(() => decideSetPortCallRta(state, { rta: 'soon' })).toThrow('Invalid RTA: soon');
    expect(() => decideSetPortCallRta(state, { rta: at(1), eta_min: 'x' })).toThrow('Invalid ETA min: x');
  });
});

describe('parseZonedIso', () => {
  it('takes ISO 8601 with Z or an offset, not a local time', () => {
    expect(parseZonedIso('2024-06-11T10:30Z')).toBe(Date.UTC(2024, 5, 11, 10, 30));
    expect(parseZonedIso('2024-06-11T10:30:00+0200')).toBe(Date.UTC(2024, 5, 11, 8, 30));
    expect(parseZonedIso('2024-06-11T10:30:00')).toBeUndefined();
    expect(parseZonedIso(20240611)).toBeUndefined();
  });
});
