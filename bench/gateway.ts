// `pnpm bench:gateway [-- --n 4000 --c 16]`: what the gateway costs per authenticated API request, in the fleet
// (separate processes on the real PostgreSQL, RabbitMQ and Redis), printing one JSON line:
//  - read: GET /pinned-vessel-ids (session auth, a module check, one small read-model query): N requests over C
//    keep-alive connections, each connection signed in as a user of its own.
//  - write: PUT /pinned-vessel-ids (the same, then one RPC to the notifier, which decides and appends): N / 2
//    requests, each connection alternating between two lists so that every request appends.
//  Each: requests/s, p50/p99 ms and `cpu_ms_per_request` by service (read from /proc as bench/queue.ts does: the
//  CPU each fleet process spent during the run and the second after it, less what it spends idle), so the
//  gateway's own cost per request can be followed even when the machine is shared.
//  `gateway_syscalls_per_request`: the gateway's read and write system calls per request (/proc/<pid>/io).
//  BENCH_NODE_OPTIONS is passed to every fleet process as NODE_OPTIONS (to profile one, say).
//  - insert_16: a bare single-row INSERT's rate at 16 writers on the same PostgreSQL just before (bench:append's
//    baseline), so figures from different machines can be compared.

import { readFileSync } from 'node:fs';
import { ApiClient, startFleet } from '@pcas/testing';
import { Pool } from 'undici';
import { benchOptions, fleetCpu, insertBaseline, percentile, printFleetErrors, round, validImo } from './support.ts';

const { n: N, c: C } = benchOptions({ n: 4000, c: 16 });
const IDLE_MS = 2_000;
const TAIL_MS = 1_000;

/** Read and write system calls so far of the fleet's gateway process(es) (/proc/<pid>/io: syscr + syscw). */
function gatewaySyscalls(): number {
  let total = 0;
  const stack = [process.pid];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    try {
      stack.push(
        ...readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number),
      );
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('services/gateway/')) continue;
      const io = readFileSync(`/proc/${pid}/io`, 'utf8');
      total += Number(/syscr: (\d+)/.exec(io)?.[1] ?? 0) + Number(/syscw: (\d+)/.exec(io)?.[1] ?? 0);
    } catch {
      // gone, or no /proc
    }
  }
  return total;
}

/** Runs `count` requests over C connections (`request(connection, i)` → HTTP status), timed and CPU-measured. */
async function phase(count: number, request: (connection: number, i: number) => Promise<number>) {
  const idleFrom = fleetCpu();
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  const cpuBefore = fleetCpu();
  const syscallsBefore = gatewaySyscalls();
  const times: number[] = [];
  const failures = new Map<number, number>();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: C }, async (_, connection) => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        const status = await request(connection, i);
        times.push(performance.now() - t0);
        if (status !== 200) failures.set(status, (failures.get(status) ?? 0) + 1);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const syscalls = gatewaySyscalls() - syscallsBefore;
  await new Promise((resolve) => setTimeout(resolve, TAIL_MS));
  const cpuAfter = fleetCpu();
  const measuredS = (performance.now() - started) / 1000;
  const cpu: Record<string, number | null> = {};
  for (const [name, seconds] of [...cpuAfter].sort(([a], [b]) => a.localeCompare(b))) {
    const before = cpuBefore.get(name) ?? 0;
    const idlePerS = (before - (idleFrom.get(name) ?? before)) / (IDLE_MS / 1000);
    cpu[name] = Math.round((Math.max(0, seconds - before - idlePerS * measuredS) * 1000 * 100) / count) / 100;
  }
  times.sort((a, b) => a - b);
  return {
    requests: count,
    connections: C,
    failed: Object.fromEntries(failures),
    requests_per_s: Math.round(count / elapsed),
    p50_ms: round(percentile(times, 50)),
    p99_ms: round(percentile(times, 99)),
    cpu_ms_per_request: cpu,
    // Less noisy than CPU time on a shared machine: each socket read or write is a round trip's share.
    gateway_syscalls_per_request: Math.round((syscalls / count) * 10) / 10,
  };
}

async function main() {
  const insert16 = await insertBaseline();
  // BENCH_NODE_OPTIONS: given to every fleet process (e.g. `--import <a module that starts the inspector's
  // profiler>`; --cpu-prof itself is not allowed in NODE_OPTIONS).
  const nodeOptions = process.env.BENCH_NODE_OPTIONS;
  const fleet = await startFleet({ LOG_LEVEL: 'warn', ...(nodeOptions && { NODE_OPTIONS: nodeOptions }) });
  const pool = new Pool(fleet.baseUrl, { connections: C, pipelining: 1 });
  try {
    const admin = await new ApiClient(fleet.baseUrl).login('admin@port.local', 'e2e-admin-password');
    // One user and session per connection, as C people using the API at once.
    const sessions: string[] = [];
    for (let u = 0; u < C; u++) {
      const email = `bench-gateway-${u}@bench.local`;
      const made = await admin.post('/users', { email, first_name: `Bench${u}`, last_name: 'Gateway', role: 'user' });
      if (made.status !== 200) throw new Error(`POST /users: ${made.status} ${JSON.stringify(made.body)}`);
      const login = await new ApiClient(fleet.baseUrl).post('/login', { email, password: made.body.password });
      if (login.status !== 200 || !login.body.session_id) {
        throw new Error(`POST /login: ${login.status} ${JSON.stringify(login.body)}`);
      }
      sessions.push(login.body.session_id as string);
    }
    const headersOf = (connection: number) => ({
      authorization: `Bearer ${sessions[connection]}`,
      accept: 'application/json',
      'content-type': 'application/json',
    });
    const lists = [[validImo(100_001)], [validImo(100_002), validImo(100_003)]];
    const bodies = lists.map((vessel_ids) => JSON.stringify({ vessel_ids }));
    const call = async (method: 'GET' | 'PUT', connection: number, body?: string) => {
      const res = await pool.request({ path: '/pinned-vessel-ids', method, headers: headersOf(connection), body });
      await res.body.dump();
      return res.statusCode;
    };
    // Warm-up: JIT, connection pools, the users' pin streams.
    for (let i = 0; i < 400; i++) await call('GET', i % C);
    for (let i = 0; i < 2 * C; i++) await call('PUT', i % C, bodies[Math.floor(i / C) % 2]);
    const read = await phase(N, (connection) => call('GET', connection));
    const turns = new Array<number>(C).fill(0);
    const write = await phase(Math.floor(N / 2), (connection) =>
      call('PUT', connection, bodies[turns[connection]++ % 2]),
    );
    console.log(JSON.stringify({ bench: 'gateway', insert_16: insert16, read, write }));
  } catch (error) {
    printFleetErrors(fleet);
    throw error;
  } finally {
    await pool.close();
    await fleet.stop();
  }
}

await main();
