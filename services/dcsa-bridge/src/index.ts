export { ensureSchema } from './adapters/schema.ts';
export { startDcsaBridge } from './entry-points/service.ts';
