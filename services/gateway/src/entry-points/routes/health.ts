// GET /health-check (public): 200 when every dependency in use answers, else 503 with the same body, so a
// load balancer or orchestrator can act on the status alone.

import { HttpResponse, type Route } from '@pcas/http-kit';
import { projectionLag } from '@pcas/messaging';
import type { GatewayDeps } from '../deps.ts';

type DependencyState = 'ok' | 'down' | 'not used';

// A dependency that hangs counts as down; the check must answer quickly either way.
const CHECK_TIMEOUT_MS = 2_000;

function within<T>(promise: Promise<T>, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise.catch(() => fallback), timeout]).finally(() => clearTimeout(timer));
}

export function healthRoutes(deps: GatewayDeps): Route[] {
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

  return [
    {
      method: 'GET',
      path: '/health-check',
      permission: 'public',
      params: {},
      async handle() {
        const [pg, amqp, redis, lags] = await Promise.all([
          within(postgres(), 'down' as DependencyState),
          within(rabbitmq(), 'down' as DependencyState),
          within(sessions.health(), 'down' as DependencyState),
          within(projections(), []),
        ]);
        const healthy = pg === 'ok' && amqp !== 'down' && redis !== 'down';
        const body = {
          status: healthy ? 'OK' : 'ERROR',
          dependencies: { postgres: pg, rabbitmq: amqp, redis },
          projections: lags,
        };
        return healthy ? body : new HttpResponse(503, JSON.stringify(body), { 'Content-Type': 'application/json' });
      },
    },
  ];
}
