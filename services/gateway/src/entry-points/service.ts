// The gateway's composition root, the same in both run modes: schema and seeds, then the HTTP app.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createBatcher } from '@pcas/batching';
import { type RunningService, SEA_CHART_VESSELS_CHANNEL, type ServiceDeps } from '@pcas/contracts';
import { createHorizonWatch } from '@pcas/eventstore';
import { answerParserErrors, createHttpApp, type ModuleName, type RateLimiter } from '@pcas/http-kit';
import { createMailer, type Mailer } from '@pcas/mail';
import type { ActiveApiKey } from '../adapters/api-keys.ts';
import { assertKnownRateLimits, createRateLimits } from '../adapters/rate-limits.ts';
import { createSeaChartVessels } from '../adapters/read-models/sea-chart.ts';
import { ensureGatewaySchema } from '../adapters/schema.ts';
import type { SessionStore } from '../adapters/session-store.ts';
import { readSettings } from '../adapters/settings.ts';
import { seedFirstAdmin } from '../adapters/users.ts';
import { unknownRuleRoles } from '../domain/passwords.ts';
import { ROLE_NAMES } from '../domain/roles.ts';
import { createAccess, type SessionCaller } from './auth.ts';
import {
  createCallerCache,
  type GatewayCaches,
  NO_OWNER,
  sessionsTellingCache,
  storeTellingCache,
  throughCache,
} from './caller-cache.ts';
import { prepareOwnersTables } from './owners-tables.ts';
import { startRealtime } from './realtime.ts';
import { channelRules } from './routes/channels.ts';
import { allRoutes } from './routes/index.ts';
import { signingKeyLoader } from './sign-in.ts';
import { webUiOf } from './web-ui.ts';

/** How long a resolved session, API key or module switch is reused by one gateway process (docs/domain.md#sessions). */
export const CALLER_MAX_AGE_MS = 1_000;
/** How often this process looks for a writer holding the event log back when nobody asks /health-check. */
const HORIZON_CHECK_MS = 5_000;

export async function startGateway(
  /** `rateLimiter`: the fleet's, counting in Redis (adapters/rate-limits.ts); absent, this process counts in memory. */
  input: ServiceDeps & { sessions: SessionStore; mailer?: Mailer; rateLimiter?: RateLimiter },
): Promise<RunningService & { port: number }> {
  const { db, config, log } = input;
  // A role name misspelt in PASSWORD_RULES would silently get the default rules: refuse to start instead.
  const unknownRoles = unknownRuleRoles(config.passwordRules, ROLE_NAMES);
  if (unknownRoles.length > 0) throw new Error(`PASSWORD_RULES names unknown roles: ${unknownRoles.join(', ')}`);
  const mailer =
    input.mailer ??
    createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: path.resolve(config.dataDir, 'outbox'),
      log: log.child({ component: 'mail' }),
    });
  const seaChartVessels = createSeaChartVessels(db, config.seaChart.vesselLocationMaxAgeMinutes);
  // Sessions, API keys and module switches resolved by this process are reused for a second; whatever ends a
  // session, changes a user, a key, a role's permissions or a setting through this process tells the caches at
  // once (caller-cache.ts, docs/domain.md#sessions).
  const caches = {
    sessions: createCallerCache<SessionCaller>({ maxAgeMs: CALLER_MAX_AGE_MS }),
    apiKeys: createCallerCache<ActiveApiKey | null>({ maxAgeMs: CALLER_MAX_AGE_MS }),
    modules: createCallerCache<boolean>({ maxAgeMs: CALLER_MAX_AGE_MS }),
  } satisfies GatewayCaches;
  const deps = {
    ...input,
    sessions: sessionsTellingCache(input.sessions, caches.sessions),
    store: storeTellingCache(input.store, caches),
    mailer,
    seaChartVessels,
    horizonWatch: createHorizonWatch(db, {
      thresholdMs: config.database.holdWarnMs,
      log: log.child({ component: 'event-log' }),
    }),
  };
  // Looked at without anyone asking /health-check too, so that a writer holding the log back is in the log.
  const watching = setInterval(
    () => deps.horizonWatch.check().catch((error) => log.debug({ err: error }, 'horizon check failed')),
    HORIZON_CHECK_MS,
  );
  watching.unref();
  await ensureGatewaySchema(db);
  await prepareOwnersTables(db);
  await seedFirstAdmin(deps);
  const access = createAccess(deps, caches);
  // A module's switch, as its setting (`queue_module`) holds it; requests arriving while one read is on its way
  // share the next.
  const readSwitches = createBatcher<string, boolean>(
    async (names) => {
      const values = await readSettings(db, [...new Set(names)]);
      return names.map((name) => ({ ok: true, value: values[name] === 'enabled' }));
    },
    { maxInFlight: 1 },
  );
  const moduleSwitch = throughCache(caches.modules, readSwitches, () => NO_OWNER);
  const moduleEnabled = (module: ModuleName) => moduleSwitch(`${module}_module`);
  const webUi = webUiOf(config);
  if (!webUi) log.warn('the web UI is not built (pnpm install builds it): / shows the status page');
  else if (config.webUiDir) log.info({ dir: webUi.dir }, 'serving the web UI of WEB_UI_DIR');
  const routes = allRoutes(deps);
  assertKnownRateLimits(routes);
  const app = createHttpApp({
    webUi,
    routes,
    logger: log,
    authenticate: access.authenticate,
    authorize: access.authorize,
    isModuleEnabled: moduleEnabled,
    rateLimiter: input.rateLimiter ?? createRateLimits(config.rateLimits, { prefix: 'limit:' }),
    trustedProxies: config.trustedProxies,
  });
  const server = createServer(app);
  answerParserErrors(server);
  const realtime = await startRealtime({
    ...deps,
    server,
    signingKeys: signingKeyLoader(deps),
    channels: channelRules(routes),
    recheckMs: config.realtimeRecheckMs,
    passwordRules: config.passwordRules,
    // The map's message goes out once a body with the change is served (none of its readers waits for it).
    beforeSending: (channel) => (channel === SEA_CHART_VESSELS_CHANNEL ? seaChartVessels.fresh() : undefined),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  log.info({ port }, 'gateway listening');
  return {
    port,
    async stop() {
      clearInterval(watching);
      // Sockets first: an open WebSocket would hold the HTTP server's close.
      await realtime.stop();
      // Stop accepting, let in-flight requests finish, then drop idle keep-alive connections.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), 5_000);
      await closed;
      clearTimeout(force);
      // A mailer passed in belongs to the caller.
      if (!input.mailer) await mailer.close();
    },
  };
}
