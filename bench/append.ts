// Event-store append throughput against a bare INSERT, on real PostgreSQL, in one run (same machine state).
// One event (~100 B JSON) per append to a random stream of 1,000; 1 writer and 16 writers (pool of 16, each
// writer on its own connection). Also measures the un-throttled variant (a NOTIFY on every append) that the
// store's default replaces. Prints one JSON line.
//
//   pnpm bench:append            (DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres)

import { randomBytes } from 'node:crypto';
import { createEventStore, DEFAULT_NOTIFY_INTERVAL_MS, type EventStore } from '@pcas/eventstore';
import { openDb } from '@pcas/sql';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const OPS_1 = Number(process.env.BENCH_OPS_1 ?? 2_000);
const OPS_16 = Number(process.env.BENCH_OPS_16 ?? 12_000);
const STREAMS = 1_000;

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = `pcas_bench_${randomBytes(4).toString('hex')}`;

async function admin(sql: string) {
  const db = await openDb({ url: adminUrl, poolSize: 1 });
  try {
    await db.query(sql);
  } finally {
    await db.close();
  }
}

const stream = () => `vessel-${Math.floor(Math.random() * STREAMS)}`;
// About 100 bytes of JSON, like one port-call timestamp.
const payload = (i: number) => ({
  imo: 9_200_000 + (i % 100_000),
  state: 'Arrival_Vessel_Berth',
  time: new Date(1_700_000_000_000 + i * 1000).toISOString(),
  source: 'bench',
});

/** Runs `total` operations on `writers` concurrent loops; operations per second. */
async function rate(writers: number, total: number, op: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      for (let i = next++; i < total; i = next++) await op(i);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return total / seconds;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  await admin(`CREATE DATABASE ${dbName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  const db = await openDb({ url: url.toString(), poolSize: 16, applicationName: 'bench-append' });
  try {
    const throttled = createEventStore(db);
    const notifyEach = createEventStore(db, { notifyIntervalMs: 0 });
    await throttled.init();
    await db.query(`CREATE TABLE bench_insert (
      global_position bigserial PRIMARY KEY, stream_id text NOT NULL, version int NOT NULL, type text NOT NULL,
      data jsonb NOT NULL, UNIQUE (stream_id, version))`);
    // A subscriber's LISTEN is open, as in production: NOTIFY costs are paid for real.
    let notifications = 0;
    const unlisten = await db.listen('eventstore_events', () => {
      notifications++;
    });

    let version = 0;
    const insert = () =>
      db.query('INSERT INTO bench_insert (stream_id, version, type, data) VALUES ($1, $2, $3, $4)', [
        stream(),
        ++version,
        'PortCallTimestamp',
        JSON.stringify(payload(version)),
      ]);
    const append = (store: EventStore) => (i: number) =>
      store.append(stream(), [{ type: 'PortCallTimestamp', data: payload(i) }]);

    // Warm up connections, plans and caches.
    await rate(16, 1_000, insert);
    await rate(16, 1_000, append(throttled));

    const results: Record<string, number[]> = {
      insert_1: [],
      append_1: [],
      insert_16: [],
      append_16: [],
      append_16_notify_each: [],
    };
    let throttledNotifications = 0;
    for (let round = 0; round < ROUNDS; round++) {
      results.insert_1.push(await rate(1, OPS_1, insert));
      results.append_1.push(await rate(1, OPS_1, append(throttled)));
      results.insert_16.push(await rate(16, OPS_16, insert));
      const before = notifications;
      results.append_16.push(await rate(16, OPS_16, append(throttled)));
      throttledNotifications += notifications - before;
      results.append_16_notify_each.push(await rate(16, OPS_16, append(notifyEach)));
    }
    await unlisten();

    const m = Object.fromEntries(Object.entries(results).map(([k, v]) => [k, Math.round(median(v))]));
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::int8 AS n FROM eventstore.events');
    const expected = 1_000 + ROUNDS * (OPS_1 + 2 * OPS_16);
    if (rows[0].n !== expected) throw new Error(`expected ${expected} stored events, found ${rows[0].n}`);
    const line = {
      bench: 'append',
      events: rows[0].n,
      rounds: ROUNDS,
      notify_interval_ms: DEFAULT_NOTIFY_INTERVAL_MS,
      append_1: m.append_1,
      insert_1: m.insert_1,
      append_16: m.append_16,
      insert_16: m.insert_16,
      ratio_1: Number((m.append_1 / m.insert_1).toFixed(2)),
      ratio_16: Number((m.append_16 / m.insert_16).toFixed(2)),
      append_16_notify_each: m.append_16_notify_each,
      ratio_16_notify_each: Number((m.append_16_notify_each / m.insert_16).toFixed(2)),
      // NOTIFYs that reached the listener per append in the throttled 16-writer runs.
      notifies_per_append_16: Number((throttledNotifications / (ROUNDS * OPS_16)).toFixed(3)),
    };
    console.log(JSON.stringify(line));
  } finally {
    await db.close();
    await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  }
}

await main();
