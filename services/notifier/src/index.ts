export { ensureSchema } from './adapters/schema.ts';
export { startNotifier } from './entry-points/service.ts';
