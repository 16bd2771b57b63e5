// Pure values the services and the web UI share (docs/architecture.md, libs): one rule each, no I/O, nothing that
// needs Node (content-based ids and key pairs are `@pcas/values/name-uuid` and `@pcas/values/key-pair`).

export * from './atom-time.ts';
export * from './backoff.ts';
export * from './canonical-json.ts';
export * from './duration.ts';
export * from './email.ts';
export * from './form-claims.ts';
export * from './imo.ts';
export * from './locode.ts';
export * from './session-payload.ts';
export * from './vessel-identity.ts';
