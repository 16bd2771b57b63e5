import { type SmtpServerForTest, startSmtpServer } from '@pcas/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer, type Mailer, type MailerOptions, MailSendError } from './index.ts';

const FROM = 'Port Activity <no-reply@port.local>';
const SECRET_LINK = 'https://port.local/reset-password?token=very-secret-reset-token';

function captureLog() {
  const lines: string[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => lines.push(line) });
  return { log, lines, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const open: { mailers: Mailer[]; servers: SmtpServerForTest[] } = { mailers: [], servers: [] };

async function server(options?: Parameters<typeof startSmtpServer>[0]) {
  const started = await startSmtpServer(options);
  open.servers.push(started);
  return started;
}

function mailer(options: Partial<MailerOptions> & Pick<MailerOptions, 'smtpUrl' | 'log'>) {
  const created = createMailer({ from: FROM, outboxDir: '/nonexistent/never-used', ...options });
  open.mailers.push(created);
  return created;
}

afterEach(async () => {
  for (const m of open.mailers.splice(0)) await m.close();
  for (const s of open.servers.splice(0)) await s.close();
});

describe('SMTP mailer', () => {
  it('delivers to a server that requires a login: envelope, headers, text and html as sent', async () => {
    const smtp = await server();
    const { log, lines } = captureLog();
    const m = mailer({ smtpUrl: smtp.url, log });

    await m.send({ to: 'ada@port.local', subject: 'Reset your password', text: `Open ${SECRET_LINK}` });
    await m.send({
      to: ['one@port.local', 'two@port.local'],
      subject: 'Vessel ÅLAND arrives',
      text: 'Plain body',
      html: '<p>HTML body</p>',
    });

    expect(smtp.messages).toHaveLength(2);
    const [first, second] = smtp.messages;
    expect(first.user).toBe('mailer');
    expect(first.from).toBe('no-reply@port.local');
    expect(first.fromName).toBe('Port Activity');
    expect(first.envelopeFrom).toBe('no-reply@port.local');
    expect(first.to).toEqual(['ada@port.local']);
    expect(first.envelopeTo).toEqual(['ada@port.local']);
    expect(first.subject).toBe('Reset your password');
    expect(first.text.trim()).toBe(`Open ${SECRET_LINK}`);
    expect(second.to).toEqual(['one@port.local', 'two@port.local']);
    expect(second.envelopeTo).toEqual(['one@port.local', 'two@port.local']);
    expect(second.subject).toBe('Vessel ÅLAND arrives');
    expect(second.text.trim()).toBe('Plain body');
    expect(second.html?.trim()).toBe('<p>HTML body</p>');

    // Recipient and subject are logged; the body (a reset link) and the SMTP password never are.
    const logged = lines.join('');
    expect(logged).toContain('ada@port.local');
    expect(logged).toContain('Reset your password');
    expect(logged).not.toContain('very-secret-reset-token');
    expect(logged).not.toContain(new URL(smtp.url).password);
  });

  it('rejects with a clear error on wrong credentials, without retrying and without delivering', async () => {
    const smtp = await server();
    const wrong = new URL(smtp.url);
    wrong.password = 'wrong-password';
    const { log, lines } = captureLog();
    const m = mailer({ smtpUrl: wrong.toString(), log, retry: { baseDelayMs: 10 } });

    const error = await m.send({ to: 'ada@port.local', subject: 'Hello', text: 'Body' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(MailSendError);
    const failure = error as MailSendError;
    expect(failure.code).toBe('EAUTH');
    expect(failure.responseCode).toBe(535);
    expect(failure.attempts).toBe(1);
    expect(failure.message).toMatch(/Mail not sent \(1 attempt\): Invalid login: 535/);
    expect(smtp.stats.failedLogins).toBe(1);
    expect(smtp.messages).toHaveLength(0);
    expect(lines.join('')).not.toContain('wrong-password');
  });

  it('retries a temporary refusal (451) and delivers on the second attempt', async () => {
    const smtp = await server({ refuseFirst: 1 });
    const { log, entries } = captureLog();
    const m = mailer({ smtpUrl: smtp.url, log });

    await m.send({ to: 'ada@port.local', subject: 'Second time lucky', text: 'Body' });

    expect(smtp.stats.refused).toBe(1);
    expect(smtp.messages.map((mail) => mail.subject)).toEqual(['Second time lucky']);
    const retried = entries().find((entry) => entry.msg === 'mail failed, retrying');
    expect(retried).toMatchObject({ attempt: 1, responseCode: 451, subject: 'Second time lucky' });
    expect(entries().find((entry) => entry.msg === 'mail sent')).toMatchObject({ attempt: 2 });
  });

  it('gives up after the configured attempts when the server keeps refusing', async () => {
    const smtp = await server({ refuseFirst: 100 });
    const { log, entries } = captureLog();
    const m = mailer({ smtpUrl: smtp.url, log, retry: { attempts: 3, baseDelayMs: 20 } });

    const error = (await m.send({ to: 'ada@port.local', subject: 'Never', text: 'Body' }).catch((e) => e)) as Error;

    expect(error).toBeInstanceOf(MailSendError);
    expect((error as MailSendError).attempts).toBe(3);
    expect((error as MailSendError).responseCode).toBe(451);
    expect(smtp.stats.refused).toBe(3);
    expect(smtp.messages).toHaveLength(0);
    expect(entries().filter((entry) => entry.msg === 'mail not sent')).toHaveLength(1);
  });

  it('retries when no server answers, then rejects', async () => {
    const gone = await startSmtpServer({ auth: false });
    await gone.close();
    const { log } = captureLog();
    const m = mailer({ smtpUrl: gone.url, log, retry: { attempts: 2, baseDelayMs: 20 } });

    const error = (await m.send({ to: 'ada@port.local', subject: 'Nobody there', text: 'Body' }).catch((e) => e)) as
      | MailSendError
      | undefined;

    expect(error).toBeInstanceOf(MailSendError);
    expect(error?.attempts).toBe(2);
    expect(error?.message).toMatch(/ECONNREFUSED/);
  });

  it('sends concurrent messages over the pool, each one once', async () => {
    const smtp = await server({ auth: false });
    const { log } = captureLog();
    const m = mailer({ smtpUrl: smtp.url, log });

    await Promise.all(
      Array.from({ length: 8 }, (_, i) => m.send({ to: `user${i}@port.local`, subject: `Mail ${i}`, text: `${i}` })),
    );

    expect(smtp.messages.map((mail) => mail.subject).sort()).toEqual(
      Array.from({ length: 8 }, (_, i) => `Mail ${i}`).sort(),
    );
  });

  it('refuses a message without recipient and any message after close, without contacting the server', async () => {
    const smtp = await server();
    const { log } = captureLog();
    const m = mailer({ smtpUrl: smtp.url, log });

    await expect(m.send({ to: [' ', ''], subject: 'x', text: 'y' })).rejects.toThrow(/no recipient/);
    await m.close();
    await expect(m.send({ to: 'ada@port.local', subject: 'x', text: 'y' })).rejects.toThrow(/closed/);
    expect(smtp.messages).toHaveLength(0);
  });
});
