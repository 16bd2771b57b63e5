export { createHttpApp } from './app.ts';
export * from './listing.ts';
export { DEFAULT_MAX_LENGTH } from './params.ts';
export * from './types.ts';
