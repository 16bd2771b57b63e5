// Test support: a fresh database with the event store and ingest's schema, for ingest's int tests.

import { createEventStore, type EventStore } from '@pcas/eventstore';
import { type DatabaseForTest, freshDatabase } from '@pcas/testing';
import { ensureSchema } from '../adapters/schema.ts';

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
