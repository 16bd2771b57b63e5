// What every `cmd.ingest` command group shares: the stores, the clock and the vessel cache (one per process).

import type { EventStore } from '@pcas/eventstore';
import type { Logger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import type { VesselCache } from '../adapters/vessel-cache.ts';

export interface IngestCommandDeps {
  db: Db;
  store: EventStore;
  log: Logger;
  /** The port's namespace (config NAMESPACE): its port-call template decides which pairs can have priorities. */
  namespace: string;
  /** Injectable clock for tests. */
  now?: () => Date;
  /** Cached vessel snapshots kept at most (least recently used go first). */
  cacheSize?: number;
}

export interface IngestContext {
  db: Db;
  store: EventStore;
  log: Logger;
  namespace: string;
  now: () => Date;
  cache: VesselCache;
}

/** The 503 of a vessel stream that kept moving on under a command. */
export const VESSEL_BUSY = 'Vessel is being updated concurrently; retry';

/** The optional RPC headers of a command called directly (tests, the gateway in process). */
export type Headers = Record<string, unknown>;
