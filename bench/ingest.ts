// `pnpm bench:ingest [-- --n 20000 --c 32]`: drives the fleet (separate processes on the real PostgreSQL,
// RabbitMQ and Redis) with N timestamps from one data source over C keep-alive connections, and prints one
// JSON line: accepted/s, HTTP p50/p99, and end-to-end visibility lag p50/p99 (accepted → visible in
// GET /timestamps, observed by a poller reading the newest rows every 10 ms).

import { parseArgs } from 'node:util';
import { ApiClient, startFleet } from '@pcas/testing';
import { Pool } from 'undici';
import { percentile, round, validImo } from './support.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    n: { type: 'string', default: '20000' },
    c: { type: 'string', default: '32' },
    warmup: { type: 'string', default: '1000' },
  },
});
const N = Number(values.n);
const C = Number(values.c);
const WARMUP = Number(values.warmup);

async function main() {
  const fleet = await startFleet({ LOG_LEVEL: 'error' });
  try {
    const api = new ApiClient(fleet.baseUrl);
    const admin = await api.login('admin@port.local', 'e2e-admin-password');
    const created = (await admin.post('/api-keys', { name: 'bench' })).body as { id: number; key: string };
    const key = created.key;
    // A key may post only the (time type, state) pairs it has a weight for.
    const weights = await admin.post('/timestamp-api-key-weights', {
      timestamp_time_type: 'Estimated',
      timestamp_state: 'Arrival_Vessel_PortArea',
      api_key_ids: [created.id],
    });
    if (weights.status !== 200) throw new Error(`set weights: ${weights.status} ${JSON.stringify(weights.body)}`);
    // undici's pool: a lean client, so the load generator takes less of the CPU the fleet shares with it.
    const pool = new Pool(fleet.baseUrl, { connections: C, pipelining: 1 });
    const future = `${new Date(Date.now() + 86_400_000).toISOString().slice(0, 19)}+00:00`;
    const vessels = Array.from({ length: 500 }, (_, i) => validImo(300000 + i * 7));
    const headers = { 'content-type': 'application/json', authorization: `ApiKey ${key}` };

    const post = async (seq: number): Promise<number> => {
      const body = JSON.stringify({
        imo: vessels[seq % vessels.length],
        vessel_name: `Bench ${seq % vessels.length}`,
        time_type: 'Estimated',
        state: 'Arrival_Vessel_PortArea',
        time: future,
        payload: { source: 'bench', seq },
      });
      const res = await pool.request({ path: '/agent/rest/timestamps', method: 'POST', headers, body });
      await res.body.dump();
      return res.statusCode;
    };

    // Warm-up (JIT, connection pools, caches), not measured.
    let next = 0;
    const runPhase = async (count: number, onDone?: (seq: number, ms: number, status: number) => void) => {
      const end = next + count;
      await Promise.all(
        Array.from({ length: C }, async () => {
          while (next < end) {
            const seq = next++;
            const t0 = performance.now();
            const status = await post(seq);
            onDone?.(seq, performance.now() - t0, status);
          }
        }),
      );
    };
    await runPhase(WARMUP);
    await new Promise((r) => setTimeout(r, 1000));

    const acceptedAt = new Map<number, number>();
    const lags: number[] = [];
    const latencies: number[] = [];
    let errors = 0;
    let polling = true;
    let stoppedAt = 0;
    const seen = new Set<number>();
    const poller = (async () => {
      while (polling || seen.size < acceptedAt.size) {
        const res = await admin.get('/timestamps', { sort: 'id DESC', limit: 100 });
        const now = performance.now();
        for (const row of res.body.data ?? []) {
          const seq = JSON.parse(row.payload).seq as number;
          const at = acceptedAt.get(seq);
          if (at !== undefined && !seen.has(seq)) {
            seen.add(seq);
            lags.push(now - at);
          }
        }
        if (!polling && performance.now() - stoppedAt > 10_000) break;
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const started = performance.now();
    await runPhase(N, (seq, ms, status) => {
      latencies.push(ms);
      if (status === 200) acceptedAt.set(seq, performance.now());
      else errors++;
    });
    const elapsed = (performance.now() - started) / 1000;
    stoppedAt = performance.now();
    polling = false;
    await poller;
    latencies.sort((a, b) => a - b);
    lags.sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        bench: 'ingest',
        mode: 'fleet',
        timestamps: N,
        connections: C,
        accepted_per_s: Math.round(acceptedAt.size / elapsed),
        http_p50_ms: round(percentile(latencies, 50)),
        http_p99_ms: round(percentile(latencies, 99)),
        lag_p50_ms: round(percentile(lags, 50)),
        lag_p99_ms: round(percentile(lags, 99)),
        lag_samples: lags.length,
        errors,
      }),
    );
    await pool.close();
  } finally {
    await fleet.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
