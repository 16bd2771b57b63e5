import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLiveRefresh } from '../../realtime/socket.ts';
import { ADMIN, apiError, renderView, stubApi } from '../../test/render.tsx';
import type { ChartMapProps } from './ChartMap.tsx';
import SeaChartView from './index.tsx';
import {
  bearingOf,
  DEFAULT_CENTER,
  mapStartOf,
  markerClassFor,
  markersOf,
  searchVessels,
  tileServerOf,
  tileUrlOf,
  vesselsOf,
  withUnit,
} from './model.ts';

vi.mock('../../realtime/socket.ts', () => ({ useChannels: vi.fn(), useLiveRefresh: vi.fn() }));

// Leaflet draws in a real browser (e2e/web/sea-chart.e2e.test.ts); here the chart records what it was given.
const drawn: ChartMapProps[] = [];
vi.mock('./ChartMap.tsx', () => ({
  default: (props: ChartMapProps) => {
    drawn.push(props);
    return (
      <div data-testid="chart" data-tiles={props.tileUrl ?? 'off'}>
        {props.vessels.map((vessel) => `${vessel.key}@${vessel.position.join(',')}`).join(' ')}
      </div>
    );
  },
}));

afterEach(() => {
  drawn.length = 0;
});

const TYPES = [
  { id: 1, name: 'Unknown Vessel Type', sea_chart_marker_type_id: 1 },
  { id: 4, name: 'Container Ship', sea_chart_marker_type_id: 5 },
  { id: 37, name: 'Tug', sea_chart_marker_type_id: 3 },
];

function vesselFeature(properties: Record<string, unknown>, coordinates?: [number, number]) {
  const lon = (properties.longitude as number) ?? 17.3;
  const lat = (properties.latitude as number) ?? 60.7;
  return { type: 'Feature', geometry: { type: 'Point', coordinates: coordinates ?? [lon, lat] }, properties };
}

const ALPHA = vesselFeature({
  id: 11,
  name: 'Alpha Trader',
  imo: 9876543,
  mmsi: 230123456,
  latitude: 60.7,
  longitude: 17.3,
  speed_knots: 12.34,
  heading_degrees: 45,
  course_over_ground_degrees: 47,
  location_timestamp: '2026-11-25T10:15:00+00:00',
  marker_class: 'vessel_green',
  vessel_type_name: 'Container Ship',
});
const TUG = vesselFeature({
  id: 12,
  name: 'Hector',
  imo: null,
  mmsi: 230999000,
  latitude: 60.69,
  longitude: 17.2,
  speed_knots: 0,
  location_timestamp: '2026-11-25T10:16:00+00:00',
  // No marker class sent: found through the vessel type's row.
  vessel_type_name: 'Tug',
});
const MARKERS = [
  {
    type: 'Feature',
    geometry: { type: 'Point', coordinates: [17.2, 60.6865] },
    properties: { name: 'Port of Gävle', type: 'port' },
  },
  {
    type: 'Feature',
    geometry: {
      type: 'Polygon',
      coordinates: [
        [
          [17.31, 60.61],
          [17.19, 60.67],
          [17.17, 60.7],
          [17.31, 60.61],
        ],
      ],
    },
    properties: { name: 'Gävle outer port area', type: 'outer-port-area' },
    style: { color: '#000000', opacity: 1, weight: 2, fillColor: '#8f8c8c', fillOpacity: 0.3 },
  },
];

function seaChartApi(vessels: unknown = [ALPHA, TUG], settings: unknown = { tile_server: null }) {
  return stubApi((call) => {
    if (call.path === 'sea-chart/vessels') return vessels;
    if (call.path === 'sea-chart/markers') return MARKERS;
    if (call.path === 'sea-chart/map-settings') return settings;
    if (call.path === 'vessel-types') return TYPES;
    return undefined;
  });
}

const renderSeaChart = (module: 'enabled' | 'disabled' = 'enabled', user = ADMIN) =>
  renderView(<SeaChartView />, { path: '/sea-chart', modules: { map_module: module }, user });

const vesselRows = () => within(screen.getByRole('list', { name: 'Vessels on the chart' })).getAllByRole('listitem');

describe('sea chart view', () => {
  it('draws the vessels and places, lists the vessels with their facts, and follows both channels', async () => {
    const calls = seaChartApi();
    renderSeaChart();
    await screen.findByText('2 vessels');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Sea chart');
    const chart = await screen.findByTestId('chart');
    await waitFor(() => expect(chart.textContent).toBe('imo-9876543@60.7,17.3 mmsi-230999000@60.69,17.2'));
    // Without a tile server nothing asks a tile host; the view says the chart is plain.
    expect(chart.getAttribute('data-tiles')).toBe('off');
    expect(screen.getByText(/No map tiles are set/)).toBeTruthy();
    const last = drawn.at(-1)!;
    expect(last.markers.map((marker) => [marker.name, marker.shape.kind])).toEqual([
      ['Port of Gävle', 'point'],
      ['Gävle outer port area', 'polygon'],
    ]);
    expect(last.markers[1]!.style).toEqual({
      color: '#000000',
      opacity: 1,
      weight: 2,
      fillColor: '#8f8c8c',
      fillOpacity: 0.3,
    });
    // The session has no map start: the default (Gävle).
    expect(last.center).toEqual(DEFAULT_CENTER);
    // Coloured by the feature's marker class, else through the type's row.
    expect(last.vessels.map((vessel) => vessel.markerClass)).toEqual(['vessel_green', 'vessel_cyan']);

    const [alpha, tug] = vesselRows();
    expect(alpha!.textContent).toContain('Alpha Trader');
    expect(alpha!.textContent).toContain('Container Ship');
    expect(alpha!.textContent).toContain('IMO 9876543 · MMSI 230123456');
    expect(alpha!.textContent).toContain('12.3 kn, 47°');
    expect(alpha!.querySelector('time')?.getAttribute('dateTime')).toBe('2026-11-25T10:15:00+00:00');
    expect(tug!.textContent).toContain('MMSI 230999000');
    expect(tug!.textContent).not.toContain('IMO');
    // The legend says in words what the colours are.
    const legend = screen.getByRole('list', { name: 'Legend' });
    expect(legend.textContent).toContain('Cargo vessel');
    expect(legend.textContent).toContain('Tug, pilot or service craft');
    // And the letter of each kind of place on the chart.
    expect(legend.textContent).toContain('PPort');

    expect(useLiveRefresh).toHaveBeenCalledWith(['sea-chart-vessels-changed'], ['sea-chart/vessels']);
    expect(useLiveRefresh).toHaveBeenCalledWith(['sea-chart-markers-changed'], ['sea-chart/markers']);
    expect(calls.every((call) => call.method === 'GET')).toBe(true);
  });

  it('loads tiles from the tile server when one is set', async () => {
    seaChartApi([ALPHA], { tile_server: 'https://tiles.port.example/osm/' });
    renderSeaChart();
    await screen.findByText('1 vessel');
    await waitFor(() =>
      expect(screen.getByTestId('chart').getAttribute('data-tiles')).toBe(
        'https://tiles.port.example/osm/{z}/{x}/{y}.png',
      ),
    );
    expect(screen.queryByText(/No map tiles are set/)).toBeNull();
  });

  it('finds a vessel by name, IMO or MMSI and asks the chart to show it', async () => {
    seaChartApi();
    renderSeaChart();
    await screen.findByText('2 vessels');
    const search = screen.getByLabelText('Find a vessel', { exact: false });
    fireEvent.change(search, { target: { value: '230999' } });
    await screen.findByText('1 of 2 vessels');
    expect(vesselRows()).toHaveLength(1);
    fireEvent.change(search, { target: { value: 'alpha' } });
    await screen.findByText('1 of 2 vessels');
    fireEvent.click(screen.getByRole('button', { name: 'Show Alpha Trader on the chart' }));
    await waitFor(() => expect(drawn.at(-1)!.focus?.key).toBe('imo-9876543'));
  });

  it('offers the fixed-vessels admin only to those who may manage them', async () => {
    seaChartApi();
    const manager = { ...ADMIN, permissions: [...ADMIN.permissions, 'manage_sea_chart_vessel'] };
    const { unmount } = renderSeaChart('enabled', manager);
    expect((await screen.findByRole('link', { name: 'Fixed vessels' })).getAttribute('href')).toBe(
      '/admin/fixed-vessels',
    );
    unmount();
    renderSeaChart();
    await screen.findByText('2 vessels');
    expect(screen.queryByRole('link', { name: 'Fixed vessels' })).toBeNull();
  });

  it("shows the API's refusal in words", async () => {
    stubApi(() => apiError('The map_module is disabled', 403));
    renderSeaChart();
    const alerts = await screen.findAllByRole('alert');
    expect(alerts[0]!.textContent).toContain('The map_module is disabled');
    expect(screen.queryByText('No vessel positions to show')).toBeNull();
  });

  it('says when there are no vessels', async () => {
    seaChartApi([]);
    renderSeaChart();
    await screen.findByText('No vessel positions to show');
  });

  it('asks nothing and says so when the map module is off', async () => {
    const calls = seaChartApi();
    renderSeaChart('disabled');
    expect(screen.getByText('The sea chart is switched off')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toEqual([]);
    expect(drawn).toEqual([]);
  });
});

describe('sea chart model', () => {
  it('reads a FeatureCollection as well as a bare array, and survives malformed features', () => {
    const vessels = vesselsOf({
      type: 'FeatureCollection',
      features: [
        ALPHA,
        null,
        'junk',
        { type: 'Feature', geometry: { type: 'Point', coordinates: ['x', 99] }, properties: { imo: 1234567 } },
        // No geometry: the position from the properties.
        { type: 'Feature', properties: { mmsi: '230000001', latitude: '60.5', longitude: '17.5' } },
        { type: 'Feature', properties: { mmsi: 230000002, latitude: 95, longitude: 17 } },
      ],
    });
    expect(vessels.map((vessel) => [vessel.key, vessel.position])).toEqual([
      ['imo-9876543', [60.7, 17.3]],
      ['mmsi-230000001', [60.5, 17.5]],
    ]);
    expect(vessels[1]!.markerClass).toBe('vessel_gray');
    expect(vessels[1]!.name).toBe('');
  });

  it('keeps the newest position of a vessel sent twice', () => {
    const older = vesselFeature({
      imo: 9876543,
      latitude: 60.1,
      longitude: 17.1,
      location_timestamp: '2026-11-25T10:00:00Z',
    });
    const newer = vesselFeature({
      imo: 9876543,
      latitude: 60.2,
      longitude: 17.2,
      location_timestamp: '2026-11-25T10:05:00Z',
    });
    expect(vesselsOf([newer, older]).map((vessel) => vessel.position)).toEqual([[60.2, 17.2]]);
    expect(vesselsOf([older, newer]).map((vessel) => vessel.position)).toEqual([[60.2, 17.2]]);
  });

  it('takes a known marker class as sent, else the type row, else grey', () => {
    expect(markerClassFor('vessel_red', 'Tug', TYPES)).toBe('vessel_red');
    expect(markerClassFor('vessel_pink', 'Tug', TYPES)).toBe('vessel_cyan');
    expect(markerClassFor(undefined, 'Nothing like it', TYPES)).toBe('vessel_gray');
    expect(markerClassFor(undefined, 'Tug', undefined)).toBe('vessel_gray');
  });

  it('reads the marker file: points, lines, polygons, a radius and a style; others left out', () => {
    const markers = markersOf([
      ...MARKERS,
      {
        type: 'Feature',
        geometry: {
          type: 'LineString',
          coordinates: [
            [17.302517, 60.728314],
            [17.316336, 60.720339],
          ],
        },
        properties: { name: 'Holmudds channel line', type: 'channel-line' },
        style: { color: '#000000', weight: '2' },
      },
      {
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [21.16778, 61.11806] },
        properties: {
          name: 'Rauma VIS synchronization and pilot boarding point',
          type: 'vis-sync-point',
          radius: 1852,
        },
      },
      { type: 'Feature', geometry: { type: 'MultiPoint', coordinates: [[1, 2]] }, properties: {} },
      { type: 'Feature', geometry: { type: 'LineString', coordinates: [[1, 2]] }, properties: {} },
    ]);
    expect(markers.map((marker) => marker.shape.kind)).toEqual(['point', 'polygon', 'line', 'point']);
    expect(markers[2]!.style).toEqual({ color: '#000000', weight: 2 });
    expect(markers[3]!.radius).toBe(1852);
    expect(markers[0]!.radius).toBeNull();
    expect(markers[0]!.shape).toEqual({ kind: 'point', position: [60.6865, 17.2] });
    expect(new Set(markers.map((marker) => marker.key)).size).toBe(4);
  });

  it('builds the tile URL from the tile server prefix, and none without one', () => {
    expect(tileUrlOf('/tile')).toBe('/tile/{z}/{x}/{y}.png');
    expect(tileUrlOf('https://tiles.example/')).toBe('https://tiles.example/{z}/{x}/{y}.png');
    expect(tileUrlOf('https://tiles.example/{z}/{x}/{y}.png')).toBe('https://tiles.example/{z}/{x}/{y}.png');
    expect(tileUrlOf(null)).toBeNull();
    expect(tileUrlOf('  ')).toBeNull();
    expect(tileServerOf({ tile_server: 'https://t.example' })).toBe('https://t.example');
    expect(tileServerOf({ tile_server: null })).toBeNull();
    expect(tileServerOf(undefined)).toBeNull();
  });

  it("starts the map at the session's coordinates and zoom, or the default", () => {
    expect(mapStartOf('61.1304,21.4681', '11')).toEqual({ center: [61.1304, 21.4681], zoom: 11 });
    expect(mapStartOf(' 61.1 , 21.4 ', 9)).toEqual({ center: [61.1, 21.4], zoom: 9 });
    expect(mapStartOf('', '')).toEqual({ center: DEFAULT_CENTER, zoom: 10 });
    expect(mapStartOf('61.1', 40)).toEqual({ center: DEFAULT_CENTER, zoom: 10 });
  });

  it('points a vessel by heading, else course (AIS 511: not available)', () => {
    const [alpha] = vesselsOf([ALPHA]);
    expect(bearingOf(alpha!)).toBe(45);
    expect(bearingOf({ ...alpha!, headingDegrees: 511 })).toBe(47);
    expect(bearingOf({ ...alpha!, headingDegrees: null, courseDegrees: null })).toBe(0);
  });

  it('searches by name, IMO and MMSI, and formats units', () => {
    const vessels = vesselsOf([ALPHA, TUG], TYPES);
    expect(searchVessels(vessels, 'HECT').map((vessel) => vessel.name)).toEqual(['Hector']);
    expect(searchVessels(vessels, '98765').map((vessel) => vessel.name)).toEqual(['Alpha Trader']);
    expect(searchVessels(vessels, ' ')).toHaveLength(2);
    expect(withUnit(12.345, 'kn')).toBe('12.3 kn');
    expect(withUnit(359.6, '°')).toBe('360°');
    expect(withUnit(null, 'kn')).toBe('');
  });
});
