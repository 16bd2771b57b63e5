// What the gateway runs of the logistics service in its own process (`@pcas/logistics/queries`,
// docs/architecture.md#queries): the reads of this service's read model.

/** Sets up this service's tables (idempotent), so that its queries run in whichever process serves them first. */
export { ensureSchema as prepareQueries } from '../adapters/schema.ts';
export {
  BY_LICENSE_PLATE_SIZE,
  gatePassagesByPlate,
  type LogisticsFilter,
  listGatePassages,
} from './gate-passages.ts';
