// A real SMTP server inside the test process (smtp-server), capturing every accepted message parsed
// (mailparser), so tests assert on what a mail server really received: login, envelope, headers, text.

import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { type AddressObject, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { pollUntil } from './waiting.ts';

export interface ParsedMail {
  /** The address of the From header, e.g. `no-reply@port.local`. */
  from: string;
  /** The display name of the From header, e.g. `Port Activity` ('' when none). */
  fromName: string;
  /** The addresses of the To header. */
  to: string[];
  subject: string;
  text: string;
  html: string | undefined;
  /** The message as received (RFC 5322). */
  raw: string;
}

export interface ReceivedMail extends ParsedMail {
  /** MAIL FROM of the SMTP envelope. */
  envelopeFrom: string;
  /** RCPT TO of the SMTP envelope. */
  envelopeTo: string[];
  /** The user that logged in, when the server required a login. */
  user: string | undefined;
}

export interface SmtpServerOptions {
  /** Credentials the server requires (they go into `url`); `false`: no login. Default: generated ones. */
  auth?: { user: string; pass: string } | false;
  /** Answer the first N transactions with `451` (temporary failure) before accepting any, to exercise retries. */
  refuseFirst?: number;
}

export interface SmtpServerForTest {
  /** smtp://user:pass@127.0.0.1:port — what SMTP_URL would hold. */
  url: string;
  host: string;
  port: number;
  /** Accepted messages, in order; a message is here before the client hears that it was accepted. */
  messages: ReceivedMail[];
  /** Counters: transactions refused with 451, logins refused. */
  stats: { refused: number; failedLogins: number };
  /** Resolves once at least `count` messages arrived (mails sent in the background), or rejects after `ms`. */
  waitForMessages(count: number, ms?: number): Promise<ReceivedMail[]>;
  /** The first message `match` takes, once it arrived; rejects after `ms`, naming the messages there were. */
  waitForMail(match: (mail: ReceivedMail) => boolean, ms?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  const list = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return list.flatMap((entry) => entry.value.map((address) => address.address ?? '')).filter((a) => a !== '');
}

/** Parses an RFC 5322 message (an outbox .eml file, a received mail). */
export async function parseMail(raw: string | Buffer): Promise<ParsedMail> {
  const mail = await simpleParser(raw);
  return {
    from: mail.from?.value[0]?.address ?? '',
    fromName: mail.from?.value[0]?.name ?? '',
    to: addresses(mail.to),
    subject: mail.subject ?? '',
    text: mail.text ?? '',
    html: typeof mail.html === 'string' ? mail.html : undefined,
    raw: raw.toString(),
  };
}

export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<SmtpServerForTest> {
  const auth =
    options.auth === undefined ? { user: 'mailer', pass: `secret-${randomBytes(6).toString('hex')}` } : options.auth;
  let toRefuse = options.refuseFirst ?? 0;
  const messages: ReceivedMail[] = [];
  const stats = { refused: 0, failedLogins: 0 };
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    // Plain SMTP on loopback: STARTTLS would upgrade to the server's self-signed certificate, which clients refuse.
    disabledCommands: auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !auth,
    allowInsecureAuth: true,
    logger: false,
    closeTimeout: 500,
    onAuth(login, _session, callback) {
      if (auth && login.username === auth.user && login.password === auth.pass) {
        callback(null, { user: login.username });
        return;
      }
      stats.failedLogins++;
      callback(Object.assign(new Error('Authentication credentials invalid'), { responseCode: 535 }));
    },
    onMailFrom(_address, _session, callback) {
      if (toRefuse > 0) {
        toRefuse--;
        stats.refused++;
        callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        parseMail(Buffer.concat(chunks)).then(
          (mail) => {
            messages.push({
              ...mail,
              envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              user: typeof session.user === 'string' ? session.user : undefined,
            });
            for (const wake of waiters) wake();
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });

  const host = '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Errors of single connections (a client that hangs up) are not the test's business; without a listener they
  // would crash the process.
  server.on('error', () => {});
  const port = ((server as unknown as { server: { address(): AddressInfo } }).server.address() as AddressInfo).port;
  const credentials = auth ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.pass)}@` : '';

  return {
    url: `smtp://${credentials}${host}:${port}`,
    host,
    port,
    messages,
    stats,
    async waitForMail(match, ms = 30_000) {
      const found = await pollUntil(
        () => messages.find(match),
        (mail) => mail !== undefined,
        ms,
      );
      if (found) return found;
      throw new Error(`no such mail; got ${JSON.stringify(messages.map((m) => [m.to, m.subject]))}`);
    },
    waitForMessages(count, ms = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (messages.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(messages);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`Expected ${count} mail(s) within ${ms} ms, got ${messages.length}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
