// `pnpm bench:positions [-- --vessels 2000 --batch 500 --seconds 20 --c 2 --readers 16]`: the fleet (separate
// processes on the real PostgreSQL, RabbitMQ and Redis) with 2,000 fixed vessels known by MMSI, while an AIS
// agent posts batches of 500 positions (every vessel in turn, each round a second later in location time) to
// POST /sea-chart/vessels over `c` keep-alive connections as fast as they are accepted, and 16 map views read
// GET /sea-chart/vessels (gzip, as a browser asks) over 16 connections, from a worker thread of their own
// (bench/map-readers.mjs). A read's time runs until its last byte.
// First, in the same run, bench:append's baseline: bare single-row INSERTs/s at 16 writers on the same server.
// Before the load, the same 16 readers alone (`get_idle_*`). Prints one JSON line: positions accepted per second,
// GET p50/p99 ms, the baseline, and `cpu_ms_per_1000_positions`: each fleet process's CPU time during the load per
// thousand accepted positions (the readers' work included; /proc, Linux), comparable on a shared machine, with the
// fleet database's PostgreSQL backends as `postgres`.

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { ApiClient, startFleet } from '@pcas/testing';
import { Pool } from 'undici';
import { benchOptions, cpuMsPer, fleetCpu, insertBaseline, percentile, round } from './support.ts';

const {
  vessels: VESSELS,
  batch: BATCH,
  seconds: SECONDS,
  c: WRITERS,
  readers: READERS,
} = benchOptions({ vessels: 2000, batch: 500, seconds: 20, c: 2, readers: 16 });

const MMSI_BASE = 230_000_000;
const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}+00:00`;

async function main() {
  const fleet = await startFleet({ LOG_LEVEL: 'error' });
  try {
    const insert16 = await insertBaseline();
    const api = new ApiClient(fleet.baseUrl);
    const login = await api.anonymous().post('/login', { email: 'admin@port.local', password: 'e2e-admin-password' });
    const admin = api.withSession(login.body.session_id);
    const created = (await admin.post('/api-keys', { name: 'bench ais' })).body as { id: number; key: string };

    // The port's vessels on the chart: fixed vessels known by MMSI (tugs, pilots, service craft and others).
    const seeding = performance.now();
    const types = [37, 41, 42, 2, 17, 30];
    for (let i = 0; i < VESSELS; i += 16) {
      const results = await Promise.all(
        Array.from({ length: Math.min(16, VESSELS - i) }, (_, k) =>
          admin.post('/sea-chart/fixed-vessel', {
            vesselType: types[(i + k) % types.length],
            vesselName: `Bench Vessel ${i + k}`,
            mmsi: MMSI_BASE + i + k,
          }),
        ),
      );
      const failed = results.find((r) => r.status !== 200 || r.body.result !== 'OK');
      if (failed) throw new Error(`fixed vessel: ${failed.status} ${JSON.stringify(failed.body)}`);
    }
    const seededMs = performance.now() - seeding;

    // Location times march on a second per round of all vessels, from 90 minutes ago: every position is new, and
    // all stay younger than MAP_VESSEL_LOCATION_MAX_AGE_MINUTES (120) for any run shorter than half an hour.
    const start = Date.now() - 90 * 60_000;
    let nextBatch = 0;
    const batchBody = (n: number) => {
      const first = (n * BATCH) % VESSELS;
      const roundNo = Math.floor((n * BATCH) / VESSELS);
      return JSON.stringify({
        locations: Array.from({ length: BATCH }, (_, k) => {
          const v = (first + k) % VESSELS;
          const angle = (roundNo + v) / 50;
          return {
            mmsi: MMSI_BASE + v,
            latitude: 60.6 + 0.1 * Math.sin(angle) + v / 100_000,
            longitude: 17.2 + 0.2 * Math.cos(angle),
            headingDegrees: (roundNo * 3 + v) % 360,
            speedKnots: 6 + (v % 10),
            courseOverGroundDegrees: (roundNo * 3 + v + 2) % 360,
            locationTimestamp: iso(start + roundNo * 1000),
          };
        }),
      });
    };

    const agent = new Pool(fleet.baseUrl, { connections: WRITERS, pipelining: 1 });
    const agentHeaders = { 'content-type': 'application/json', authorization: `ApiKey ${created.key}` };
    const post = async (n: number) => {
      const res = await agent.request({
        path: '/sea-chart/vessels',
        method: 'POST',
        headers: agentHeaders,
        body: batchBody(n),
      });
      const reply = (await res.body.json()) as { successful?: unknown[]; failed?: unknown[] };
      if (res.statusCode !== 200)
        throw new Error(`POST /sea-chart/vessels: ${res.statusCode} ${JSON.stringify(reply)}`);
      return { accepted: reply.successful?.length ?? 0, failed: reply.failed?.length ?? 0 };
    };
    // One round of every vessel first, so the map has them all from the start.
    for (let n = 0; n < Math.ceil(VESSELS / BATCH); n++) await post(nextBatch++);

    const readers = new Worker(new URL('./map-readers.mjs', import.meta.url), {
      workerData: { baseUrl: fleet.baseUrl, sessionId: login.body.session_id, readers: READERS },
    });
    const ask = <T>(message: { type: string; runs?: number }) =>
      new Promise<T>((resolve, reject) => {
        const onMessage = (reply: { type: string } & T) => {
          if (reply.type !== message.type) return;
          readers.off('message', onMessage);
          readers.off('error', reject);
          resolve(reply);
        };
        readers.on('message', onMessage);
        readers.once('error', reject);
        readers.postMessage(message);
      });
    let accepted = 0;
    let failed = 0;

    // The map alone first: 16 views reading while no position arrives.
    const idle = (await ask<{ latencies: number[] }>({ type: 'idle', runs: 1000 })).latencies.sort((a, b) => a - b);

    const database = new URL(fleet.env.DATABASE_URL).pathname.slice(1);
    const loopDelay = monitorEventLoopDelay({ resolution: 5 });
    loopDelay.enable();
    const cpuBefore = fleetCpu(database);
    const benchCpu = process.cpuUsage();
    const started = performance.now();
    const deadline = started + SECONDS * 1000;
    const load = ask<{ latencies: number[]; errors: number; bytes: number; plain: number }>({ type: 'load' });
    const writers = Array.from({ length: WRITERS }, async () => {
      while (performance.now() < deadline) {
        const r = await post(nextBatch++);
        accepted += r.accepted;
        failed += r.failed;
      }
    });
    await Promise.all(writers);
    const elapsed = (performance.now() - started) / 1000;
    const cpu = cpuMsPer(cpuBefore, fleetCpu(database), accepted, 1000);
    const benchUsed = process.cpuUsage(benchCpu);
    if (Object.keys(cpu).length > 0) cpu.bench_client = round((benchUsed.user + benchUsed.system) / accepted);
    readers.postMessage({ type: 'stop' });
    const { latencies, errors: readErrors, bytes: responseBytes, plain } = await load;
    const last = Buffer.from((await ask<{ body: Uint8Array }>({ type: 'last' })).body);
    const features = (JSON.parse(last.toString('utf8')) as unknown[]).length;
    await agent.close();
    await readers.terminate();

    latencies.sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        bench: 'positions',
        mode: 'fleet',
        vessels: VESSELS,
        batch: BATCH,
        writers: WRITERS,
        readers: READERS,
        seconds: round(elapsed),
        seeded_s: round(seededMs / 1000),
        accepted_per_s: Math.round(accepted / elapsed),
        positions_accepted: accepted,
        positions_failed: failed,
        get_p50_ms: round(percentile(latencies, 50)),
        get_p99_ms: round(percentile(latencies, 99)),
        get_requests_per_s: Math.round(latencies.length / elapsed),
        get_errors: readErrors,
        get_idle_p50_ms: round(percentile(idle, 50)),
        get_idle_p99_ms: round(percentile(idle, 99)),
        features,
        response_bytes_gzip: responseBytes,
        get_not_gzipped: plain,
        cpu_ms_per_1000_positions: cpu,
        bench_loop_delay_p99_ms: round(loopDelay.percentile(99) / 1e6),
        bench_loop_delay_max_ms: round(loopDelay.max / 1e6),
        insert_16: insert16,
      }),
    );
  } finally {
    await fleet.stop();
  }
}

await main();
