import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledMarkersPath, loadSeaChartMarkers, MARKER_ID_BASE, withMarkerIds } from './sea-chart-markers.ts';

describe('the sea chart markers', () => {
  it('ship for Gävle and Rauma, each feature with its own id above every vessel id', () => {
    const gavle = loadSeaChartMarkers('gavle');
    expect(gavle.map((f) => [f.properties.type, f.properties.name])).toEqual([
      ['port', 'Port of Gävle'],
      ['outer-port-area', 'Gävle outer port area'],
      ['channel-line', 'Holmudds channel line'],
      ['berth', 'Berth'],
      ['anchorage', 'Anchorage'],
      ['port', 'Port of Bonan'],
    ]);
    expect(gavle[1].style).toMatchObject({ color: '#000000', fillOpacity: 0.3 });
    const rauma = loadSeaChartMarkers('Rauma');
    expect(rauma[1].properties).toMatchObject({ type: 'vis-sync-point', radius: 1852 });
    for (const set of [gavle, rauma]) {
      const ids = set.map((f) => f.properties.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of ids) expect(id >= MARKER_ID_BASE && id < 2 ** 31).toBe(true);
    }
  });

  it('keep their ids across loads and formatting, and a file path works as well as a port name', () => {
    const dir = mkdtempSync(join(tmpdir(), 'markers-'));
    const file = join(dir, 'port.json');
    writeFileSync(file, JSON.stringify(JSON.parse(readFileSync(bundledMarkersPath('gavle'), 'utf8')), null, 8));
    const ids = loadSeaChartMarkers('gavle').map((f) => f.properties.id);
    expect(loadSeaChartMarkers(file).map((f) => f.properties.id)).toEqual(ids);
    expect(loadSeaChartMarkers('gavle').map((f) => f.properties.id)).toEqual(ids);
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: [] }));
    expect(loadSeaChartMarkers(file)).toEqual([]);
    expect(() => loadSeaChartMarkers(join(dir, 'none.json'))).toThrow(/MAP_MARKERS: no such file/);
  });

  it('give two identical features distinct ids, and a changed feature another id', () => {
    const point = { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 2] }, properties: { name: 'A' } };
    const [a, b] = withMarkerIds([point, point]);
    expect(b.properties.id).toBe(a.properties.id + 1);
    const [moved] = withMarkerIds([{ ...point, geometry: { type: 'Point', coordinates: [1, 3] } }]);
    expect(moved.properties.id).not.toBe(a.properties.id);
    // An id in the file is replaced.
    expect(withMarkerIds([{ ...point, properties: { name: 'A', id: 5 } }])[0].properties.id).toBe(a.properties.id);
  });
});
