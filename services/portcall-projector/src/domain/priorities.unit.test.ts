// Priorities (docs/domain.md#priorities), including the worked example (berth1 … berth5).

import { describe, expect, it } from 'vitest';
import { at, context, projectMore, VesselStream } from './port-call-test-kit.ts';
import {
  heavierFlags,
  MANUAL_PAYLOAD_KEY_WEIGHT,
  MANUAL_WEIGHT,
  NO_PRIORITIES,
  type Priorities,
  payloadKeyWeight,
  timestampWeight,
} from './priorities.ts';
import { shipOf } from './ship.ts';
import { emptyVesselPortCalls, portCallOf, replayVessel } from './vessel-port-calls.ts';

const K1 = 1;
const K2 = 2;

describe('weights', () => {
  const p: Priorities = {
    timestamp_weights: [{ time_type: 'Estimated', state: 'Arrival_Vessel_PortArea', api_key_id: K2, weight: 2 }],
    payload_key_weights: [{ payload_key: 'berth_name', api_key_id: K2, weight: 2 }],
  };
  const source = (api_key_id: number | null, kind: 'api_key' | 'manual' = 'api_key') => ({
    time_type: 'Estimated',
    state: 'Arrival_Vessel_PortArea',
    source: kind,
    api_key_id,
  });

  it('a data source weighs its key’s priority for the pair, 0 without one; people weigh 999', () => {
    expect(timestampWeight(p, source(K2))).toBe(2);
    expect(timestampWeight(p, source(K1))).toBe(0);
    expect(timestampWeight(p, { ...source(K2), state: 'Departure_Vessel_Berth' })).toBe(0);
    expect(timestampWeight(p, source(null, 'manual'))).toBe(MANUAL_WEIGHT);
    expect(MANUAL_WEIGHT).toBe(999);
  });

  it('payload keys likewise', () => {
    expect(payloadKeyWeight(p, 'berth_name', source(K2))).toBe(2);
    expect(payloadKeyWeight(p, 'berth_name', source(K1))).toBe(0);
    expect(payloadKeyWeight(p, 'to_port', source(K2))).toBe(0);
    expect(payloadKeyWeight(NO_PRIORITIES, 'berth_name', source(null, 'manual'))).toBe(MANUAL_PAYLOAD_KEY_WEIGHT);
  });

  it('each priorities object answers with its own rows, a later row of a pair winning, whichever was asked last', () => {
    const other: Priorities = {
      timestamp_weights: [
        { time_type: 'Estimated', state: 'Arrival_Vessel_PortArea', api_key_id: K1, weight: 5 },
        { time_type: 'Estimated', state: 'Arrival_Vessel_PortArea', api_key_id: K1, weight: 7 },
      ],
      payload_key_weights: [{ payload_key: 'berth_name', api_key_id: K1, weight: 3 }],
    };
    for (let i = 0; i < 2; i++) {
      expect(timestampWeight(other, source(K1))).toBe(7);
      expect(timestampWeight(p, source(K1))).toBe(0);
      expect(payloadKeyWeight(other, 'berth_name', source(K1))).toBe(3);
      expect(payloadKeyWeight(p, 'berth_name', source(K1))).toBe(0);
      expect(payloadKeyWeight(p, 'berth_name', source(K2))).toBe(2);
    }
  });

  it('“heavier”: at least the highest weight seen so far for the pair, in insertion order', () => {
    const items = [
      ['a', 1],
      ['a', 2],
      ['a', 1],
      ['b', 0],
      ['a', 2],
    ] as const;
    expect(
      heavierFlags(
        items,
        (i) => i[0],
        (i) => i[1],
      ),
    ).toEqual([true, true, false, true, true]);
  });
});

describe('the worked example: berth_name under payload-key priorities', () => {
  // Timestamp priorities for ETA and ETD are [K2, K1]: K2 weighs 2, K1 weighs 1.
  const timestampPriorities = ['Arrival_Vessel_PortArea', 'Departure_Vessel_Berth'].flatMap((state) => [
    { time_type: 'Estimated', state, api_key_id: K2, weight: 2 },
    { time_type: 'Estimated', state, api_key_id: K1, weight: 1 },
  ]);
  const before: Priorities = { timestamp_weights: timestampPriorities, payload_key_weights: [] };
  // Step 3: berth_name priority [K2, K1].
  const after: Priorities = {
    timestamp_weights: timestampPriorities,
    payload_key_weights: [
      { payload_key: 'berth_name', api_key_id: K2, weight: 2 },
      { payload_key: 'berth_name', api_key_id: K1, weight: 1 },
    ],
  };
  const settings = { masterSources: ['master_source'] };
  const post = (s: VesselStream, state: string, hours: number, key: number, berth: string) =>
    s.post('Estimated', state, at(hours), {
      key,
      payload: { source: 'master_source', external_id: '1', berth_name: berth },
    });

  it('berth1, berth2, then berth1 again, berth4, berth5 and berth5', () => {
    const s = new VesselStream(1234567);
    s.now(at(0));
    let state = emptyVesselPortCalls(s.imo);
    const step = (priorities: Priorities, posts: () => void): string => {
      const from = s.events.length;
      posts();
      state = projectMore(state, s.since(from), context(settings, priorities));
      expect(state.port_calls).toHaveLength(1);
      return shipOf(state.port_calls[0]).berth_name;
    };
    expect(step(before, () => post(s, 'Arrival_Vessel_PortArea', 1, K2, 'berth1'))).toBe('berth1');
    expect(step(before, () => post(s, 'Departure_Vessel_Berth', 2, K1, 'berth2'))).toBe('berth2');
    expect(step(after, () => post(s, 'Departure_Vessel_Berth', 3, K1, 'berth3'))).toBe('berth1');
    expect(portCallOf(state, state.port_calls[0].id)?.payload_key_weights).toEqual({ berth_name: 2 });
    expect(step(after, () => post(s, 'Arrival_Vessel_PortArea', 2, K2, 'berth4'))).toBe('berth4');
    expect(step(after, () => post(s, 'Arrival_Vessel_PortArea', 3, K2, 'berth5'))).toBe('berth5');
    expect(step(after, () => post(s, 'Departure_Vessel_Berth', 5, K1, 'berth6'))).toBe('berth5');
    // All in port call 1 (here: the id of the first timestamp), and a rebuild under today's priorities agrees.
    const rebuilt = replayVessel(s.imo, s.events, context(settings, after));
    expect(shipOf(rebuilt.port_calls[0]).berth_name).toBe('berth5');
    expect(rebuilt.port_calls[0].id).toBe(state.port_calls[0].id);
  });
});
