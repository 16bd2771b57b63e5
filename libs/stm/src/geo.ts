// Distances on the Earth for the sync-point decision: a sphere of the mean Earth radius (great-circle distance);
// over the few nautical miles of a sync radius it differs from the ellipsoid by well under a metre per kilometre.

import type { LatLon, LegGeometry } from './types.ts';

/** Mean Earth radius (IUGG), metres. */
export const EARTH_RADIUS_METERS = 6_371_008.8;

const rad = (deg: number) => (deg * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

/** Great-circle distance in metres (haversine, stable for short distances). */
export function distanceMeters(a: LatLon, b: LatLon): number {
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(h)));
}

type Vec = [number, number, number];
const toVec = (p: LatLon): Vec => [
  Math.cos(rad(p.lat)) * Math.cos(rad(p.lon)),
  Math.cos(rad(p.lat)) * Math.sin(rad(p.lon)),
  Math.sin(rad(p.lat)),
];
const fromVec = (v: Vec): LatLon => ({
  lat: deg(Math.atan2(v[2], Math.hypot(v[0], v[1]))),
  lon: deg(Math.atan2(v[1], v[0])),
});
const cross = (a: Vec, b: Vec): Vec => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
const dot = (a: Vec, b: Vec) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const norm = (a: Vec) => Math.hypot(a[0], a[1], a[2]);

export interface PointOnLeg {
  point: LatLon;
  distanceMeters: number;
}

/** The point of the great-circle arc start→end nearest to `p` (an end when `p` projects outside the arc). */
function nearestOnOrthodrome(start: LatLon, end: LatLon, p: LatLon): LatLon {
  const a = toVec(start);
  const b = toVec(end);
  const n = cross(a, b);
  const nLen = norm(n);
  if (nLen < 1e-12) return start;
  const unitN: Vec = [n[0] / nLen, n[1] / nLen, n[2] / nLen];
  const v = toVec(p);
  const offPlane = dot(v, unitN);
  const c: Vec = [v[0] - offPlane * unitN[0], v[1] - offPlane * unitN[1], v[2] - offPlane * unitN[2]];
  const cLen = norm(c);
  // On the arc when c lies between a and b seen along the arc's normal.
  if (cLen > 1e-12 && dot(cross(a, c), unitN) >= 0 && dot(cross(c, b), unitN) >= 0) {
    return fromVec([c[0] / cLen, c[1] / cLen, c[2] / cLen]);
  }
  return distanceMeters(start, p) <= distanceMeters(end, p) ? start : end;
}

const mercatorY = (latDeg: number) => Math.log(Math.tan(Math.PI / 4 + rad(latDeg) / 2));
const latFromMercatorY = (y: number) => deg(2 * Math.atan(Math.exp(y)) - Math.PI / 2);

/**
 * The point of the rhumb line start→end nearest to `p`: the rhumb line is straight on a Mercator chart, so it is
 * walked in Mercator coordinates, coarsely and then by golden-section search around the best sample.
 */
function nearestOnLoxodrome(start: LatLon, end: LatLon, p: LatLon): LatLon {
  const y1 = mercatorY(start.lat);
  const y2 = mercatorY(end.lat);
  let dLon = end.lon - start.lon;
  // The short way round across the antimeridian.
  if (dLon > 180) dLon -= 360;
  if (dLon < -180) dLon += 360;
  const at = (t: number): LatLon => {
    let lon = start.lon + t * dLon;
    if (lon > 180) lon -= 360;
    if (lon < -180) lon += 360;
    return { lat: latFromMercatorY(y1 + t * (y2 - y1)), lon };
  };
  const f = (t: number) => distanceMeters(at(t), p);
  const samples = 256;
  let best = 0;
  let bestDistance = f(0);
  for (let i = 1; i <= samples; i++) {
    const d = f(i / samples);
    if (d < bestDistance) {
      best = i;
      bestDistance = d;
    }
  }
  let lo = Math.max(0, (best - 1) / samples);
  let hi = Math.min(1, (best + 1) / samples);
  const phi = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 60; i++) {
    const m1 = hi - phi * (hi - lo);
    const m2 = lo + phi * (hi - lo);
    if (f(m1) <= f(m2)) hi = m2;
    else lo = m1;
  }
  return at((lo + hi) / 2);
}

/** The point of the leg start→end (of the given geometry) nearest to `p`, and its distance from `p` in metres. */
export function nearestPointOnLeg(start: LatLon, end: LatLon, p: LatLon, geometry: LegGeometry): PointOnLeg {
  const point = geometry === 'Orthodrome' ? nearestOnOrthodrome(start, end, p) : nearestOnLoxodrome(start, end, p);
  return { point, distanceMeters: distanceMeters(point, p) };
}
