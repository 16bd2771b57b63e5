// Starts the ingest service on whatever adapters it is given (fleet: PostgreSQL + RabbitMQ; embedded: PGlite +
// the in-process bus).

import { INGEST, type RunningService, type ServiceDeps } from '@pcas/contracts';
import { ensureSchema } from '../adapters/schema.ts';
import { createIngestCommands } from './commands.ts';

export async function startIngest(deps: ServiceDeps): Promise<RunningService> {
  await ensureSchema(deps.db);
  const commands = createIngestCommands({
    db: deps.db,
    store: deps.store,
    log: deps.log,
    namespace: deps.config.namespace,
  });
  const rpc = await deps.bus.serveRpc(INGEST, commands.handle);
  deps.log.info('ingest serving cmd.ingest');
  return {
    async stop() {
      await rpc.stop();
    },
  };
}
