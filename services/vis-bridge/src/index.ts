export { ensureSchema } from './adapters/schema.ts';
export { startVisBridge } from './entry-points/service.ts';
