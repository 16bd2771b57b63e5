// A gateway on real servers for integration tests: a fresh PostgreSQL database, sessions and rate limits in Redis
// (the SQL session store and limits in memory when no Redis can be had outside CI), the in-process bus. Every
// gateway gets a NAMESPACE of its own, so its Redis keys (sessions, rate limits) are its own. Users of any role
// and API keys are created through the gateway's own adapters (so their events are real), and sessions are minted
// in the session store, which lets a test act as any role without a login per request.

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Config, loadConfig, RATE_LIMITS_OFF_ENV } from '@pcas/config';
import { createEventStore, createHorizonWatch, type EventStore } from '@pcas/eventstore';
import type { RateLimiter } from '@pcas/http-kit';
import { createMailer } from '@pcas/mail';
import { type Bus, createInProcessBus } from '@pcas/messaging';
import { createLogger, type Logger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import { ApiClient, freshDatabase, redis as redisForTest } from '@pcas/testing';
import { Redis } from 'ioredis';
import { createApiKey } from '../../adapters/api-keys.ts';
import { createRateLimits } from '../../adapters/rate-limits.ts';
import { createSeaChartVessels } from '../../adapters/read-models/sea-chart.ts';
import { createRedisSessionStore, createSqlSessionStore, type SessionStore } from '../../adapters/session-store.ts';
import { createUser } from '../../adapters/users.ts';
import type { GatewayDeps } from '../deps.ts';
import { startGateway } from '../service.ts';

export interface TestGateway {
  baseUrl: string;
  config: Config;
  db: Db;
  store: EventStore;
  sessions: SessionStore;
  deps: GatewayDeps;
  /** postgres:// URL of the test database; undefined when it runs on PGlite (no real server outside CI). */
  databaseUrl: string | undefined;
  /** Redis URL the sessions live in, and their key prefix (what a second gateway process needs to share them). */
  redisUrl: string | undefined;
  /** The prefix of its rate limits' keys in that Redis (adapters/rate-limits.ts). */
  rateLimitPrefix: string;
  /** A caller without credentials. */
  anonymous: ApiClient;
  /** A client with a fresh session of this user (no login, no password). */
  as(userId: number): Promise<ApiClient>;
  /** An active user of the role; returns its id. */
  createUser(role: string): Promise<number>;
  /** An active API key; returns its id and secret. */
  /** `permissions`: the API-key permissions it holds (default: all of them). */
  createApiKey(name?: string, permissions?: string[]): Promise<{ id: number; key: string }>;
  /** The seeded first administrator's id. */
  adminId: number;
  stop(): Promise<void>;
}

/** Every line `log` writes, captured by swapping the pino destination (no extra dependency needed). */
function captureLogs(log: Logger): string[] {
  const lines: string[] = [];
  const streamSym = Object.getOwnPropertySymbols(log).find((s) => s.description === 'pino.stream');
  if (!streamSym) throw new Error('pino stream symbol not found');
  (log as any)[streamSym] = { write: (line: string) => lines.push(line) };
  return lines;
}

/**
 * Sessions in the test Redis under `prefix` (the SQL store in `db` when no Redis can be had outside CI); `close`
 * removes the keys under `ownKeys` (the session prefix unless said) and quits.
 */
export async function testSessions(db: Db, ttlSeconds: number, prefix: string, ownKeys = prefix) {
  const redisServer = await redisForTest();
  if (!redisServer) {
    return {
      sessions: createSqlSessionStore(db, { ttlSeconds }),
      redisClient: undefined,
      redisUrl: undefined,
      close: async () => {},
    };
  }
  const redisClient = new Redis(redisServer.url);
  return {
    sessions: createRedisSessionStore(redisClient, { ttlSeconds, prefix }) as SessionStore,
    redisClient,
    redisUrl: redisServer.url,
    async close() {
      const keys = await redisClient.keys(`${ownKeys}*`);
      if (keys.length > 0) await redisClient.del(...keys);
      await redisClient.quit();
    },
  };
}

/**
 * What a test gateway stands on: a fresh database with the event store, the in-process bus logging to `log`, and a
 * data directory; `close` ends them (after the gateway and its sessions). Without a `log`, a debug logger whose
 * every line is kept in `logLines`.
 */
export async function gatewayGround(prefix: string, given?: Logger) {
  const log = given ?? createLogger(prefix, 'debug');
  const logLines = given ? [] : captureLogs(log);
  const database = await freshDatabase(prefix);
  const { db } = database;
  const store = createEventStore(db);
  await store.init();
  const bus: Bus = createInProcessBus({ log });
  const dataDir = await mkdtemp(path.join(tmpdir(), `${prefix}-`));
  return {
    databaseUrl: database.url,
    log,
    logLines,
    /** The configuration a gateway on this ground starts with: any free port, refusals at once, a known admin. */
    settings: (adminEmail: string, adminPassword: string) => ({
      port: 0,
      invalidAccessDelayMs: 0,
      adminEmail,
      adminPassword,
      sessionTtlSeconds: 3600,
      dataDir,
    }),
    db,
    store,
    bus,
    dataDir,
    async close() {
      await bus.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Letters and digits only: also valid as NAMESPACE, which names the fleet gateway's session key prefix. */
const token = () => randomBytes(5).toString('hex');

export async function startTestGateway(
  prefix: string,
  overrides: Partial<Config> = {},
  /** `log`: the logger of the gateway (default: warnings and errors to stdout). */
  options: { log?: Logger } = {},
): Promise<TestGateway> {
  const log: Logger = options.log ?? createLogger(prefix, process.env.LOG_LEVEL ?? 'warn');
  const ground = await gatewayGround(prefix, log);
  const { db, store, bus, dataDir } = ground;
  const namespace = `t${token()}`;
  const config = loadConfig(
    // Rate limits off unless a test sets them (`rateLimits`): these tests call from one address far faster than
    // any client, and a limit would make an answer depend on what ran before it (rate-limits.int.test.ts).
    RATE_LIMITS_OFF_ENV,
    {
      ...ground.settings(`admin-${token()}@test.local`, `pw-${token()}${token()}`),
      namespace,
      ...overrides,
    },
  );
  // The fleet gateway's prefixes (entry-points/main.ts), so a gateway process started with NAMESPACE shares them.
  const { sessions, redisClient, redisUrl, close } = await testSessions(
    db,
    config.sessionTtlSeconds,
    `pcas:${namespace}:session:`,
    `pcas:${namespace}:`,
  );
  const limitPrefix = `pcas:${namespace}:limit:`;
  const rateLimiter: RateLimiter | undefined =
    redisClient && createRateLimits(config.rateLimits, { redis: redisClient, prefix: limitPrefix });
  // Mails go to the outbox folder of the temporary data directory: these tests send none on purpose.
  const mailer = createMailer({
    smtpUrl: undefined,
    from: config.mailFrom,
    outboxDir: path.join(dataDir, 'outbox'),
    log,
  });
  const seaChartVessels = createSeaChartVessels(db, config.seaChart.vesselLocationMaxAgeMinutes);
  const horizonWatch = createHorizonWatch(db, { thresholdMs: config.database.holdWarnMs, log });
  const deps: GatewayDeps = { config, db, store, bus, log, sessions, mailer, seaChartVessels, horizonWatch };
  const gateway = await startGateway({ ...deps, rateLimiter });
  const baseUrl = `http://127.0.0.1:${gateway.port}`;
  const admin = await db.query<{ id: number }>('SELECT id FROM gateway.users WHERE lower(email) = lower($1)', [
    config.adminEmail,
  ]);
  const adminId = admin.rows[0].id;
  const anonymous = new ApiClient(baseUrl);

  return {
    baseUrl,
    config,
    db,
    store,
    sessions,
    deps,
    databaseUrl: ground.databaseUrl,
    redisUrl,
    rateLimitPrefix: limitPrefix,
    anonymous,
    adminId,
    async as(userId) {
      return anonymous.withSession(await sessions.create(userId));
    },
    async createUser(role) {
      const user = await db.transaction((tx) =>
        createUser(
          tx,
          store,
          {
            email: `${role}-${token()}@test.local`,
            first_name: 'Test',
            last_name: role,
            role,
            status: 'active',
            registration_type: 'manual',
            password_hash: '',
            created_by: adminId,
          },
          { user_id: adminId, api_key_id: null },
        ),
      );
      return user.id;
    },
    async createApiKey(name = `key-${token()}`, permissions?: string[]) {
      const created = await createApiKey(db, store, name, permissions ?? null, { user_id: adminId, api_key_id: null });
      return { id: created.id, key: created.key };
    },
    async stop() {
      await gateway.stop();
      await mailer.close();
      await close();
      await ground.close();
    },
  };
}

/** What bad input must leave untouched: the event log and the gateway tables this issue writes. */
export async function changeSnapshot(db: Db): Promise<string> {
  const parts = await Promise.all([
    db.query('SELECT count(*)::int AS n, max(global_position)::text AS last FROM eventstore.events'),
    db.query('SELECT role_id, permission_id FROM gateway.role_permissions ORDER BY 1, 2'),
    db.query('SELECT name, value, modified_by, modified_at::text FROM gateway.settings ORDER BY id'),
    db.query('SELECT namespace, language, key, value FROM gateway.translations ORDER BY 1, 2, 3'),
  ]);
  return JSON.stringify(parts.map((p) => p.rows));
}
