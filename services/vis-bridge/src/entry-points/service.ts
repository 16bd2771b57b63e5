// Starts the vis-bridge service on whatever adapters it is given (fleet: PostgreSQL + RabbitMQ; embedded: PGlite +
// the in-process bus). Its commands arrive on `cmd.vis-bridge`.

import { commandHandler } from '@pcas/commands';
import { type RunningService, type ServiceDeps, VIS_BRIDGE } from '@pcas/contracts';
import { ensureSchema } from '../adapters/schema.ts';

export async function startVisBridge(deps: ServiceDeps): Promise<RunningService> {
  await ensureSchema(deps.db);
  const rpc = await deps.bus.serveRpc(VIS_BRIDGE, commandHandler({}));
  deps.log.info('vis-bridge serving cmd.vis-bridge');
  return {
    async stop() {
      await rpc.stop();
    },
  };
}
