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
import { type Db, openDb } from '@pcas/sql';
import { ApiClient, freshPostgres, type PostgresForTest, redis as redisForTest } from '@pcas/testing';
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

/** Letters and digits only: also valid as NAMESPACE, which names the fleet gateway's session key prefix. */
const token = () => randomBytes(5).toString('hex');

export async function startTestGateway(
  prefix: string,
  overrides: Partial<Config> = {},
  /** `log`: the logger of the gateway (default: warnings and errors to stdout). */
  options: { log?: Logger } = {},
): Promise<TestGateway> {
  const pg: PostgresForTest = await freshPostgres(prefix);
  const db = pg.url ? await openDb({ url: pg.url }) : await openDb({ dataDir: 'memory://' });
  const store = createEventStore(db);
  await store.init();
  const log: Logger = options.log ?? createLogger(prefix, process.env.LOG_LEVEL ?? 'warn');
  const bus: Bus = createInProcessBus({ log });
  const dataDir = await mkdtemp(path.join(tmpdir(), `${prefix}-`));
  const namespace = `t${token()}`;
  const config = loadConfig(
    // Rate limits off unless a test sets them (`rateLimits`): these tests call from one address far faster than
    // any client, and a limit would make an answer depend on what ran before it (rate-limits.int.test.ts).
    RATE_LIMITS_OFF_ENV,
    {
      port: 0,
      invalidAccessDelayMs: 0,
      adminEmail: `admin-${token()}@test.local`,
      adminPassword: `pw-${token()}${token()}`,
      sessionTtlSeconds: 3600,
      dataDir,
      namespace,
      ...overrides,
    },
  );
  const redisServer = await redisForTest();
  let redisClient: Redis | undefined;
  let sessions: SessionStore;
  // The fleet gateway's prefix (entry-points/main.ts), so a gateway process started with NAMESPACE shares them.
  const sessionPrefix = `pcas:${namespace}:session:`;
  // As the fleet gateway's (entry-points/main.ts).
  const limitPrefix = `pcas:${namespace}:limit:`;
  let rateLimiter: RateLimiter | undefined;
  if (redisServer) {
    redisClient = new Redis(redisServer.url);
    sessions = createRedisSessionStore(redisClient, { ttlSeconds: config.sessionTtlSeconds, prefix: sessionPrefix });
    rateLimiter = createRateLimits(config.rateLimits, { redis: redisClient, prefix: limitPrefix });
  } else {
    sessions = createSqlSessionStore(db, { ttlSeconds: config.sessionTtlSeconds });
  }
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
    databaseUrl: pg.url,
    redisUrl: redisServer?.url,
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
      await bus.close();
      if (redisClient) {
        const keys = await redisClient.keys(`pcas:${namespace}:*`);
        if (keys.length > 0) await redisClient.del(...keys);
        await redisClient.quit();
      }
      await db.close();
      await pg.drop();
      await rm(dataDir, { recursive: true, force: true });
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
