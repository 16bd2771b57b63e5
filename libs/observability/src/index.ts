export * from './logger.ts';
export * from './metrics.ts';
export * from './ops-server.ts';
export * from './tracing.ts';
