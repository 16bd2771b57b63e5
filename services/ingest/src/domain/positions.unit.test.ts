import { describe, expect, it } from 'vitest';
import { decidePositions, identitiesOf, newestPerVessel, type PositionLookups, positionsSignal } from './positions.ts';

const lookups: PositionLookups = {
  vessels: new Map([
    [9074729, 'Aurora'],
    [9201827, 'Bothnia'],
  ]),
  fixedByMmsi: new Map([
    [230000001, { imo: null, vessel_name: 'Tug One' }],
    [230000002, { imo: 9201827, vessel_name: 'Pilot Boat' }],
  ]),
  fixedByImo: new Map([[9201827, 'Pilot Boat']]),
  ongoingByMmsi: new Map([[265000001, 9074729]]),
};

const at = '2026-11-25T10:00:00+02:00';
const item = (over: Record<string, unknown> = {}) => ({
  imo: 9074729,
  latitude: 60.7,
  longitude: 17.3,
  headingDegrees: 90,
  speedKnots: 10.5,
  courseOverGroundDegrees: 91,
  locationTimestamp: at,
  ...over,
});
const reason = (over: Record<string, unknown>) => decidePositions([item(over)], lookups).reply.failed[0]?.reason;

describe('a position item', () => {
  it('by IMO of a known vessel: one event on position-imo-<imo>, the time in UTC, the vessel name', () => {
    const { events, reply } = decidePositions([item()], lookups);
    expect(reply).toEqual({ successful: [{ imo: 9074729, mmsi: null }], failed: [] });
    expect(events).toEqual([
      {
        streamId: 'position-imo-9074729',
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        type: 'VesselPositionRecorded',
        data: {
          imo: 9074729,
          mmsi: null,
          vessel_name: 'Aurora',
          latitude: 60.7,
          longitude: 17.3,
          heading_degrees: 90,
          speed_knots: 10.5,
          course_over_ground_degrees: 91,
          location_timestamp: '2026-11-25T08:00:00+00:00',
        },
      },
    ]);
  });

  it('by MMSI only: an ongoing port call gives the IMO; a fixed vessel its own IMO, or none (then the MMSI stream)', () => {
    const { events, reply } = decidePositions(
      [
        item({ imo: undefined, mmsi: 265000001 }),
        item({ imo: null, mmsi: '230000001' }),
        item({ imo: 0, mmsi: 230000002 }),
      ],
      lookups,
    );
    expect(reply.failed).toEqual([]);
    expect(events.map((e) => [e.streamId, e.data.imo, e.data.mmsi, e.data.vessel_name])).toEqual([
      ['position-imo-9074729', 9074729, 265000001, 'Aurora'],
      ['position-mmsi-230000001', null, 230000001, 'Tug One'],
      ['position-imo-9201827', 9201827, 230000002, 'Pilot Boat'],
    ]);
  });

  it('is refused with the original reasons, in its order', () => {
    expect(reason({ imo: undefined })).toBe('IMO and MMSI missing');
    expect(reason({ imo: 1234567 })).toBe('Invalid imo: 1234567');
    expect(reason({ imo: 'abc' })).toBe('Invalid imo: abc');
    expect(reason({ imo: undefined, mmsi: 999 })).toBe('MMSI can not be matched to fixed vessels');
    expect(reason({ latitude: undefined })).toBe('Mandatory coordinates missing');
    expect(reason({ longitude: 0 })).toBe('Mandatory coordinates missing');
    expect(reason({ latitude: 90.5 })).toBe('Invalid latitude: 90.5');
    expect(reason({ latitude: 'north' })).toBe('Invalid latitude: north');
    expect(reason({ longitude: -180.1 })).toBe('Invalid longitude: -180.1');
    expect(reason({ headingDegrees: 361 })).toBe('Invalid heading: 361');
    expect(reason({ courseOverGroundDegrees: -1 })).toBe('Invalid course over ground: -1');
    expect(reason({ speedKnots: 'fast' })).toBe('Invalid speed: fast');
    expect(reason({ locationTimestamp: '2026-11-25 10:00:00' })).toBe(
      'Given location timestamp not in ISO format: 2026-11-25 10:00:00',
    );
    expect(reason({ locationTimestamp: '2026-11-25T10:00:00' })).toBe(
      'Given location timestamp not in ISO format: 2026-11-25T10:00:00',
    );
    // An unknown IMO is named before bad coordinates.
    expect(reason({ imo: 1234567, latitude: 100 })).toBe('Invalid imo: 1234567');
    // Zero heading and course are "not given" (the original skipped their check).
    expect(reason({ headingDegrees: 0, courseOverGroundDegrees: 0 })).toBeUndefined();
  });

  it('answers every item: the failed with their IMO and MMSI as given and the reason', () => {
    const { events, reply } = decidePositions([item(), item({ imo: 1234567, mmsi: 42 }), 'text'], lookups);
    expect(events).toHaveLength(1);
    expect(reply.failed).toEqual([
      { imo: 1234567, mmsi: 42, reason: 'Invalid imo: 1234567' },
      { imo: null, mmsi: null, reason: 'IMO and MMSI missing' },
    ]);
  });
});

describe('ids and order', () => {
  it('the same position again has the same id; another time or vessel another', () => {
    const id = (over: Record<string, unknown>) => decidePositions([item(over)], lookups).events[0].id;
    expect(id({ locationTimestamp: '2026-11-25T08:00:00Z', latitude: 61 })).toBe(id({}));
    expect(id({ locationTimestamp: '2026-11-25T08:00:01Z' })).not.toBe(id({}));
    expect(id({ imo: 9201827 })).not.toBe(id({}));
  });

  it('the newest position per vessel, in stream order; the batch signal derives from its events', () => {
    const { events } = decidePositions(
      [
        item({ locationTimestamp: '2026-11-25T08:00:05Z' }),
        item({ imo: 9201827 }),
        item({ locationTimestamp: '2026-11-25T08:00:09Z', latitude: 61 }),
        item({ locationTimestamp: '2026-11-25T08:00:01Z' }),
      ],
      lookups,
    );
    expect(newestPerVessel(events).map((e) => [e.streamId, e.data.location_timestamp])).toEqual([
      ['position-imo-9074729', '2026-11-25T08:00:09+00:00'],
      ['position-imo-9201827', '2026-11-25T08:00:00+00:00'],
    ]);
    expect(positionsSignal(events)).toEqual(positionsSignal(events));
    expect(positionsSignal(events).data).toEqual({ count: 4 });
    expect(positionsSignal(events.slice(1)).id).not.toBe(positionsSignal(events).id);
    // Batches spread over the signal streams, each batch's always the same one.
    expect(positionsSignal(events).streamId).toMatch(/^seachart-batches-([0-9]|1[0-5])$/);
    const streams = new Set(
      Array.from(
        { length: 64 },
        (_, i) => positionsSignal(events.slice(i % 4, 1 + (i % 4)).map((e) => ({ ...e, id: `${e.id}-${i}` }))).streamId,
      ),
    );
    expect(streams.size).toBeGreaterThan(8);
  });

  it('collects the identities to look up', () => {
    expect(identitiesOf([item(), item({ imo: '9201827', mmsi: 5 }), null, item({ imo: 'x' })])).toEqual({
      imos: [9074729, 9201827],
      mmsis: [5],
    });
  });
});
