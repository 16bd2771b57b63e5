// How every service runs as its own process in the fleet: tracing, config, the operations port (metrics and
// probes: docs/operations.md#metrics-and-probes), PostgreSQL, the event store, RabbitMQ, a relay, the service, and
// a graceful stop on SIGTERM/SIGINT. Each service's `main.ts` is one call.

import { type Config, loadConfig } from '@pcas/config';
import { RELAY_POLICY, type RunningService, type ServiceDeps } from '@pcas/contracts';
import { createEventStore } from '@pcas/eventstore';
import { createAmqpBus, ensureMessagingSchema, startRelay } from '@pcas/messaging';
import {
  createLogger,
  initMetrics,
  type Logger,
  type OpsServer,
  startOpsServer,
  startTracing,
  stopTracing,
} from '@pcas/observability';
import { openDb } from '@pcas/sql';
import { registerSystemGauges } from './system-gauges.ts';

export { RELAY_LAG_EVENTS_CAP, registerSystemGauges, type SystemGaugeOptions } from './system-gauges.ts';

export async function runInFleet(name: string, start: (deps: ServiceDeps) => Promise<RunningService>): Promise<void> {
  await startTracing(name);
  const config = loadConfig(process.env, { mode: 'fleet' });
  const log = createLogger(name, config.logLevel);
  initMetrics(name);
  // First, so that a probe tells "up, starting" from "not there" while the connections open.
  const ops = await openOpsPort(name, config, log);
  const db = await openDb({
    url: config.databaseUrl,
    applicationName: name,
    poolSize: config.database.poolSize,
    statementTimeoutMs: config.database.statementTimeoutMs,
    idleInTransactionTimeoutMs: config.database.idleInTransactionTimeoutMs,
  });
  const store = createEventStore(db);
  await store.init();
  // The projections' progress, read by the lag gauge and /health-check whether or not this process projects.
  await ensureMessagingSchema(db);
  const bus = await createAmqpBus({
    url: config.amqpUrl!,
    log: log.child({ component: 'bus' }),
    partitions: config.messaging.partitions,
    queueType: config.messaging.queueType,
  });
  // Every fleet process offers a relay; an advisory lock keeps exactly one publishing.
  const relay = await startRelay({ store, db, bus, log: log.child({ component: 'relay' }), ...RELAY_POLICY });
  const service = await start({ config, db, store, bus, log });
  const removeGauges = registerSystemGauges({ db, store, relay, skipStreamPrefixes: RELAY_POLICY.skipStreamPrefixes });
  ops?.ready({
    postgres: async () => (await db.query('SELECT 1')).rows.length === 1,
    rabbitmq: () => bus.healthy(),
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, `${name} stopping`);
    ops?.stopping();
    removeGauges();
    // The service first, so no command is cut off half-way by the closing connections.
    for (const part of [service, relay]) await part.stop().catch((error) => log.error({ err: error }, 'stop failed'));
    await bus.close().catch((error) => log.error({ err: error }, 'bus close failed'));
    await db.close().catch((error) => log.error({ err: error }, 'db close failed'));
    await stopTracing();
    await ops?.close();
    process.exit(0);
  };
  // `on`, not `once`: Ctrl-C on `pnpm start:fleet` reaches this process from the terminal (SIGINT) and again from
  // the launcher (SIGTERM); the second must not kill a stop under way (shutdown runs once).
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/**
 * The operations port, unless OPS_PORT turns it off. A port already taken (another fleet on the machine) costs the
 * metrics and probes, not the service: it runs without them and says so.
 */
async function openOpsPort(name: string, config: Config, log: Logger): Promise<OpsServer | undefined> {
  if (config.ops.port === undefined) return undefined;
  try {
    return await startOpsServer({ service: name, port: config.ops.port, host: config.ops.host, log });
  } catch (error) {
    log.error({ err: error, opsPort: config.ops.port }, 'no metrics or probes: the operations port cannot be opened');
    return undefined;
  }
}

/** For a service's main.ts: run it, or exit non-zero with the reason. */
export function runMain(name: string, start: (deps: ServiceDeps) => Promise<RunningService>): void {
  runInFleet(name, start).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
