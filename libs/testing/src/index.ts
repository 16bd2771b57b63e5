export * from './browser.ts';
export * from './client.ts';
export * from './expo.ts';
export * from './infra.ts';
export * from './processes.ts';
export * from './rabbit-node.ts';
export * from './realtime-client.ts';
export * from './smtp.ts';
