// `pnpm start:fleet`: each service its own process against PostgreSQL, RabbitMQ and Redis (DATABASE_URL,
// AMQP_URL, REDIS_URL; the local servers when unset). Creates the database if it is missing, restarts a
// service that dies, and stops them all on SIGINT/SIGTERM.
//
// Built (dist/fleet.js, `pnpm build:services`), it starts each service from the build, `node dist/<service>.js`;
// run from source (tsx: the tests, development), from source. Each process gets its instance id (INSTANCE_ID,
// in its log lines and metrics) and its operations port: OPS_PORT (default 9464) for the first, then one more
// for each next one, in the order below (docs/operations.md#metrics-and-probes); OPS_PORT=0: each a free port.

import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@pcas/observability';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Set by the production build (build.config.mjs); undefined under tsx.
declare const __PCAS_BUILD__: boolean | undefined;
const fromBuild = typeof __PCAS_BUILD__ !== 'undefined' && __PCAS_BUILD__;
const log = createLogger('fleet', process.env.LOG_LEVEL ?? 'info');

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

const children = new Map<string, ChildProcess>();
let stopping = false;

const opsBase = Number(process.env.OPS_PORT ?? 9464);

/** The process's own settings: its instance id and operations port. */
function processEnv(service: (typeof SERVICES)[number]): Record<string, string | undefined> {
  const index = SERVICES.indexOf(service);
  return {
    ...env,
    INSTANCE_ID: `${service.name}-1`,
    OPS_PORT: String(opsBase === 0 ? 0 : opsBase + index),
  };
}

function start(service: (typeof SERVICES)[number], attempt = 0) {
  // Built, the services are the launcher's neighbours (dist/, or wherever the build was written).
  const args = fromBuild
    ? [path.join(path.dirname(process.argv[1]!), `${service.name}.js`)]
    : ['--import', 'tsx', service.entry];
  const child = spawn(process.execPath, args, { cwd: root, env: processEnv(service), stdio: 'inherit' });
  children.set(service.name, child);
  const startedAt = Date.now();
  child.on('exit', (code, signal) => {
    children.delete(service.name);
    if (stopping) return;
    const next = Date.now() - startedAt > 30_000 ? 0 : attempt + 1;
    const delay = Math.min(30_000, 500 * 2 ** next);
    log.error({ service: service.name, code, signal, restartInMs: delay }, 'service exited; restarting');
    setTimeout(() => start(service, next), delay);
  });
}

async function main() {
  await ensureDatabase(env.DATABASE_URL!);
  for (const service of SERVICES) start(service);
  log.info(
    {
      services: SERVICES.map((s) => s.name),
      port: env.PORT ?? '8000',
      opsPorts: Object.fromEntries(SERVICES.map((s) => [s.name, Number(processEnv(s).OPS_PORT)])),
      from: fromBuild ? 'dist' : 'source',
    },
    'fleet started',
  );
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.all(
      [...children.values()].map(
        (child) =>
          new Promise<void>((resolve) => {
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
            setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
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
