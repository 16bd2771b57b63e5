import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseMail } from '@pcas/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from './index.ts';

const FROM = 'Port Activity <no-reply@port.local>';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'pcas-mail-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function captureLog() {
  const lines: string[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => lines.push(line) });
  return { log, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>), lines };
}

describe('outbox mailer (no SMTP_URL)', () => {
  it('writes each message as a parseable .eml file into a folder it creates, and logs where', async () => {
    const outboxDir = path.join(root, 'data', 'outbox');
    const { log, entries, lines } = captureLog();
    const mailer = createMailer({ from: FROM, outboxDir, log });

    await mailer.send({
      to: 'ada@port.local',
      subject: 'Reset your password',
      text: 'Open https://port.local/reset?token=outbox-secret-token',
      html: '<a href="https://port.local/reset?token=outbox-secret-token">Reset</a>',
    });
    await mailer.send({ to: ['one@port.local', 'two@port.local'], subject: 'Second', text: 'Two' });
    await mailer.close();

    const files = (await readdir(outboxDir)).sort();
    expect(files).toHaveLength(2);
    expect(files.every((file) => file.endsWith('.eml'))).toBe(true);

    // Two files written in the same millisecond sort by their random part: find each by its subject.
    const raws = await Promise.all(files.map((file) => readFile(path.join(outboxDir, file), 'utf8')));
    expect(raws.every((raw) => raw.includes('\r\n'))).toBe(true); // RFC 5322 line ends
    const parsed = await Promise.all(raws.map((raw) => parseMail(raw)));
    const first = parsed.find((mail) => mail.subject === 'Reset your password');
    const second = parsed.find((mail) => mail.subject === 'Second');
    expect(first?.from).toBe('no-reply@port.local');
    expect(first?.fromName).toBe('Port Activity');
    expect(first?.to).toEqual(['ada@port.local']);
    expect(first?.text.trim()).toBe('Open https://port.local/reset?token=outbox-secret-token');
    expect(first?.html).toContain('outbox-secret-token');
    expect(second?.from).toBe('no-reply@port.local');
    expect(second?.to).toEqual(['one@port.local', 'two@port.local']);
    expect(second?.text.trim()).toBe('Two');

    // Only the owner may read a file that can hold a reset link.
    expect((await stat(path.join(outboxDir, files[0]))).mode & 0o077).toBe(0);

    const written = entries().filter((entry) => entry.msg === 'mail written to the outbox (no SMTP_URL set)');
    expect(written.map((entry) => entry.file).sort()).toEqual(files.map((file) => path.join(outboxDir, file)));
    expect(written[0]).toMatchObject({ to: ['ada@port.local'], subject: 'Reset your password' });
    expect(lines.join('')).not.toContain('outbox-secret-token');
  });

  it('makes the folder again when it was removed after the first mail', async () => {
    const outboxDir = path.join(root, 'removed', 'outbox');
    const { log } = captureLog();
    const mailer = createMailer({ from: FROM, outboxDir, log });
    await mailer.send({ to: 'ada@port.local', subject: 'First', text: 'One' });
    await rm(path.join(root, 'removed'), { recursive: true });
    await mailer.send({ to: 'ada@port.local', subject: 'Second', text: 'Two' });
    await mailer.close();
    const files = await readdir(outboxDir);
    expect(files).toHaveLength(1);
    expect(await readFile(path.join(outboxDir, files[0]), 'utf8')).toContain('Subject: Second');
  });

  it('refuses a message without recipient and writes nothing', async () => {
    const outboxDir = path.join(root, 'empty');
    const { log } = captureLog();
    const mailer = createMailer({ from: FROM, outboxDir, log });
    await expect(mailer.send({ to: '', subject: 'x', text: 'y' })).rejects.toThrow(/no recipient/);
    await expect(readdir(outboxDir)).rejects.toThrow(/ENOENT/);
  });
});
