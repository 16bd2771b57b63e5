import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildRtz, parseRtz, RTZ_NAMESPACE_1_0, RTZ_NAMESPACE_1_1, withRta } from './rtz.ts';
import { refusal } from './testing/refusal.ts';
import type { RtzRoute } from './types.ts';

const sample = (name: string) => readFileSync(new URL(`../test-data/${name}.rtz`, import.meta.url), 'utf8');
const GAVLE = sample('gavle-rauma');
const LANDSKRONA = sample('landskrona-rauma-prefixed');
const PORI = sample('pori-rauma-no-schedule');

describe('parseRtz', () => {
  it('reads an RTZ 1.1 route with the STM extension, both schedules and leg geometry', () => {
    const route = parseRtz(GAVLE);
    expect(route).toMatchObject({
      version: '1.1',
      namespace: RTZ_NAMESPACE_1_1,
      routeName: 'SEGVX-FIRAU 42',
      routeAuthor: 'Master',
      routeStatus: 'Used for monitoring',
      vesselName: 'BOTNIA CARRIER',
      vesselImo: 9876543,
      vesselMmsi: 230999001,
      vesselVoyage: 'urn:mrn:stm:voyage:id:test:gvx-rau-42',
      routeStatusEnum: 7,
    });
    expect(route.waypoints).toHaveLength(7);
    expect(route.waypoints[0]).toEqual({
      id: 1,
      name: 'Gävle berth 14',
      lat: 60.684,
      lon: 17.21,
      geometryType: 'Loxodrome',
    });
    // Its own leg, else the defaultWaypoint's.
    expect(route.waypoints.map((w) => w.geometryType)).toEqual([
      'Loxodrome',
      'Loxodrome',
      'Orthodrome',
      'Orthodrome',
      'Loxodrome',
      'Loxodrome',
      'Loxodrome',
    ]);
    expect(route.waypoints[4]).toMatchObject({ id: 5, name: 'Rauma pilot boarding', radius: 0.3 });
    expect(route.schedules).toHaveLength(1);
    const [schedule] = route.schedules;
    expect(schedule.id).toBe(1);
    expect(schedule.name).toBe('Voyage schedule');
    expect(schedule.manual).toEqual([
      { waypointId: 1, etd: '2026-11-27T06:00:00Z' },
      { waypointId: 2, speed: 12 },
      { waypointId: 3, speed: 13.5 },
    ]);
    expect(schedule.calculated).toHaveLength(7);
    expect(schedule.calculated?.[1]).toEqual({ waypointId: 2, eta: '2026-11-27T07:05:12.5Z', speed: 12 });
  });

  it('reads a route whose RTZ namespace is prefixed', () => {
    const route = parseRtz(LANDSKRONA);
    expect(route.namespace).toBe(RTZ_NAMESPACE_1_1);
    expect(route.routeName).toBe('SELAA-FIRAU');
    expect(route.vesselName).toBe('ÖRESUND TRADER');
    expect(route.routeStatusEnum).toBe(7);
    expect(route.waypoints.map((w) => w.id)).toEqual([10, 11, 12, 13, 14, 15]);
    expect(route.schedules[0].manual).toBeUndefined();
    expect(route.schedules[0].calculated).toHaveLength(6);
  });

  it('reads an RTZ 1.0 route without schedules; an odd vessel IMO is left out, not refused', () => {
    const route = parseRtz(PORI);
    expect(route.version).toBe('1.0');
    expect(route.namespace).toBe(RTZ_NAMESPACE_1_0);
    expect(route.vesselImo).toBeUndefined();
    expect(route.schedules).toEqual([]);
    expect(route.waypoints).toHaveLength(4);
    // No defaultWaypoint and no leg: RTZ's default geometry.
    expect(route.waypoints.every((w) => w.geometryType === 'Loxodrome')).toBe(true);
  });

  it('reads a route without a name as an empty name', () => {
    expect(parseRtz(PORI.replace(' routeName="FIPOR-FIRAU inshore"', '')).routeName).toBe('');
  });

  it.each([
    [
      'not well-formed',
      '<route xmlns="http://www.cirm.org/RTZ/1/1"><waypoints></route>',
      /RTZ route XML is not well-formed XML/,
    ],
    ['empty', '', /RTZ route XML is empty/],
    [
      'a text message',
      '<textMessage xmlns="http://stmvalidation.eu/schemas/textMessageSchema_1_3.xsd"/>',
      /root element route, not textMessage/,
    ],
    [
      'a route of another namespace',
      '<route xmlns="urn:other" version="1.1"/>',
      /root element route, not route \(urn:other\)/,
    ],
    [
      'without waypoints',
      '<route xmlns="http://www.cirm.org/RTZ/1/1" version="1.1"><routeInfo routeName="x"/></route>',
      /has no waypoints/,
    ],
  ])('refuses XML that is %s', (_, xml, message) => {
    expect(refusal(() => parseRtz(xml)).message).toMatch(message);
  });

  it.each([
    [
      'a waypoint without position',
      ['<position lat="61.1185" lon="21.167"/>', ''],
      'RTZ route XML waypoint 5 has no position',
    ],
    [
      'a latitude that is not a number',
      ['lat="61.1185"', 'lat="61,1185"'],
      'RTZ route XML waypoint 5 lat is not a number: 61,1185',
    ],
    [
      'a longitude out of range',
      ['lon="21.167"', 'lon="201.167"'],
      'RTZ route XML waypoint 5 lon is out of range: 201.167',
    ],
    [
      'a waypoint id that is not whole',
      ['<waypoint id="5"', '<waypoint id="5.5"'],
      'RTZ route XML waypoint id is not a whole number: 5.5',
    ],
    ['a waypoint id twice', ['<waypoint id="5"', '<waypoint id="4"'], 'RTZ route XML has waypoint id 4 more than once'],
    ['a schedule without id', ['<schedule id="1"', '<schedule'], 'RTZ route XML schedule id is not a number: '],
    [
      'an ETA that is not a time',
      ['eta="2026-11-27T17:12:41Z"', 'eta="soon"'],
      'RTZ route XML schedule 1 eta of waypoint 4 is not a valid date and time: soon',
    ],
  ])('refuses a route with %s', (_, [from, to], message) => {
    const xml = GAVLE.replace(from, to);
    expect(xml).not.toBe(GAVLE);
    expect(refusal(() => parseRtz(xml)).message).toBe(message);
  });
});

describe('buildRtz', () => {
  it.each([
    ['gavle-rauma', GAVLE],
    ['landskrona-rauma-prefixed', LANDSKRONA],
    ['pori-rauma-no-schedule', PORI],
  ])('round-trips %s', (_, xml) => {
    const route = parseRtz(xml);
    expect(parseRtz(buildRtz(route))).toEqual(route);
  });

  it('writes a route in the default RTZ namespace with the STM extension', () => {
    const route: RtzRoute = {
      version: '1.1',
      namespace: RTZ_NAMESPACE_1_1,
      routeName: 'A & B <test>',
      vesselImo: 1234567,
      routeStatusEnum: 7,
      waypoints: [
        { id: 1, lat: 60, lon: 20, geometryType: 'Loxodrome' },
        { id: 2, name: 'Two', radius: 0.5, lat: 60.5, lon: 21, geometryType: 'Orthodrome' },
      ],
      schedules: [{ id: 1, manual: [], calculated: [{ waypointId: 2, eta: '2026-11-27T10:00:00Z', speed: 10 }] }],
    };
    const xml = buildRtz(route);
    expect(xml).toContain('<route xmlns="http://www.cirm.org/RTZ/1/1" xmlns:xsi=');
    expect(xml).toContain('routeName="A &amp; B &lt;test&gt;"');
    expect(xml).toContain('xsi:type="stm:RouteInfoExtension"');
    expect(parseRtz(xml)).toEqual(route);
  });
});

describe('withRta', () => {
  it('writes the RTA and its window at the sync waypoint as a manual schedule element, keeping the rest', () => {
    const { xml, waypointId } = withRta(GAVLE, {
      rta: '2026-11-27T21:00:00+02:00',
      etaMin: '2026-11-27T18:45:00Z',
      etaMax: '2026-11-27T19:30:00Z',
      target: { waypointId: 5 },
      scheduleName: 'Port schedule',
      routeAuthor: 'Port of Rauma',
    });
    expect(waypointId).toBe(5);
    const before = parseRtz(GAVLE);
    const after = parseRtz(xml);
    expect(after.waypoints).toEqual(before.waypoints);
    expect(after).toMatchObject({ routeName: before.routeName, routeAuthor: 'Port of Rauma', routeStatusEnum: 3 });
    expect(after.schedules).toEqual([
      {
        id: 1,
        name: 'Port schedule',
        // Speeds before the RTA waypoint go (elements left with nothing go too); the calculated part goes.
        manual: [
          { waypointId: 1, etd: '2026-11-27T06:00:00Z' },
          { waypointId: 5, eta: '2026-11-27T19:00:00Z', etaWindowBefore: 'PT15M', etaWindowAfter: 'PT30M' },
        ],
      },
    ]);
    // What this library does not model is kept as it was.
    expect(xml).toContain('<!-- Test route written for this repository');
    expect(xml).toContain('routeVersion="3"');
    expect(xml).toContain('<leg starboardXTD="0.1" portsideXTD="0.1" geometryType="Loxodrome"/>');
    expect(xml).toContain(
      '\n        <scheduleElement waypointId="5" eta="2026-11-27T19:00:00Z" etaWindowBefore="PT15M" etaWindowAfter="PT30M"/>\n      </manual>',
    );
  });

  it('replaces an earlier RTA at the same waypoint', () => {
    const first = withRta(GAVLE, { rta: '2026-11-27T19:00:00Z', target: { waypointId: 5 } }).xml;
    const second = withRta(first, {
      rta: '2026-11-27T19:20:00Z',
      etaMax: '2026-11-27T20:20:00Z',
      target: { waypointId: 5 },
    });
    const manual = parseRtz(second.xml).schedules[0].manual!;
    expect(manual.filter((e) => e.waypointId === 5)).toEqual([
      { waypointId: 5, eta: '2026-11-27T19:20:00Z', etaWindowAfter: 'PT1H' },
    ]);
  });

  it('adds a waypoint on the leg when the route has none near the sync point, in the document prefix', () => {
    const { xml, waypointId } = withRta(LANDSKRONA, {
      rta: '2026-11-28T03:00:00Z',
      etaMin: '2026-11-28T02:30:00Z',
      target: { legEndWaypointId: 14, lat: 61.1163499, lon: 21.1695731, name: 'Rauma sync point' },
    });
    expect(waypointId).toBe(16);
    const route = parseRtz(xml);
    expect(route.waypoints.map((w) => w.id)).toEqual([10, 11, 12, 13, 16, 14, 15]);
    expect(route.waypoints[4]).toEqual({
      id: 16,
      name: 'Rauma sync point',
      lat: 61.1163499,
      lon: 21.1695731,
      geometryType: 'Orthodrome',
    });
    expect(xml).toContain('<rtz:waypoint id="16" name="Rauma sync point"><rtz:position');
    expect(route.schedules[0]).toEqual({
      id: 1,
      manual: [{ waypointId: 16, eta: '2026-11-28T03:00:00Z', etaWindowBefore: 'PT30M' }],
    });
  });

  it('creates the schedule of a route that had none', () => {
    const { xml } = withRta(PORI, { rta: '2026-11-28T03:00:00Z', target: { waypointId: 3 } });
    expect(parseRtz(xml).schedules).toEqual([{ id: 1, manual: [{ waypointId: 3, eta: '2026-11-28T03:00:00Z' }] }]);
  });

  it('keeps the manual elements after the RTA waypoint and their speeds, inserting in route order', () => {
    const xml = GAVLE.replace(
      '<scheduleElement waypointId="3" speed="13.5"/>',
      '<scheduleElement waypointId="3" speed="13.5"/>\n        <scheduleElement waypointId="6" speed="8"/>',
    );
    const manual = parseRtz(withRta(xml, { rta: '2026-11-27T19:00:00Z', target: { waypointId: 5 } }).xml).schedules[0]
      .manual;
    expect(manual?.map((e) => e.waypointId)).toEqual([1, 5, 6]);
    expect(manual?.[2]).toEqual({ waypointId: 6, speed: 8 });
  });

  it.each([
    [
      'an unknown waypoint',
      { rta: '2026-11-27T19:00:00Z', target: { waypointId: 99 } },
      'RTZ route XML has no waypoint 99',
    ],
    [
      'a leg that does not exist',
      { rta: '2026-11-27T19:00:00Z', target: { legEndWaypointId: 1, lat: 60, lon: 17, name: 'x' } },
      'RTZ route XML has no leg ending at waypoint 1',
    ],
    [
      'an RTA that is not a time',
      { rta: 'tonight', target: { waypointId: 5 } },
      'RTA is not a valid date and time: tonight',
    ],
    [
      'a window starting after the RTA',
      { rta: '2026-11-27T19:00:00Z', etaMin: '2026-11-27T19:10:00Z', target: { waypointId: 5 } },
      'ETA min must not be after the RTA',
    ],
    [
      'a window ending before the RTA',
      { rta: '2026-11-27T19:00:00Z', etaMax: '2026-11-27T18:10:00Z', target: { waypointId: 5 } },
      'ETA max must not be before the RTA',
    ],
  ])('refuses %s', (_, input, message) => {
    expect(refusal(() => withRta(GAVLE, input)).message).toBe(message);
  });

  it('refuses a received document that is not an RTZ route', () => {
    expect(
      refusal(() => withRta('<route>', { rta: '2026-11-27T19:00:00Z', target: { waypointId: 1 } })).message,
    ).toMatch(/not well-formed/);
  });
});
