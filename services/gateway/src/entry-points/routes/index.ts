// The gateway's route table.

import type { Route } from '@pcas/http-kit';
import type { GatewayDeps } from '../deps.ts';
import { apiKeyRoutes } from './api-keys.ts';
import { healthRoutes } from './health.ts';
import { sessionRoutes } from './session.ts';
import { timestampRoutes } from './timestamps.ts';
import { vesselRoutes } from './vessels.ts';

export function allRoutes(deps: GatewayDeps): Route[] {
  return [
    ...sessionRoutes(deps),
    ...apiKeyRoutes(deps),
    ...healthRoutes(deps),
    ...timestampRoutes(deps),
    ...vesselRoutes(deps),
  ];
}
