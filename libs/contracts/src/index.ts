export * from '@pcas/errors';
export * from './agent-time.ts';
export * from './events.ts';
export * from './legacy-secrets.ts';
export * from './rpc.ts';
export * from './service.ts';
