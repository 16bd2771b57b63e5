// Routes of the sea chart: vessel positions, markers, fixed vessels (docs/domain.md#sea-chart). Ingest owns the
// positions and the fixed vessels: their changes go over cmd.ingest, the lists are its queries
// (`@pcas/ingest/queries`), run here. The markers are read from MAP_MARKERS once, at start. Every route belongs to
// the map module: off, they answer 403 naming it.

import {
  type AddFixedVesselCommand,
  type ChangeFixedVesselCommand,
  INGEST,
  type RecordVesselPositionsCommand,
  type RemoveFixedVesselCommand,
  SeaChartCommands,
} from '@pcas/contracts';
import { type AuthContext, HttpResponse, type Route } from '@pcas/http-kit';
import { fixedVesselById, listFixedVessels } from '@pcas/ingest/queries';
import { loadSeaChartMarkers } from '@pcas/s211/sea-chart-markers';
import { acceptsGzip } from '../../adapters/read-models/gzip-splice.ts';
import { sendAs } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { REQUIRED_LIST_PARAMS } from './paging.ts';

/** `mixed`: may be null or absent; ingest checks the value (a business ERROR answer, not a 400). */
const identity = { type: 'mixed', optional: true } as const;

export function seaChartRoutes(deps: GatewayDeps): Route[] {
  const { bus, db, config, seaChartVessels: vessels } = deps;
  const markers = loadSeaChartMarkers(config.seaChart.markers);
  const send = <I>(command: string, auth: AuthContext, input: I) => sendAs(bus, INGEST, command, auth, input);
  // A fixed vessel changed through this gateway shows in the next GET /sea-chart/vessels (the reply comes after
  // the commit). Positions show as the real-time channel announces them (adapters/read-models/sea-chart.ts).
  const change = <I>(command: string, auth: AuthContext, input: I) =>
    send(command, auth, input).finally(vessels.changed);

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
    {
      method: 'POST',
      path: '/sea-chart/vessels',
      permission: 'update_sea_chart_location',
      module: 'map',
      params: { locations: { type: 'array' } },
      handle: ({ params, auth }) =>
        send<RecordVesselPositionsCommand>(SeaChartCommands.recordVesselPositions, auth, {
          locations: Array.isArray(params.locations) ? params.locations : Object.values(params.locations),
        }),
    },
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
    {
      method: 'GET',
      path: '/sea-chart/fixed-vessel',
      permission: 'manage_sea_chart_vessel',
      module: 'map',
      params: { id: { type: 'int' } },
      handle: ({ params }) => fixedVesselById(db, params.id),
    },
    {
      method: 'POST',
      path: '/sea-chart/fixed-vessel',
      permission: 'manage_sea_chart_vessel',
      module: 'map',
      params: {
        vesselType: { type: 'int' },
        vesselName: { type: 'string', maxLength: 255 },
        imo: identity,
        mmsi: identity,
      },
      handle: ({ params, auth }) =>
        change<AddFixedVesselCommand>(SeaChartCommands.addFixedVessel, auth, {
          vesselType: params.vesselType,
          vesselName: params.vesselName,
          imo: params.imo ?? null,
          mmsi: params.mmsi ?? null,
        }),
    },
    {
      method: 'PUT',
      path: '/sea-chart/fixed-vessel',
      permission: 'manage_sea_chart_vessel',
      module: 'map',
      // All keys required as in the original (so they are the command as declared); imo and mmsi may be null.
      params: {
        id: { type: 'int' },
        vesselType: { type: 'int' },
        vesselName: { type: 'string', maxLength: 255 },
        imo: { type: 'mixed' },
        mmsi: { type: 'mixed' },
      },
      handle: ({ params, auth }) =>
        change<ChangeFixedVesselCommand>(SeaChartCommands.changeFixedVessel, auth, params as ChangeFixedVesselCommand),
    },
    {
      method: 'DELETE',
      path: '/sea-chart/fixed-vessel',
      permission: 'manage_sea_chart_vessel',
      module: 'map',
      params: { id: { type: 'int' } },
      handle: ({ params, auth }) =>
        change<RemoveFixedVesselCommand>(SeaChartCommands.removeFixedVessel, auth, { id: params.id }),
    },
  ];
}
