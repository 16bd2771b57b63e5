// Outgoing e-mail: a pooled SMTP transport when SMTP_URL is set, else an outbox folder of .eml files (embedded
// mode), so a mail is never silently dropped. Log lines name recipient and subject, never the body: a body may
// hold a password-reset link.

import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '@pcas/observability';
import nodemailer from 'nodemailer';
import {
  backoffMs,
  DEFAULT_RETRY,
  describeServer,
  failureFields,
  outboxFileName,
  type RetryPolicy,
  recipientList,
  type SendFailure,
  shouldGiveUp,
} from './policy.ts';

export interface MailMessage {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  /** Sends one message; resolves once the SMTP server accepted it (or it is written to the outbox). */
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log: Logger;
  /** Retries of transient SMTP failures; the default suits production, tests shorten the waits. */
  retry?: Partial<RetryPolicy>;
}

/** Why `send` rejected: the last failure, after `attempts` tries. */
export class MailSendError extends Error {
  readonly code: string | undefined;
  readonly responseCode: number | undefined;
  readonly attempts: number;
  constructor(failure: SendFailure, attempts: number, options?: { cause?: unknown }) {
    const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
    super(`Mail not sent (${tries}): ${failure.message ?? failure.code ?? 'unknown error'}`, options);
    this.name = 'MailSendError';
    this.code = failure.code;
    this.responseCode = failure.responseCode;
    this.attempts = attempts;
  }
}

export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? smtpMailer(options, options.smtpUrl) : outboxMailer(options);
}

/**
 * The message as nodemailer sends it, from `from`. Checked before any I/O, so a caller's mistake is a clear error
 * and not an SMTP reply.
 */
function outgoing(message: MailMessage, from: string) {
  const to = recipientList(message.to);
  if (to.length === 0) throw new MailSendError({ message: 'the message has no recipient' }, 0);
  return { from, to, subject: message.subject, text: message.text, html: message.html };
}

function closedError(): MailSendError {
  return new MailSendError({ message: 'the mailer is closed' }, 0);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function smtpMailer(options: MailerOptions, smtpUrl: string): Mailer {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const server = describeServer(smtpUrl);
  // Timeouts well under nodemailer's defaults (2 min to connect, 10 min idle socket): a request waiting for its
  // mail must not hang. Query parameters of SMTP_URL override these (nodemailer lets the URL win).
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 3,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  let closed = false;

  return {
    async send(message) {
      if (closed) throw closedError();
      const mail = outgoing(message, options.from);
      const fields = { to: mail.to, subject: message.subject, server };
      for (let attempt = 1; ; attempt++) {
        try {
          const info = await transport.sendMail(mail);
          options.log.info({ ...fields, attempt, messageId: info.messageId }, 'mail sent');
          return;
        } catch (error) {
          const failure = error as SendFailure;
          if (closed || shouldGiveUp(failure, attempt, policy)) {
            options.log.error({ ...fields, attempt, ...failureFields(failure) }, 'mail not sent');
            throw new MailSendError(failure, attempt, { cause: error });
          }
          const wait = backoffMs(attempt + 1, policy, Math.random());
          options.log.warn({ ...fields, attempt, retryInMs: wait, ...failureFields(failure) }, 'mail failed, retrying');
          await sleep(wait);
          if (closed) throw new MailSendError(failure, attempt, { cause: error });
        }
      }
    },
    async close() {
      closed = true;
      transport.close();
    },
  };
}

function outboxMailer(options: MailerOptions): Mailer {
  // The stream transport builds the same RFC 5322 message the SMTP transport would send; CRLF line ends make
  // the file a standard .eml that mail clients open.
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const dir = path.resolve(options.outboxDir);
  let closed = false;
  let folderMade = false;

  return {
    async send(message) {
      if (closed) throw closedError();
      const mail = outgoing(message, options.from);
      const info = await transport.sendMail(mail);
      const file = path.join(dir, outboxFileName(new Date(), randomUUID()));
      // Written under a temporary name and renamed, so whoever watches the folder never reads half a message.
      const partial = `${file}.partial`;
      const write = () => writeFile(partial, info.message as Buffer, { mode: 0o600 });
      // The folder is made once, and again should it have been removed since (a write then finds no folder).
      if (!folderMade) await mkdir(dir, { recursive: true });
      folderMade = true;
      await write().catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
        await mkdir(dir, { recursive: true });
        await write();
      });
      await rename(partial, file);
      options.log.info({ to: mail.to, subject: message.subject, file }, 'mail written to the outbox (no SMTP_URL set)');
    },
    async close() {
      closed = true;
      transport.close();
    },
  };
}
