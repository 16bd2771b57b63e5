// Starts the service as a newcomer would (`pnpm start` / `pnpm start:fleet`), as child processes, for the e2e
// tests and the benchmarks. Each fleet gets a fresh database and its own RabbitMQ virtual host, so runs never
// see each other's events or queues.

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, rename, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openDb } from '@pcas/sql';
import { freshPostgres, rabbitmq, redis, uniqueName } from './infra.ts';

const run = promisify(execFile);
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface RunningSystem {
  baseUrl: string;
  port: number;
  env: Record<string, string>;
  /** Output of the processes so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function waitForHealth(baseUrl: string, timeoutMs: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null)
      throw new Error(`process exited with ${child.exitCode} before it was healthy`);
    try {
      const res = await fetch(`${baseUrl}/health-check`);
      if (res.status === 200) return;
      last = `${res.status} ${await res.text()}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`not healthy after ${timeoutMs} ms: ${last}`);
}

/**
 * The production build the e2e tests run (`PCAS_TEST_BUILD_DIR`, made once per run by e2e/global-setup.ts): the
 * same JavaScript the fleet and the image run, and quicker to start than the sources through tsx. Unset (a single
 * test file run on its own, a benchmark): the sources.
 */
function entry(name: string, source: string): string {
  const built = process.env.PCAS_TEST_BUILD_DIR;
  return built ? path.join(built, `${name}.js`) : source;
}

function launch(script: string, env: Record<string, string>): { child: ChildProcess; output: () => string } {
  const args = script.endsWith('.js') ? [script] : ['--import', 'tsx', script];
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    // vitest puts Vite's BASE_URL="/" into process.env; the service reads BASE_URL as the web UI's address.
    env: { ...process.env, BASE_URL: 'http://localhost:3000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let buffer = '';
  const keep = (chunk: Buffer) => {
    buffer += chunk.toString();
    if (buffer.length > 200_000) buffer = buffer.slice(-100_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, output: () => buffer };
}

/** Waits until a launched system answers its health check; if it does not, stops it and throws with its output. */
async function healthyOrStopped(
  baseUrl: string,
  timeoutMs: number,
  { child, output }: { child: ChildProcess; output: () => string },
  stop: () => Promise<void>,
): Promise<void> {
  try {
    await waitForHealth(baseUrl, timeoutMs, child);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${output()}`);
  }
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {}
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

// OPS_PORT 0: each process's metrics and probes on a free port, so that fleets started side by side never meet.
const quietEnv = { LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', INVALID_ACCESS_DELAY_MS: '0', OPS_PORT: '0' };

/** The PGlite the service runs (libs/sql's), by version; undefined when its files are not where pnpm puts them. */
function pgliteVersion(): string | undefined {
  try {
    const manifest = path.join(repoRoot, 'libs/sql/node_modules/@electric-sql/pglite/package.json');
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch {
    return undefined;
  }
}

let template: Promise<string | undefined> | undefined;

/**
 * An empty PGlite cluster (initdb'd by libs/sql's openDb, nothing of ours in it), made once per machine and PGlite
 * version and copied into each embedded system's data folder: PGlite's initdb is most of an embedded start, and
 * each test file starts its own. The service still finds no schema, no events and no users, and runs its whole
 * first start. Where it cannot be made, the system starts on an empty folder as before.
 */
function pgliteTemplate(): Promise<string | undefined> {
  template ??= (async () => {
    const version = pgliteVersion();
    if (!version) return undefined;
    const dir = path.join(tmpdir(), `pcas-pglite-template-${version}`);
    if (existsSync(dir)) return dir;
    const building = await mkdtemp(`${dir}-building-`);
    try {
      const db = await openDb({ dataDir: building });
      await db.close();
      // Atomic: another test process making the same template at the same time loses the race harmlessly.
      await rename(building, dir).catch(() => rm(building, { recursive: true, force: true }));
      return dir;
    } catch {
      await rm(building, { recursive: true, force: true });
      return undefined;
    }
  })();
  return template;
}

/** `pnpm start`: everything in one process on PGlite in a temporary data folder. */
export async function startEmbedded(extraEnv: Record<string, string> = {}): Promise<RunningSystem> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pcas-embedded-'));
  // The launcher keeps PGlite in DATA_DIR/pglite (launcher/src/embedded.ts).
  const cluster = extraEnv.DATA_DIR ? undefined : await pgliteTemplate();
  if (cluster) await cp(cluster, path.join(dataDir, 'pglite'), { recursive: true });
  const port = await freePort();
  const env = { ...quietEnv, PORT: String(port), DATA_DIR: dataDir, ...extraEnv };
  const { child, output } = launch(entry('embedded', 'launcher/src/embedded.ts'), env);
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await terminate(child);
    await rm(dataDir, { recursive: true, force: true });
  };
  await healthyOrStopped(baseUrl, 90_000, { child, output }, stop);
  return { baseUrl, port, env, output, stop };
}

/** A RabbitMQ virtual host of its own (its URL), and a drop that deletes it with everything declared in it. */
export async function withVhost(amqpUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const vhost = uniqueName('pcas');
  await run('rabbitmqctl', ['add_vhost', vhost]);
  const user = decodeURIComponent(new URL(amqpUrl).username || 'guest');
  await run('rabbitmqctl', ['set_permissions', '-p', vhost, user, '.*', '.*', '.*']);
  const url = new URL(amqpUrl);
  url.pathname = `/${encodeURIComponent(vhost)}`;
  return { url: url.toString(), drop: () => run('rabbitmqctl', ['delete_vhost', vhost]).then(() => undefined) };
}

const settledValue = <T>(made: PromiseSettledResult<T>): T | undefined =>
  made.status === 'fulfilled' ? made.value : undefined;

/**
 * `pnpm start:fleet`: each service its own process against real PostgreSQL, RabbitMQ and Redis. `fromBuild`: the
 * production build's launcher (its fleet.js, which starts the built services beside it) instead of the sources.
 */
export async function startFleet(
  extraEnv: Record<string, string> = {},
  options: { fromBuild?: string } = {},
): Promise<RunningSystem> {
  // The database and the virtual host (rabbitmqctl: a second or so a call) are made side by side.
  const [pgMade, vhostMade, redisMade] = await Promise.allSettled([
    freshPostgres('pcas_fleet'),
    rabbitmq().then((amqp) => (amqp ? withVhost(amqp.url) : undefined)),
    redis(),
  ]);
  const database = settledValue(pgMade);
  const vhost = settledValue(vhostMade);
  const cache = settledValue(redisMade);
  if (!database?.url || !vhost || !cache) {
    await Promise.all([database?.drop().catch(() => {}), vhost?.drop().catch(() => {})]);
    const failed = [pgMade, vhostMade, redisMade].find((made) => made.status === 'rejected');
    if (failed) throw failed.reason;
    throw new Error(database?.url ? 'the fleet needs RabbitMQ and Redis' : 'the fleet needs a real PostgreSQL server');
  }
  const port = await freePort();
  const env = {
    ...quietEnv,
    PORT: String(port),
    DATABASE_URL: database.url,
    AMQP_URL: vhost.url,
    REDIS_URL: cache.url,
    ADMIN_EMAIL: 'admin@port.local',
    ADMIN_PASSWORD: 'e2e-admin-password',
    ...extraEnv,
  };
  const { child, output } = launch(options.fromBuild ?? entry('fleet', 'launcher/src/fleet.ts'), env);
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await terminate(child);
    await Promise.all([vhost.drop().catch(() => {}), database.drop().catch(() => {})]);
  };
  await healthyOrStopped(baseUrl, 120_000, { child, output }, stop);
  return { baseUrl, port, env, output, stop };
}

/**
 * One more gateway process of a running fleet, on its own port (as a second copy behind a load balancer would
 * run): same database, broker and Redis. Stopped by the caller, before the fleet.
 */
export async function startExtraGateway(fleet: RunningSystem): Promise<{ baseUrl: string; stop(): Promise<void> }> {
  const port = await freePort();
  const { child, output } = launch(entry('gateway', 'services/gateway/src/entry-points/main.ts'), {
    ...fleet.env,
    RUN_MODE: 'fleet',
    PORT: String(port),
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = () => terminate(child);
  await healthyOrStopped(baseUrl, 60_000, { child, output }, stop);
  return { baseUrl, stop };
}
