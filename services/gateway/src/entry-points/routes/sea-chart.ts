// Routes of the sea chart: vessel positions, markers, fixed vessels (docs/domain.md#sea-chart). Ingest owns the
// positions and the fixed vessels: their changes go over cmd.ingest, the lists are its queries
// (`@pcas/ingest/queries`), run here. The markers are read from MAP_MARKERS once, at start. Every route belongs to
// the map module: off, they answer 403 naming it.

import {
  type AddFixedVesselCommand,
  type ChangeFixedVesselCommand,
  INGEST,
  type RecordVesselPositionsCommand,
  SeaChartCommands,
} from '@pcas/contracts';
import { HttpResponse, type Route } from '@pcas/http-kit';
import { fixedVesselById, listFixedVessels } from '@pcas/ingest/queries';
import { loadSeaChartMarkers } from '@pcas/s211/sea-chart-markers';
import { acceptsGzip } from '../../adapters/read-models/gzip-splice.ts';
import type { GatewayDeps } from '../deps.ts';
import { REQUIRED_LIST_PARAMS } from './paging.ts';
import { array, int, mixed, optional, text } from './params.ts';
import { commandRoutes, getById, idCommand } from './shapes.ts';

/** `mixed`: may be null or absent; ingest checks the value (a business ERROR answer, not a 400). */
const identity = optional(mixed());

export function seaChartRoutes(deps: GatewayDeps): Route[] {
  const { bus, db, config, seaChartVessels: vessels } = deps;
  const markers = loadSeaChartMarkers(config.seaChart.markers);
  const send = commandRoutes(bus, INGEST);
  // A fixed vessel changed through this gateway shows in the next GET /sea-chart/vessels (the reply comes after
  // the commit). Positions show as the real-time channel announces them (adapters/read-models/sea-chart.ts).
  const change = commandRoutes(bus, INGEST, vessels.changed);

  return [
    {
      method: 'GET',
      path: '/sea-chart/vessels',
      permission: 'basic_user_action',
      module: 'map',
      // The spec lists query parameters the original never read; ignored here too.
      params: {},
      async handle({ headers }) {
        const body = await vessels.read();
        // Two thousand vessels are some 700 kB of JSON, a tenth of it gzipped; browsers ask for gzip.
        if (acceptsGzip(headers['accept-encoding'])) {
          return new HttpResponse(200, await body.gzipped(), {
            'Content-Type': 'application/json; charset=utf-8',
            'Content-Encoding': 'gzip',
            Vary: 'Accept-Encoding',
          });
        }
        return new HttpResponse(200, body.json, {
          'Content-Type': 'application/json; charset=utf-8',
          Vary: 'Accept-Encoding',
        });
      },
    },
    send({
      method: 'POST',
      path: '/sea-chart/vessels',
      permission: 'update_sea_chart_location',
      module: 'map',
      params: { locations: array() },
      command: SeaChartCommands.recordVesselPositions,
      input: (params): RecordVesselPositionsCommand => ({
        locations: Array.isArray(params.locations) ? params.locations : Object.values(params.locations),
      }),
    }),
    {
      method: 'GET',
      path: '/sea-chart/markers',
      permission: 'basic_user_action',
      module: 'map',
      params: {},
      handle: async () => markers,
    },
    {
      method: 'GET',
      path: '/sea-chart/map-settings',
      permission: 'basic_user_action',
      module: 'map',
      params: {},
      // Our web UI's question: load map tiles (from where), or draw on a plain background.
      handle: async () => ({ tile_server: config.seaChart.tileServer }),
    },
    {
      method: 'GET',
      path: '/sea-chart/fixed-vessels',
      permission: 'manage_sea_chart_vessel',
      module: 'map',
      // Declared without defaults in the original: absent → 400 "Missing parameter".
      params: REQUIRED_LIST_PARAMS,
      handle: ({ params }) =>
        listFixedVessels(db, {
          limit: Math.max(0, params.limit),
          offset: Math.max(0, params.offset),
          sort: params.sort,
          search: params.search,
        }),
    },
    getById({ path: '/sea-chart/fixed-vessel', permission: 'manage_sea_chart_vessel', module: 'map' }, (id) =>
      fixedVesselById(db, id),
    ),
    change({
      method: 'POST',
      path: '/sea-chart/fixed-vessel',
      permission: 'manage_sea_chart_vessel',
      module: 'map',
      params: {
        vesselType: int(),
        vesselName: text(255),
        imo: identity,
        mmsi: identity,
      },
      command: SeaChartCommands.addFixedVessel,
      input: (params): AddFixedVesselCommand => ({
        vesselType: params.vesselType,
        vesselName: params.vesselName,
        imo: params.imo ?? null,
        mmsi: params.mmsi ?? null,
      }),
    }),
    change({
      method: 'PUT',
      path: '/sea-chart/fixed-vessel',
      permission: 'manage_sea_chart_vessel',
      module: 'map',
      // All keys required as in the original (so they are the command as declared); imo and mmsi may be null.
      params: {
        id: int(),
        vesselType: int(),
        vesselName: text(255),
        imo: mixed(),
        mmsi: mixed(),
      },
      command: SeaChartCommands.changeFixedVessel,
      input: (params) => params as ChangeFixedVesselCommand,
    }),
    change(
      idCommand({
        method: 'DELETE',
        path: '/sea-chart/fixed-vessel',
        permission: 'manage_sea_chart_vessel',
        module: 'map',
        command: SeaChartCommands.removeFixedVessel,
      }),
    ),
  ];
}
