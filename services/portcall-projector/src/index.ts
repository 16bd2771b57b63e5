export { type RebuildProgress, type RebuildSummary, rebuildAll } from './adapters/rebuild.ts';
export { ensureSchema } from './adapters/schema.ts';
export { type PortcallProjectorOptions, rulesFromEnv, startPortcallProjector } from './entry-points/service.ts';
