// What the sea chart reads from the API, read defensively (a data source may leave fields out, and one malformed
// feature must not take the chart down): GET sea-chart/vessels and GET sea-chart/markers, GeoJSON Features as a bare
// array (the original's shape) or a FeatureCollection; GET sea-chart/map-settings, the tile server; and the map's
// start from the session (`map_default_coordinates` "lat,lon", `map_default_zoom`).

import { MARKER_TYPES, type MarkerClass, markerClassOf } from '@pcas/s211';

export const VESSELS_PATH = 'sea-chart/vessels';
export const MARKERS_PATH = 'sea-chart/markers';
export const MAP_SETTINGS_PATH = 'sea-chart/map-settings';
export const VESSEL_TYPES_PATH = 'vessel-types';
export const FIXED_VESSELS_PATH = 'sea-chart/fixed-vessels';
export const FIXED_VESSEL_PATH = 'sea-chart/fixed-vessel';
export const VESSELS_CHANNEL = 'sea-chart-vessels-changed';
export const MARKERS_CHANNEL = 'sea-chart-markers-changed';

/** The permission of the fixed-vessels admin (the interface's `modify_sea_chart_vessels`). */
export const FIXED_VESSEL_PERMISSION = 'manage_sea_chart_vessel';

export type LatLon = [latitude: number, longitude: number];

export interface ChartVessel {
  /** Stable across refetches, so a moving vessel keeps its marker (and its open popup). */
  key: string;
  name: string;
  imo: number | null;
  mmsi: number | null;
  position: LatLon;
  speedKnots: number | null;
  headingDegrees: number | null;
  courseDegrees: number | null;
  time: string;
  markerClass: MarkerClass;
  typeName: string;
}

export interface MarkerStyle {
  color?: string;
  opacity?: number;
  weight?: number;
  fillColor?: string;
  fillOpacity?: number;
}

export type MarkerShape =
  | { kind: 'point'; position: LatLon }
  | { kind: 'line'; points: LatLon[] }
  | { kind: 'polygon'; rings: LatLon[][] };

export interface ChartMarker {
  key: string;
  name: string;
  description: string;
  type: string;
  shape: MarkerShape;
  style: MarkerStyle | null;
  /** Metres around a point (a VIS synchronisation point's circle), when the marker file gives one. */
  radius: number | null;
}

/** A row of GET /vessel-types. */
export interface VesselTypeRow {
  id: number;
  name: string;
  sea_chart_marker_type_id?: number;
}

const MARKER_CLASS_NAMES = new Set<string>(MARKER_TYPES.map((type) => type.name));

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** A positive whole number (IMO, MMSI), else null: the API sends 0 or null for an unknown one. */
function idOf(value: unknown): number | null {
  const n = numberOf(value);
  return n !== null && Number.isInteger(n) && n > 0 ? n : null;
}

function featuresOf(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  const features = record(body).features;
  return Array.isArray(features) ? features : [];
}

/** GeoJSON's [lon, lat] as [lat, lon], when both are numbers within range. */
function latLonOf(coordinates: unknown): LatLon | null {
  if (!Array.isArray(coordinates) || coordinates.length < 2) return null;
  const lon = numberOf(coordinates[0]);
  const lat = numberOf(coordinates[1]);
  if (lat === null || lon === null || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  return [lat, lon];
}

function pointsOf(coordinates: unknown): LatLon[] {
  if (!Array.isArray(coordinates)) return [];
  return coordinates.map(latLonOf).filter((point): point is LatLon => point !== null);
}

/** A marker class name the chart knows; else the class of the vessel type named, from GET /vessel-types. */
export function markerClassFor(
  given: unknown,
  typeName: string,
  types: readonly VesselTypeRow[] | undefined,
): MarkerClass {
  if (typeof given === 'string' && MARKER_CLASS_NAMES.has(given)) return given as MarkerClass;
  const type = types?.find((row) => row.name === typeName);
  return markerClassOf(type?.sea_chart_marker_type_id ?? 1);
}

/**
 * The vessels of GET sea-chart/vessels. The position is the feature's point, else its latitude/longitude
 * properties; a feature with neither is left out. One vessel appears once (the newest position kept).
 */
export function vesselsOf(body: unknown, types?: readonly VesselTypeRow[]): ChartVessel[] {
  const byKey = new Map<string, ChartVessel>();
  featuresOf(body).forEach((feature, index) => {
    const item = record(feature);
    const properties = record(item.properties);
    const position =
      latLonOf(record(item.geometry).coordinates) ?? latLonOf([properties.longitude, properties.latitude]);
    if (!position) return;
    const imo = idOf(properties.imo);
    const mmsi = idOf(properties.mmsi);
    const typeName = text(properties.vessel_type_name);
    const key = imo !== null ? `imo-${imo}` : mmsi !== null ? `mmsi-${mmsi}` : `row-${text(properties.id) || index}`;
    const vessel: ChartVessel = {
      key,
      name: text(properties.name) || text(properties.vessel_name),
      imo,
      mmsi,
      position,
      speedKnots: numberOf(properties.speed_knots),
      headingDegrees: numberOf(properties.heading_degrees),
      courseDegrees: numberOf(properties.course_over_ground_degrees),
      time: text(properties.location_timestamp),
      markerClass: markerClassFor(properties.marker_class, typeName, types),
      typeName,
    };
    const before = byKey.get(key);
    if (!before || timeValue(vessel.time) >= timeValue(before.time)) byKey.set(key, vessel);
  });
  return [...byKey.values()].sort((a, b) => nameOf(a).localeCompare(nameOf(b)) || a.key.localeCompare(b.key));
}

function timeValue(time: string): number {
  const value = Date.parse(time);
  return Number.isNaN(value) ? Number.NEGATIVE_INFINITY : value;
}

/** What a vessel is called on the chart: its name, else its IMO or MMSI. */
export function nameOf(vessel: ChartVessel): string {
  if (vessel.name) return vessel.name;
  if (vessel.imo !== null) return `IMO ${vessel.imo}`;
  if (vessel.mmsi !== null) return `MMSI ${vessel.mmsi}`;
  return '?';
}

function styleOf(value: unknown): MarkerStyle | null {
  const item = record(value);
  const style: MarkerStyle = {};
  if (typeof item.color === 'string') style.color = item.color;
  if (typeof item.fillColor === 'string') style.fillColor = item.fillColor;
  for (const key of ['opacity', 'weight', 'fillOpacity'] as const) {
    const n = numberOf(item[key]);
    if (n !== null) style[key] = n;
  }
  return Object.keys(style).length > 0 ? style : null;
}

function shapeOf(geometry: Record<string, unknown>): MarkerShape | null {
  const coordinates = geometry.coordinates;
  switch (geometry.type) {
    case 'Point': {
      const position = latLonOf(coordinates);
      return position ? { kind: 'point', position } : null;
    }
    case 'LineString': {
      const points = pointsOf(coordinates);
      return points.length >= 2 ? { kind: 'line', points } : null;
    }
    case 'Polygon': {
      const rings = Array.isArray(coordinates) ? coordinates.map(pointsOf).filter((ring) => ring.length >= 3) : [];
      return rings.length > 0 ? { kind: 'polygon', rings } : null;
    }
    default:
      return null;
  }
}

/** The markers of GET sea-chart/markers: points, lines and polygons; other geometries are left out. */
export function markersOf(body: unknown): ChartMarker[] {
  const markers: ChartMarker[] = [];
  featuresOf(body).forEach((feature, index) => {
    const item = record(feature);
    const properties = record(item.properties);
    const shape = shapeOf(record(item.geometry));
    if (!shape) return;
    const radius = numberOf(properties.radius);
    markers.push({
      key: `marker-${text(properties.id) || index}`,
      name: text(properties.name),
      description: text(properties.description),
      type: text(properties.type),
      shape,
      // The original's marker files put the Leaflet path options beside the properties; some in them.
      style: styleOf(item.style) ?? styleOf(properties.style),
      radius: radius !== null && radius > 0 ? radius : null,
    });
  });
  return markers;
}

/** The tile URL template of a tile server prefix (`<prefix>/{z}/{x}/{y}.png`), or null without one. */
export function tileUrlOf(tileServer: unknown): string | null {
  const prefix = text(tileServer);
  if (!prefix) return null;
  if (prefix.includes('{z}')) return prefix;
  return `${prefix.replace(/\/+$/, '')}/{z}/{x}/{y}.png`;
}

/** The tile server of GET sea-chart/map-settings. */
export function tileServerOf(body: unknown): string | null {
  return text(record(body).tile_server) || null;
}

/** The Gävle fairway, where the original's sample settings start the map. */
export const DEFAULT_CENTER: LatLon = [60.699083, 17.328354];
export const DEFAULT_ZOOM = 10;

/** The map's start from the session's "lat,lon" and zoom; the default where either is missing or malformed. */
export function mapStartOf(coordinates: unknown, zoom: unknown): { center: LatLon; zoom: number } {
  const parts = text(coordinates).split(',');
  const center = parts.length === 2 ? latLonOf([parts[1], parts[0]]) : null;
  const z = numberOf(zoom);
  return {
    center: center ?? DEFAULT_CENTER,
    zoom: z !== null && z >= 1 && z <= 19 ? Math.round(z) : DEFAULT_ZOOM,
  };
}

/** The words of a marker class, for the legend and the list (colour is never the only sign of a vessel's kind). */
export const MARKER_CLASS_LABELS: Record<MarkerClass, string> = {
  vessel_green: 'Cargo vessel',
  vessel_red: 'Tanker',
  vessel_blue: 'Passenger vessel',
  vessel_yellow: 'High speed craft',
  vessel_cyan: 'Tug, pilot or service craft',
  vessel_orange: 'Fishing vessel',
  vessel_purple: 'Pleasure craft',
  vessel_gray: 'Vessel of unknown type',
  vessel_black: 'Other vessel',
  vessel_white: 'Other vessel',
};

/** The fill of each marker class; every vessel is outlined in dark grey so a light fill still stands out. */
export const MARKER_CLASS_COLOURS: Record<MarkerClass, string> = {
  vessel_green: '#2e9e44',
  vessel_red: '#d63131',
  vessel_blue: '#2f6fdf',
  vessel_yellow: '#f2c500',
  vessel_cyan: '#14b8c8',
  vessel_orange: '#f07c1a',
  vessel_purple: '#9a4fd0',
  vessel_gray: '#9aa0a6',
  vessel_black: '#1f1f1f',
  vessel_white: '#ffffff',
};

/** The letter and colour of a place's symbol; the popup and the legend say the word. */
export const PLACE_SYMBOLS: Record<string, { letter: string; colour: string }> = {
  port: { letter: 'P', colour: '#0b3d91' },
  berth: { letter: 'B', colour: '#6b3e00' },
  anchorage: { letter: 'A', colour: '#00565f' },
  'vis-sync-point': { letter: 'S', colour: '#5b1f8a' },
  'rta-point': { letter: 'R', colour: '#8a1f4d' },
};

const MARKER_TYPE_WORDS: Record<string, string> = {
  port: 'Port',
  berth: 'Berth',
  anchorage: 'Anchorage',
  'vis-sync-point': 'VIS synchronisation point',
  'rta-point': 'RTA point',
  'outer-port-area': 'Port area',
  'channel-line': 'Channel line',
};

/** The words of a marker type of the marker files ("Place" for a type not listed). */
export function markerTypeLabel(type: string): string {
  return Object.hasOwn(MARKER_TYPE_WORDS, type) ? MARKER_TYPE_WORDS[type] : 'Place';
}

/** The direction a vessel's symbol points: its heading, else its course over ground, else north. */
export function bearingOf(vessel: ChartVessel): number {
  const bearing = vessel.headingDegrees ?? vessel.courseDegrees ?? 0;
  // AIS sends 511 for "heading not available".
  return bearing >= 0 && bearing < 360 ? bearing : (vessel.courseDegrees ?? 0) % 360;
}

/** The vessels whose name, IMO or MMSI holds the text (the original's map search, in the browser). */
export function searchVessels(vessels: readonly ChartVessel[], query: string): ChartVessel[] {
  const wanted = query.trim().toLowerCase();
  if (!wanted) return [...vessels];
  return vessels.filter(
    (vessel) =>
      vessel.name.toLowerCase().includes(wanted) ||
      String(vessel.imo ?? '').includes(wanted) ||
      String(vessel.mmsi ?? '').includes(wanted),
  );
}

/** `12.3 kn`, `245°`: a measurement with its unit, or an empty string when unknown. */
export function withUnit(value: number | null, unit: 'kn' | '°', digits = 1): string {
  if (value === null) return '';
  const rounded = unit === '°' ? Math.round(value) : Number(value.toFixed(digits));
  return unit === '°' ? `${rounded}°` : `${rounded} kn`;
}
