// What every gateway route factory receives. Route files export `(deps: GatewayDeps) => Route[]`.

import type { ServiceDeps } from '@pcas/contracts';
import type { HorizonWatch } from '@pcas/eventstore';
import type { Mailer } from '@pcas/mail';
import type { SeaChartVessels } from '../adapters/read-models/sea-chart.ts';
import type { SessionStore } from '../adapters/session-store.ts';

export interface GatewayDeps extends ServiceDeps {
  sessions: SessionStore;
  /** Outgoing e-mail (password reset links): SMTP when SMTP_URL is set, else the outbox folder. */
  mailer: Mailer;
  /** GET /sea-chart/vessels' bodies, told of changes by the sea-chart routes and the real-time edge. */
  seaChartVessels: SeaChartVessels;
  /** Writers of our database holding the event log's readers back (on /health-check, logged once each). */
  horizonWatch: HorizonWatch;
}
