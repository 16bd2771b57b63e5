// Routes of the sea chart: vessel positions, markers, fixed vessels (ingest).

import type { Route } from '@pcas/http-kit';
import type { GatewayDeps } from '../deps.ts';

export function seaChartRoutes(_deps: GatewayDeps): Route[] {
  return [];
}
