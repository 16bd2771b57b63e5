export { ensureSchema } from './adapters/schema.ts';
export { startQueueScheduler } from './entry-points/service.ts';
