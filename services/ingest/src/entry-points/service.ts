// Starts the ingest service on whatever adapters it is given (fleet: PostgreSQL + RabbitMQ; embedded: PGlite +
// the in-process bus).

import { commandHandler } from '@pcas/commands';
import { INGEST, type RunningService, type ServiceDeps } from '@pcas/contracts';
import { createJobs, type DelayedJobs } from '@pcas/jobs';
import { Redis } from 'ioredis';
import { ensureSchema } from '../adapters/schema.ts';
import { createIngestCommands } from './commands.ts';
import { withIngestLookups } from './lookups.ts';
import { armRetention, RETENTION_QUEUE, retentionJob, seaChartCommands } from './sea-chart.ts';

// The AIS agents' map is also rewritten this often, so a write another process made late is soon replaced.
const MAP_REFRESH_MS = 60_000;

export async function startIngest(deps: ServiceDeps): Promise<RunningService> {
  await ensureSchema(deps.db);
  const commands = createIngestCommands({
    db: deps.db,
    store: deps.store,
    log: deps.log,
    namespace: deps.config.namespace,
  });
  // The sea chart (docs/domain.md#sea-chart): its commands share cmd.ingest.
  const fleet = deps.config.mode === 'fleet' && deps.config.redisUrl !== undefined;
  const redis = fleet ? new Redis(deps.config.redisUrl!, { lazyConnect: false }) : undefined;
  redis?.on('error', (error) => deps.log.warn({ err: error }, 'redis'));
  const seaChart = seaChartCommands(deps, { mapStore: redis });
  const seaChartHandle = commandHandler(seaChart.commands);
  const rpc = await deps.bus.serveRpc(
    INGEST,
    withIngestLookups(deps.db, (command, payload, headers) =>
      Object.hasOwn(seaChart.commands, command)
        ? seaChartHandle(command, payload, headers)
        : commands.handle(command, payload, headers),
    ),
  );
  await seaChart.refreshMap();
  const mapTimer = redis ? setInterval(() => void seaChart.refreshMap(), MAP_REFRESH_MS) : undefined;
  mapTimer?.unref();

  let jobs: DelayedJobs;
  const handler = retentionJob(deps, deps.config.seaChart.positionRetentionDays, () => jobs);
  const jobsLog = deps.log.child({ component: 'jobs' });
  jobs = await createJobs(deps.config, { queue: RETENTION_QUEUE, handler, log: jobsLog });
  // The first run a minute after start; each run arms the next.
  await armRetention(jobs, Date.now() + 60_000);

  deps.log.info('ingest serving cmd.ingest');
  return {
    async stop() {
      clearInterval(mapTimer);
      await rpc.stop();
      await jobs.close();
      await redis?.quit();
    },
  };
}
