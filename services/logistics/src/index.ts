export { ensureSchema } from './adapters/schema.ts';
export { startLogistics } from './entry-points/service.ts';
