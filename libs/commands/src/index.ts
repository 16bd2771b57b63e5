export * from './body.ts';
export * from './decide-and-append.ts';
export * from './decide-once.ts';
export * from './dispatch.ts';
