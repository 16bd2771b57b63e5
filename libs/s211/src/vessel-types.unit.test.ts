import { describe, expect, it } from 'vitest';
import {
  isVesselTypeId,
  MARKER_TYPES,
  markerClassOf,
  UNKNOWN_VESSEL_TYPE,
  VESSEL_TYPES,
  vesselMarkerClass,
  vesselTypeById,
} from './index.ts';

describe('vessel types', () => {
  it('has the 73 types, ids 1..73 in order, names unique', () => {
    expect(VESSEL_TYPES).toHaveLength(73);
    expect(VESSEL_TYPES.map((t) => t.id)).toEqual(Array.from({ length: 73 }, (_, i) => i + 1));
    expect(new Set(VESSEL_TYPES.map((t) => t.name)).size).toBe(73);
  });

  it('pins a few rows as the original numbered them', () => {
    expect(vesselTypeById(UNKNOWN_VESSEL_TYPE)).toEqual({
      id: 1,
      name: 'Unknown Vessel Type',
      sea_chart_marker_type_id: 1,
    });
    expect(vesselTypeById(2)).toEqual({ id: 2, name: 'General Cargo', sea_chart_marker_type_id: 5 });
    expect(vesselTypeById(17)).toEqual({ id: 17, name: 'Tanker', sea_chart_marker_type_id: 8 });
    expect(vesselTypeById(36)).toEqual({ id: 36, name: 'High Speed Craft', sea_chart_marker_type_id: 10 });
    expect(vesselTypeById(41)).toEqual({ id: 41, name: 'Pilot Boat', sea_chart_marker_type_id: 3 });
    expect(vesselTypeById(57)?.name).toBe('Search & Rescue');
    expect(vesselTypeById(65)?.name).toBe('Other Tug / Special Craft');
    expect(vesselTypeById(73)).toEqual({ id: 73, name: 'Other Pleasure Craft', sea_chart_marker_type_id: 4 });
    expect(vesselTypeById(74)).toBeUndefined();
  });

  it('colours each group with its marker', () => {
    const classes = (from: number, to: number) =>
      new Set(VESSEL_TYPES.filter((t) => t.id >= from && t.id <= to).map((t) => vesselMarkerClass(t.id)));
    expect(classes(1, 1)).toEqual(new Set(['vessel_gray']));
    expect(classes(2, 16)).toEqual(new Set(['vessel_green']));
    expect(classes(17, 29)).toEqual(new Set(['vessel_red']));
    expect(classes(30, 35)).toEqual(new Set(['vessel_blue']));
    expect(classes(36, 36)).toEqual(new Set(['vessel_yellow']));
    expect(classes(37, 65)).toEqual(new Set(['vessel_cyan']));
    expect(classes(66, 70)).toEqual(new Set(['vessel_orange']));
    expect(classes(71, 73)).toEqual(new Set(['vessel_purple']));
  });

  it('has the ten marker types; an unknown id or type draws gray', () => {
    expect(MARKER_TYPES.map((m) => `${m.id} ${m.name}`)).toEqual([
      '1 vessel_gray',
      '2 vessel_blue',
      '3 vessel_cyan',
      '4 vessel_purple',
      '5 vessel_green',
      '6 vessel_black',
      '7 vessel_white',
      '8 vessel_red',
      '9 vessel_orange',
      '10 vessel_yellow',
    ]);
    expect(markerClassOf(99)).toBe('vessel_gray');
    expect(vesselMarkerClass(0)).toBe('vessel_gray');
  });

  it('knows its ids and nothing else', () => {
    expect([1, 73].every(isVesselTypeId)).toBe(true);
    expect([0, 74, 1.5, '3', null].some(isVesselTypeId)).toBe(false);
  });
});
