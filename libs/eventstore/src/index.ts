export { createHorizonWatch, type HorizonHolder, type HorizonWatch } from './horizon.ts';
export { compareCheckpoints } from './plan.ts';
export { createEventStore, DEFAULT_NOTIFY_INTERVAL_MS, type EventStoreOptions } from './store.ts';
export * from './types.ts';
