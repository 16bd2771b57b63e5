// The sea chart's fixed markers (docs/domain.md#sea-chart): GeoJSON Features of a port (its position, port area,
// channel lines, berths, anchorages), from a file. The Gävle and Rauma sets ship in data/sea-chart-markers/.
// Each feature gets `properties.id`, derived from its content (the original drew it at random on every read): the
// same file gives the same ids after any restart, distinct within the set and above every vessel's id.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { canonicalJson } from '@pcas/values';

/** The ports whose markers ship with the project (`MAP_MARKERS=<name>`). */
export const BUNDLED_MARKER_PORTS = ['gavle', 'rauma'] as const;

/** Marker ids start here: vessels' ids (an IMO, or an MMSI) stay below, and the ids fit a 32-bit integer. */
export const MARKER_ID_BASE = 1_000_000_000;
const MARKER_ID_SPAN = 1_000_000_000;

export interface MarkerFeature {
  type: 'Feature';
  geometry: unknown;
  properties: Record<string, unknown> & { id: number };
  [key: string]: unknown;
}

/**
 * The features with their ids: a hash of each feature's content (a given id in the file is ignored); two features
 * alike, or a hash collision, take the next free id in file order.
 */
export function withMarkerIds(features: readonly Record<string, unknown>[]): MarkerFeature[] {
  const taken = new Set<number>();
  return features.map((feature) => {
    const properties = { ...((feature.properties ?? {}) as Record<string, unknown>) };
    delete properties.id;
    // Canonical JSON: formatting and key order never change an id. (Its own copy wrote an undefined member as null
    // where this leaves it out; a feature read from a JSON file has none, so every id stays as it was.)
    const content = canonicalJson({ ...feature, properties });
    const hash = createHash('sha256').update(content, 'utf8').digest();
    let id = MARKER_ID_BASE + (hash.readUInt32BE(0) % MARKER_ID_SPAN);
    while (taken.has(id)) id = id + 1 >= MARKER_ID_BASE + MARKER_ID_SPAN ? MARKER_ID_BASE : id + 1;
    taken.add(id);
    return { ...feature, type: 'Feature', properties: { ...properties, id } } as MarkerFeature;
  });
}

/** A bundled port's marker file. */
export const bundledMarkersPath = (port: string): string =>
  fileURLToPath(new URL(`../data/sea-chart-markers/${port}.json`, import.meta.url));

/**
 * `MAP_MARKERS` resolved: a bundled port's name (any case), else a path to a GeoJSON file (an array of Features, or
 * a FeatureCollection). Throws with the reason when neither, so a wrong setting stops the start.
 */
export function loadSeaChartMarkers(setting: string): MarkerFeature[] {
  const name = setting.trim();
  const port = BUNDLED_MARKER_PORTS.find((p) => p === name.toLowerCase());
  const path = port ? bundledMarkersPath(port) : name;
  if (!existsSync(path)) {
    throw new Error(`MAP_MARKERS: no such file and no bundled port (${BUNDLED_MARKER_PORTS.join(', ')}): ${name}`);
  }
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  const features = Array.isArray(parsed) ? parsed : (parsed as { features?: unknown } | null)?.features;
  if (!Array.isArray(features) || features.some((f) => f === null || typeof f !== 'object')) {
    throw new Error(`MAP_MARKERS: ${path} is not a GeoJSON array of Features or a FeatureCollection`);
  }
  return withMarkerIds(features as Record<string, unknown>[]);
}
