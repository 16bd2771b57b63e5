// The gateway's route table.

import type { Route } from '@pcas/http-kit';
import type { GatewayDeps } from '../deps.ts';
import { apiKeyRoutes } from './api-keys.ts';
import { healthRoutes } from './health.ts';
import { passwordRoutes } from './passwords.ts';
import { portCallCorrectionRoutes } from './port-call-corrections.ts';
import { portCallRoutes } from './port-calls.ts';
import { priorityRoutes } from './priorities.ts';
import { pushTokenRoutes } from './push-tokens.ts';
import { registrationRoutes } from './registration.ts';
import { registrationCodeRoutes } from './registration-codes.ts';
import { roleRoutes } from './roles.ts';
import { sessionRoutes } from './session.ts';
import { settingRoutes } from './settings.ts';
import { timestampRoutes } from './timestamps.ts';
import { translationRoutes } from './translations.ts';
import { userRoutes } from './users.ts';
import { vesselRoutes } from './vessels.ts';

export function allRoutes(deps: GatewayDeps): Route[] {
  return [
    ...sessionRoutes(deps),
    ...apiKeyRoutes(deps),
    ...priorityRoutes(deps),
    ...healthRoutes(deps),
    ...timestampRoutes(deps),
    ...vesselRoutes(deps),
    ...portCallRoutes(deps),
    ...portCallCorrectionRoutes(deps),
    ...roleRoutes(deps),
    ...settingRoutes(deps),
    ...translationRoutes(deps),
    ...pushTokenRoutes(deps),
    ...userRoutes(deps),
    ...registrationRoutes(deps),
    ...registrationCodeRoutes(deps),
    ...passwordRoutes(deps),
  ];
}
