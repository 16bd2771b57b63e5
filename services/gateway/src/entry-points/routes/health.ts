// GET /health-check (public): 200 when every dependency in use answers, else 503 with the same body, so a
// load balancer or orchestrator can act on the status alone. `DEGRADED` (200): a writer of our database has held
// the event log's readers back past EVENT_LOG_HOLD_WARN_MS; `event_log.held_back_by` names it.

import type { HorizonHolder } from '@pcas/eventstore';
import { HttpResponse, type Route } from '@pcas/http-kit';
import { projectionLag } from '@pcas/messaging';
import type { GatewayDeps } from '../deps.ts';

export type DependencyState = 'ok' | 'down' | 'not used';

// A dependency that hangs counts as down; the check must answer quickly either way.
const CHECK_TIMEOUT_MS = 2_000;

function within<T>(promise: Promise<T>, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise.catch(() => fallback), timeout]).finally(() => clearTimeout(timer));
}

export interface Health {
  healthy: boolean;
  dependencies: { postgres: DependencyState; rabbitmq: DependencyState; redis: DependencyState };
  projections: { name: string; lag_seconds: number }[];
  /** Writers of our database holding the event log's readers back past the threshold (EVENT_LOG_HOLD_WARN_MS). */
  heldBackBy: HorizonHolder[];
}

/** Asks every dependency in use at once; what /health-check answers and the page at / shows. */
export function healthCheck(deps: GatewayDeps): () => Promise<Health> {
  const { db, bus, sessions, config, log, horizonWatch } = deps;

  const postgres = async (): Promise<DependencyState> => {
    await db.query('SELECT 1');
    return 'ok';
  };
  // The embedded mode runs the in-process bus: there is no broker to ask.
  const rabbitmq = async (): Promise<DependencyState> =>
    config.mode === 'fleet' ? ((await bus.healthy()) ? 'ok' : 'down') : 'not used';
  const projections = async () => {
    try {
      const lags = await projectionLag(db);
      return lags.map((lag) => ({ name: lag.consumer, lag_seconds: lag.lag_seconds }));
    } catch (error) {
      // Lag is information, not a dependency: a fresh database without projections yet is healthy.
      log.debug({ err: error }, 'projection lag unavailable');
      return [];
    }
  };

  return async () => {
    const [pg, amqp, redis, lags, heldBackBy] = await Promise.all([
      within(postgres(), 'down' as DependencyState),
      within(rabbitmq(), 'down' as DependencyState),
      within(sessions.health(), 'down' as DependencyState),
      within(projections(), []),
      within(horizonWatch.check(), [] as HorizonHolder[]),
    ]);
    return {
      healthy: pg === 'ok' && amqp !== 'down' && redis !== 'down',
      dependencies: { postgres: pg, rabbitmq: amqp, redis },
      projections: lags,
      heldBackBy,
    };
  };
}

export function healthRoutes(deps: GatewayDeps): Route[] {
  const check = healthCheck(deps);
  return [
    {
      method: 'GET',
      path: '/health-check',
      permission: 'public',
      params: {},
      responses: { 503: { description: 'A dependency is down; the body is the same report as the 200.' } },
      async handle() {
        const { healthy, dependencies, projections, heldBackBy } = await check();
        // DEGRADED still answers 200: this process serves, only what the event log feeds (live views) waits.
        const status = !healthy ? 'ERROR' : heldBackBy.length > 0 ? 'DEGRADED' : 'OK';
        const body = { status, dependencies, projections, event_log: { held_back_by: heldBackBy } };
        return healthy ? body : new HttpResponse(503, JSON.stringify(body), { 'Content-Type': 'application/json' });
      },
    },
  ];
}
