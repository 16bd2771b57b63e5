// `pnpm start`: the whole fleet in one process, on PGlite under ./data and the in-process bus. Nothing to install
// but Node. The services and their code are the same as in the fleet; only the adapters differ.

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig } from '@pcas/config';
import { RELAY_POLICY, type ServiceDeps } from '@pcas/contracts';
import { startDcsaBridge } from '@pcas/dcsa-bridge';
import { createEventStore } from '@pcas/eventstore';
import { createSqlSessionStore, EMBEDDED_ADMIN_PASSWORD, startGateway } from '@pcas/gateway';
import { startIngest } from '@pcas/ingest';
import { startLogistics } from '@pcas/logistics';
import { createInProcessBus, ensureMessagingSchema, startRelay } from '@pcas/messaging';
import { startNotifier } from '@pcas/notifier';
import {
  createLogger,
  initMetrics,
  startOpsServer,
  startTracing,
  stopTracing,
  writeBesideLog,
} from '@pcas/observability';
import { startPortcallProjector } from '@pcas/portcall-projector';
import { startQueueScheduler } from '@pcas/queue-scheduler';
import { registerSystemGauges } from '@pcas/runtime';
import { openDb } from '@pcas/sql';
import { startVisBridge } from '@pcas/vis-bridge';
import { loginBlock } from './login-block.ts';

async function main() {
  const config = loadConfig(process.env, { mode: 'embedded' });
  // A newcomer has set nothing: a known password, printed below (and the status page says to change it).
  config.adminPassword ??= EMBEDDED_ADMIN_PASSWORD;
  const log = createLogger('embedded', config.logLevel);
  await startTracing('port-call-activity-service');
  initMetrics('embedded');
  // Only when OPS_PORT is set: one process has no fleet to watch, and a newcomer's machine no port to spare.
  const ops =
    config.ops.port === undefined
      ? undefined
      : await startOpsServer({ service: 'embedded', port: config.ops.port, host: config.ops.host, log });

  await mkdir(config.dataDir, { recursive: true });
  const db = await openDb({ dataDir: path.join(config.dataDir, 'pglite') });
  const store = createEventStore(db);
  await store.init();
  // The projections' progress, read by the lag gauge and /health-check.
  await ensureMessagingSchema(db);
  const bus = createInProcessBus({ log: log.child({ component: 'bus' }) });
  const deps = (name: string): ServiceDeps => ({ config, db, store, bus, log: log.child({ service: name }) });

  const projector = await startPortcallProjector(deps('portcall-projector'));
  const ingest = await startIngest(deps('ingest'));
  const notifier = await startNotifier(deps('notifier'));
  const logistics = await startLogistics(deps('logistics'));
  const queueScheduler = await startQueueScheduler(deps('queue-scheduler'));
  const visBridge = await startVisBridge(deps('vis-bridge'));
  const dcsaBridge = await startDcsaBridge(deps('dcsa-bridge'));
  const relay = await startRelay({ store, db, bus, log: log.child({ component: 'relay' }), ...RELAY_POLICY });
  const sessions = await createSqlSessionStore(db, { ttlSeconds: config.sessionTtlSeconds });
  const gateway = await startGateway({ ...deps('gateway'), sessions });
  const removeGauges = registerSystemGauges({ db, store, relay, skipStreamPrefixes: RELAY_POLICY.skipStreamPrefixes });
  ops?.ready({ database: async () => (await db.query('SELECT 1')).rows.length === 1 });

  log.info(
    { port: gateway.port, dataDir: path.resolve(config.dataDir), admin: config.adminEmail },
    'Port Call Activity Service (embedded) is up',
  );
  // Through the log's own stream, after its start-up lines: the way in is the last thing on the terminal.
  writeBesideLog(
    log,
    `\n${loginBlock({
      url: `http://localhost:${gateway.port}`,
      email: config.adminEmail,
      defaultPassword: process.env.ADMIN_PASSWORD ? undefined : config.adminPassword,
    })}\n\n`,
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    ops?.stopping();
    removeGauges();
    for (const part of [gateway, relay, dcsaBridge, visBridge, queueScheduler, logistics, notifier, ingest, projector])
      await part.stop().catch((e) => log.error(e));
    await bus.close();
    await db.close();
    await stopTracing();
    await ops?.close();
    log.info({ signal }, 'stopped');
    await new Promise<void>((resolve) => log.flush(() => resolve()));
    // A clean stop is a success: `pnpm start` (which runs this with exec, no wrapper between) ends without an error.
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
