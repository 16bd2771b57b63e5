// The port-call context, first slice: the timestamp list read model, fed from the vessel streams on the bus.

import type { RunningService, ServiceDeps } from '@pcas/contracts';
import { startProjection } from '@pcas/messaging';
import { ensureSchema } from '../adapters/schema.ts';
import { applyTimestampEvents } from '../adapters/timestamp-rows.ts';

export async function startPortcallProjector(deps: ServiceDeps): Promise<RunningService> {
  const { bus, db, log } = deps;
  await ensureSchema(db);
  const timestamps = await startProjection({
    bus,
    db,
    name: 'timestamps',
    bindings: ['vessel.#'],
    apply: async (tx, events) => {
      await applyTimestampEvents(tx, events);
    },
    log: log.child({ projection: 'timestamps' }),
  });
  log.info('portcall-projector started');
  return {
    async stop() {
      await timestamps.stop();
    },
  };
}
