// What the gateway runs of the ingest service in its own process (`@pcas/ingest/queries`,
// docs/architecture.md#queries): the reads of this service's read models.

/** Sets up this service's tables (idempotent), so that its queries run in whichever process serves them first. */
export { ensureSchema as prepareQueries } from '../adapters/schema.ts';
export {
  type ApiKeyNames,
  listPayloadKeyWeights,
  listTimestampWeights,
  type PayloadKeyWeightRow,
  type TimestampWeightRow,
  type WeightedApiKey,
} from './priorities.ts';
export {
  createSeaChartFeatures,
  type FixedVesselListQuery,
  fixedVesselById,
  listFixedVessels,
  type ShownVessels,
} from './sea-chart.ts';
export {
  createVesselQueries,
  type VesselListQuery,
  type VesselListRow,
  type VesselQueries,
  type VesselVisibility,
} from './vessels.ts';
