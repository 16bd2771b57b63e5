// Starts the queue-scheduler service on whatever adapters it is given (fleet: PostgreSQL + RabbitMQ; embedded: PGlite +
// the in-process bus). Its commands arrive on `cmd.queue-scheduler`.

import { commandHandler } from '@pcas/commands';
import { QUEUE_SCHEDULER, type RunningService, type ServiceDeps } from '@pcas/contracts';
import { ensureSchema } from '../adapters/schema.ts';

export async function startQueueScheduler(deps: ServiceDeps): Promise<RunningService> {
  await ensureSchema(deps.db);
  const rpc = await deps.bus.serveRpc(QUEUE_SCHEDULER, commandHandler({}));
  deps.log.info('queue-scheduler serving cmd.queue-scheduler');
  return {
    async stop() {
      await rpc.stop();
    },
  };
}
