export * from './logger.ts';
export * from './tracing.ts';
