// Routes of the just-in-time arrival queue (queue-scheduler, cmd.queue-scheduler).

import type { Route } from '@pcas/http-kit';
import type { GatewayDeps } from '../deps.ts';

export function queueRoutes(_deps: GatewayDeps): Route[] {
  return [];
}
