import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { distanceMeters, EARTH_RADIUS_METERS, nearestPointOnLeg } from './geo.ts';
import { parseRtz } from './rtz.ts';
import { assessRoute, isRtzStateName, RTZ_STATES, rtaTarget } from './sync-point.ts';
import type { RtzRoute, SyncPoint } from './types.ts';

const sample = (name: string) => parseRtz(readFileSync(new URL(`../test-data/${name}.rtz`, import.meta.url), 'utf8'));
// Rauma's VIS synchronisation and pilot boarding point, radius one nautical mile in metres.
const RAUMA: SyncPoint = { lat: 61.11806, lon: 21.16778, radiusMeters: 1852 };
const METRES_PER_DEGREE = (EARTH_RADIUS_METERS * Math.PI) / 180;

/** An RTZ 1.1 route of loxodrome legs through `points` ([lat, lon], waypoint ids from 1), with one schedule. */
const loxodromeRoute = (
  routeName: string,
  points: [number, number][],
  calculated: { waypointId: number; eta: string }[],
): RtzRoute => ({
  version: '1.1',
  namespace: '',
  routeName,
  waypoints: points.map(([lat, lon], i) => ({ id: i + 1, lat, lon, geometryType: 'Loxodrome' })),
  schedules: [{ id: 1, calculated }],
});

describe('great-circle geometry', () => {
  it('measures a degree of latitude and is symmetric', () => {
    expect(distanceMeters({ lat: 60, lon: 20 }, { lat: 61, lon: 20 })).toBeCloseTo(METRES_PER_DEGREE, 3);
    const a = { lat: 61.11806, lon: 21.16778 };
    const b = { lat: 60.684, lon: 17.21 };
    expect(distanceMeters(a, b)).toBeCloseTo(distanceMeters(b, a), 6);
    expect(distanceMeters(a, a)).toBe(0);
  });

  it.each(['Orthodrome', 'Loxodrome'] as const)('finds the nearest point of an equator leg (%s)', (geometry) => {
    const { point, distanceMeters: d } = nearestPointOnLeg(
      { lat: 0, lon: 0 },
      { lat: 0, lon: 10 },
      { lat: 1, lon: 4 },
      geometry,
    );
    expect(point.lat).toBeCloseTo(0, 6);
    expect(point.lon).toBeCloseTo(4, 6);
    expect(d).toBeCloseTo(METRES_PER_DEGREE, 0);
  });

  it.each(['Orthodrome', 'Loxodrome'] as const)('takes the end of the leg for a point beyond it (%s)', (geometry) => {
    const { point } = nearestPointOnLeg({ lat: 60, lon: 20 }, { lat: 60, lon: 21 }, { lat: 60, lon: 21.5 }, geometry);
    expect(point.lat).toBeCloseTo(60, 6);
    expect(point.lon).toBeCloseTo(21, 6);
  });

  it('follows a great circle north of the parallel (its vertex) and a rhumb line along it', () => {
    // Between two points on 60° N the great circle bulges north; the rhumb line keeps to 60°.
    const start = { lat: 60, lon: 10 };
    const end = { lat: 60, lon: 30 };
    const above = { lat: 61, lon: 20 };
    const great = nearestPointOnLeg(start, end, above, 'Orthodrome');
    const rhumb = nearestPointOnLeg(start, end, above, 'Loxodrome');
    expect(great.point.lat).toBeCloseTo(60.378, 2);
    expect(great.point.lon).toBeCloseTo(20, 6);
    expect(rhumb.point.lat).toBeCloseTo(60, 6);
    expect(rhumb.point.lon).toBeCloseTo(20, 3);
    expect(great.distanceMeters).toBeLessThan(rhumb.distanceMeters);
  });

  it.each([
    [179, -179],
    [-179, 179],
  ])('crosses the antimeridian the short way (%s to %s)', (from, to) => {
    const { point, distanceMeters: d } = nearestPointOnLeg(
      { lat: 10, lon: from },
      { lat: 10, lon: to },
      { lat: 10, lon: 180 },
      'Loxodrome',
    );
    expect(Math.abs(point.lon)).toBeCloseTo(180, 4);
    expect(d).toBeLessThan(50);
  });
});

describe('assessRoute', () => {
  it('finds the sync waypoint and its calculated ETA, in UTC', () => {
    expect(assessRoute(sample('gavle-rauma'), RAUMA)).toEqual({
      state: 'SYNC_WITH_ETA_FOUND',
      parseResults: {
        route_name: 'SEGVX-FIRAU 42',
        vessel_imo: 9876543,
        vessel_name: 'BOTNIA CARRIER',
        waypointId: 5,
        distance_m: 64.4,
        eta: '2026-11-27T18:48:30+00:00',
      },
    });
  });

  it('knows a sync waypoint the calculated schedule gives no ETA', () => {
    const route = sample('gavle-rauma');
    const calculated = route.schedules[0].calculated!;
    delete calculated.find((e) => e.waypointId === 5)!.eta;
    const { state, parseResults } = assessRoute(route, RAUMA);
    expect(state).toBe('SYNC_WITHOUT_ETA_FOUND');
    expect(parseResults.waypointId).toBe(5);
    expect(parseResults.eta).toBeUndefined();
  });

  it('takes the ETA from the calculated schedule only, not the manual one', () => {
    const route = sample('gavle-rauma');
    route.schedules[0].manual!.push({ waypointId: 5, eta: '2026-11-27T10:00:00Z' });
    route.schedules[0].calculated = route.schedules[0].calculated!.filter((e) => e.waypointId !== 5);
    expect(assessRoute(route, RAUMA).state).toBe('SYNC_WITHOUT_ETA_FOUND');
  });

  it('needs a calculated schedule first', () => {
    expect(assessRoute(sample('pori-rauma-no-schedule'), RAUMA)).toEqual({
      state: 'CALCULATED_SCHEDULE_NOT_FOUND',
      parseResults: { route_name: 'FIPOR-FIRAU inshore', vessel_name: 'KALLA' },
    });
    const manualOnly = sample('gavle-rauma');
    delete manualOnly.schedules[0].calculated;
    expect(assessRoute(manualOnly, RAUMA).state).toBe('CALCULATED_SCHEDULE_NOT_FOUND');
    const unnamed = { ...manualOnly, routeName: '' };
    expect(assessRoute(unnamed, RAUMA).parseResults.route_name).toBe('UNKNOWN');
  });

  it('finds where a waypoint can be added on a leg passing within the radius', () => {
    const route = sample('landskrona-rauma-prefixed');
    const { state, parseResults } = assessRoute(route, RAUMA);
    expect(state).toBe('SYNC_NOT_FOUND_CAN_BE_ADDED');
    expect(parseResults).toMatchObject({ route_name: 'SELAA-FIRAU', legEndWaypointId: 14 });
    expect(parseResults.eta).toBeUndefined();
    const point = { lat: parseResults.lat!, lon: parseResults.lon! };
    // No waypoint is within the radius, the point found is, and it is the nearest of the leg 13 → 14.
    for (const w of route.waypoints) expect(distanceMeters(w, RAUMA)).toBeGreaterThan(RAUMA.radiusMeters);
    expect(distanceMeters(point, RAUMA)).toBeCloseTo(parseResults.distance_m!, 0);
    expect(parseResults.distance_m!).toBeLessThan(RAUMA.radiusMeters);
    const [from, to] = [route.waypoints[3], route.waypoints[4]];
    let nearestSampled = Number.POSITIVE_INFINITY;
    for (let i = 0; i <= 2000; i++) {
      // Along the great circle (slerp of the unit vectors), the leg's geometry.
      nearestSampled = Math.min(nearestSampled, distanceMeters(slerp(from, to, i / 2000), RAUMA));
    }
    expect(parseResults.distance_m!).toBeLessThanOrEqual(nearestSampled + 0.1);
    expect(parseResults.distance_m!).toBeGreaterThan(nearestSampled - 5);
  });

  it('gives up when no leg passes within the radius', () => {
    const route = sample('pori-rauma-no-schedule');
    route.schedules = [{ id: 1, calculated: [{ waypointId: 3, eta: '2026-11-28T01:00:00Z' }] }];
    expect(assessRoute(route, RAUMA)).toEqual({
      state: 'SYNC_NOT_FOUND_CAN_NOT_BE_ADDED',
      parseResults: { route_name: 'FIPOR-FIRAU inshore', vessel_name: 'KALLA' },
    });
  });

  describe('at the edge of the radius', () => {
    // A leg along 60° N ending 0.02° west of the sync point: the end waypoint is the nearest point of the route.
    const route = loxodromeRoute(
      'edge',
      [
        [60, 20],
        [60, 21],
      ],
      [{ waypointId: 2, eta: '2026-11-27T10:00:00Z' }],
    );
    const sync = { lat: 60, lon: 21.02 };
    const exact = distanceMeters(route.waypoints[1], sync);

    it('counts a waypoint exactly at the radius as within it', () => {
      expect(assessRoute(route, { ...sync, radiusMeters: exact }).state).toBe('SYNC_WITH_ETA_FOUND');
    });

    it('does not count one a centimetre outside', () => {
      expect(assessRoute(route, { ...sync, radiusMeters: exact - 0.01 }).state).toBe('SYNC_NOT_FOUND_CAN_NOT_BE_ADDED');
    });
  });

  it('takes the nearest of several waypoints within the radius', () => {
    const route = loxodromeRoute(
      'two near',
      [
        [61.11, 21.16],
        [61.118, 21.1677],
        [61.125, 21.2],
      ],
      [
        { waypointId: 1, eta: '2026-11-27T09:00:00Z' },
        { waypointId: 2, eta: '2026-11-27T09:05:00Z' },
      ],
    );
    expect(assessRoute(route, RAUMA).parseResults).toMatchObject({ waypointId: 2, eta: '2026-11-27T09:05:00+00:00' });
  });
});

describe('states and RTA targets', () => {
  it('has the six states with the original ids', () => {
    expect(RTZ_STATES.map((s) => `${s.id} ${s.name}`)).toEqual([
      '1 CALCULATED_SCHEDULE_NOT_FOUND',
      '2 SYNC_WITH_ETA_FOUND',
      '3 SYNC_WITHOUT_ETA_FOUND',
      '4 SYNC_NOT_FOUND_CAN_BE_ADDED',
      '5 SYNC_NOT_FOUND_CAN_NOT_BE_ADDED',
      '6 RTA_SENT',
    ]);
    expect(isRtzStateName('RTA_SENT')).toBe(true);
    expect(isRtzStateName('PORT_TO_PORT')).toBe(false);
  });

  it('points the RTA at the sync waypoint or at a new waypoint on the leg', () => {
    expect(rtaTarget(assessRoute(sample('gavle-rauma'), RAUMA).parseResults, 'Rauma PBG')).toEqual({ waypointId: 5 });
    expect(rtaTarget(assessRoute(sample('landskrona-rauma-prefixed'), RAUMA).parseResults, 'Rauma PBG')).toEqual({
      legEndWaypointId: 14,
      lat: 61.1163499,
      lon: 21.1695731,
      name: 'Rauma PBG',
    });
    expect(rtaTarget({ route_name: 'x' }, 'Rauma PBG')).toBeUndefined();
  });
});

function slerp(a: { lat: number; lon: number }, b: { lat: number; lon: number }, t: number) {
  const v = (p: { lat: number; lon: number }) => {
    const [la, lo] = [(p.lat * Math.PI) / 180, (p.lon * Math.PI) / 180];
    return [Math.cos(la) * Math.cos(lo), Math.cos(la) * Math.sin(lo), Math.sin(la)];
  };
  const [va, vb] = [v(a), v(b)];
  const omega = Math.acos(va[0] * vb[0] + va[1] * vb[1] + va[2] * vb[2]);
  const [ka, kb] = [Math.sin((1 - t) * omega) / Math.sin(omega), Math.sin(t * omega) / Math.sin(omega)];
  const p = [0, 1, 2].map((i) => ka * va[i] + kb * vb[i]);
  return {
    lat: (Math.atan2(p[2], Math.hypot(p[0], p[1])) * 180) / Math.PI,
    lon: (Math.atan2(p[1], p[0]) * 180) / Math.PI,
  };
}
