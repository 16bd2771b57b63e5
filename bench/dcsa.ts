// `pnpm bench:dcsa [-- --n 5000 --c 32] [--embedded]`: drives the fleet (separate processes on the real PostgreSQL,
// RabbitMQ and Redis; or the embedded process) with N DCSA timestamps (PUT /dcsa/jit/v2/timestamps/{id}, ETA-Berth
// EST, each mapped to S-211 and posted on to ingest) from one partner over C keep-alive connections, and the same N
// through the agent API (bench:ingest's load: the same estimate again and again for 500 vessels, as the DCSA load
// sends it) on the same run, and prints one JSON line: both rates, their ratio (docs/dcsa.md: target at least 0.8)
// and the DCSA requests' HTTP p50/p99, and each fleet process's CPU milliseconds per 100 timestamps on each path
// (`cpu_ms_per_100_timestamps`: the run and the 3 s after it, what the process spends idle taken off), which says
// where a DCSA timestamp costs more than an agent's.

import { randomUUID } from 'node:crypto';
import { ApiClient, startEmbedded, startFleet } from '@pcas/testing';
import { Pool } from 'undici';
import { benchOptions, cpuMsPer, fleetCpu, ingestLoad, percentile, round, validImo } from './support.ts';

const values = benchOptions({
  n: 5000,
  c: 32,
  warmup: 500,
  // As many vessels as the agent API's load (ingestLoad) posts for, so that the two loads differ only in their path.
  vessels: 500,
  // The embedded process instead of the fleet (one process, PGlite): where the fleet cannot be run.
  embedded: false,
});
const { n: N, c: C, warmup: WARMUP, vessels: VESSELS } = values;
const J = '/dcsa/jit/v2';
const IDLE_MS = 3_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const fleet = values.embedded
    ? await startEmbedded({ LOG_LEVEL: 'error', ADMIN_EMAIL: 'admin@port.local', ADMIN_PASSWORD: 'e2e-admin-password' })
    : await startFleet({ LOG_LEVEL: 'error' });
  try {
    const api = new ApiClient(fleet.baseUrl);
    const admin = await api.login('admin@port.local', 'e2e-admin-password');
    const key = (
      await admin.post('/api-keys', { name: `bench-dcsa-${Date.now()}`, permissions: ['timestamp', 'dcsa_partner'] })
    ).body as {
      id: number;
      key: string;
    };
    await admin.post('/timestamp-api-key-weights', {
      timestamp_time_type: 'Estimated',
      timestamp_state: 'Arrival_Vessel_Berth',
      api_key_ids: [key.id],
    });
    // Follows no vessel: nothing is sent back, only receiving is measured.
    const partner = await admin.post('/dcsa-partners', {
      name: 'Bench carrier',
      api_key_id: key.id,
      base_url: 'http://127.0.0.1:9',
    });
    if (partner.status !== 200) throw new Error(`register partner: ${JSON.stringify(partner.body)}`);
    const carrier = api.withApiKey(key.key);

    // A port call, terminal call and berth service per vessel (not measured).
    const services: string[] = [];
    for (let i = 0; i < VESSELS; i++) {
      const [portCallID, terminalCallID, portCallServiceID] = [randomUUID(), randomUUID(), randomUUID()];
      const imo = String(validImo(400000 + i * 7));
      await carrier.put(`${J}/port-calls/${portCallID}`, {
        portCallID,
        UNLocationCode: 'FIRAU',
        vessel: { vesselIMONumber: imo },
      });
      await carrier.put(`${J}/terminal-calls/${terminalCallID}`, {
        terminalCallID,
        portCallID,
        carrierServiceName: 'Bench',
        carrierServiceCode: 'B1',
      });
      const made = await carrier.put(`${J}/port-call-services/${portCallServiceID}`, {
        terminalCallID,
        portCallServiceID,
        portCallServiceType: 'BERTH',
        portCallServiceEventTypeCode: 'ARRI',
        portCallServiceLocation: { UNLocationCode: 'FIRAU' },
      });
      if (made.status !== 204) throw new Error(`service: ${made.status} ${JSON.stringify(made.body)}`);
      services.push(portCallServiceID);
    }

    const pool = new Pool(fleet.baseUrl, { connections: C, pipelining: 1 });
    const headers = { 'content-type': 'application/json', authorization: `ApiKey ${key.key}` };
    // The same estimate each time, as the agent API's load posts (a new timestamp, its own id, the same time), so
    // that what follows a stored timestamp (projections, notifications) is alike on both paths.
    const future = new Date(Date.now() + 86_400_000).toISOString();
    let next = 0;
    const dcsaRun = async (count: number, onDone?: (ms: number, status: number) => void) => {
      const end = next + count;
      await Promise.all(
        Array.from({ length: C }, async () => {
          while (next < end) {
            const seq = next++;
            const timestampID = randomUUID();
            const body = JSON.stringify({
              timestampID,
              portCallServiceID: services[seq % services.length],
              classifierCode: 'EST',
              dateTime: future,
            });
            const t0 = performance.now();
            const res = await pool.request({ path: `${J}/timestamps/${timestampID}`, method: 'PUT', headers, body });
            await res.body.dump();
            onDone?.(performance.now() - t0, res.statusCode);
          }
        }),
      );
    };
    const agent = await ingestLoad(fleet.baseUrl, admin, C);

    await dcsaRun(WARMUP);
    await agent.run(WARMUP);

    // Each path's CPU: the run and the trailing work after it (projections, the relay), less what each process
    // spends idle over that time, read just before it while nothing runs (after what ran before has settled).
    // Embedded: one process on PGlite, which fleetCpu does not name (the figures are then empty).
    const database = fleet.env.DATABASE_URL && new URL(fleet.env.DATABASE_URL).pathname.slice(1);
    const measured = async (run: () => Promise<void>) => {
      await sleep(IDLE_MS);
      const idleFrom = fleetCpu(database);
      await sleep(IDLE_MS);
      const before = fleetCpu(database);
      const started = performance.now();
      await run();
      const seconds = (performance.now() - started) / 1000;
      await sleep(IDLE_MS);
      const measuredSeconds = (performance.now() - started) / 1000;
      const cpu = cpuMsPer(before, fleetCpu(database), N, 100, {
        from: idleFrom,
        seconds: IDLE_MS / 1000,
        measuredSeconds,
      });
      return { seconds, cpu };
    };

    const latencies: number[] = [];
    let dcsaErrors = 0;
    const dcsa = await measured(() =>
      dcsaRun(N, (ms, status) => {
        latencies.push(ms);
        if (status !== 204) dcsaErrors++;
      }),
    );
    const dcsaRate = (N - dcsaErrors) / dcsa.seconds;

    let agentErrors = 0;
    const agentPath = await measured(() =>
      agent.run(N, (_seq, _ms, status) => {
        if (status !== 200) agentErrors++;
      }),
    );
    const agentRate = (N - agentErrors) / agentPath.seconds;

    latencies.sort((a, b) => a - b);
    console.log(
      JSON.stringify({
        bench: 'dcsa',
        mode: values.embedded ? 'embedded' : 'fleet',
        timestamps: N,
        connections: C,
        dcsa_accepted_per_s: Math.round(dcsaRate),
        agent_api_accepted_per_s: Math.round(agentRate),
        ratio: Math.round((dcsaRate / agentRate) * 100) / 100,
        dcsa_http_p50_ms: round(percentile(latencies, 50)),
        dcsa_http_p99_ms: round(percentile(latencies, 99)),
        dcsa_errors: dcsaErrors,
        agent_errors: agentErrors,
        cpu_ms_per_100_timestamps: { dcsa: dcsa.cpu, agent_api: agentPath.cpu },
      }),
    );
    await pool.close();
    await agent.close();
  } finally {
    await fleet.stop();
  }
}

await main();
