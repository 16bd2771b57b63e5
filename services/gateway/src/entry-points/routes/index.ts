// The gateway's route table.

import { type Route, withOpenApi } from '@pcas/http-kit';
import { SERVICE_NAME, SERVICE_VERSION } from '../about.ts';
import type { GatewayDeps } from '../deps.ts';
import { webUiOf } from '../web-ui.ts';
import { apiKeyRoutes } from './api-keys.ts';
import { berthBoardRoutes } from './berth-board.ts';
import { dcsaRoutes } from './dcsa.ts';
import { dcsaAdminRoutes } from './dcsa-admin.ts';
import { decisionRoutes } from './decisions.ts';
import { etaFormRoutes } from './eta-form.ts';
import { healthRoutes } from './health.ts';
import { homePageRoutes } from './home-page.ts';
import { logisticsRoutes } from './logistics.ts';
import { notificationRoutes } from './notifications.ts';
import { passwordRoutes } from './passwords.ts';
import { pinnedVesselRoutes } from './pinned-vessels.ts';
import { portCallCorrectionRoutes } from './port-call-corrections.ts';
import { portCallRoutes } from './port-calls.ts';
import { priorityRoutes } from './priorities.ts';
import { pushTokenRoutes } from './push-tokens.ts';
import { queueRoutes } from './queue.ts';
import { registrationRoutes } from './registration.ts';
import { registrationCodeRoutes } from './registration-codes.ts';
import { roleRoutes } from './roles.ts';
import { seaChartRoutes } from './sea-chart.ts';
import { sessionRoutes } from './session.ts';
import { settingRoutes } from './settings.ts';
import { timestampRoutes } from './timestamps.ts';
import { translationRoutes } from './translations.ts';
import { userRoutes } from './users.ts';
import { vesselRoutes } from './vessels.ts';
import { visRoutes } from './vis.ts';
import { visPeerRoutes } from './vis-peer.ts';

/**
 * Every route, and GET /openapi.json describing them all (built here, once). With a web UI served at / (see
 * web-ui.ts), the status page is at /status only.
 */
export function allRoutes(deps: GatewayDeps): Route[] {
  const options = { webUi: webUiOf(deps.config) !== undefined };
  const routes = [
    ...sessionRoutes(deps),
    ...apiKeyRoutes(deps),
    ...priorityRoutes(deps),
    ...healthRoutes(deps),
    ...timestampRoutes(deps),
    ...vesselRoutes(deps),
    ...portCallRoutes(deps),
    ...portCallCorrectionRoutes(deps),
    ...berthBoardRoutes(deps),
    ...notificationRoutes(deps),
    ...decisionRoutes(deps),
    ...pinnedVesselRoutes(deps),
    ...logisticsRoutes(deps),
    ...seaChartRoutes(deps),
    ...queueRoutes(deps),
    ...etaFormRoutes(deps),
    ...visRoutes(deps),
    ...visPeerRoutes(deps),
    ...dcsaRoutes(deps),
    ...dcsaAdminRoutes(deps),
    ...roleRoutes(deps),
    ...settingRoutes(deps),
    ...translationRoutes(deps),
    ...pushTokenRoutes(deps),
    ...userRoutes(deps),
    ...registrationRoutes(deps),
    ...registrationCodeRoutes(deps),
    ...passwordRoutes(deps),
    ...homePageRoutes(deps, options),
  ];
  return withOpenApi(routes, { title: SERVICE_NAME, version: SERVICE_VERSION });
}
