// Test support: a fresh database with the event store and the notifier's schema, for the notifier's int tests.

import { createEventStore, type EventStore } from '@pcas/eventstore';
import { type DatabaseForTest, freshDatabase } from '@pcas/testing';
import { ensureSchema } from '../adapters/schema.ts';

export interface NotifierDatabase extends DatabaseForTest {
  store: EventStore;
}

export async function notifierDatabase(prefix: string): Promise<NotifierDatabase> {
  const database = await freshDatabase(prefix);
  const store = createEventStore(database.db);
  await store.init();
  await ensureSchema(database.db);
  return { ...database, store };
}
