// The port-call context: the timestamp list, port calls and their read models, fed from the vessel and
// priorities streams on the bus; the manual corrections over RPC; the clock rules on delayed jobs (BullMQ on
// Redis in the fleet, in-process timers embedded).

import { AsyncLocalStorage } from 'node:async_hooks';
import { PORTCALL_PROJECTOR, type RunningService, type ServiceDeps } from '@pcas/contracts';
import { createJobs, type DelayedJobs, type DueJob, type JobHandler } from '@pcas/jobs';
import { startProjection } from '@pcas/messaging';
import { portCallTemplate } from '@pcas/s211';
import type { Db } from '@pcas/sql';
import { type ProjectorRules, projectBatch, type TimerChange } from '../adapters/projection.ts';
import { rebuildAll } from '../adapters/rebuild.ts';
import { ensureSchema } from '../adapters/schema.ts';
import { armHorizonMs, armNearTimers, armTimers, fireTimer, type TimerJob } from '../adapters/timers.ts';
import { VesselCache, type VesselCacheLimits } from '../adapters/vessel-state.ts';
import type { ClusteringRule } from '../domain/port-calls.ts';
import { parsePortCallSettings } from '../domain/port-calls.ts';
import { createPortcallCommands } from './commands.ts';
import { withPortCallLookups } from './port-call-lookups.ts';
import { withPortCallQueries } from './port-call-queries.ts';

export interface PortcallProjectorOptions {
  /** The rules' settings; default from the environment (PORT_CALL_*, VISIBLE_UNLOCODES, NAMESPACE). */
  rules?: ProjectorRules;
  /** Delayed jobs for this handler; default BullMQ on REDIS_URL in the fleet, in-process timers embedded. */
  createJobs?: (handler: JobHandler) => DelayedJobs | Promise<DelayedJobs>;
  /** BullMQ key prefix (default `bull-<database name>`). */
  jobsPrefix?: string;
  /** How often timers coming near are armed and due ones fired anyway (a job lost; default 60 s). */
  timerSweepMs?: number;
  /** How many vessel states are kept in memory between batches (default: the PORT_CALL_CACHE_* settings). */
  cache?: VesselCacheLimits;
  /** The projection's name (queue `projection.<name>`; default `timestamps`) and the RPC service (tests). */
  projectionName?: string;
  rpcService?: string;
  /** How long a correction's reply waits for the projection (default 3000 ms). */
  projectionWaitMs?: number;
}

const CLUSTERING_RULES: readonly ClusteringRule[] = ['density', 'gap', 'kde'];

/** The rules as the environment sets them; an unknown clustering rule stops the start. */
export function rulesFromEnv(env: Readonly<Record<string, string | undefined>>, namespace: string): ProjectorRules {
  const settings = { ...parsePortCallSettings(env), namespace };
  const clustering = (env.PORT_CALL_CLUSTERING?.trim() || 'density') as ClusteringRule;
  if (!CLUSTERING_RULES.includes(clustering)) {
    throw new Error(`PORT_CALL_CLUSTERING must be one of ${CLUSTERING_RULES.join(', ')}, got '${clustering}'`);
  }
  return { settings, clustering, template: portCallTemplate(namespace) ?? [] };
}

/**
 * A Db whose transactions run the callbacks registered inside them once they have committed: the projection's
 * transaction is opened by the messaging lib, and timers must be armed only for what was committed.
 */
function withAfterCommit(db: Db, afterCommit: AsyncLocalStorage<(() => Promise<void>)[]>): Db {
  return {
    kind: db.kind,
    query: (text, params) => db.query(text, params),
    async transaction(fn) {
      const hooks: (() => Promise<void>)[] = [];
      const result = await db.transaction((tx) => afterCommit.run(hooks, () => fn(tx)));
      for (const hook of hooks) await hook();
      return result;
    },
    listen: (channel, onNotify) => db.listen(channel, onNotify),
    tryWithAdvisoryLock: (lockId, fn) => db.tryWithAdvisoryLock(lockId, fn),
    close: () => db.close(),
  };
}

export async function startPortcallProjector(
  deps: ServiceDeps,
  options: PortcallProjectorOptions = {},
): Promise<RunningService> {
  const { bus, db, store, log, config } = deps;
  const rules = options.rules ?? rulesFromEnv(process.env, config.namespace);
  await ensureSchema(db);

  let jobs: DelayedJobs;
  const sweepMs = options.timerSweepMs ?? 60_000;
  // Jobs are armed only for due times this close; the sweep arms the later ones as they come near.
  const horizonMs = armHorizonMs(sweepMs);
  const onJob = async (job: DueJob) => {
    const { imo, due } = job.data as TimerJob;
    const outcome = await fireTimer({ db, store, rules, jobs, log, horizonMs }, imo, due);
    log.debug({ imo, outcome }, 'port-call timer');
  };
  const jobsLog = log.child({ component: 'jobs' });
  jobs = options.createJobs
    ? await options.createJobs(onJob)
    : await createJobs(config, { queue: 'portcall-timers', handler: onJob, log: jobsLog, prefix: options.jobsPrefix });
  const arm = (changes: TimerChange[]) => armTimers(jobs, changes, log, horizonMs);

  const afterCommit = new AsyncLocalStorage<(() => Promise<void>)[]>();
  const cache = new VesselCache(
    options.cache ?? {
      vessels: config.portCallCache.vessels,
      timestamps: config.portCallCache.timestamps,
      idleMs: config.portCallCache.idleSeconds * 1000,
    },
  );
  // Named `timestamps` as before port calls joined it: the durable queue and its inbox carry on.
  const projection = await startProjection({
    bus,
    db: withAfterCommit(db, afterCommit),
    name: options.projectionName ?? 'timestamps',
    bindings: ['vessel.#', 'priorities.#'],
    // Each vessel's events in order is all the fold needs; the partitions spread over the projector's processes.
    partitioned: true,
    // A priority change applies to the timestamps after it: each partition gets it in its place among its own.
    everyPartition: ['priorities.#'],
    apply: async (tx, events) => {
      const outcome = await projectBatch(tx, store, rules, events, cache);
      if (outcome.timers.length > 0) afterCommit.getStore()?.push(() => arm(outcome.timers));
    },
    log: log.child({ projection: options.projectionName ?? 'timestamps' }),
  });

  const commands = createPortcallCommands({
    db,
    store,
    rules,
    log,
    onTimers: arm,
    projectionWaitMs: options.projectionWaitMs,
  });
  const rpc = await bus.serveRpc(
    options.rpcService ?? PORTCALL_PROJECTOR,
    withPortCallLookups(db, withPortCallQueries(db, commands.handle)),
  );

  // Vessels with timestamp rows but no port-call state (read models from before port calls, or dropped): rebuilt
  // in the background, then every recorded timer that is near is armed.
  const background = (async () => {
    try {
      const { rows } = await db.query<{ imo: number }>(
        `SELECT DISTINCT t.imo FROM portcall.timestamps t
          WHERE NOT EXISTS (SELECT 1 FROM portcall.vessels v WHERE v.imo = t.imo)`,
      );
      if (rows.length > 0) {
        const summary = await rebuildAll({ db, store, rules, log, imos: rows.map((r) => Number(r.imo)) });
        log.info({ vessels: summary.vessels }, 'port calls built for vessels that had none');
      }
      await armNearTimers(db, jobs, log, horizonMs);
    } catch (error) {
      log.error({ err: error }, 'could not restore port-call timers');
    }
  })();

  // Arms the timers coming near; and as a safety net, a timer whose job was lost (a crash between a commit and
  // arming it) still fires.
  let sweeping = false;
  const sweep = setInterval(async () => {
    if (sweeping) return;
    sweeping = true;
    try {
      await armNearTimers(db, jobs, log, horizonMs);
      const { rows } = await db.query<{ imo: number }>(
        `SELECT imo FROM portcall.vessels WHERE next_timer_at <= now() - interval '5 seconds'
          ORDER BY next_timer_at LIMIT 500`,
      );
      for (const r of rows) {
        await fireTimer({ db, store, rules, jobs, log, horizonMs }, Number(r.imo)).catch((error) =>
          log.warn({ err: error, imo: r.imo }, 'port-call timer failed'),
        );
      }
    } catch (error) {
      log.warn({ err: error }, 'port-call timer sweep failed');
    } finally {
      sweeping = false;
    }
  }, sweepMs);
  sweep.unref?.();

  log.info({ jobs: jobs.kind, clustering: rules.clustering }, 'portcall-projector started');
  return {
    async stop() {
      clearInterval(sweep);
      await background;
      await rpc.stop();
      await projection.stop();
      await jobs.close();
    },
  };
}
