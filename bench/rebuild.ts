// `pnpm bench:rebuild [-- --vessels 5000 --days 150 --workers 1 --concurrency 2]`: generates a log of realistic
// vessel traffic (ETAs days ahead, arrival, berth, cargo, ETDs, departure; over 1,000,000 timestamps for 5,000
// vessels by default) straight into a fresh database's event store, rebuilds every port call from it with the
// projector's rebuild, and prints one JSON line: events/s of the rebuild and the peak RSS of this process.
// `--workers 1` (the default): this thread and one worker thread rebuild, one per core of a 2-core machine.

import { cpus } from 'node:os';
import { vesselStream } from '@pcas/contracts';
import { createEventStore, type StreamAppend } from '@pcas/eventstore';
import { createLogger } from '@pcas/observability';
import { ensureSchema, rebuildAll, rulesFromEnv } from '@pcas/portcall-projector';
import { vesselPosts } from '@pcas/portcall-projector/testing';
import { openDb } from '@pcas/sql';
import { freshPostgres } from '@pcas/testing';
import { benchOptions } from './support.ts';

const values = benchOptions({ vessels: 5000, days: 150, workers: 1, concurrency: 2, keep: false });
const { vessels, days } = values;

const log = createLogger('bench-rebuild', 'warn');
const pg = await freshPostgres('pcas_bench_rebuild');
if (!pg.url) throw new Error('bench:rebuild needs PostgreSQL (DATABASE_URL or a local server)');
const db = await openDb({ url: pg.url, poolSize: 8, applicationName: 'bench-rebuild' });
const store = createEventStore(db);
await store.init();
await ensureSchema(db);

// Generation: each vessel's history in posting order; 25 vessels per appendMany (one round trip, one transaction).
const now = Date.now();
const generated = performance.now();
let total = 0;
const PER_APPEND = 25;
for (let first = 0; first < vessels; first += PER_APPEND) {
  const entries: StreamAppend[] = [];
  for (let v = first; v < Math.min(vessels, first + PER_APPEND); v++) {
    const imo = 9_000_000 + v;
    const posts = vesselPosts(imo, { vessels, from: now - days * 86_400_000, to: now }, 7919 + v);
    total += posts.length;
    entries.push({
      streamId: vesselStream(imo),
      events: posts.map((p) => ({
        type: 'TimestampReceived',
        data: p.data,
        metadata: { user_id: p.data.user_id, api_key_id: p.data.api_key_id },
      })),
    });
  }
  await store.appendMany(entries);
  if (process.stderr.isTTY)
    process.stderr.write(`\rgenerating: ${first + PER_APPEND}/${vessels} vessels, ${total} events`);
}
const generateSeconds = (performance.now() - generated) / 1000;
if (process.stderr.isTTY) process.stderr.write('\n');

const bar = (done: number, all: number) => {
  if (!process.stderr.isTTY) return;
  const width = 30;
  const filled = all === 0 ? width : Math.round((done / all) * width);
  process.stderr.write(`\rrebuilding [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${all} events`);
};
const summary = await rebuildAll({
  db,
  store,
  log,
  rules: rulesFromEnv({}, 'gavle'),
  workers: Number(values.workers),
  concurrency: Number(values.concurrency),
  databaseUrl: pg.url,
  onProgress: (p) => bar(p.events, p.totalEvents),
});
if (process.stderr.isTTY) process.stderr.write('\n');

const { rows } = await db.query<{ port_calls: number; timestamps: number }>(
  `SELECT (SELECT count(*)::int FROM portcall.port_calls) AS port_calls,
          (SELECT count(*)::int FROM portcall.timestamps) AS timestamps`,
);
await db.close();
if (!values.keep) await pg.drop();

console.log(
  JSON.stringify({
    bench: 'rebuild',
    vessels,
    events: summary.events,
    timestamps: rows[0].timestamps,
    port_calls: rows[0].port_calls,
    generate_seconds: Math.round(generateSeconds * 10) / 10,
    rebuild_seconds: Math.round(summary.seconds * 10) / 10,
    events_per_second: summary.events_per_second,
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
    workers: Number(values.workers),
    cpus: cpus().length,
  }),
);
