// The deliverer on PostgreSQL with a stand-in peer: each message once, in the order queued, one deliverer per peer
// however many jobs run at once, a peer that is down tried again after a wait, and the refusals kept.

import { createEventStore } from '@pcas/eventstore';
import { createInProcessJobs, type DelayedJobs } from '@pcas/jobs';
import { createLogger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import { type DatabaseForTest, freshDatabase, pollUntil } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchOutcome } from '../domain/delivery.ts';
import type { QueuedMessage } from '../domain/outbox.ts';
import { createDeliverer, type DelivererOptions, type DeliveryJob } from './delivery-worker.ts';
import { enqueueMany } from './outbox-store.ts';
import type { PostBatch } from './peer-client.ts';
import { ensurePeerSchema } from './peer-schema.ts';
import { linkPeer } from './peer-store.ts';
import { ensureSchema } from './schema.ts';

const PEER = 'urn:mrn:stm:service:instance:test:peer';
const log = createLogger('delivery-test', 'silent');
const TWO_A_BATCH = { maxMessages: 2, maxBytes: 100_000 };

describe('the deliverer (PostgreSQL)', () => {
  let database: DatabaseForTest;
  let db: Db;
  let jobs: DelayedJobs | undefined;

  beforeAll(async () => {
    database = await freshDatabase('pcas_vis_delivery', { poolSize: 8 });
    ({ db } = database);
    const store = createEventStore(db);
    await store.init();
    await ensureSchema(db);
    await ensurePeerSchema(db);
    await link(PEER, 'http://peer.invalid/vis', 'x');
  }, 60_000);

  /** A peer linked at `url`, its secret `secretChar` twenty times. */
  const link = (peer: string, url: string, secretChar: string) =>
    linkPeer(db, createEventStore(db), { service_id: peer, url, secret: secretChar.repeat(20) }, {});

  /** A deliverer on the test's database, its jobs those of the first test unless given. */
  const delivererTo = (options: Pick<DelivererOptions, 'post'> & Partial<DelivererOptions>) =>
    createDeliverer({ db, log, jobs: () => jobs!, ...options });

  afterAll(async () => {
    await jobs?.close();
    await database?.close();
  });

  it('arms the retry of a peer that did not answer only once its lease is given back', async () => {
    // A retry armed while the lease was still held could come due first, find it held and end with nothing armed.
    const peer = 'urn:mrn:stm:service:instance:test:retry';
    await link(peer, 'http://peer.invalid/vis', 'y');
    await enqueueMany(db, peer, [{ message_id: 'r1', operation: 'textMessage', body: { message: '<x/>' } }]);
    const leaseWhenArmed: (string | null)[] = [];
    const armedOnly: DelayedJobs = {
      kind: 'in-process',
      schedule: async () => {
        const { rows } = await db.query<{ lease_owner: string | null }>(
          'SELECT lease_owner FROM vis.peer_delivery WHERE peer_service_id = $1',
          [peer],
        );
        leaseWhenArmed.push(rows[0].lease_owner);
      },
      cancel: async () => {},
      close: async () => {},
    };
    const deliverer = delivererTo({
      post: async () => ({ kind: 'unreachable', error: 'ECONNREFUSED' }),
      jobs: () => armedOnly,
    });
    await deliverer.deliver(peer);
    expect(leaseWhenArmed).toEqual([null]);
  });

  it('delivers each message once, in order, one batch at a time, after the peer comes back', async () => {
    const batches: string[][] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    let down = 2;
    const post: PostBatch = async (_peer, batch: readonly QueuedMessage[]): Promise<BatchOutcome> => {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
      if (down-- > 0) return { kind: 'unreachable', error: 'ECONNREFUSED' };
      batches.push(batch.map((m) => m.message_id));
      const results = batch.map((m) =>
        m.message_id === 'm3'
          ? { message_id: m.message_id, status: 'refused', status_code: 400, error: 'Malformed XML' }
          : { message_id: m.message_id, status: 'stored' },
      );
      return { kind: 'answered', status: 200, body: { results } };
    };
    const deliverer = delivererTo({ post, limits: TWO_A_BATCH, backoff: { baseMs: 50, maxMs: 100 } });
    jobs = createInProcessJobs({
      queue: 'vis-delivery-test',
      handler: async (job) => deliverer.deliver((job.data as DeliveryJob).peer),
      log,
    });
    const ids = ['m1', 'm2', 'm3', 'm4', 'm5'];
    await enqueueMany(
      db,
      PEER,
      ids.map((message_id) => ({ message_id, operation: 'textMessage' as const, body: { message: '<x/>' } })),
    );
    // Many deliverers at once (jobs and direct calls): the lease lets one through.
    await Promise.all([
      deliverer.kick(PEER),
      deliverer.deliver(PEER),
      deliverer.deliver(PEER),
      deliverer.deliver(PEER),
    ]);

    const rows = await pollUntil(
      async () =>
        (
          await db.query<{ message_id: string; delivered: boolean; failed: boolean; last_error: string | null }>(
            `SELECT message_id, delivered_at IS NOT NULL AS delivered, failed_at IS NOT NULL AS failed, last_error
             FROM vis.outbox WHERE peer_service_id = $1 ORDER BY seq`,
            [PEER],
          )
        ).rows,
      (rows) => rows.every((r) => r.delivered || r.failed),
      20_000,
    );
    expect(mostInFlight).toBe(1);
    expect(batches).toEqual([['m1', 'm2'], ['m3', 'm4'], ['m5']]);
    expect(rows.map((r) => [r.message_id, r.delivered, r.failed])).toEqual([
      ['m1', true, false],
      ['m2', true, false],
      ['m3', false, true],
      ['m4', true, false],
      ['m5', true, false],
    ]);
    expect(rows[2].last_error).toBe('400 Malformed XML');
    const state = await db.query<{ failures: number; last_error: string | null }>(
      'SELECT failures, last_error FROM vis.peer_delivery WHERE peer_service_id = $1',
      [PEER],
    );
    // The two failures in a row were counted, and forgotten once the peer answered.
    expect(state.rows[0]).toEqual({ failures: 0, last_error: null });
  }, 30_000);

  it('posts the next batch while the last one is recorded, and records them in order', async () => {
    const peer = 'urn:mrn:stm:service:instance:test:pipelined-peer';
    await link(peer, 'http://p.invalid/vis', 'z');
    const posted: string[][] = [];
    let secondPosted: () => void = () => {};
    const second = new Promise<void>((resolve) => {
      secondPosted = resolve;
    });
    const post: PostBatch = async (_peer, batch) => {
      posted.push(batch.map((m) => m.message_id));
      if (posted.length === 2) secondPosted();
      const results = batch.map((m) => ({ message_id: m.message_id, status: 'stored' }));
      return { kind: 'answered', status: 200, body: { results } };
    };
    const recordedIn: string[][] = [];
    const deliverer = delivererTo({
      post,
      limits: TWO_A_BATCH,
      takeAcknowledgements: async (_link, answer) => {
        const ids = (answer as { results: { message_id: string }[] }).results.map((r) => r.message_id);
        // The first batch's recording waits for the second batch's post: without the overlap, never.
        if (recordedIn.length === 0) await second;
        recordedIn.push(ids);
      },
    });
    await enqueueMany(
      db,
      peer,
      ['p1', 'p2', 'p3', 'p4'].map((message_id) => ({ message_id, operation: 'textMessage' as const, body: {} })),
    );
    await deliverer.deliver(peer);
    expect(posted).toEqual([
      ['p1', 'p2'],
      ['p3', 'p4'],
    ]);
    expect(recordedIn).toEqual(posted);
    const { rows } = await db.query<{ n: string }>(
      'SELECT count(*) AS n FROM vis.outbox WHERE peer_service_id = $1 AND delivered_at IS NOT NULL',
      [peer],
    );
    expect(Number(rows[0].n)).toBe(4);
  }, 30_000);

  it('takes the acknowledgements an answer carried before recording the batch delivered; if that fails, sends it again', async () => {
    const peer = 'urn:mrn:stm:service:instance:test:answering-peer';
    await link(peer, 'http://answering.invalid/vis', 'y');
    const posted: string[][] = [];
    const post: PostBatch = async (_peer, batch) => {
      posted.push(batch.map((m) => m.message_id));
      const results = batch.map((m) => ({
        message_id: m.message_id,
        status: posted.length > 1 ? 'duplicate' : 'stored',
      }));
      const acknowledgements = batch.map((m) => ({ message_id: `ack:${m.message_id}`, operation: 'acknowledgement' }));
      return { kind: 'answered', status: 200, body: { results, acknowledgements } };
    };
    const taken: { delivered: boolean[]; answer: unknown }[] = [];
    let failOnce = true;
    const deliverer = delivererTo({
      post,
      jobs: () => answeringJobs,
      takeAcknowledgements: async (link, answer) => {
        expect(link.service_id).toBe(peer);
        const { rows } = await db.query<{ delivered: boolean }>(
          'SELECT delivered_at IS NOT NULL AS delivered FROM vis.outbox WHERE peer_service_id = $1 ORDER BY seq',
          [peer],
        );
        taken.push({ delivered: rows.map((r) => r.delivered), answer });
        if (failOnce) {
          failOnce = false;
          throw new Error('database away');
        }
      },
    });
    const answeringJobs = createInProcessJobs({
      queue: 'vis-delivery-answering',
      handler: async (job) => deliverer.deliver((job.data as DeliveryJob).peer),
      log,
    });
    try {
      await enqueueMany(db, peer, [
        { message_id: 'a1', operation: 'textMessage', body: { message: '<x/>' } },
        { message_id: 'a2', operation: 'textMessage', body: { message: '<x/>' } },
      ]);
      // The first try fails while taking the acknowledgements: nothing is recorded delivered.
      await expect(deliverer.deliver(peer)).rejects.toThrow('database away');
      const pending = await db.query<{ n: string }>(
        'SELECT count(*) AS n FROM vis.outbox WHERE peer_service_id = $1 AND delivered_at IS NULL',
        [peer],
      );
      expect(Number(pending.rows[0].n)).toBe(2);
      await deliverer.deliver(peer);
      const done = await db.query<{ n: string }>(
        'SELECT count(*) AS n FROM vis.outbox WHERE peer_service_id = $1 AND delivered_at IS NOT NULL',
        [peer],
      );
      expect(Number(done.rows[0].n)).toBe(2);
      expect(posted).toEqual([
        ['a1', 'a2'],
        ['a1', 'a2'],
      ]);
      // Each time before the batch was recorded delivered, with the answer as the peer gave it.
      expect(taken.map((t) => t.delivered)).toEqual([
        [false, false],
        [false, false],
      ]);
      expect(taken[1].answer).toMatchObject({ acknowledgements: [{ message_id: 'ack:a1' }, { message_id: 'ack:a2' }] });
    } finally {
      await answeringJobs.close();
    }
  }, 30_000);
});
