// The ship object's vessel_type_name: from the vessel's type, which ingest records as VesselTypeSet on the
// vessel's stream (docs/domain.md#the-ship-object).

import { describe, expect, it } from 'vitest';
import { portCallTemplate } from './port-call-template.ts';
import { at, context, project, projectMore, VesselStream } from './port-call-test-kit.ts';
import { vesselWrites } from './read-model.ts';
import { emptyVesselPortCalls } from './vessel-port-calls.ts';

const ctx = { ...context(), template: portCallTemplate('gavle') };

describe('the vessel type in the ship object', () => {
  it('is empty while Unknown; a type set rewrites every port call of the vessel with its name, and signals them', () => {
    const s = new VesselStream();
    s.now(at(-48));
    s.post('Estimated', 'Arrival_Vessel_PortArea', at(0), { key: 1 });
    s.post('Estimated', 'Arrival_Vessel_PortArea', at(400), { key: 1 });
    const untyped = project(s, ctx);
    const first = vesselWrites(emptyVesselPortCalls(s.imo), untyped, ctx);
    expect(first.port_calls.map((r) => r.ship.vessel_type_name)).toEqual(['', '']);

    let from = s.events.length;
    s.push('VesselTypeSet', { imo: s.imo, vessel_type: 18, previous_vessel_type: 1 } as never);
    const typed = projectMore(untyped, s.since(from), ctx);
    const w = vesselWrites(untyped, typed, ctx);
    expect(w.port_calls.map((r) => r.ship.vessel_type_name)).toEqual(['Oil Products', 'Oil Products']);
    expect(w.changed).toHaveLength(2);
    // Replayed from the start, the same.
    expect(project(s, ctx).vessel_type).toBe(18);

    from = s.events.length;
    s.push('VesselTypeSet', { imo: s.imo, vessel_type: 1, previous_vessel_type: 18 } as never);
    const back = projectMore(typed, s.since(from), ctx);
    expect(back.vessel_type).toBeUndefined();
    expect(vesselWrites(typed, back, ctx).port_calls.map((r) => r.ship.vessel_type_name)).toEqual(['', '']);
    // The same type again changes nothing.
    from = s.events.length;
    s.push('VesselTypeSet', { imo: s.imo, vessel_type: 1, previous_vessel_type: 1 } as never);
    expect(vesselWrites(back, projectMore(back, s.since(from), ctx), ctx).port_calls).toEqual([]);
  });
});
