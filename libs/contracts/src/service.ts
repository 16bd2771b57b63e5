// How a service is started: the same function in both run modes. The fleet's per-service `main.ts` opens the
// real connections (PostgreSQL, RabbitMQ, Redis) and calls it; the embedded launcher passes PGlite and the
// in-process bus. Only these adapters differ between the modes.

import type { Config } from '@pcas/config';
import type { EventStore } from '@pcas/eventstore';
import type { Bus } from '@pcas/messaging';
import type { Logger } from '@pcas/observability';
import type { Db } from '@pcas/sql';

export interface ServiceDeps {
  config: Config;
  db: Db;
  store: EventStore;
  bus: Bus;
  log: Logger;
}

export interface RunningService {
  stop(): Promise<void>;
}
