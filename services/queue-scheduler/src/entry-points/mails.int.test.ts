// The queue's mails on real PostgreSQL and a real SMTP server started here: a slot request event appended to the
// log becomes one outbox row and one mail, however often the event is delivered; a mail server that refuses
// delays the mail (the delivery job retries, the sweep arms what a job gave up) and never loses it. Each mail's link
// is recorded as its request's newest; the pruning job empties the bodies of mails sent longer ago than the retention.

import { loadConfig } from '@pcas/config';
import { LinkAudience, type ServiceDeps, type SlotRequestData, slotRequestStream } from '@pcas/contracts';
import { createEventStore } from '@pcas/eventstore';
import { createInProcessJobs } from '@pcas/jobs';
import { createInProcessBus, eventMessage, eventRoutingKey, type Relay, startRelay } from '@pcas/messaging';
import { createLogger } from '@pcas/observability';
import { openDb } from '@pcas/sql';
import { freshPostgres, type PostgresForTest, pollUntil, type SmtpServerForTest, startSmtpServer } from '@pcas/testing';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailDelivery, recordMail, recordMails } from '../adapters/outbox.ts';
import { type QueueMails, startQueueMails } from './mails.ts';

let pg: PostgresForTest;
let smtp: SmtpServerForTest;
let deps: ServiceDeps;
let relay: Relay;
let mails: QueueMails;

const received = (id: number, email: string): SlotRequestData => ({
  id,
  email,
  imo: 9074729,
  vessel_name: 'Victor',
  loa: 120,
  beam: 20,
  draft: 7,
  laytime: 'PT2H',
  eta: '2026-12-01T10:00:00+00:00',
  status: 'offered',
  nomination_id: 1,
  berth_id: 1,
  berth_reservation_id: 1,
  rta_window_start: '2026-12-01T10:00:00+00:00',
  rta_window_end: '2026-12-01T10:30:00+00:00',
  jit_eta: null,
});

const outbox = async () =>
  (
    await deps.db.query<{ id: string; sent: boolean; attempts: number }>(
      'SELECT id, sent_at IS NOT NULL AS sent, attempts FROM queue.mail_outbox ORDER BY created_at',
    )
  ).rows;

beforeAll(async () => {
  pg = await freshPostgres('queue_mails');
  // Five refusals (451): more than one delivery job tries (two runs), so only the sweep gets the mail through.
  smtp = await startSmtpServer({ refuseFirst: 5 });
  const db = pg.url ? await openDb({ url: pg.url }) : await openDb({ dataDir: 'memory://' });
  const store = createEventStore(db);
  await store.init();
  const log = createLogger('queue-mails-test', process.env.LOG_LEVEL ?? 'silent');
  const config = loadConfig({ SMTP_URL: smtp.url, BASE_URL: 'http://port.example' });
  deps = { config, db, store, bus: createInProcessBus({ log }), log };
  relay = await startRelay({ store, db, bus: deps.bus, log });
  mails = await startQueueMails(deps, {
    createJobs: (handler) =>
      createInProcessJobs({ queue: 'queue-mails-test', handler, log, maxAttempts: 2, retryBaseMs: 50 }),
    sweepEveryMs: 400,
    pruneEveryMs: 300,
  });
}, 60_000);

afterAll(async () => {
  await mails?.stop();
  await relay?.stop();
  await smtp?.close();
  await deps?.db.close();
  await pg?.drop();
});

describe('slot request mails', () => {
  it('a mail server refusing delays the mail, which arrives once; a redelivered event mails nothing more', async () => {
    const appended = await deps.store.append(slotRequestStream(7), [
      { type: 'SlotRequestReceived', data: received(7, 'master@victor.example') },
    ]);
    const [mail] = await smtp.waitForMessages(1, 30_000);
    expect(mail.subject).toBe('Slot request #7 offer');
    expect(mail.to).toEqual(['master@victor.example']);
    expect(mail.text).toMatch(/http:\/\/port\.example\/agent\/eta-form\/\?token=[\w.-]+/);
    expect(smtp.stats.refused).toBe(5);
    // Marked sent once the server's acceptance is back (the message is captured a moment before).
    const rows = await pollUntil(outbox, (r) => Boolean(r[0]?.sent));
    expect(rows).toEqual([{ id: `slotrequest-${appended.events[0].id}`, sent: true, attempts: 6 }]);

    // The same event delivered again (a broker redelivery, a relay republishing after a crash).
    const [stored] = await deps.store.readStream(slotRequestStream(7));
    await deps.bus.publish(eventRoutingKey(stored), eventMessage(stored), { messageId: stored.id });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(smtp.messages).toHaveLength(1);
    expect(await outbox()).toHaveLength(1);
  }, 60_000);

  it('each slot request mail’s link names its kind and id, and the newest is recorded as the request’s', async () => {
    const newest = async () =>
      (await deps.db.query<{ link_id: string | null }>('SELECT link_id FROM queue.mail_slot_requests WHERE id = 8'))
        .rows[0]?.link_id ?? null;
    const tokenOf = (subject: string) => {
      const mail = smtp.messages.find((m) => m.subject === subject);
      const token = mail && /\?token=([\w.-]+)/.exec(mail.text)?.[1];
      return token ? (jwt.decode(token) as jwt.JwtPayload) : undefined;
    };
    const offer = await deps.store.append(slotRequestStream(8), [
      { type: 'SlotRequestReceived', data: received(8, 'master@xray.example') },
    ]);
    const first = await pollUntil(
      async () => tokenOf('Slot request #8 offer'),
      (claims) => claims !== undefined,
    );
    expect(first).toMatchObject({ aud: LinkAudience.etaForm, jti: offer.events[0].id, data: { slot_request_id: 8 } });
    expect(await newest()).toBe(offer.events[0].id);
    const accepted = await deps.store.append(slotRequestStream(8), [
      { type: 'SlotRequestUpdated', data: { ...received(8, 'master@xray.example'), status: 'accepted' } },
    ]);
    const second = await pollUntil(
      async () => tokenOf('Slot request #8 confirmation'),
      (claims) => claims !== undefined,
    );
    expect(second?.jti).toBe(accepted.events[0].id);
    expect(await newest()).toBe(accepted.events[0].id);
  });

  it('the pruning job empties the bodies of mails sent longer ago than the retention (7 days), and no others', async () => {
    const mail = (subject: string) => ({ to: ['a@b.example'], subject, text: `${subject} ?token=x`, html: '<p>x</p>' });
    for (const id of ['sent-8-days', 'sent-6-days', 'unsent-old']) await recordMail(deps.db, id, mail(id));
    await deps.db.query(
      `UPDATE queue.mail_outbox SET sent_at = now() - CASE id WHEN 'sent-8-days' THEN interval '8 days'
                                                             ELSE interval '6 days' END
        WHERE id IN ('sent-8-days', 'sent-6-days')`,
    );
    // Claimed far ahead, so the sweep leaves it unsent: an unsent mail keeps its body however old.
    await deps.db.query(
      `UPDATE queue.mail_outbox SET created_at = now() - interval '30 days', claimed_until = now() + interval '1 day'
        WHERE id = 'unsent-old'`,
    );
    const rows = () =>
      deps.db
        .query<{ id: string; text_body: string; html_body: string; removed: boolean }>(
          `SELECT id, text_body, html_body, bodies_removed_at IS NOT NULL AS removed FROM queue.mail_outbox
            WHERE id IN ('sent-8-days', 'sent-6-days', 'unsent-old') ORDER BY id`,
        )
        .then((r) => r.rows);
    const after = await pollUntil(rows, (r) => r.some((row) => row.removed));
    expect(after).toEqual([
      { id: 'sent-6-days', text_body: 'sent-6-days ?token=x', html_body: '<p>x</p>', removed: false },
      { id: 'sent-8-days', text_body: '', html_body: '', removed: true },
      { id: 'unsent-old', text_body: 'unsent-old ?token=x', html_body: '<p>x</p>', removed: false },
    ]);
    // The row stays, so the mail it was is never recorded (and sent) again.
    expect(await recordMail(deps.db, 'sent-8-days', mail('again'))).toBe(false);
  });

  it('two runs of one mail at once (a sweep while its job runs) send it once', async () => {
    const sent: string[] = [];
    const slowMailer = {
      async send(message: { subject: string }) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        sent.push(message.subject);
      },
      async close() {},
    };
    const delivery = mailDelivery({
      db: deps.db,
      mailer: slowMailer,
      jobs: () => {
        throw new Error('not used');
      },
      log: deps.log,
      sweepEveryMs: 0,
    });
    await recordMail(deps.db, 'twice', { to: ['a@b.example'], subject: 'Once', text: 'x', html: '<p>x</p>' });
    await Promise.all([delivery.sendNow('twice'), delivery.sendNow('twice'), delivery.sendNow('twice')]);
    await delivery.sendNow('twice');
    expect(sent).toEqual(['Once']);
  });

  it('a mail recorded claimed by a process that died before sending it goes out once the claim has run out', async () => {
    const sent: string[] = [];
    const mailer = {
      async send(message: { subject: string }) {
        sent.push(message.subject);
      },
      async close() {},
    };
    const delivery = mailDelivery({
      db: deps.db,
      mailer,
      jobs: () => {
        throw new Error('not used');
      },
      log: deps.log,
      sweepEveryMs: 0,
    });
    const mail = { to: ['a@b.example'], subject: 'Orphan', text: 'x', html: '<p>x</p>' };
    expect(await recordMails(deps.db, [{ id: 'orphan', mail }], true)).toEqual(['orphan']);
    // Its process is gone: a sweep meanwhile leaves it to the claim's holder.
    await delivery.deliver(['orphan']);
    await delivery.stop();
    expect(sent).toEqual([]);
    await deps.db.query("UPDATE queue.mail_outbox SET claimed_until = now() - interval '1 second' WHERE id = 'orphan'");
    await delivery.deliver(['orphan']);
    await delivery.stop();
    expect(sent).toEqual(['Orphan']);
    // The live process's own delivery of a mail it recorded claimed: sent without a claim of its own, once.
    expect(await recordMails(deps.db, [{ id: 'own', mail: { ...mail, subject: 'Own' } }], true)).toEqual(['own']);
    await delivery.deliverClaimed([{ id: 'own', mail: { ...mail, subject: 'Own' } }]);
    await delivery.stop();
    expect(sent).toEqual(['Orphan', 'Own']);
    const rows = await deps.db.query<{ id: string; sent: boolean; claimed: boolean }>(
      `SELECT id, sent_at IS NOT NULL AS sent, claimed_until IS NOT NULL AS claimed FROM queue.mail_outbox
        WHERE id IN ('orphan', 'own') ORDER BY id`,
    );
    expect(rows.rows).toEqual([
      { id: 'orphan', sent: true, claimed: false },
      { id: 'own', sent: true, claimed: false },
    ]);
  });
});
