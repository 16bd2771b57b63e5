// What the gateway runs of the logistics service in its own process (`@pcas/logistics/queries`,
// docs/architecture.md#queries): the reads of this service's read model.

export {
  BY_LICENSE_PLATE_SIZE,
  gatePassagesByPlate,
  type LogisticsFilter,
  listGatePassages,
} from './gate-passages.ts';
