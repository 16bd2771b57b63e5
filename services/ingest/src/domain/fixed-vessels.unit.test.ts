import { describe, expect, it } from 'vitest';
import {
  decideAddFixedVessel,
  decideChangeFixedVessel,
  decideRemoveFixedVessel,
  type FixedVesselContext,
  FixedVesselRefused,
  phpSerializeMmsiImoMap,
  readFixedVessel,
} from './fixed-vessels.ts';

const free: FixedVesselContext = { current: null, imoTakenBy: null, mmsiTakenBy: null, imoIsKnownVessel: true };
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (error) {
    if (error instanceof FixedVesselRefused) return error.message;
    throw error;
  }
  return undefined;
};

describe('a fixed vessel', () => {
  it("is read with the original's checks and messages", () => {
    expect(readFixedVessel({ vesselType: 37, vesselName: ' Tug One ', mmsi: 230000001 })).toEqual({
      imo: null,
      mmsi: 230000001,
      vessel_type: 37,
      vessel_name: 'Tug One',
    });
    expect(readFixedVessel({ vesselType: 41, vesselName: 'Pilot', imo: '9074729', mmsi: null })).toMatchObject({
      imo: 9074729,
      mmsi: null,
    });
    expect(refusal(() => readFixedVessel({ vesselType: 99, vesselName: 'X', mmsi: 1 }))).toBe(
      'Invalid vessel properties',
    );
    expect(refusal(() => readFixedVessel({ vesselType: 37, vesselName: ' ', mmsi: 1 }))).toBe(
      'Invalid vessel properties',
    );
    expect(refusal(() => readFixedVessel({ vesselType: 37, vesselName: 'X', mmsi: 'abc' }))).toBe(
      'Invalid vessel properties',
    );
    expect(refusal(() => readFixedVessel({ vesselType: 37, vesselName: 'X', imo: null, mmsi: 0 }))).toBe(
      'IMO and MMSI missing',
    );
  });

  it('is added unless its IMO is unknown or its IMO or MMSI belongs to another one', () => {
    const vessel = { imo: 9074729, mmsi: 230000001, vessel_type: 37, vessel_name: 'Tug' };
    expect(decideAddFixedVessel(7, vessel, free)).toEqual([{ type: 'FixedVesselAdded', data: { id: 7, ...vessel } }]);
    expect(refusal(() => decideAddFixedVessel(7, vessel, { ...free, imoIsKnownVessel: false }))).toBe('Invalid IMO');
    expect(refusal(() => decideAddFixedVessel(7, vessel, { ...free, imoTakenBy: 3 }))).toBe(
      'IMO belongs to another vessel',
    );
    expect(refusal(() => decideAddFixedVessel(7, vessel, { ...free, mmsiTakenBy: 3 }))).toBe(
      'MMSI belongs to another vessel',
    );
    // Known by MMSI only: no IMO to check.
    expect(decideAddFixedVessel(8, { ...vessel, imo: null }, { ...free, imoIsKnownVessel: false })).toHaveLength(1);
  });

  it('is changed when it exists and something changes; removed when it exists', () => {
    const current = { id: 7, imo: null, mmsi: 230000001, vessel_type: 37, vessel_name: 'Tug' };
    const { id: _, ...same } = current;
    expect(decideChangeFixedVessel(7, same, { ...free, current })).toEqual([]);
    expect(decideChangeFixedVessel(7, { ...same, vessel_name: 'Tug 2' }, { ...free, current })).toEqual([
      { type: 'FixedVesselChanged', data: { ...current, vessel_name: 'Tug 2' } },
    ]);
    expect(refusal(() => decideChangeFixedVessel(9, same, free))).toBe('Invalid fixed vessel ID: 9');
    expect(decideRemoveFixedVessel(7, current)).toEqual([{ type: 'FixedVesselRemoved', data: { id: 7 } }]);
    expect(refusal(() => decideRemoveFixedVessel(9, null))).toBe('Invalid fixed vessel ID: 9');
  });
});

describe("the AIS agents' MMSI→IMO map", () => {
  it("is PHP's serialize() of an integer-keyed array, MMSI-only vessels mapping to null", () => {
    expect(
      phpSerializeMmsiImoMap([
        { mmsi: 230000002, imo: 9074729 },
        { mmsi: null, imo: 9201827 },
        { mmsi: 230000001, imo: null },
      ]),
    ).toBe('a:2:{i:230000001;N;i:230000002;i:9074729;}');
    expect(phpSerializeMmsiImoMap([])).toBe('a:0:{}');
  });
});
