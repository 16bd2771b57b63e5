// Truck gate logistics (docs/domain.md#gate-logistics): gate systems post each passage (API key); the logistics
// service checks, decides and stores it, reached over cmd.logistics. The lists are that service's queries
// (`@pcas/logistics/queries`), run here in process. Every route belongs to the logistics module: off, they answer
// 403 naming it.

import { LOGISTICS, LogisticsCommands, type RecordGatePassageCommand } from '@pcas/contracts';
import { parseLimit, type Route } from '@pcas/http-kit';
import { gatePassagesByPlate, listGatePassages } from '@pcas/logistics/queries';
import { sendAs } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { array, int, mixed, text } from './params.ts';

/** The most passages GET /logistics-timestamps/:limit answers (the mobile app asks for 1000). */
export const MAX_LOGISTICS_LIMIT = 1000;

export function logisticsRoutes(deps: GatewayDeps): Route[] {
  const { bus, db, config } = deps;
  const filter = { licensePlates: config.licensePlatesFilter, checkpoints: config.checkpointsFilter };

  return [
    {
      method: 'POST',
      path: '/agent/rest/logistics-timestamps',
      permission: 'timestamp',
      module: 'logistics',
      params: {
        time: text(64),
        external_id: int(),
        checkpoint: text(255),
        direction: text(64),
        front_license_plates: array(),
        rear_license_plates: array(),
        containers: array(),
      },
      // Every parameter is required: they are the command as declared.
      handle: ({ params, auth }) =>
        sendAs<RecordGatePassageCommand>(
          bus,
          LOGISTICS,
          LogisticsCommands.recordGatePassage,
          auth,
          params as RecordGatePassageCommand,
        ),
    },
    {
      method: 'GET',
      path: '/logistics-timestamps/:limit',
      permission: 'basic_user_action',
      module: 'logistics',
      // Checked by parseLimit, so a negative or too large limit gets a message in words.
      params: { limit: mixed() },
      handle: ({ params }) =>
        listGatePassages(db, parseLimit(params.limit, { fallback: 100, max: MAX_LOGISTICS_LIMIT }), filter),
    },
    {
      method: 'GET',
      path: '/logistics-timestamps/by-license-plate/:license_plate',
      permission: 'basic_user_action',
      module: 'logistics',
      params: { license_plate: text(255) },
      handle: ({ params }) => gatePassagesByPlate(db, params.license_plate),
    },
  ];
}
