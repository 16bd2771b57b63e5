export * from './client.ts';
export * from './infra.ts';
export * from './processes.ts';
