// Routes of VIS/STM messaging (vis-bridge, cmd.vis-bridge).

import type { Route } from '@pcas/http-kit';
import type { GatewayDeps } from '../deps.ts';

export function visRoutes(_deps: GatewayDeps): Route[] {
  return [];
}
