// `pnpm bench:ingest [-- --n 20000 --c 32 --replicas R]`: drives the fleet (separate processes on the real
// PostgreSQL, RabbitMQ and Redis) with N timestamps from one data source over C keep-alive connections, and prints
// one JSON line: accepted/s, HTTP p50/p99, and end-to-end visibility lag p50/p99 (accepted → visible in
// GET /timestamps, observed by a poller reading the newest rows every 10 ms). With --replicas R (above 1) it runs
// a fleet of one process per service and then one of R (a FLEET_REPLICAS value: 2, or gateway=2,ingest=2) in the
// same run, and gives
// both, their ratio and bench:append's insert_16 (docs/benchmarks.md).

import { ApiClient, startFleet } from '@pcas/testing';
import { benchOptions, ingestLoad, insertBaseline, percentile, round } from './support.ts';

const {
  n: N,
  c: C,
  warmup: WARMUP,
  // A FLEET_REPLICAS value: `2` for every service, or `gateway=2,ingest=2` to find which service's copies cost.
  replicas: REPLICAS,
} = benchOptions({ n: 20000, c: 32, warmup: 1000, replicas: '1' });

/** One fleet of `replicas` processes per service, measured. */
async function measure(replicas: string): Promise<Record<string, unknown>> {
  const fleet = await startFleet({ LOG_LEVEL: 'error', FLEET_REPLICAS: replicas });
  try {
    const api = new ApiClient(fleet.baseUrl);
    const admin = await api.login('admin@port.local', 'e2e-admin-password');
    const load = await ingestLoad(fleet.baseUrl, admin, C);
    // Warm-up (JIT, connection pools, caches), not measured.
    await load.run(WARMUP);
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
    await load.run(N, (seq, ms, status) => {
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
    await load.close();
    return {
      accepted_per_s: Math.round(acceptedAt.size / elapsed),
      http_p50_ms: round(percentile(latencies, 50)),
      http_p99_ms: round(percentile(latencies, 99)),
      lag_p50_ms: round(percentile(lags, 50)),
      lag_p99_ms: round(percentile(lags, 99)),
      lag_samples: lags.length,
      errors,
    };
  } finally {
    await fleet.stop();
  }
}

async function main() {
  const line = { bench: 'ingest', mode: 'fleet', timestamps: N, connections: C };
  const one = await measure('1');
  if (REPLICAS === '1') {
    console.log(JSON.stringify({ ...line, ...one }));
    return;
  }
  const several = await measure(REPLICAS);
  const insert16 = await insertBaseline();
  console.log(
    JSON.stringify({
      ...line,
      replicas: REPLICAS,
      ...several,
      one_process: one,
      ratio_to_one_process: Number((Number(several.accepted_per_s) / Number(one.accepted_per_s)).toFixed(2)),
      insert_16: insert16,
    }),
  );
}

await main();
