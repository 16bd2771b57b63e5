import { describe, expect, it } from 'vitest';
import { thrown } from '../testing/failures.ts';
import { decideSetVesselType } from './vessel-type.ts';

describe('decideSetVesselType', () => {
  const vessel = { imo: 9074729, vessel_type: 1 };

  it('records the new type with the one it replaces', () => {
    expect(decideSetVesselType(vessel, 41)).toEqual([
      { type: 'VesselTypeSet', data: { imo: 9074729, vessel_type: 41, previous_vessel_type: 1 } },
    ]);
    expect(decideSetVesselType({ imo: 9074729, vessel_type: 41 }, '1')[0].data.vessel_type).toBe(1);
  });

  it('records nothing when the vessel already has the type', () => {
    expect(decideSetVesselType({ imo: 9074729, vessel_type: 41 }, 41)).toEqual([]);
  });

  it('refuses an unknown vessel before looking at the type', () => {
    const error = thrown(() => decideSetVesselType(undefined, 999));
    expect([error.status, error.message]).toEqual([400, 'Vessel does not exist']);
  });

  it.each([0, 74, -1, 2.5, '', 'x', null, '041'])('refuses type %j', (type) => {
    const error = thrown(() => decideSetVesselType(vessel, type));
    expect([error.status, error.message]).toEqual([400, 'Invalid vessel type']);
  });
});
