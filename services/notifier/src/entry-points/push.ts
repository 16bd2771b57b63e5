// Push to phones (docs/domain.md#push-notifications): the push jobs, and the two triggers that make pushes.
// - NOTIFICATION: a consumer of the notifier's own NotificationCreated (a notification, or a decision item's reply).
//   The notification is committed before any push exists, so a push server that is down never loses or delays it;
//   the consumer's inbox makes a redelivered event push nothing twice.
// - VESSEL: a consumer of the projector's portcall.PortCallChanged, whose `placed` list names the timestamps the
//   change placed on the port call, each with whether it is the heaviest of its kind there (appended with the
//   read-model change; earlier versions appended each as a TimestampPlaced, read too). About one per ingested timestamp, so a batch
//   costs one indexed look-up of the pinned IMOs among its heaviest data-source timestamps, and nothing more when
//   nobody pinned them; a pinned one becomes a job (its id names the timestamp: a redelivery is the same job, and a
//   job run twice finds its push claimed in notifier.pushes_made).

import {
  type NotificationCreated,
  PORTCALL_CHANGED_ROUTING_KEY,
  type PortCallChanged,
  type RunningService,
  type ServiceDeps,
  TIMESTAMP_PLACED_ROUTING_KEY,
  type TimestampPlaced,
} from '@pcas/contracts';
import { createJobs, type DelayedJobs, type JobHandler } from '@pcas/jobs';
import { startProjection, toRecordedEvent } from '@pcas/messaging';
import { createExpoClient, type ExpoClient } from '../adapters/expo.ts';
import { notificationObject } from '../adapters/notifications.ts';
import { enqueuePush, notificationAudience, type PushJob, pushJobHandler } from '../adapters/push-jobs.ts';
import { notificationPush } from '../domain/push-messages.ts';

export interface PushOptions {
  /** Delayed jobs for this handler; default BullMQ on REDIS_URL in the fleet, in-process timers embedded. */
  createJobs?: (handler: JobHandler) => DelayedJobs | Promise<DelayedJobs>;
  /** Default: Expo at the configured URLs. */
  expo?: ExpoClient;
  /** Queue and consumer names (tests run several notifiers on one server). */
  name?: string;
}

export const NOTIFICATION_CREATED_ROUTING_KEY = 'notification.NotificationCreated';

// A push server that is down for a few minutes still gets the push: 2 s, 4 s, … 256 s between the nine tries
// (about eight and a half minutes in all); then the job is given up and logged.
const PUSH_RETRIES = { maxAttempts: 9, retryBaseMs: 2_000 };

export async function startPush(deps: ServiceDeps, options: PushOptions = {}): Promise<RunningService> {
  const { bus, db, store, log, config } = deps;
  const name = options.name ?? 'notifier-push';
  const expo =
    options.expo ??
    createExpoClient({
      pushUrl: config.expoPushUrl,
      receiptsUrl: config.expoReceiptsUrl,
      accessToken: config.expoAccessToken,
    });
  let jobs: DelayedJobs | undefined;
  const handler = pushJobHandler({
    db,
    store,
    bus,
    log,
    expo,
    jobs: () => jobs!,
    receiptDelayMs: config.pushReceiptDelayMs,
    namespace: config.namespace,
    portTimeZone: config.portDefaultTimeZone ?? null,
  });
  const jobsLog = log.child({ component: 'push-jobs' });
  jobs = options.createJobs
    ? await options.createJobs(handler)
    : await createJobs(config, { queue: name, handler, log: jobsLog, ...PUSH_RETRIES });
  const queue = jobs;

  const notifications = await startProjection({
    bus,
    db,
    name,
    bindings: [NOTIFICATION_CREATED_ROUTING_KEY],
    log: log.child({ projection: name }),
    async apply(tx, events) {
      for (const event of events) {
        if (event.type !== 'NotificationCreated') continue;
        const notification = event.data as NotificationCreated;
        // As the list and the channel serve it (sender, ship): what the app shows when the push is tapped. Gone
        // (deleted before this ran): nobody is told of it.
        const shown = await notificationObject(tx, notification.id);
        if (shown === null) continue;
        const audience = await notificationAudience(tx, notification.ship_imo);
        const push = notificationPush(notification, shown, audience.vesselName, audience.devices, audience.pinnedBy);
        // A push that cannot be queued fails the batch, which is delivered again: the push is late, never lost.
        if (push) await enqueuePush(queue, push, new Date());
      }
    },
  });

  // Named as when it followed vessel.TimestampReceived: a broker from then keeps that binding too, whose messages
  // are passed over here. The news comes in PortCallChanged's `placed`; TimestampPlaced events of earlier versions
  // still in the log are read as well.
  const timestamps = await bus.consume(
    `${name}.timestamps`,
    async (messages) => {
      const candidates = messages
        .map(toRecordedEvent)
        .flatMap((e) =>
          e.type === 'PortCallChanged'
            ? ((e.data as PortCallChanged).placed ?? [])
            : e.type === 'TimestampPlaced'
              ? [e.data as TimestampPlaced]
              : [],
        )
        .filter((t) => t.source === 'api_key' && t.heaviest);
      if (candidates.length === 0) return;
      const imos = [...new Set(candidates.map((t) => t.imo))];
      const { rows } = await db.query<{ imo: string }>(
        'SELECT DISTINCT imo FROM notifier.pinned_vessels WHERE imo = ANY($1::bigint[])',
        [imos],
      );
      if (rows.length === 0) return;
      const pinned = new Set(rows.map((r) => Number(r.imo)));
      const at = new Date();
      for (const t of candidates) {
        if (!pinned.has(t.imo)) continue;
        const job: PushJob = {
          kind: 'vessel',
          news: {
            timestamp_id: t.timestamp_id,
            imo: t.imo,
            vessel_name: t.vessel_name,
            time_type: t.time_type,
            state: t.state,
            time: t.time,
          },
        };
        // The id makes a redelivered event one job; a job already run finds its push claimed and stops.
        await queue.schedule(`vessel-${t.timestamp_id}`, at, job);
      }
    },
    { bindings: [PORTCALL_CHANGED_ROUTING_KEY, TIMESTAMP_PLACED_ROUTING_KEY], maxBatch: 500, prefetch: 1000 },
  );

  log.info({ jobs: queue.kind }, 'push to phones started');
  return {
    async stop() {
      await timestamps.stop();
      await notifications.stop();
      await queue.close();
    },
  };
}
