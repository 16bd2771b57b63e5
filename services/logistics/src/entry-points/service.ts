// Starts the logistics service on whatever adapters it is given (fleet: PostgreSQL + RabbitMQ; embedded: PGlite +
// the in-process bus). Its commands arrive on `cmd.logistics`; the notifier's real-time feed announces each
// recorded passage on `logistics-changed`.

import { commandHandler } from '@pcas/commands';
import { LOGISTICS, type RunningService, type ServiceDeps } from '@pcas/contracts';
import { ensureSchema } from '../adapters/schema.ts';
import { gatePassageCommands } from './gate-passages.ts';

export async function startLogistics(deps: ServiceDeps): Promise<RunningService> {
  await ensureSchema(deps.db);
  const rpc = await deps.bus.serveRpc(LOGISTICS, commandHandler({ ...gatePassageCommands(deps) }));
  deps.log.info('logistics serving cmd.logistics');
  return {
    async stop() {
      await rpc.stop();
    },
  };
}
