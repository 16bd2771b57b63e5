// On the production build (docs/operations.md#the-production-build): the build (build.config.mjs) is made into a folder of its own and
// its fleet started (`node fleet.js`, which starts `node <service>.js` for each service). Every process serves
// Prometheus metrics and the two probes on its own operations port (docs/operations.md#metrics-and-probes): the
// named series exist, each process names itself with a unique instance id, and the series move under load
// (timestamps posted, a real-time socket open).

import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { connectRealtime, type RealtimeClient, type RunningSystem, repoRoot, startFleet } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './fleet-processes.ts';
import { adminAndDataSource, allowEstimatedArrivals, timestamp } from './timestamps.ts';

const SERVICES = [
  'gateway',
  'ingest',
  'portcall-projector',
  'notifier',
  'logistics',
  'queue-scheduler',
  'vis-bridge',
] as const;
// The fleet gives its processes OPS_PORT, OPS_PORT+1, ... (launcher/src/fleet.ts): room for a few more services.
const PORT_RANGE = 16;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** Sum of a series' samples whose labels include `where`. */
const sum = (samples: Sample[], name: string, where: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v))
    .reduce((total, s) => total + s.value, 0);

const has = (samples: Sample[], name: string, where: Record<string, string> = {}) =>
  samples.some((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v));

/** A valid IMO number from its first six digits (the seventh is the check digit). */
function imoNumber(six: number): number {
  const digits = String(six).split('').map(Number);
  const check = digits.reduce((total, digit, i) => total + digit * (7 - i), 0) % 10;
  return six * 10 + check;
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A base port with PORT_RANGE free ports after it, below the range the system hands out for port 0. */
async function freeRange(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 10_000);
    const free = await Promise.all(Array.from({ length: PORT_RANGE }, (_, i) => portFree(base + i)));
    if (free.every(Boolean)) return base;
  }
  throw new Error('no free range of ports for the operations ports');
}

async function getJson(url: string): Promise<{ status: number; body: any } | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(3_000) });
    return { status: res.status, body: await res.json() };
  } catch {
    return undefined;
  }
}

describe('metrics and probes of a running fleet, from the production build', () => {
  let system: RunningSystem;
  let buildDir: string;
  let opsBase: number;
  /** Service → its operations port. */
  const ports = new Map<string, number>();
  const instances = new Map<string, string>();
  let socket: RealtimeClient | undefined;

  const live = async (service: string) => (await getJson(`http://127.0.0.1:${ports.get(service)}/livez`))!.body;
  const scrape = async (service: string): Promise<Sample[]> => {
    const res = await fetch(`http://127.0.0.1:${ports.get(service)}/metrics`, { signal: AbortSignal.timeout(5_000) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return parseMetrics(await res.text());
  };
  const scrapeAll = async () => {
    const all: Sample[] = [];
    for (const service of ports.keys()) all.push(...(await scrape(service)));
    return all;
  };

  beforeAll(async () => {
    buildDir = await mkdtemp(path.join(tmpdir(), 'pcas-build-'));
    await promisify(execFile)(process.execPath, ['build.config.mjs', '--outdir', buildDir], {
      cwd: repoRoot,
      timeout: 240_000,
    });
    opsBase = await freeRange();
    system = await startFleet({ OPS_PORT: String(opsBase) }, { fromBuild: path.join(buildDir, 'fleet.js') });
    // Which process is on which port: each one's liveness names its service.
    await eventually('every service answers on its operations port', 60_000, async () => {
      for (let port = opsBase; port < opsBase + PORT_RANGE; port++) {
        const live = await getJson(`http://127.0.0.1:${port}/livez`);
        if (live?.status === 200) {
          ports.set(live.body.service, port);
          instances.set(live.body.service, live.body.instance_id);
        }
      }
      return SERVICES.every((s) => ports.has(s)) ? true : undefined;
    });
  }, 420_000);
  afterAll(async () => {
    socket?.close();
    await system?.stop();
    if (buildDir) await rm(buildDir, { recursive: true, force: true });
  });

  it('runs every service from the build, its heap sized for a long run (docs/operations.md#memory)', async () => {
    for (const service of SERVICES) {
      const { stdout } = await promisify(execFile)('ps', ['-o', 'args=', '-p', String((await live(service)).pid)]);
      expect(stdout.trim()).toBe(
        `${process.execPath} --max-semi-space-size=4 --heap-growing-percent=50 ${path.join(buildDir, `${service}.js`)}`,
      );
    }
  });

  it('tells up from ready in every process, each with its own instance id', async () => {
    for (const service of SERVICES) {
      const live = await getJson(`http://127.0.0.1:${ports.get(service)}/livez`);
      expect(live).toMatchObject({ status: 200, body: { status: 'up', service } });
      const ready = await eventually(`${service} ready`, 30_000, async () => {
        const res = await getJson(`http://127.0.0.1:${ports.get(service)}/readyz`);
        return res?.status === 200 ? res : undefined;
      });
      expect(ready.body).toMatchObject({ status: 'ready', service, checks: { postgres: 'ok', rabbitmq: 'ok' } });
    }
    const ids = [...instances.values()];
    expect(new Set(ids).size).toBe(ids.length);
    const missing = await getJson(`http://127.0.0.1:${ports.get('gateway')}/nothing-here`);
    expect(missing).toEqual({ status: 404, body: { error: 'Not found' } });
  });

  it('serves the named series, labelled with the service and its instance id', async () => {
    for (const service of SERVICES) {
      const samples = await scrape(service);
      const own = { service, instance_id: instances.get(service)! };
      expect(has(samples, 'process_cpu_seconds_total', own), service).toBe(true);
      expect(has(samples, 'process_resident_memory_bytes', own), service).toBe(true);
      // Every sample carries both labels.
      expect(samples.every((s) => s.labels.instance_id === own.instance_id && s.labels.service === service)).toBe(true);
    }
    const gateway = await scrape('gateway');
    expect(has(gateway, 'http_connections')).toBe(true);
    expect(has(gateway, 'websocket_connections')).toBe(true);
    // The system's gauges come from the one process whose relay is active, whichever it is.
    const all = await eventually('the system gauges', 30_000, async () => {
      const samples = await scrapeAll();
      return has(samples, 'relay_lag_seconds') && has(samples, 'outbox_depth', { outbox: 'mail' })
        ? samples
        : undefined;
    });
    for (const name of ['relay_lag_seconds', 'relay_lag_events']) {
      expect(all.filter((s) => s.name === name).length, name).toBe(1);
    }
    for (const outbox of ['vis', 'mail', 'timestamp']) expect(has(all, 'outbox_depth', { outbox }), outbox).toBe(true);
    expect(has(all, 'projection_lag_seconds', { projection: 'timestamps' })).toBe(true);
    expect(has(all, 'bullmq_queue_jobs', { service: 'notifier' })).toBe(true);
    expect(has(all, 'bullmq_queue_jobs', { service: 'queue-scheduler' })).toBe(true);
  });

  it('moves under load: requests, RPCs, appends, sockets, CPU; lags back to 0 after it', async () => {
    const setup = await adminAndDataSource(system.baseUrl);
    await allowEstimatedArrivals(setup.admin, setup.apiKey.id);
    const route = { route: '/agent/rest/timestamps', status: '200' };
    const before = {
      gateway: await scrape('gateway'),
      ingest: await scrape('ingest'),
    };
    const source = setup.api.withApiKey(setup.apiKey.key);
    const posts = 40;
    const answers = await Promise.all(
      Array.from({ length: posts }, (_, i) =>
        source.post('/agent/rest/timestamps', timestamp({ imo: imoNumber(930_000 + i), payload: { n: i } })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    socket = await connectRealtime(system.baseUrl, 16);

    await eventually('the gateway counts the requests, its RPCs and the socket', 30_000, async () => {
      const now = await scrape('gateway');
      const requests =
        sum(now, 'http_request_duration_seconds_count', route) -
        sum(before.gateway, 'http_request_duration_seconds_count', route);
      const rpcs =
        sum(now, 'rpc_duration_seconds_count', { side: 'client' }) -
        sum(before.gateway, 'rpc_duration_seconds_count', { side: 'client' });
      return requests >= posts && rpcs >= 1 && sum(now, 'websocket_connections') >= 1 ? true : undefined;
    });
    await eventually('ingest counts served RPCs, appends and CPU', 30_000, async () => {
      const now = await scrape('ingest');
      const served =
        sum(now, 'rpc_duration_seconds_count', { side: 'server' }) -
        sum(before.ingest, 'rpc_duration_seconds_count', { side: 'server' });
      const appends =
        sum(now, 'eventstore_append_duration_seconds_count') -
        sum(before.ingest, 'eventstore_append_duration_seconds_count');
      const cpu = sum(now, 'process_cpu_seconds_total') - sum(before.ingest, 'process_cpu_seconds_total');
      return served >= 1 && appends >= 1 && cpu > 0 ? true : undefined;
    });
    // Everything posted reaches the bus and the timestamps' projection, each of its partitions: the lags come back
    // to 0.
    await eventually('relay and projection lag back to 0', 60_000, async () => {
      const all = await scrapeAll();
      const relay = all.filter((s) => s.name === 'relay_lag_seconds');
      const partitions = all.filter((s) => s.name === 'projection_lag_seconds' && s.labels.projection === 'timestamps');
      if (relay.length !== 1 || partitions.length !== 16) return undefined;
      expect(partitions.map((s) => s.labels.partition).sort()).toEqual(
        Array.from({ length: 16 }, (_, p) => `p${String(p).padStart(2, '0')}`),
      );
      return [...relay, ...partitions].every((s) => s.value === 0) ? true : undefined;
    });
    socket.close();
    socket = undefined;
    await eventually('the closed socket is counted out', 30_000, async () =>
      sum(await scrape('gateway'), 'websocket_connections') === 0 ? true : undefined,
    );
  });
});
