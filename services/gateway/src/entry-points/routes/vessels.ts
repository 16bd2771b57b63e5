// GET /vessels, the vessel types, and setting a vessel's type (docs/domain.md#vessels). A type change is ingest's
// (it owns the vessels): sent on over RPC, by an operator with the vessel's row id, by a data source with the IMO.

import { INGEST, IngestCommands, type SetVesselTypeCommand } from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import { createVesselQueries } from '@pcas/ingest/queries';
import { vesselVisibility } from '@pcas/portcall-projector/queries';
import { VESSEL_TYPES } from '@pcas/s211';
import { sendAs } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { searchedPage } from './paging.ts';
import { int, optionalInt } from './params.ts';

/** GET /vessels: ingest's query, with the projector's visibility (POST /vessel-visibility) over ingest's column. */
const { listVessels } = createVesselQueries(vesselVisibility);

/**
 * GET /vessel-types: the original's rows (`id`, `name`, the marker type id, and its audit columns, which for
 * these seeded rows name no one), a bare array in id order.
 */
const VESSEL_TYPE_ROWS = VESSEL_TYPES.map((type) => ({
  id: type.id,
  name: type.name,
  sea_chart_marker_type_id: type.sea_chart_marker_type_id,
  created_at: null,
  created_by: null,
  modified_at: null,
  modified_by: null,
}));

export function vesselRoutes(deps: GatewayDeps): Route[] {
  const { db, bus } = deps;
  const setVesselType = async (ctx: Parameters<Route['handle']>[0], input: SetVesselTypeCommand) => {
    await sendAs<SetVesselTypeCommand>(bus, INGEST, IngestCommands.setVesselType, ctx.auth, input);
    return { result: 'OK' };
  };
  return [
    {
      method: 'GET',
      path: '/vessels',
      permission: 'basic_user_action',
      // The vessels admin pages and the mobile app's pinned-vessel list are part of the activity timeline.
      module: 'activity',
      ...searchedPage(optionalInt(), (query) => listVessels(db, query)),
    },
    {
      method: 'GET',
      path: '/vessel-types',
      permission: 'basic_user_action',
      // No module: the vessels admin (activity) and the sea chart's port actors (map) both read it.
      params: {},
      async handle() {
        return VESSEL_TYPE_ROWS;
      },
    },
    {
      method: 'PUT',
      path: '/vessel',
      permission: 'manage_vessel',
      module: 'activity',
      // camelCase, as the original web UI sends it.
      params: { id: int(), vesselType: int() },
      handle: (ctx) => setVesselType(ctx, { id: ctx.params.id, vessel_type: ctx.params.vesselType }),
    },
    {
      method: 'POST',
      path: '/agent/rest/vessel-type',
      // A data source that knows the vessel's type (its own register, AIS static data): API keys only.
      permission: 'timestamp',
      params: { imo: int(), vessel_type: int() },
      handle: (ctx) => setVesselType(ctx, { imo: ctx.params.imo, vessel_type: ctx.params.vessel_type }),
    },
  ];
}
