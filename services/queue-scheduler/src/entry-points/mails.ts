// The queue's e-mails (docs/domain.md#queue-e-mails-and-live-eta), wired. The slot request mails come from the log:
// a projection of the slot request events (queue `projection.queue-mails`) records each mail in the outbox in the
// transaction that records the event as seen, so a decision stored is a mail recorded, once, whatever crashes or
// redeliveries happen. The berth block shifted mail comes through the queue's notification hook (the berth's
// events do not say why a block moved). Delivery: at once after the commit, else a delayed job (adapters/outbox.ts).
// Each slot request mail's link is recorded as the request's newest (queue.mail_slot_requests.link_id) in the same
// transaction: only that link may still change the request (services/gateway/src/domain/eta-form-links.ts). A job
// every hour on the same queue empties the bodies of mails sent more than MAIL_BODY_RETENTION_DAYS ago.

import path from 'node:path';
import type { ServiceDeps } from '@pcas/contracts';
import { createJobs, type DelayedJobs, type JobHandler } from '@pcas/jobs';
import { createMailer, type Mailer } from '@pcas/mail';
import { startProjection } from '@pcas/messaging';
import type { Queryable } from '@pcas/sql';

import {
  ensureOutboxSchema,
  type MailDelivery,
  mailDelivery,
  pruneSentMailBodies,
  recordMail,
} from '../adapters/outbox.ts';
import { mailTranslations, PORT_SETTINGS_DDL, portOperatorEmails } from '../adapters/port-settings.ts';
import {
  LINK_KEYS_SCHEMA,
  loadLinkKeys,
  recordLinkKinds,
  type SignedLinks,
  signedLinks,
} from '../adapters/signed-link.ts';
import { berthBlockShiftedMail, type Mail, operatorEmails, type slotRequestMail } from '../domain/mails.ts';
import type { QueueNotifications } from '../domain/notifications.ts';
import { slotRequestEventMails } from './slot-request-mails.ts';

export interface QueueMailOptions {
  /** Delayed jobs for delivery; default BullMQ on REDIS_URL in the fleet, in-process timers embedded. */
  createJobs?: (handler: JobHandler) => DelayedJobs | Promise<DelayedJobs>;
  /** Default: SMTP_URL, else the outbox folder `<DATA_DIR>/outbox`. */
  mailer?: Mailer;
  /** How often unsent mails are armed again (default one minute). */
  sweepEveryMs?: number;
  /** Tests: their own BullMQ prefix. */
  jobsPrefix?: string;
  /** How often sent mails' bodies past their retention are emptied (default hourly; first a minute after start). */
  pruneEveryMs?: number;
}

export interface QueueMails {
  links: SignedLinks;
  /** The hook the queue's commands call (the berth block shifted mail; slot request mails come from the log). */
  notifications: QueueNotifications;
  /** Records a mail in the caller's transaction; deliver its id after the commit. */
  record(tx: Queryable, id: string, mail: Mail): Promise<boolean>;
  deliver(ids: readonly string[]): Promise<void>;
  /** What a mail needs from the port: its texts, time zone, the operators' addresses. */
  texts(q: Queryable): Promise<Parameters<typeof slotRequestMail>[1]>;
  operators(q: Queryable): Promise<string[]>;
  timeZone: string | undefined;
  stop(): Promise<void>;
}

// Mail delivery gives up a job after these runs (about 17 minutes of growing waits); the sweep then arms it again.
const DELIVERY_RETRIES = { maxAttempts: 10, retryBaseMs: 2_000 };

const RECIPIENTS_SCHEMA = `CREATE TABLE IF NOT EXISTS queue.mail_slot_requests (
  id integer PRIMARY KEY,
  email text NOT NULL
)`;
// The `jti` of the newest JIT ETA form link mailed for the request; null before one was (or for links without one).
const NEWEST_LINK_SCHEMA = 'ALTER TABLE queue.mail_slot_requests ADD COLUMN IF NOT EXISTS link_id text';

const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** One prune job per interval, so every process arming it arms one (ids unlike deliveryJobId's `mail-…`). */
const pruneJobId = (at: number, every: number): string => `prune-mail-bodies-${Math.floor(at / every)}`;

export async function startQueueMails(deps: ServiceDeps, options: QueueMailOptions = {}): Promise<QueueMails> {
  const { config, db, bus, log } = deps;
  // The port's texts and settings the mails read are the queue's copy (adapters/port-settings.ts).
  await ensureOutboxSchema(db, [RECIPIENTS_SCHEMA, NEWEST_LINK_SCHEMA, ...LINK_KEYS_SCHEMA, ...PORT_SETTINGS_DDL]);
  await recordLinkKinds(db);
  const links = signedLinks(await loadLinkKeys(db, config));
  const mailer =
    options.mailer ??
    createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: path.join(config.dataDir, 'outbox'),
      log: log.child({ component: 'mail' }),
      // One try per job run: the job's retries wait longer, and a run never holds a worker for minutes.
      retry: { attempts: 1 },
    });
  const ownsMailer = !options.mailer;

  let delivery: MailDelivery | undefined;
  const pruneEvery = options.pruneEveryMs ?? PRUNE_EVERY_MS;
  const retentionMs = config.mailBodyRetentionDays * 24 * 60 * 60 * 1000;
  const armPrune = (at: number) => jobs.schedule(pruneJobId(at, pruneEvery), new Date(at), { prune: true });
  const handler: JobHandler = async (job) => {
    if ((job.data as { prune?: boolean }).prune) {
      // The next run is armed first, so a failing prune still leaves one.
      await armPrune(Date.now() + pruneEvery);
      const emptied = await pruneSentMailBodies(db, retentionMs);
      if (emptied > 0) log.info({ emptied }, 'bodies of sent queue mails removed after their retention');
      return;
    }
    await delivery?.sendNow((job.data as { id: string }).id);
  };
  const jobsLog = log.child({ component: 'queue-mail-jobs' });
  let jobs: DelayedJobs;
  jobs = options.createJobs
    ? await options.createJobs(handler)
    : await createJobs(config, {
        queue: 'queue-mails',
        handler,
        log: jobsLog,
        prefix: options.jobsPrefix,
        ...DELIVERY_RETRIES,
      });
  delivery = mailDelivery({ db, mailer, jobs: () => jobs, log, sweepEveryMs: options.sweepEveryMs });
  const deliver = (ids: readonly string[]) => delivery!.deliver(ids);

  const texts = (q: Queryable) => mailTranslations(q, config.namespace);
  const operators = async (q: Queryable) => operatorEmails(await portOperatorEmails(q));
  const timeZone = config.portDefaultTimeZone;

  let pending: { id: string; mail: Mail }[] = [];
  const projection = await startProjection({
    bus,
    db,
    name: 'queue-mails',
    bindings: ['slotrequest.#'],
    log: log.child({ projection: 'queue-mails' }),
    async apply(tx, events) {
      pending.push(...(await slotRequestEventMails(tx, events, { config, links, log })));
    },
    async afterCommit() {
      const recorded = pending;
      pending = [];
      await delivery!.deliverClaimed(recorded);
    },
  });

  const notifications: QueueNotifications = {
    // Slot request mails are made from the log (above), so a decision and its mail cannot part.
    slotRequestChanged: async () => {},
    async berthBlockShifted(notice) {
      const id = `berthblock-${notice.berth_reservation_id}-${Date.parse(notice.reservation_start)}`;
      const recorded = await db.transaction(async (tx) => {
        const mail = berthBlockShiftedMail(
          {
            to: await operators(tx),
            berth_code: notice.berth_code,
            berth_name: notice.berth_name,
            berth_reservation_id: notice.berth_reservation_id,
            start: Date.parse(notice.reservation_start),
            end: Date.parse(notice.reservation_end),
          },
          await texts(tx),
          timeZone,
        );
        return recordMail(tx, id, mail);
      });
      if (recorded) await deliver([id]);
    },
  };

  // Whatever was recorded but not sent before a restart (in-process timers are gone) goes now.
  await delivery.sweep();
  await armPrune(Date.now() + Math.min(pruneEvery, 60_000));
  log.info({ jobs: jobs.kind }, 'queue mails started');

  return {
    links,
    notifications,
    record: recordMail,
    deliver,
    texts,
    operators,
    timeZone,
    async stop() {
      await projection.stop();
      await delivery?.stop();
      await jobs.close();
      if (ownsMailer) await mailer.close();
    },
  };
}
