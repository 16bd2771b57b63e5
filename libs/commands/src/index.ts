export * from './body.ts';
export * from './decide-and-append.ts';
export * from './dispatch.ts';
