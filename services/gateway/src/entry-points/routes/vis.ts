// Routes of VIS/STM messaging (vis-bridge, cmd.vis-bridge; docs/domain.md#vis-and-other-ports). What the agent
// posts (API key) and what users send are the vis-bridge's to check and store, sent on over RPC; the lists are its
// queries (`@pcas/vis-bridge/queries`), run here. Every route belongs to the VIS module (set here, once): off, they
// answer 403 naming it.
//
// By concern: vis-agent.ts (the agent's posts), vis-reads.ts (the lists), vis-service.ts (find, poll,
// configuration, sending), vis-ports.ts (other ports and the whitelists); what they share is vis-shared.ts.

import type { Route } from '@pcas/http-kit';
import type { GatewayDeps } from '../deps.ts';
import { visAgentRoutes } from './vis-agent.ts';
import { visPortRoutes } from './vis-ports.ts';
import { visReadRoutes } from './vis-reads.ts';
import { visServiceRoutes } from './vis-service.ts';

export function visRoutes(deps: GatewayDeps): Route[] {
  const routes = [...visAgentRoutes(deps), ...visReadRoutes(deps), ...visServiceRoutes(deps), ...visPortRoutes(deps)];
  return routes.map((route): Route => ({ ...route, module: 'vis' }));
}
