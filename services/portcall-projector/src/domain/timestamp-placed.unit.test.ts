// The TimestampPlaced news of a fold: new timestamps on a port call, with whether each is the heaviest there.

import { describe, expect, it } from 'vitest';
import { at, context, project, projectMore, VesselStream } from './port-call-test-kit.ts';
import { placedTimestamps } from './timestamp-placed.ts';

const priorities = {
  timestamp_weights: [
    { time_type: 'Estimated', state: 'Arrival_Vessel_PortArea', api_key_id: 1, weight: 10 },
    { time_type: 'Estimated', state: 'Arrival_Vessel_PortArea', api_key_id: 2, weight: 50 },
  ],
  payload_key_weights: [],
};
const ctx = context({}, priorities);

describe('placedTimestamps', () => {
  it('names the new timestamps on a port call, heaviest unless a live one of the same kind weighs more', () => {
    const s = new VesselStream();
    s.now(at(-48));
    const heavy = s.post('Estimated', 'Arrival_Vessel_PortArea', at(0), { key: 2, vessel_name: 'Ever Given' });
    const first = project(s, ctx);
    expect(placedTimestamps(first, new Set([heavy]), priorities)).toEqual([
      {
        imo: s.imo,
        port_call_id: heavy,
        timestamp_id: heavy,
        time_type: 'Estimated',
        state: 'Arrival_Vessel_PortArea',
        time: at(0),
        source: 'api_key',
        heaviest: true,
        vessel_name: 'Ever Given',
      },
    ]);
    const from = s.events.length;
    const light = s.post('Estimated', 'Arrival_Vessel_PortArea', at(0.5), { key: 1 });
    const person = s.post('Estimated', 'Arrival_Vessel_PortArea', at(0.6));
    const second = projectMore(first, s.since(from), ctx);
    const placed = placedTimestamps(second, new Set([light, person]), priorities);
    expect(placed.map((p) => [p.timestamp_id, p.source, p.heaviest])).toEqual([
      [light, 'api_key', false],
      [person, 'manual', true],
    ]);
    // Only the timestamps named: the earlier one is not news again.
    expect(placedTimestamps(second, new Set(), priorities)).toEqual([]);
  });
});
