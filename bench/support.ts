// What the fleet benchmarks share: vessel numbers that pass the IMO check, latency percentiles, and the data
// source that posts timestamps (bench:ingest's load, also the traffic under bench:realtime).

import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type ApiClient, repoRoot } from '@pcas/testing';
import { imoWithCheckDigit } from '@pcas/values';
import { Pool } from 'undici';

type BenchOptions<T> = { [K in keyof T]: T[K] extends number ? number : T[K] extends boolean ? boolean : string };

/**
 * The benchmark's options from its command line (`pnpm bench:x -- --n 100`); each default gives its option's kind: a
 * number (`--n 100`), a flag (`--keep`), or text (`--replicas gateway=2`; '' stands for none).
 */
export function benchOptions<T extends Record<string, number | boolean | string>>(defaults: T): BenchOptions<T> {
  const options = Object.fromEntries(
    Object.entries(defaults).map(([name, value]) => [
      name,
      typeof value === 'boolean' ? { type: 'boolean' as const, default: value } : { type: 'string' as const },
    ]),
  );
  const { values } = parseArgs({ args: process.argv.slice(2).filter((a) => a !== '--'), options });
  return Object.fromEntries(
    Object.entries(defaults).map(([name, value]) => {
      const given = values[name] ?? value;
      return [name, typeof value === 'number' ? Number(given) : given];
    }),
  ) as BenchOptions<T>;
}

/** A 7-digit IMO number with a valid check digit, from any base (its last six digits). */
export function validImo(base: number): number {
  return imoWithCheckDigit(Number(String(base).padStart(6, '0').slice(-6)));
}

/** A vessel's slot request as its agent posts it to the just-in-time queue: laytime 2 h, the same dimensions. */
export const slotRequest = (email: string, vessel: { imo: number; name: string }, eta: string) => ({
  email,
  imo: vessel.imo,
  vessel_name: vessel.name,
  loa: '120.5',
  beam: '20',
  draft: '7.5',
  laytime: '02:00',
  eta,
});

/** The p-th percentile of ascending samples (nearest rank), null without samples. */
export const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Milliseconds to one decimal, as the JSON lines print them. */
export const round = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);

export interface IngestLoad {
  /**
   * Posts the next `count` timestamps over the load's connections (sequence numbers go on across calls);
   * `onDone` sees each one's sequence number, latency and HTTP status.
   */
  run(count: number, onDone?: (seq: number, ms: number, status: number) => void): Promise<void>;
  close(): Promise<void>;
}

/**
 * A data source (an API key allowed to post ETAs) posting future ETAs of 500 vessels to `/agent/rest/timestamps`
 * over `connections` keep-alive connections. The payload carries the sequence number (`payload.seq`).
 */
export async function ingestLoad(baseUrl: string, admin: ApiClient, connections: number): Promise<IngestLoad> {
  const created = (await admin.post('/api-keys', { name: `bench-${Date.now()}` })).body as { id: number; key: string };
  // A key may post only the (time type, state) pairs it has a weight for.
  const weights = await admin.post('/timestamp-api-key-weights', {
    timestamp_time_type: 'Estimated',
    timestamp_state: 'Arrival_Vessel_PortArea',
    api_key_ids: [created.id],
  });
  if (weights.status !== 200) throw new Error(`set weights: ${weights.status} ${JSON.stringify(weights.body)}`);
  // undici's pool: a lean client, so the load generator takes less of the CPU the fleet shares with it.
  const pool = new Pool(baseUrl, { connections, pipelining: 1 });
  const future = `${new Date(Date.now() + 86_400_000).toISOString().slice(0, 19)}+00:00`;
  const vessels = Array.from({ length: 500 }, (_, i) => validImo(300000 + i * 7));
  const headers = { 'content-type': 'application/json', authorization: `ApiKey ${created.key}` };

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

  let next = 0;
  return {
    async run(count, onDone) {
      const end = next + count;
      await Promise.all(
        Array.from({ length: connections }, async () => {
          while (next < end) {
            const seq = next++;
            const t0 = performance.now();
            const status = await post(seq);
            onDone?.(seq, performance.now() - t0, status);
          }
        }),
      );
    },
    close: () => pool.close(),
  };
}

/**
 * The baseline every figure is given beside: bench:append itself, one round, in a child process: its insert_16
 * (a bare single-row INSERT's rate at 16 writers on the same PostgreSQL), measured in the same run.
 */
/**
 * The fleet the benchmark starts runs the production build (what `pnpm start:fleet` and the image run), made into a
 * temporary folder now: memory and start-up as an operator sees them, not the sources compiled by tsx on the way.
 */
export async function useProductionBuild(): Promise<void> {
  if (process.env.PCAS_TEST_BUILD_DIR) return;
  const dir = await mkdtemp(path.join(tmpdir(), 'pcas-bench-build-'));
  // @ts-expect-error: the build script is plain JavaScript (build.config.mjs), without declarations.
  const { buildAll } = await import('../build.config.mjs');
  await buildAll({ outdir: dir });
  process.env.PCAS_TEST_BUILD_DIR = dir;
}

export function insertBaseline(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/append.ts'], {
      cwd: repoRoot,
      env: { ...process.env, BENCH_ROUNDS: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line).insert_16 as number);
      } catch {
        reject(new Error(`bench:append exited with ${code}: ${out}`));
      }
    });
  });
}

/**
 * CPU seconds so far of each fleet process below this one, by service name (`services/<name>/`), read from /proc
 * (Linux; empty elsewhere), and of each PostgreSQL backend connected to `databases` (`postgres:<pid>`, summed by
 * cpuMsPer as `postgres`). Several fleets at once (bench:vis's two ports): `databases` by fleet name and
 * `fleetOf` telling a process's fleet from its environment; names then are `<fleet>.<service>`, `<fleet>.postgres`.
 * Differences over a run give each one's CPU cost per operation, which stays comparable when the machine is shared.
 * The local RabbitMQ and Redis servers are read too (`rabbitmq`, `redis`: whatever else uses them counts there),
 * and cpuMsPer keeps them out of `all_services`.
 */
// The servers the fleet shares, by their command line: RabbitMQ's Erlang VM, Redis.
const BROKERS: readonly (readonly [name: string, command: RegExp])[] = [
  ['rabbitmq', /beam\.smp.*rabbit/s],
  ['redis', /^redis-server/],
];

export function fleetCpu(
  databases?: string | Record<string, string>,
  fleetOf?: (environ: string) => string | undefined,
): Map<string, number> {
  const out = new Map<string, number>();
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return undefined;
    }
  };
  const ticks = 100; // USER_HZ on Linux
  const seconds = (stat: string) => {
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticks;
  };
  const stack = [process.pid];
  while (stack.length > 0) {
    const pid = stack.pop() as number;
    const children = read(`/proc/${pid}/task/${pid}/children`)?.trim().split(/\s+/).filter(Boolean).map(Number) ?? [];
    stack.push(...children);
    if (pid === process.pid) continue;
    const stat = read(`/proc/${pid}/stat`);
    const name = /services\/([a-z-]+)\//.exec(read(`/proc/${pid}/cmdline`) ?? '')?.[1];
    if (!stat || !name) continue;
    const fleet = fleetOf ? fleetOf(read(`/proc/${pid}/environ`) ?? '') : '';
    if (fleet === undefined) continue;
    const key = fleet ? `${fleet}.${name}` : name;
    out.set(key, (out.get(key) ?? 0) + seconds(stat));
  }
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = read(`/proc/${entry}/cmdline`) ?? '';
    const broker = BROKERS.find(([, pattern]) => pattern.test(cmdline))?.[0];
    const stat = broker && read(`/proc/${entry}/stat`);
    if (broker && stat) out.set(broker, (out.get(broker) ?? 0) + seconds(stat));
  }
  const byFleet = typeof databases === 'string' ? { '': databases } : (databases ?? {});
  if (Object.keys(byFleet).length > 0) {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const cmdline = read(`/proc/${entry}/cmdline`) ?? '';
      if (!cmdline.startsWith('postgres: ')) continue;
      const fleet = Object.keys(byFleet).find((f) => cmdline.includes(` ${byFleet[f]} `));
      const stat = fleet !== undefined && read(`/proc/${entry}/stat`);
      if (stat) out.set(`${fleet ? `${fleet}.` : ''}postgres:${entry}`, seconds(stat));
    }
  }
  return out;
}

/** Per name (a `name:pid` key counted under its name, when it ran at both readings), seconds between two readings. */
function secondsBetween(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const seconds = new Map<string, number>();
  for (const [key, value] of after) {
    const [name, pid] = key.split(':');
    if (pid !== undefined && !before.has(key)) continue;
    seconds.set(name, (seconds.get(name) ?? 0) + value - (before.get(key) ?? 0));
  }
  return seconds;
}

/**
 * Each service's CPU milliseconds per `per` operations between two fleetCpu readings. With `idle` (a reading
 * `seconds` before `before`, with no load), what each spends idle (polling, timers) over the `measuredSeconds`
 * is taken off, so the figure is the operations' own cost.
 */
export function cpuMsPer(
  before: Map<string, number>,
  after: Map<string, number>,
  operations: number,
  per = 1,
  idle?: { from: Map<string, number>; seconds: number; measuredSeconds: number },
) {
  const seconds = secondsBetween(before, after);
  const idleSeconds = idle ? secondsBetween(idle.from, before) : new Map<string, number>();
  const out: Record<string, number | null> = {};
  for (const [name, used] of [...seconds].sort(([a], [b]) => a.localeCompare(b))) {
    const idleCost = idle ? ((idleSeconds.get(name) ?? 0) / idle.seconds) * idle.measuredSeconds : 0;
    out[name] = round((Math.max(0, used - idleCost) * 1000 * per) / operations);
  }
  const sum = (entries: [string, number | null][]) => round(entries.reduce((a, [, b]) => a + (b ?? 0), 0));
  const brokers = new Set(BROKERS.map(([name]) => name));
  const entries = Object.entries(out);
  if (after.size > 0) out.all_services = sum(entries.filter(([name]) => !brokers.has(name)));
  // With the brokers: what the machine spent per operation, bar the benchmark's own client.
  if (entries.some(([name]) => brokers.has(name))) out.all_with_brokers = sum(entries);
  return out;
}

/** Prints the last error lines the fleet logged: they say why a request failed (its answer only says "Internal error"). */
export function printFleetErrors(fleet: { output(): string }): void {
  const logged = fleet
    .output()
    .split('\n')
    .filter((line) => /"level":(50|60)|error/i.test(line));
  console.error(logged.slice(-20).join('\n'));
}
