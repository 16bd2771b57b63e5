// GET /health-check (public): 200 when every dependency in use answers, else 503 with the same body, so a
// load balancer or orchestrator can act on the status alone.

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
}

/** Asks every dependency in use at once; what /health-check answers and the page at / shows. */
export function healthCheck(deps: GatewayDeps): () => Promise<Health> {
  const { db, bus, sessions, config, log } = deps;

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
    const [pg, amqp, redis, lags] = await Promise.all([
      within(postgres(), 'down' as DependencyState),
      within(rabbitmq(), 'down' as DependencyState),
      within(sessions.health(), 'down' as DependencyState),
      within(projections(), []),
    ]);
    return {
      healthy: pg === 'ok' && amqp !== 'down' && redis !== 'down',
      dependencies: { postgres: pg, rabbitmq: amqp, redis },
      projections: lags,
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
        const { healthy, dependencies, projections } = await check();
        const body = { status: healthy ? 'OK' : 'ERROR', dependencies, projections };
        return healthy ? body : new HttpResponse(503, JSON.stringify(body), { 'Content-Type': 'application/json' });
      },
    },
  ];
}
