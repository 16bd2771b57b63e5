// Starts the queue-scheduler service on whatever adapters it is given (fleet: PostgreSQL + RabbitMQ + BullMQ on
// Redis; embedded: PGlite + the in-process bus and timers). Its commands arrive on `cmd.queue-scheduler`. The
// expiry of nominations and the completion of slot requests run as delayed jobs at their due time (armed again at
// start for everything still open, since in-process timers do not survive a restart); reads only compute them.

import { commandHandler } from '@pcas/commands';
import { QUEUE_SCHEDULER, type RunningService, type ServiceDeps } from '@pcas/contracts';
import { createJobs, type DueJob } from '@pcas/jobs';
import { parseAtom } from '@pcas/values';
import { reportOutboxDepths } from '../adapters/outbox-depth.ts';
import { loadSettingValues } from '../adapters/port-settings.ts';
import { ensureSchema } from '../adapters/schema.ts';
import { dueItems, loadSlotRequest } from '../adapters/states.ts';
import type { QueueNotifications } from '../domain/notifications.ts';
import { queueSettings } from '../domain/queue-rules.ts';
import { completionDue } from '../domain/slot-requests.ts';
import { createQueueCommands, type QueueJobs } from './commands.ts';
import { etaFormCommands } from './eta-form.ts';
import { type LiveEtaOptions, startLiveEta } from './live-eta.ts';
import { type QueueMailOptions, startQueueMails } from './mails.ts';
import { portSettingCommands, startPortSettings } from './port-settings.ts';

export interface QueueSchedulerOptions {
  /** The e-mail side (docs/domain.md#queue); nobody is told without it. */
  notifications?: QueueNotifications;
  /** The e-mails' delivery (mailer, jobs) and the live ETA's jobs; defaults as the run mode says. */
  mails?: QueueMailOptions;
  liveEta?: LiveEtaOptions;
  /** Tests: their own BullMQ prefix. */
  jobsPrefix?: string;
}

type QueueJob = { kind: 'expire-nomination' | 'complete-slot-request'; id: number };

export async function startQueueScheduler(
  deps: ServiceDeps,
  options: QueueSchedulerOptions = {},
): Promise<RunningService> {
  const { config, log } = deps;
  await ensureSchema(deps.db);
  // The port's settings and mail texts, copied from the gateway's events before anything decides on them.
  const portSettings = await startPortSettings(deps);

  let commands: ReturnType<typeof createQueueCommands> | undefined;
  const onJob = async (job: DueJob) => {
    const { kind, id } = job.data as QueueJob;
    if (kind === 'expire-nomination') await commands?.expireNomination(id);
    else await commands?.completeSlotRequest(id);
  };
  const jobsLog = log.child({ component: 'jobs' });
  const delayed = await createJobs(config, {
    queue: 'queue-scheduler',
    handler: onJob,
    log: jobsLog,
    prefix: options.jobsPrefix,
  });

  // Ids name what is due and when, so scheduling the same thing again is a no-op and a changed time a new job.
  const jobs: QueueJobs = {
    expireNomination: (id, at) =>
      delayed.schedule(`nomination-${id}-${at}`, new Date(at), { kind: 'expire-nomination', id } satisfies QueueJob),
    completeSlotRequest: (id, at) =>
      delayed.schedule(`slotrequest-${id}-${at}`, new Date(at), {
        kind: 'complete-slot-request',
        id,
      } satisfies QueueJob),
  };
  const mails = await startQueueMails(deps, options.mails);
  const liveEta = await startLiveEta(deps, mails, options.liveEta);
  commands = createQueueCommands({ ...deps, notifications: options.notifications ?? mails.notifications, jobs });
  const rpc = await deps.bus.serveRpc(
    QUEUE_SCHEDULER,
    commandHandler({ ...commands.handlers, ...etaFormCommands(deps, mails), ...portSettingCommands(deps) }),
  );

  const due = await dueItems(deps.db);
  for (const n of due.nominations) {
    const at = parseAtom(n.at);
    if (at !== undefined) await jobs.expireNomination(n.id, at + 1000);
  }
  const settings = queueSettings(await loadSettingValues(deps.db));
  for (const id of due.slots) {
    const loaded = await loadSlotRequest(deps.db, id);
    const at = loaded && completionDue(loaded.state, settings);
    if (at) await jobs.completeSlotRequest(id, at);
  }

  // Generated timestamps a crash or a long-busy ingest left undone: now, then every minute.
  const sweep = () =>
    commands?.sweepTimestampWork().catch((err) => log.warn({ err }, 'generated timestamps sweep failed'));
  await sweep();
  const sweeper = setInterval(sweep, 60_000);
  sweeper.unref?.();

  const stopReporting = reportOutboxDepths(deps.db);
  log.info('queue-scheduler serving cmd.queue-scheduler');
  return {
    async stop() {
      stopReporting();
      clearInterval(sweeper);
      await rpc.stop();
      await commands?.settled();
      await delayed.close();
      await liveEta.stop();
      await mails.stop();
      await portSettings.stop();
    },
  };
}
