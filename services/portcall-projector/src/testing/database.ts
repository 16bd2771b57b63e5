// Test support: a fresh database with the event store and the projector's schema, and the rules the adapters' int
// tests project with (Gävle's template, density clustering).

import { createEventStore, type EventStore } from '@pcas/eventstore';
import { type DatabaseForTest, freshDatabase } from '@pcas/testing';
import { afterAll, beforeAll } from 'vitest';
import type { ProjectorRules } from '../adapters/projection.ts';
import { ensureSchema } from '../adapters/schema.ts';
import { DEFAULT_PORT_CALL_SETTINGS } from '../domain/port-call-settings.ts';
import { portCallTemplate } from '../domain/port-calls.ts';

export const GAVLE_RULES: ProjectorRules = {
  settings: DEFAULT_PORT_CALL_SETTINGS,
  clustering: 'density',
  template: portCallTemplate('gavle'),
};

export interface ProjectorDatabase extends DatabaseForTest {
  store: EventStore;
}

/** `schemaStarts` projector instances create the schema at once (their DDL must not trip over each other's). */
export async function projectorDatabase(prefix: string, schemaStarts = 1): Promise<ProjectorDatabase> {
  const database = await freshDatabase(prefix);
  const store = createEventStore(database.db);
  await store.init();
  await Promise.all(Array.from({ length: schemaStarts }, () => ensureSchema(database.db)));
  return { ...database, store };
}

/**
 * The test file's database: made before its tests, handed to `ready` (which keeps what the tests use) and closed
 * after them.
 */
export function useProjectorDatabase(
  prefix: string,
  ready: (database: ProjectorDatabase) => void,
  schemaStarts = 1,
): void {
  let database: ProjectorDatabase | undefined;
  beforeAll(async () => {
    database = await projectorDatabase(prefix, schemaStarts);
    ready(database);
  });
  afterAll(() => database?.close());
}
