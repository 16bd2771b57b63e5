// The queue's mail outbox (docs/domain.md#queue-e-mails-and-live-eta). A mail to send is a row of queue.mail_outbox,
// written in the transaction that decided it (so a decision and its mail are stored together or not at all), with
// an id derived from what it is about (so a redelivered event or a retried command records it once). Delivery runs
// after the commit, at once when it can, else (or after a failure) as a delayed job: an SMTP server that is down
// delays the mail (the job retries with a growing delay; a sweep re-arms what is still unsent), never loses it, and
// never fails the request that caused it.
// The row holds the message (its links are bearer tokens): it is never logged; log lines name id and subject.

import type { DelayedJobs } from '@pcas/jobs';
import type { Mailer } from '@pcas/mail';
import type { Logger } from '@pcas/observability';
import type { Db, Queryable } from '@pcas/sql';
import type { Mail } from '../domain/mails.ts';

const SCHEMA = [
  'CREATE SCHEMA IF NOT EXISTS queue',
  // One row per mail; sent_at null until the mail server took it. attempts/last_error tell an operator why it waits.
  `CREATE TABLE IF NOT EXISTS queue.mail_outbox (
     id text PRIMARY KEY,
     to_addresses text[] NOT NULL,
     subject text NOT NULL,
     text_body text NOT NULL,
     html_body text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     sent_at timestamptz,
     attempts integer NOT NULL DEFAULT 0,
     last_error text
   )`,
  'CREATE INDEX IF NOT EXISTS mail_outbox_unsent ON queue.mail_outbox (created_at) WHERE sent_at IS NULL',
  // A sender's claim on the row while it talks to the server: two runs of one mail (a sweep arming it again while a
  // job runs, two processes) never both send it. A claim outlives the server's timeouts; a crashed sender's expires.
  'ALTER TABLE queue.mail_outbox ADD COLUMN IF NOT EXISTS claimed_until timestamptz',
];

const CLAIM_SECONDS = 120;
// Mails sent at once right after their commit; more wait for a job. A failed send is left to a job too.
const DIRECT_SENDS = 8;
const RETRY_AFTER_MS = 2_000;

/**
 * Creates the mail side's tables (these and `extra`, e.g. the link keys) if missing, under the queue schema's
 * advisory lock, so processes starting together never race on a CREATE.
 */
export async function ensureOutboxSchema(db: Db, extra: readonly string[] = []): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('pcas.schema.queue'))");
    for (const statement of [...SCHEMA, ...extra]) await tx.query(statement);
  });
}

/** Records a mail to send (nothing when `id` is already there); true when it is new. */
export async function recordMail(tx: Queryable, id: string, mail: Mail): Promise<boolean> {
  if (mail.to.length === 0) return false;
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO queue.mail_outbox (id, to_addresses, subject, text_body, html_body) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    [id, mail.to, mail.subject, mail.text, mail.html],
  );
  return rows.length > 0;
}

/** Job ids: BullMQ takes no `:` in a custom id. */
export const deliveryJobId = (mailId: string): string => `mail-${mailId.replace(/[^A-Za-z0-9_.-]/g, '_')}`;

export interface MailDelivery {
  /** Arms delivery of recorded mails (after their transaction committed). */
  deliver(ids: readonly string[]): Promise<void>;
  /** Sends one mail now if it is still unsent (the job's handler). */
  sendNow(id: string): Promise<void>;
  /** Arms every unsent mail (at start and every minute, for jobs given up or lost). */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

export function mailDelivery(options: {
  db: Db;
  mailer: Mailer;
  jobs: () => DelayedJobs;
  log: Logger;
  sweepEveryMs?: number;
}): MailDelivery {
  const { db, mailer, log } = options;
  let timer: NodeJS.Timeout | undefined;
  const sending = new Set<Promise<void>>();
  const arm = (id: string, at: Date) => options.jobs().schedule(deliveryJobId(id), at, { id });

  const delivery: MailDelivery = {
    // Sent now, in this process, while few are on their way (no job queue round trips for the common case);
    // a refusal or a busy moment leaves it to a delivery job. A crash meanwhile loses nothing: the row is unsent
    // and the sweep (at start, then every minute) arms it again; the claim keeps a sweep from sending it twice.
    async deliver(ids) {
      for (const id of ids) {
        if (sending.size >= DIRECT_SENDS) {
          await arm(id, new Date());
          continue;
        }
        const run = delivery
          .sendNow(id)
          .catch(() => arm(id, new Date(Date.now() + RETRY_AFTER_MS)))
          .catch((error) => log.warn({ err: error, mail: id }, 'queue mail delivery not armed; the sweep will'))
          .finally(() => sending.delete(run));
        sending.add(run);
      }
    },
    async sendNow(id) {
      const { rows } = await db.query<{
        to_addresses: string[];
        subject: string;
        text_body: string;
        html_body: string;
      }>(
        `UPDATE queue.mail_outbox SET claimed_until = now() + make_interval(secs => $2)
          WHERE id = $1 AND sent_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
          RETURNING to_addresses, subject, text_body, html_body`,
        [id, CLAIM_SECONDS],
      );
      const row = rows[0];
      // Sent already, or another run has it now.
      if (!row) return;
      try {
        await mailer.send({ to: row.to_addresses, subject: row.subject, text: row.text_body, html: row.html_body });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await db.query(
          'UPDATE queue.mail_outbox SET attempts = attempts + 1, last_error = $2, claimed_until = NULL WHERE id = $1',
          [id, message.slice(0, 500)],
        );
        log.warn({ mail: id, subject: row.subject, err: message }, 'queue mail not sent yet; retrying later');
        throw error;
      }
      await db.query(
        'UPDATE queue.mail_outbox SET sent_at = now(), attempts = attempts + 1, claimed_until = NULL WHERE id = $1',
        [id],
      );
    },
    async sweep() {
      const { rows } = await db.query<{ id: string }>(
        'SELECT id FROM queue.mail_outbox WHERE sent_at IS NULL ORDER BY created_at LIMIT 1000',
      );
      await delivery.deliver(rows.map((r) => r.id));
      return rows.length;
    },
    async stop() {
      if (timer) clearInterval(timer);
      await Promise.all(sending);
    },
  };
  const every = options.sweepEveryMs ?? 60_000;
  if (every > 0) {
    timer = setInterval(() => {
      delivery.sweep().catch((error) => log.warn({ err: error }, 'queue mail sweep failed'));
    }, every);
    timer.unref?.();
  }
  return delivery;
}
