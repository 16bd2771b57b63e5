// The DCSA ↔ S-211 table both ways, for every service type of the standard and every event type it allows.

import { isStateName } from '@pcas/s211';
import { describe, expect, it } from 'vitest';
import {
  ACTUAL_ONLY_SERVICE_TYPES,
  type Classifier,
  classifierAllowed,
  EVENT_TYPES_OF,
  fromS211,
  NEGOTIABLE_SERVICE_TYPES,
  SERVICE_STATE_TABLE,
  SERVICE_TYPES,
  stateOfService,
  toS211,
} from './mapping.ts';

const CLASSIFIERS: Classifier[] = ['EST', 'REQ', 'PLN', 'ACT'];
const pairs = SERVICE_TYPES.flatMap((type) => EVENT_TYPES_OF[type].map((event) => [type, event] as const));

// What the docs (docs/dcsa.md#mapping) promise, written out by hand.
const EXPECTED: Record<string, string | null> = {
  'BERTH ARRI': 'Arrival_Vessel_Berth',
  'BERTH DEPA': 'Departure_Vessel_Berth',
  'CARGO_OPERATIONS STRT': 'CargoOp_Commenced',
  'CARGO_OPERATIONS CMPL': 'CargoOp_Completed',
  'PILOTAGE STRT': 'Pilotage_Commenced',
  'PILOTAGE CMPL': 'Pilotage_Completed',
  'TOWAGE STRT': 'Towage_Commenced',
  'TOWAGE CMPL': 'Towage_Completed',
  'MOORING STRT': 'MooringOp_Commenced',
  'MOORING CMPL': 'MooringOp_Completed',
  'BUNKERING STRT': 'Bunkering_Commenced',
  'BUNKERING CMPL': 'Bunkering_Completed',
  'PILOT_BOARDING_PLACE ARRI': 'Arrival_Vessel_PilotBA',
  'ANCHORAGE STRT': 'Arrival_Vessel_AnchorageArea',
  'ANCHORAGE CMPL': 'Departure_Vessel_AnchorageArea',
  'SLUDGE STRT': 'SludgeOp_Commenced',
  'SLUDGE CMPL': 'SludgeOp_Completed',
  'SEA_PASSAGE STRT': 'Departure_Vessel_PortArea',
  'SEA_PASSAGE CMPL': 'Arrival_Vessel_PortArea',
  'ALL_FAST ARRI': 'MooringOp_Completed',
  'GANGWAY_DOWN_AND_SECURE ARRI': 'Gangway_Completed',
  'VESSEL_READY_FOR_CARGO_OPERATIONS ARRI': null,
  'VESSEL_READY_TO_SAIL ARRI': 'ReadyToSailOp_Completed',
  'DISCHARGE_CARGO_OPERATIONS STRT': 'UnloadingOp_Commenced',
  'DISCHARGE_CARGO_OPERATIONS CMPL': 'UnloadingOp_Completed',
  'LOADING_CARGO_OPERATIONS STRT': 'LoadingOp_Commenced',
  'LOADING_CARGO_OPERATIONS CMPL': 'LoadingOp_Completed',
  'LASHING STRT': null,
  'LASHING CMPL': null,
  'SAFETY DEPA': null,
  'ANCHORAGE_OPERATIONS STRT': 'Anchoring_Commenced',
  'ANCHORAGE_OPERATIONS CMPL': 'Anchoring_Completed',
  'SHORE_POWER STRT': null,
  'SHORE_POWER CMPL': null,
  'MOVES ARRI': null,
};

describe('DCSA → S-211', () => {
  it('covers all 21 service types of the standard', () => {
    expect(SERVICE_TYPES).toHaveLength(21);
    expect(new Set(SERVICE_STATE_TABLE.map((r) => r.serviceType))).toEqual(new Set(SERVICE_TYPES));
    expect(pairs.map(([t, e]) => `${t} ${e}`).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(pairs)('%s %s → its state, every state in the S-211 catalogue', (serviceType, eventType) => {
    const state = stateOfService({ serviceType, eventType });
    expect(state).toBe(EXPECTED[`${serviceType} ${eventType}`]);
    if (state !== null) expect(isStateName(state)).toBe(true);
  });

  it('the classifier gives the time type', () => {
    const key = { serviceType: 'BERTH', eventType: 'ARRI' };
    expect(CLASSIFIERS.map((c) => toS211(key, c)?.time_type)).toEqual(['Estimated', 'Required', 'Planned', 'Actual']);
  });

  it('mooring outbound is unmooring, shifting is berth shifting', () => {
    expect(stateOfService({ serviceType: 'MOORING', eventType: 'STRT', phase: 'OUTB' })).toBe('UnMooringOp_Commenced');
    expect(stateOfService({ serviceType: 'MOORING', eventType: 'CMPL', phase: 'SHIF' })).toBe(
      'BerthShifting_Completed',
    );
    expect(stateOfService({ serviceType: 'MOORING', eventType: 'CMPL', phase: 'INBD' })).toBe('MooringOp_Completed');
  });

  it('a service type the standard does not list stays DCSA-only', () => {
    expect(toS211({ serviceType: 'WATER', eventType: 'STRT' }, 'EST')).toBeNull();
  });

  it('E-R-P only for the negotiable services, A for all but MOVES', () => {
    for (const type of NEGOTIABLE_SERVICE_TYPES)
      expect(CLASSIFIERS.every((c) => classifierAllowed(type, c))).toBe(true);
    for (const type of ACTUAL_ONLY_SERVICE_TYPES) {
      expect(CLASSIFIERS.filter((c) => classifierAllowed(type, c))).toEqual(['ACT']);
    }
    expect(CLASSIFIERS.filter((c) => classifierAllowed('MOVES', c))).toEqual([]);
  });
});

describe('S-211 → DCSA and back', () => {
  const rows = SERVICE_STATE_TABLE.filter((r) => r.state !== null);

  it.each(rows.map((r) => [r.serviceType, r.eventType, r.phase ?? '', r.state!] as const))(
    '%s %s %s: the state goes out as a service that maps back to it',
    (serviceType, eventType, phase, state) => {
      for (const timeType of ['Estimated', 'Planned', 'Actual']) {
        const out = fromS211(timeType, state);
        if (out === null) {
          // Only an A may go as an actual-only service.
          expect(timeType).not.toBe('Actual');
          continue;
        }
        expect(toS211(out, out.classifier)).toEqual({
          time_type: timeType === 'Recommended' ? 'Planned' : timeType,
          state,
        });
        expect(classifierAllowed(out.serviceType, out.classifier)).toBe(true);
      }
      expect(fromS211('Actual', state)).not.toBeNull();
      expect(stateOfService({ serviceType, eventType, phase: phase || undefined })).toBe(state);
    },
  );

  it('an ETA to the berth goes out as BERTH ARRI EST; a recommendation as PLN; nothing as REQ', () => {
    expect(fromS211('Estimated', 'Arrival_Vessel_Berth')).toEqual({
      serviceType: 'BERTH',
      eventType: 'ARRI',
      classifier: 'EST',
    });
    expect(fromS211('Recommended', 'Arrival_Vessel_Berth')?.classifier).toBe('PLN');
    expect(fromS211('Required', 'Arrival_Vessel_Berth')).toBeNull();
  });

  it('all fast goes out as MOORING completed (its canonical service)', () => {
    expect(fromS211('Actual', 'MooringOp_Completed')).toMatchObject({ serviceType: 'MOORING', eventType: 'CMPL' });
  });

  it('an estimated sea-passage time has no DCSA form (sea passage takes an A only); a state without a service none', () => {
    expect(fromS211('Estimated', 'Arrival_Vessel_PortArea')).toBeNull();
    expect(fromS211('Actual', 'Arrival_Vessel_PortArea')).toMatchObject({
      serviceType: 'SEA_PASSAGE',
      eventType: 'CMPL',
    });
    expect(fromS211('Estimated', 'Arrival_Vessel_TrafficArea')).toBeNull();
  });
});
