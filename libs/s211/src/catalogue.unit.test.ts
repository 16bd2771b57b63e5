import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  isStateName,
  isTimeTypeName,
  STATE_NAMES,
  STATES,
  stateById,
  stateByName,
  stateGroupId,
  TIME_TYPE_NAMES,
  TIME_TYPES,
  TIMESTAMP_DEFINITIONS,
  timeTypeById,
  timeTypeByName,
} from './index.ts';

describe('S-211 states', () => {
  it('has 268 states with ids 1..268 in order and unique names', () => {
    expect(STATES).toHaveLength(268);
    expect(STATES.map((s) => s.id)).toEqual(Array.from({ length: 268 }, (_, i) => i + 1));
    expect(new Set(STATE_NAMES).size).toBe(268);
  });

  it('numbers Location 1–76, Service 77–128, Administration 129–268', () => {
    const ids = (group: string) => STATES.filter((s) => s.group === group).map((s) => s.id);
    expect(ids('Location')).toEqual(Array.from({ length: 76 }, (_, i) => i + 1));
    expect(ids('Service')).toEqual(Array.from({ length: 52 }, (_, i) => i + 77));
    expect(ids('Administration')).toEqual(Array.from({ length: 140 }, (_, i) => i + 129));
    expect(stateGroupId('Location')).toBe(1);
    expect(stateGroupId('Service')).toBe(2);
    expect(stateGroupId('Administration')).toBe(3);
  });

  it.each([
    ['Arrival_Agent_Berth', 1],
    ['Departure_Vessel_Berth', 14],
    ['Arrival_Vessel_PortArea', 55],
    ['Departure_Tug_LOC', 76],
    ['Anchoring_Commenced', 77],
    ['CargoOp_Commenced', 87],
    ['CargoOp_Completed', 88],
    ['Pilotage_Commenced', 105],
    ['Pilotage_Completed', 106],
    ['DepartureAnchoringOp_Completed', 128],
    ['AnchoringOp_Requested', 129],
    ['Pilotage_Requested', 199],
    ['Pilotage_ReqReceived', 200],
    ['Pilotage_Confirmed', 201],
    ['VTSAreaDepart_Confirmed', 249],
    ['PortVisit_Cancelled', 268],
  ])('%s has id %i', (name, id) => {
    expect(stateByName(name)?.id).toBe(id);
    expect(stateById(id)?.name).toBe(name);
  });

  it('carries name, label, description and the group attributes', () => {
    expect(stateByName('Pilotage_Commenced')).toEqual({
      id: 105,
      name: 'Pilotage_Commenced',
      label: 'Pilotage Commenced',
      description: 'Pilotage Commenced',
      group: 'Service',
      timeSequence: 'COMMENCED',
      serviceType: 'NAUTICAL',
      serviceObject: 'PILOTAGE',
      critical: true,
    });
    const berth = stateByName('Departure_Vessel_Berth')!;
    expect(berth).toMatchObject({ group: 'Location', timeSequence: 'DEPARTURE_FROM', referenceObject: 'VESSEL' });
    expect(berth.locationType).toBe('BERTH');
    expect(stateByName('Pilotage_Requested')).toMatchObject({ group: 'Administration', timeSequence: 'REQUESTED' });
    for (const s of STATES) expect(s.description.length).toBeGreaterThan(0);
  });

  it('looks names up exactly and case-sensitively', () => {
    expect(stateByName('pilotage_commenced')).toBeUndefined();
    expect(stateByName('Pilotage_Reguested')).toBeUndefined();
    expect(stateByName('constructor')).toBeUndefined();
    expect(stateById(0)).toBeUndefined();
    expect(stateById(269)).toBeUndefined();
    expect(isStateName('Arrival_Vessel_Berth')).toBe(true);
    expect(isStateName(55)).toBe(false);
  });

  it('matches the XML it was generated from (regenerate with scripts/generate.ts)', () => {
    const xml = readFileSync(new URL('../data/IALA-211_State_Catalogue.xml', import.meta.url), 'utf8');
    const ids = [...xml.matchAll(/<StateId>([^<]+)<\/StateId>/g)].map((m) => m[1]);
    expect([...ids].sort()).toEqual([...STATE_NAMES].sort());
  });
});

describe('time types', () => {
  it('are the five of the original with ids 1–5', () => {
    expect(TIME_TYPES).toEqual([
      { id: 1, name: 'Planned' },
      { id: 2, name: 'Estimated' },
      { id: 3, name: 'Actual' },
      { id: 4, name: 'Recommended' },
      { id: 5, name: 'Required' },
    ]);
    expect(TIME_TYPE_NAMES.join(', ')).toBe('Planned, Estimated, Actual, Recommended, Required');
    expect(timeTypeByName('Actual')?.id).toBe(3);
    expect(timeTypeById(5)?.name).toBe('Required');
    expect(timeTypeByName('actual')).toBeUndefined();
    expect(timeTypeByName('LiveEstimated')).toBeUndefined();
    expect(isTimeTypeName('Recommended')).toBe(true);
    expect(isTimeTypeName('toString')).toBe(false);
  });
});

describe('timestamp definitions', () => {
  it('are the 18 the original actually created, ids 1–18', () => {
    expect(TIMESTAMP_DEFINITIONS).toHaveLength(18);
    expect(TIMESTAMP_DEFINITIONS.map((d) => d.id)).toEqual(Array.from({ length: 18 }, (_, i) => i + 1));
    expect(TIMESTAMP_DEFINITIONS[0]).toEqual({
      id: 1,
      name: 'Estimated Arrival Vessel TrafficArea',
      time_type: 'Estimated',
      time_type_id: 2,
      state: 'Arrival_Vessel_TrafficArea',
      state_id: 53,
    });
    expect(TIMESTAMP_DEFINITIONS[4]).toMatchObject({ id: 5, name: 'Estimated Pilotage Confirmed', state_id: 201 });
    expect(TIMESTAMP_DEFINITIONS[12]).toMatchObject({
      name: 'Actual CargoOp Commenced',
      time_type_id: 3,
      state_id: 87,
    });
    expect(TIMESTAMP_DEFINITIONS[17]).toMatchObject({ id: 18, name: 'Actual Departure Vessel PortArea', state_id: 56 });
    const pairs = new Set(TIMESTAMP_DEFINITIONS.map((d) => `${d.time_type_id}/${d.state_id}`));
    expect(pairs.size).toBe(18);
  });
});
