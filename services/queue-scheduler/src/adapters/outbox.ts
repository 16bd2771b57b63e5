// The queue's mail outbox (docs/domain.md#queue-e-mails-and-live-eta). A mail to send is a row of queue.mail_outbox,
// written in the transaction that decided it (so a decision and its mail are stored together or not at all), with
// an id derived from what it is about (so a redelivered event or a retried command records it once). Delivery runs
// after the commit, at once when it can, else (or after a failure) as a delayed job: an SMTP server that is down
// delays the mail (the job retries with a growing delay; a sweep re-arms what is still unsent), never loses it, and
// never fails the request that caused it.
// The row holds the message (its links are bearer tokens): it is never logged; log lines name id and subject. Once
// sent, its bodies are kept for a while (MAIL_BODY_RETENTION_DAYS) and then emptied (pruneSentMailBodies); the row
// stays, so that a mail id recorded once is never recorded and sent again.

import type { DelayedJobs } from '@pcas/jobs';
import type { Mailer } from '@pcas/mail';
import type { Logger } from '@pcas/observability';
import { type Db, type Queryable, setUpSchema } from '@pcas/sql';
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
  // When a sent mail's bodies were emptied (pruneSentMailBodies); null while they are kept.
  'ALTER TABLE queue.mail_outbox ADD COLUMN IF NOT EXISTS bodies_removed_at timestamptz',
  `CREATE INDEX IF NOT EXISTS mail_outbox_sent_bodies ON queue.mail_outbox (sent_at)
     WHERE sent_at IS NOT NULL AND bodies_removed_at IS NULL`,
];

const CLAIM_SECONDS = 120;

/** A mail as the outbox holds it, claimed by this process. */
interface ClaimedMail {
  id: string;
  to_addresses: string[];
  subject: string;
  text_body: string;
  html_body: string;
}
// Mails sent at once right after their commit, in batches of at most this many (one claim and one "sent" statement
// each) while at most DIRECT_BATCHES are on their way; more wait for a job. A failed send is left to a job too.
const DIRECT_BATCH = 32;
const DIRECT_BATCHES = 4;
const RETRY_AFTER_MS = 2_000;

/**
 * Creates the mail side's tables (these and `extra`, e.g. the link keys) if missing, under the queue schema's
 * advisory lock (setUpSchema), so processes starting together never race on a CREATE.
 */
export async function ensureOutboxSchema(db: Db, extra: readonly string[] = []): Promise<void> {
  await setUpSchema(db, 'queue', [...SCHEMA, ...extra]);
}

/** Records a mail to send (nothing when `id` is already there); true when it is new. */
export async function recordMail(tx: Queryable, id: string, mail: Mail): Promise<boolean> {
  return (await recordMails(tx, [{ id, mail }])).length > 0;
}

/**
 * Records mails to send in one statement (those whose id is there already, or without recipient, are not); the new
 * ids. `claimed`: the rows are recorded claimed by this process (see MailDelivery.deliverClaimed), so delivering them
 * right after the commit needs no claim statement of its own.
 */
export async function recordMails(
  tx: Queryable,
  mails: readonly { id: string; mail: Mail }[],
  claimed = false,
): Promise<string[]> {
  const rows = mails.filter((m) => m.mail.to.length > 0);
  if (rows.length === 0) return [];
  const { rows: inserted } = await tx.query<{ id: string }>(
    `INSERT INTO queue.mail_outbox (id, to_addresses, subject, text_body, html_body, claimed_until)
     SELECT m->>'id', ARRAY(SELECT jsonb_array_elements_text(m->'to')), m->>'subject', m->>'text', m->>'html',
            CASE WHEN $2::boolean THEN now() + make_interval(secs => $3) END
       FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS a(m, n) ORDER BY n
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    [
      JSON.stringify(
        rows.map(({ id, mail }) => ({ id, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html })),
      ),
      claimed,
      CLAIM_SECONDS,
    ],
  );
  const fresh = new Set(inserted.map((r) => r.id));
  return rows.filter((r) => fresh.has(r.id)).map((r) => r.id);
}

const PRUNE_BATCH = 1000;

/**
 * Empties the bodies of the mails sent more than `retentionMs` ago, and with them the links and tokens they hold, in
 * short transactions of at most PRUNE_BATCH rows; returns how many. Unsent mails keep theirs until they are sent.
 */
export async function pruneSentMailBodies(db: Db, retentionMs: number): Promise<number> {
  let total = 0;
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      `WITH due AS (SELECT id FROM queue.mail_outbox
                     WHERE sent_at IS NOT NULL AND bodies_removed_at IS NULL
                       AND sent_at < now() - make_interval(secs => $1::float8 / 1000)
                     ORDER BY sent_at LIMIT $2 FOR UPDATE SKIP LOCKED),
            emptied AS (UPDATE queue.mail_outbox m SET text_body = '', html_body = '', bodies_removed_at = now()
                          FROM due WHERE m.id = due.id RETURNING 1)
       SELECT count(*)::int AS n FROM emptied`,
      [retentionMs, PRUNE_BATCH],
    );
    const n = rows[0]?.n ?? 0;
    total += n;
    if (n < PRUNE_BATCH) return total;
  }
}

/** Job ids: BullMQ takes no `:` in a custom id. */
export const deliveryJobId = (mailId: string): string => `mail-${mailId.replace(/[^A-Za-z0-9_.-]/g, '_')}`;

export interface MailDelivery {
  /** Arms delivery of recorded mails (after their transaction committed). */
  deliver(ids: readonly string[]): Promise<void>;
  /** The same for mails recorded claimed (recordMails), given with what they say: sent with no claim statement. */
  deliverClaimed(mails: readonly { id: string; mail: Mail }[]): Promise<void>;
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

  /**
   * Sends the mails `ids` that are unsent and unclaimed: claimed in one statement, sent, and the sent ones marked in
   * one statement; a failure is noted on its row. Returns the ids that failed.
   */
  async function sendBatch(ids: readonly string[]): Promise<{ id: string; error: unknown }[]> {
    const { rows } = await db.query<ClaimedMail>(
      `UPDATE queue.mail_outbox SET claimed_until = now() + make_interval(secs => $2)
        WHERE id = ANY($1::text[]) AND sent_at IS NULL AND (claimed_until IS NULL OR claimed_until < now())
        RETURNING id, to_addresses, subject, text_body, html_body`,
      [ids, CLAIM_SECONDS],
    );
    // Sent already, or another run has it now: not in rows.
    return sendClaimed(rows);
  }

  /** Sends mails this process holds the claim of; the sent ones marked in one statement. Returns those that failed. */
  async function sendClaimed(rows: readonly ClaimedMail[]): Promise<{ id: string; error: unknown }[]> {
    const failed: { id: string; error: unknown }[] = [];
    const sent: string[] = [];
    await Promise.all(
      rows.map(async (row) => {
        try {
          await mailer.send({ to: row.to_addresses, subject: row.subject, text: row.text_body, html: row.html_body });
          sent.push(row.id);
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          await db.query(
            'UPDATE queue.mail_outbox SET attempts = attempts + 1, last_error = $2, claimed_until = NULL WHERE id = $1',
            [row.id, message.slice(0, 500)],
          );
          log.warn({ mail: row.id, subject: row.subject, err: message }, 'queue mail not sent yet; retrying later');
          failed.push({ id: row.id, error });
        }
      }),
    );
    if (sent.length > 0) {
      await db.query(
        `UPDATE queue.mail_outbox SET sent_at = now(), attempts = attempts + 1, claimed_until = NULL
          WHERE id = ANY($1::text[])`,
        [sent],
      );
    }
    return failed;
  }

  const retry = (id: string) =>
    arm(id, new Date(Date.now() + RETRY_AFTER_MS)).catch((error) =>
      log.warn({ err: error, mail: id }, 'queue mail delivery not armed; the sweep will'),
    );
  /** Sends a batch in the background (its failures left to delivery jobs). */
  const sendInBackground = (ids: readonly string[], send: () => Promise<{ id: string; error: unknown }[]>) => {
    const run = send()
      .then((failed) => Promise.all(failed.map((f) => retry(f.id))))
      .catch(() => Promise.all(ids.map(retry)))
      .then(() => {})
      .finally(() => sending.delete(run));
    sending.add(run);
  };

  const delivery: MailDelivery = {
    // Sent now, in this process, while few batches are on their way (no job queue round trips for the common
    // case); a refusal or a busy moment leaves it to a delivery job. A crash meanwhile loses nothing: the row is
    // unsent and the sweep (at start, then every minute) arms it again; the claim keeps a sweep from sending it twice.
    async deliver(ids) {
      for (let at = 0; at < ids.length; at += DIRECT_BATCH) {
        const batch = ids.slice(at, at + DIRECT_BATCH);
        if (sending.size >= DIRECT_BATCHES) {
          for (const id of batch) await arm(id, new Date());
          continue;
        }
        sendInBackground(batch, () => sendBatch(batch));
      }
    },
    // The rows are this process's already (recorded claimed): sent as they are. In a busy moment the claim is given
    // back and a job armed, as deliver does. A crash before the send leaves them claimed: the sweep sends them once
    // the claim has run out (CLAIM_SECONDS), so nothing is lost, only later.
    async deliverClaimed(mails) {
      for (let at = 0; at < mails.length; at += DIRECT_BATCH) {
        const batch = mails.slice(at, at + DIRECT_BATCH);
        const ids = batch.map((m) => m.id);
        if (sending.size >= DIRECT_BATCHES) {
          await db.query('UPDATE queue.mail_outbox SET claimed_until = NULL WHERE id = ANY($1::text[])', [ids]);
          for (const id of ids) await arm(id, new Date());
          continue;
        }
        const rows = batch.map(({ id, mail }) => ({
          id,
          to_addresses: mail.to,
          subject: mail.subject,
          text_body: mail.text,
          html_body: mail.html,
        }));
        sendInBackground(ids, () => sendClaimed(rows));
      }
    },
    async sendNow(id) {
      const failed = await sendBatch([id]);
      if (failed[0]) throw failed[0].error;
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
