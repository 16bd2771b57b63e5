// What the launcher (embedded mode) and tests use.

export {
  createRedisSessionStore,
  createSqlSessionStore,
  type SessionInfo,
  type SessionStore,
} from './adapters/session-store.ts';
export { EMBEDDED_ADMIN_PASSWORD } from './entry-points/about.ts';
export type { GatewayDeps } from './entry-points/deps.ts';
export { startGateway } from './entry-points/service.ts';
