// Where integration and e2e tests find their servers: the URL from the environment when it answers, else
// testcontainers where a Docker engine runs, else (PostgreSQL only) an embedded PGlite. With CI=true the real
// servers are required and a missing one fails the run loudly.

import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';

const DEFAULT_PORTS: Record<string, number> = { 'postgres:': 5432, 'postgresql:': 5432, 'amqp:': 5672, 'redis:': 6379 };

export const DEFAULT_URLS = {
  postgres: 'postgres://postgres@127.0.0.1:5432/postgres',
  amqp: 'amqp://guest:guest@127.0.0.1:5672',
  redis: 'redis://127.0.0.1:6379',
};

export function reachable(url: string, ms = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const u = new URL(url);
    const port = Number(u.port || DEFAULT_PORTS[u.protocol]);
    const socket = net.connect({ host: u.hostname, port });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, ms);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.end();
      resolve(true);
    });
    socket.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

const requireReal = () => process.env.CI === 'true';

async function fromContainer(
  image: string,
  port: number,
  env: Record<string, string>,
  scheme: (host: string, port: number) => string,
) {
  const { GenericContainer } = await import('testcontainers');
  const container = await new GenericContainer(image).withEnvironment(env).withExposedPorts(port).start();
  return {
    url: scheme(container.getHost(), container.getMappedPort(port)),
    stop: () => container.stop().then(() => undefined),
  };
}

export interface PostgresForTest {
  /** postgres:// URL of a fresh, empty database; undefined when falling back to PGlite. */
  url: string | undefined;
  source: 'env' | 'testcontainers' | 'pglite';
  /** Drops the database (or stops the container). */
  drop(): Promise<void>;
}

/** A fresh database per call, so test files never see each other's events. */
export async function freshPostgres(prefix = 'pcas_test'): Promise<PostgresForTest> {
  const serverUrl = process.env.DATABASE_URL ?? DEFAULT_URLS.postgres;
  let source: PostgresForTest['source'] = 'env';
  let stopServer = async () => {};
  let adminUrl = serverUrl;
  if (!(await reachable(serverUrl))) {
    if (requireReal()) throw new Error(`CI=true but PostgreSQL at ${serverUrl} is not reachable`);
    try {
      const c = await fromContainer(
        'postgres:15-alpine',
        5432,
        { POSTGRES_PASSWORD: 'postgres' },
        (h, p) => `postgres://postgres:postgres@${h}:${p}/postgres`,
      );
      adminUrl = c.url;
      stopServer = c.stop;
      source = 'testcontainers';
    } catch (error) {
      console.warn(`[infra] no PostgreSQL (${(error as Error).message}); using embedded PGlite`);
      return { url: undefined, source: 'pglite', drop: async () => {} };
    }
  }
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    source,
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      await stopServer();
    },
  };
}

async function serverUrl(
  kind: 'amqp' | 'redis',
): Promise<{ url: string; source: 'env' | 'testcontainers'; stop(): Promise<void> } | undefined> {
  const envUrl = kind === 'amqp' ? process.env.AMQP_URL : process.env.REDIS_URL;
  const url = envUrl ?? DEFAULT_URLS[kind];
  if (await reachable(url)) return { url, source: 'env', stop: async () => {} };
  if (requireReal()) throw new Error(`CI=true but ${kind} at ${url} is not reachable`);
  try {
    const c =
      kind === 'amqp'
        ? await fromContainer('rabbitmq:3.13-alpine', 5672, {}, (h, p) => `amqp://guest:guest@${h}:${p}`)
        : await fromContainer('redis:7-alpine', 6379, {}, (h, p) => `redis://${h}:${p}`);
    return { ...c, source: 'testcontainers' };
  } catch (error) {
    console.warn(`[infra] no ${kind} (${(error as Error).message}); tests that need it are skipped`);
    return undefined;
  }
}

/** RabbitMQ URL, or undefined when none can be had (tests then skip; never under CI=true). */
export const rabbitmq = () => serverUrl('amqp');
/** Redis URL, or undefined when none can be had (tests then skip; never under CI=true). */
export const redis = () => serverUrl('redis');

/** A unique name for queues, Redis prefixes and the like, so parallel test files never collide. */
export const uniqueName = (prefix: string) => `${prefix}-${randomBytes(4).toString('hex')}`;
