// Test support: what the queue-scheduler runs on, for its int tests: a fresh database with the event store and the
// queue's schema, the in-process bus.

import { loadConfig } from '@pcas/config';
import type { ServiceDeps } from '@pcas/contracts';
import { createEventStore } from '@pcas/eventstore';
import { createInProcessBus } from '@pcas/messaging';
import { createLogger } from '@pcas/observability';
import { freshDatabase } from '@pcas/testing';
import { ensureSchema } from '../adapters/schema.ts';

export interface QueueTestDeps {
  deps: ServiceDeps;
  /** Closes the bus and the database and drops it. */
  close(): Promise<void>;
}

/** `env`: the configuration's environment (none unless said). */
export async function queueTestDeps(prefix: string, env: Record<string, string> = {}): Promise<QueueTestDeps> {
  const database = await freshDatabase(prefix);
  const { db } = database;
  const store = createEventStore(db);
  await store.init();
  const log = createLogger(prefix, process.env.LOG_LEVEL ?? 'warn');
  const deps: ServiceDeps = { config: loadConfig(env), db, store, bus: createInProcessBus({ log }), log };
  await ensureSchema(db);
  return {
    deps,
    async close() {
      await deps.bus.close();
      await database.close();
    },
  };
}
