// The gateway's composition root, the same in both run modes: schema and seeds, then the HTTP app.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningService, ServiceDeps } from '@pcas/contracts';
import { createHttpApp } from '@pcas/http-kit';
import { ensureGatewaySchema } from '../adapters/schema.ts';
import type { SessionStore } from '../adapters/session-store.ts';
import { isModuleEnabled } from '../adapters/settings.ts';
import { seedFirstAdmin } from '../adapters/users.ts';
import { createAccess } from './auth.ts';
import { allRoutes } from './routes/index.ts';

export async function startGateway(
  deps: ServiceDeps & { sessions: SessionStore },
): Promise<RunningService & { port: number }> {
  const { db, config, log } = deps;
  await ensureGatewaySchema(db);
  await seedFirstAdmin(deps);
  const access = createAccess(deps);
  const app = createHttpApp({
    routes: allRoutes(deps),
    logger: log,
    authenticate: access.authenticate,
    authorize: access.authorize,
    isModuleEnabled: (module) => isModuleEnabled(db, module),
  });
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  log.info({ port }, 'gateway listening');
  return {
    port,
    async stop() {
      // Stop accepting, let in-flight requests finish, then drop idle keep-alive connections.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), 5_000);
      await closed;
      clearTimeout(force);
    },
  };
}
