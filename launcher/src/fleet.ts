// `pnpm start:fleet`: each service its own processes against PostgreSQL, RabbitMQ and Redis (DATABASE_URL,
// AMQP_URL, REDIS_URL; the local servers when unset), FLEET_REPLICAS of each (replicas.ts; one unless set).
// Creates the database if it is missing, restarts a process that dies, and stops them all on SIGINT/SIGTERM.
//
// The processes are workers of Node's cluster module, so the gateway's processes share one PORT: the launcher
// accepts the connections and hands them round (docs/operations.md#adding-processes).
//
// Built (dist/fleet.js, `pnpm build:services`), it starts each service from the build, `node dist/<service>.js`;
// run from source (tsx: the tests, development), from source. Each process gets its instance id (INSTANCE_ID,
// `<service>-<n>`, in its log lines and metrics) and its operations port: OPS_PORT (default 9464) for the first,
// then one more for each next one, in the order below (docs/operations.md#metrics-and-probes); OPS_PORT=0: each a
// free port.

import cluster, { type Worker } from 'node:cluster';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@pcas/observability';
import pg from 'pg';
import { parseReplicas } from './replicas.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Set by the production build (build.config.mjs); undefined under tsx.
declare const __PCAS_BUILD__: boolean | undefined;
const fromBuild = typeof __PCAS_BUILD__ !== 'undefined' && __PCAS_BUILD__;
const log = createLogger('fleet', process.env.LOG_LEVEL ?? 'info');
/**
 * V8's heap sized for a long-running service (docs/operations.md#memory); the image passes the same (deploy/Dockerfile).
 * - The young generation capped at 4 MiB a half (its default bound is 16): it otherwise grows towards that bound for
 *   half an hour of traffic, and each process's RSS with it, which hides a real leak from anyone watching memory.
 * - The old generation let grow by half its live size at most before a full collection: by default V8 may let it
 *   reach up to four times the live size, and the projector's heap swung from 46 to 192 MiB in a soak.
 * Node refuses the second in NODE_OPTIONS, so both go on the command line.
 */
const HEAP_FLAGS = ['--max-semi-space-size=4', '--heap-growing-percent=50'];

const SERVICES = [
  { name: 'portcall-projector', entry: 'services/portcall-projector/src/entry-points/main.ts' },
  { name: 'ingest', entry: 'services/ingest/src/entry-points/main.ts' },
  { name: 'notifier', entry: 'services/notifier/src/entry-points/main.ts' },
  { name: 'logistics', entry: 'services/logistics/src/entry-points/main.ts' },
  { name: 'queue-scheduler', entry: 'services/queue-scheduler/src/entry-points/main.ts' },
  { name: 'vis-bridge', entry: 'services/vis-bridge/src/entry-points/main.ts' },
  { name: 'gateway', entry: 'services/gateway/src/entry-points/main.ts' },
  { name: 'dcsa-bridge', entry: 'services/dcsa-bridge/src/entry-points/main.ts' },
];

const env: Record<string, string | undefined> = {
  ...process.env,
  RUN_MODE: 'fleet',
  DATABASE_URL: process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/port_call_activity',
  AMQP_URL: process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
};

async function ensureDatabase(url: string) {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1)) || 'postgres';
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
      log.info({ database: name }, 'created database');
    }
  } catch (error) {
    // Another launcher may have created it at the same moment.
    if ((error as { code?: string }).code !== '42P04') throw error;
  } finally {
    await client.end();
  }
}

type Service = (typeof SERVICES)[number];
/** One process of a service: the n-th (from 1) of its replicas. */
interface Slot {
  service: Service;
  n: number;
  /** Its place among all the fleet's processes, for its operations port. */
  index: number;
}

const replicas = parseReplicas(
  process.env.FLEET_REPLICAS,
  SERVICES.map((s) => s.name),
);
const SLOTS: Slot[] = SERVICES.flatMap((service) =>
  Array.from({ length: replicas.get(service.name) ?? 1 }, (_, i) => ({ service, n: i + 1, index: 0 })),
).map((slot, index) => ({ ...slot, index }));

const workers = new Map<Slot, Worker>();
let stopping = false;

const opsBase = Number(process.env.OPS_PORT ?? 9464);

/** The process's own settings: its instance id and operations port. */
function processEnv(slot: Slot): Record<string, string | undefined> {
  return {
    ...env,
    INSTANCE_ID: `${slot.service.name}-${slot.n}`,
    OPS_PORT: String(opsBase === 0 ? 0 : opsBase + slot.index),
  };
}

function start(slot: Slot, attempt = 0) {
  const { service } = slot;
  // Built, the services are the launcher's neighbours (dist/, or wherever the build was written).
  cluster.setupPrimary(
    fromBuild
      ? { exec: path.join(path.dirname(process.argv[1]!), `${service.name}.js`), execArgv: HEAP_FLAGS, cwd: root }
      : { exec: path.join(root, service.entry), execArgv: [...HEAP_FLAGS, '--import', 'tsx'], cwd: root },
  );
  const worker = cluster.fork(processEnv(slot));
  workers.set(slot, worker);
  const startedAt = Date.now();
  worker.on('exit', (code, signal) => {
    workers.delete(slot);
    if (stopping) return;
    const next = Date.now() - startedAt > 30_000 ? 0 : attempt + 1;
    const delay = Math.min(30_000, 500 * 2 ** next);
    log.error(
      { service: service.name, instance: processEnv(slot).INSTANCE_ID, code, signal, restartInMs: delay },
      'service exited; restarting',
    );
    setTimeout(() => start(slot, next), delay);
  });
}

async function main() {
  await ensureDatabase(env.DATABASE_URL!);
  for (const slot of SLOTS) start(slot);
  log.info(
    {
      services: Object.fromEntries(replicas),
      port: env.PORT ?? '8000',
      opsPorts: Object.fromEntries(
        SLOTS.map((slot) => [processEnv(slot).INSTANCE_ID, Number(processEnv(slot).OPS_PORT)]),
      ),
      from: fromBuild ? 'dist' : 'source',
    },
    'fleet started',
  );
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.all(
      [...workers.values()].map(
        (worker) =>
          new Promise<void>((resolve) => {
            worker.once('exit', () => resolve());
            worker.process.kill('SIGTERM');
            setTimeout(() => worker.process.kill('SIGKILL'), 10_000).unref();
          }),
      ),
    );
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());
}

main().catch((error) => {
  log.error(error);
  process.exit(1);
});
