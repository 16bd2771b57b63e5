// What every gateway route factory receives. Route files export `(deps: GatewayDeps) => Route[]`.

import type { ServiceDeps } from '@pcas/contracts';
import type { SessionStore } from '../adapters/session-store.ts';

export interface GatewayDeps extends ServiceDeps {
  sessions: SessionStore;
}
