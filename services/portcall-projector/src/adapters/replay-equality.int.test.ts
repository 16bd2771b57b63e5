// Replay equality (issue 4, "Done when"): a generated month of traffic — over 200 vessels and 50,000 timestamps,
// realistic sequences from the first ETA to departure, vessels interleaved — goes through the live projection in
// batches of varying size, some delivered twice, and ends with read models identical, field by field, to the
// ones a full rebuild from the log writes. The projection code is driven directly against PostgreSQL (no broker:
// the bus's part, delivery and deduplication, is tested in libs/messaging and entry-points/service.int.test.ts).

import { createEventStore, type EventStore, type RecordedEvent } from '@pcas/eventstore';
import { createLogger } from '@pcas/observability';
import { type Db, openDb } from '@pcas/sql';
import { freshPostgres, type PostgresForTest } from '@pcas/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_PORT_CALL_SETTINGS, portCallTemplate } from '../domain/port-calls.ts';
import { appendPosts, countedRows, readLog, readModels, timestampCounts } from '../testing/read-models.ts';
import { seeded, trafficPosts } from '../testing/traffic.ts';
import { type ProjectorRules, projectBatch } from './projection.ts';
import { rebuildAll } from './rebuild.ts';
import { ensureSchema } from './schema.ts';
import { VesselCache } from './vessel-state.ts';

const log = createLogger('replay-equality-test', 'silent');
const DAY = 86_400_000;
const rules: ProjectorRules = {
  settings: DEFAULT_PORT_CALL_SETTINGS,
  clustering: 'density',
  template: portCallTemplate('gavle'),
};

let pg: PostgresForTest;
let db: Db;
let store: EventStore;

beforeAll(async () => {
  pg = await freshPostgres('pcas_replay');
  db = await openDb(pg.url ? { url: pg.url } : { dataDir: 'memory://' });
  store = createEventStore(db);
  await store.init();
  await ensureSchema(db);
});

afterAll(async () => {
  await db?.close();
  await pg?.drop();
});

it('a month of traffic through the live path gives the read models of a full rebuild', async () => {
  const now = Date.now();
  const posts = trafficPosts({
    vessels: 210,
    from: now - 30 * DAY,
    to: now,
    seed: 2026,
    interval: [2, 6],
    etas: [20, 40],
    etds: [5, 10],
  });
  expect(posts.length).toBeGreaterThanOrEqual(50_000);
  await appendPosts(store, posts);
  const log_ = await readLog(store, posts.length);
  expect(log_).toHaveLength(posts.length);

  // Live: batches of 1–150 events in commit order; one batch in ten is delivered again later (a redelivery after
  // a lost ack, or the relay republishing after a restart).
  const r = seeded(7);
  const cache = new VesselCache();
  const again: RecordedEvent[][] = [];
  let redelivered = 0;
  for (let i = 0; i < log_.length; ) {
    const size = 1 + Math.floor(r() * 150);
    const batch = log_.slice(i, i + size);
    i += size;
    await db.transaction((tx) => projectBatch(tx, store, rules, batch, cache));
    if (r() < 0.1) again.push(batch);
    if (again.length > 0 && r() < 0.1) {
      const old = again.shift()!;
      redelivered += old.length;
      await db.transaction((tx) => projectBatch(tx, store, rules, old, cache));
    }
  }
  expect(redelivered).toBeGreaterThan(1_000);
  const live = await readModels(db);
  expect(live.timestamps).toHaveLength(posts.length);
  expect(await timestampCounts(db)).toEqual(await countedRows(db));
  expect(live.vessels).toHaveLength(210);

  const summary = await rebuildAll({ db, store, rules, log });
  expect(summary.events).toBe(posts.length);
  const rebuilt = await readModels(db);
  expect(rebuilt.vessels).toEqual(live.vessels);
  expect(rebuilt.port_calls.length).toBe(live.port_calls.length);
  for (let i = 0; i < live.port_calls.length; i++) expect(rebuilt.port_calls[i]).toEqual(live.port_calls[i]);
  for (let i = 0; i < live.timestamps.length; i++) expect(rebuilt.timestamps[i]).toEqual(live.timestamps[i]);
  // A rebuild rewrites rows it already has: the per-vessel counts stay exact.
  expect(await timestampCounts(db)).toEqual(await countedRows(db));
}, 600_000);
