// Test support: a fresh database with the event store and ingest's schema, and ingest's commands on it, for
// ingest's int tests.

import { createEventStore, type EventStore } from '@pcas/eventstore';
import type { Logger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import { type DatabaseForTest, freshDatabase } from '@pcas/testing';
import { afterAll, beforeAll } from 'vitest';
import { ensureSchema } from '../adapters/schema.ts';
import { createIngestCommands, type IngestCommandHandlers } from '../entry-points/commands.ts';

export interface IngestDatabase extends DatabaseForTest {
  store: EventStore;
  /**
   * The events in the log, counted in the table rather than through readAll: readAll holds back what is younger
   * than any running transaction in the whole cluster, so a busy neighbour (another test file's database) would
   * make a count lag.
   */
  eventCount(): Promise<number>;
}

export async function ingestDatabase(
  prefix: string,
  pool?: Parameters<typeof freshDatabase>[1],
): Promise<IngestDatabase> {
  const database = await freshDatabase(prefix, pool);
  const store = createEventStore(database.db);
  await store.init();
  await ensureSchema(database.db);
  const eventCount = async () =>
    Number((await database.db.query('SELECT count(*) AS n FROM eventstore.events')).rows[0].n);
  return { ...database, store, eventCount };
}

export interface IngestForTest {
  database: IngestDatabase;
  db: Db;
  store: EventStore;
  ingest: IngestCommandHandlers;
}

/**
 * The test file's database and ingest's commands on it (`now`: the commands' clock, else the real one): made before
 * its tests, handed to `ready` (which keeps what the tests use) and closed after them.
 */
export function useIngest(
  prefix: string,
  options: { pool?: Parameters<typeof freshDatabase>[1]; now?: Date; log: Logger },
  ready: (made: IngestForTest) => void | Promise<void>,
): void {
  let database: IngestDatabase | undefined;
  beforeAll(async () => {
    database = await ingestDatabase(prefix, options.pool);
    const { db, store } = database;
    const now = options.now;
    const ingest = createIngestCommands({
      db,
      store,
      log: options.log,
      namespace: 'gavle',
      ...(now && { now: () => now }),
    });
    await ready({ database, db, store, ingest });
  });
  afterAll(() => database?.close());
}
