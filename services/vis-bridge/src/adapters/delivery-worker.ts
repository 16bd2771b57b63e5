// Delivery to peers (docs/architecture.md#vis-direct-mode): at least once, in order per peer. A queued message
// kicks a delivery job for its peer (@pcas/jobs: BullMQ in the fleet, an in-process timer embedded); the job takes
// the peer's lease (one deliverer per peer across processes), sends the oldest messages as one signed batch, takes
// the acknowledgements the peer's answer carried and records what it said of each. A peer that does not answer is tried again after a growing wait; a sweep
// every few seconds picks up anything a lost job or a restart left behind.

import { createHash, randomUUID } from 'node:crypto';
import type { DelayedJobs } from '@pcas/jobs';
import type { Logger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import { type BackoffPolicy, retryDelayMs } from '@pcas/values';
import { type BatchOutcome, DEFAULT_BACKOFF, type DeliveryDecision, decideDelivery } from '../domain/delivery.ts';
import { type BatchLimits, DEFAULT_BATCH_LIMITS, nextBatch } from '../domain/outbox.ts';
import {
  hasPending,
  peersDue,
  pendingMessages,
  recordFailure,
  releaseLease,
  setNextAttempt,
  settleBatch,
  takeLease,
} from './outbox-store.ts';
import type { PostBatch } from './peer-client.ts';
import { type Peer, peerFor } from './peer-store.ts';

const KICK_WINDOW_MS = 25;

/** How a turn holding a peer's lease ended. */
type Turn = 'emptied' | 'stopped' | { retryAt: Date };

export interface DeliveryJob {
  peer: string;
}

/** BullMQ job ids may not hold every character a service id does (URNs have colons): a digest of it. */
const peerKey = (peer: string) => createHash('sha256').update(peer).digest('hex').slice(0, 24);
export const deliveryJobId = (peer: string, dueMs?: number): string =>
  dueMs === undefined ? `vis-deliver-${peerKey(peer)}` : `vis-deliver-${peerKey(peer)}-${dueMs}`;

export interface DelivererOptions {
  db: Db;
  log: Logger;
  post: PostBatch;
  /** Set once the jobs exist (they are created with this deliverer's handler). */
  jobs: () => DelayedJobs;
  limits?: BatchLimits;
  backoff?: BackoffPolicy;
  /** How long a deliverer holds a peer before another may take over (renewed each batch). */
  leaseMs?: number;
  /**
   * After a batch that was not full, the next one leaves no sooner than this after it (default 50 ms): under a
   * steady flow the messages of that moment go together, in one request and one transaction at the peer, rather
   * than one or two at a time. A backlog (full batches) goes without waiting; a lone message goes at once.
   */
  batchGapMs?: number;
  /**
   * Takes the acknowledgements a peer's answer carried (peer-client.ts BATCH_ANSWER), before the batch is
   * recorded as delivered: should this process stop in between, the batch goes again and is acknowledged again.
   */
  takeAcknowledgements?: (peer: Peer, answer: unknown) => Promise<void>;
}

export interface Deliverer {
  /** The job handler. */
  deliver(peer: string): Promise<void>;
  /** Asks for a delivery to the peer now (a no-op when one is already waiting). */
  kick(peer: string): Promise<void>;
  /** Kicks every peer with messages due. */
  sweep(): Promise<void>;
}

export function createDeliverer(options: DelivererOptions): Deliverer {
  const { db, log, post, jobs } = options;
  const limits = options.limits ?? DEFAULT_BATCH_LIMITS;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const leaseMs = options.leaseMs ?? 30_000;
  const batchGapMs = options.batchGapMs ?? 50;

  const schedule = (peer: string) => jobs().schedule(deliveryJobId(peer), new Date(), { peer } satisfies DeliveryJob);
  // Peers this process is delivering to now: their delivery reads the queue again before it ends, so a kick
  // meanwhile needs no job (under a steady flow that was a job, and its Redis round trips, every 25 ms); it is
  // noted, and kicked once when that delivery ends, for what it might have missed at its very end.
  const delivering = new Map<string, { again: boolean }>();
  const kick = coalescedKick(schedule, log, delivering);

  /**
   * One turn holding the lease; answers whether the queue was emptied (so the caller looks once more), or when the
   * peer that did not answer is to be tried again (the caller arms that job once the lease is released: a job armed
   * while it is still held could come due first, find it held and end, leaving nothing armed).
   */
  async function deliverHolding(peer: string, owner: string): Promise<Turn> {
    let maxMessages = limits.maxMessages;
    let gapUntil = 0;
    // In a backlog, a batch's recording (the acknowledgements its answer carried taken, then what the peer said of
    // each) runs while the next batch is read and posted: that one holds only later messages (`after`), which the
    // peer stores after the first. Each recording waits for the one before, and a failed one fails those after it and
    // the job: what was not recorded goes again, answered "duplicate" and acknowledged again.
    let recording: Promise<void> = Promise.resolve();
    let after = 0;
    let held = true;
    const record = (link: Peer, outcome: BatchOutcome, decision: Extract<DeliveryDecision, { kind: 'settled' }>) => {
      const before = recording;
      recording = (async () => {
        await before;
        if (outcome.kind === 'answered' && outcome.status >= 200 && outcome.status < 300) {
          await options.takeAcknowledgements?.(link, outcome.body);
        }
        if (!(await settleBatch(db, peer, decision, { owner, ms: leaseMs }))) held = false;
        for (const r of decision.refused) {
          log.warn({ peer, message_id: r.message_id, error: r.error }, 'VIS peer refused a message; not sent again');
        }
      })();
      // Awaited later (a rejection surfaces there), not left unhandled meanwhile.
      recording.catch(() => {});
    };
    /** Waits for the recordings on their way; answers whether this deliverer still holds the peer. */
    const recorded = async () => {
      await recording;
      return held;
    };
    try {
      return await deliverBatches();
    } finally {
      // Nothing of this turn is left writing once the caller releases the lease (a late settle would renew it).
      await recording.catch(() => {});
    }

    async function deliverBatches(): Promise<Turn> {
      for (;;) {
        const wait = gapUntil - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        if (!held) {
          await recording;
          return 'stopped';
        }
        const link = await peerFor(db, peer);
        if (!link) {
          log.warn({ peer }, 'VIS messages queued for a service without a peer link; kept until one is set');
          await recording;
          return 'stopped';
        }
        const queued = await pendingMessages(db, peer, maxMessages, after);
        const batch = nextBatch(queued, { ...limits, maxMessages });
        if (batch.length === 0) return (await recorded()) ? 'emptied' : 'stopped';
        const ids = batch.map((m) => m.message_id);
        const full = batch.length >= maxMessages || queued.length > batch.length;
        gapUntil = full ? 0 : Date.now() + batchGapMs;
        const outcome = await post(link, batch);
        const decision = decideDelivery(ids, outcome);
        if (decision.kind === 'split') {
          if (!(await recorded())) return 'stopped';
          maxMessages = Math.max(1, Math.floor(batch.length / 2));
          continue;
        }
        if (decision.kind === 'settled' && (decision.delivered.length > 0 || decision.refused.length > 0)) {
          record(link, outcome, decision);
          if (decision.pending.length === 0) {
            after = batch[batch.length - 1].seq;
            // Only a backlog (full batches) goes on at once: under a steady flow the next batch waits for this
            // one's recording, so that it gathers more (each batch costs both ports a transaction or more).
            if (!full && !(await recorded())) return 'stopped';
          } else {
            // What the peer did not answer for goes first in the next batch.
            if (!(await recorded())) return 'stopped';
            after = 0;
          }
          continue;
        }
        if (!(await recorded())) return 'stopped';
        const error = decision.kind === 'retry' ? decision.error : 'the peer answered for none of the batch';
        const failures = await recordFailure(db, peer, error);
        const at = new Date(Date.now() + retryDelayMs(failures, backoff));
        await setNextAttempt(db, peer, at);
        log.warn({ peer, failures, retry_at: at.toISOString(), error }, 'VIS peer delivery failed; will retry');
        return { retryAt: at };
      }
    }
  }

  async function deliver(peer: string): Promise<void> {
    if (delivering.has(peer)) return deliverTurns(peer);
    const running = { again: false };
    delivering.set(peer, running);
    try {
      await deliverTurns(peer);
    } finally {
      delivering.delete(peer);
      if (running.again) void kick(peer).catch((error) => log.warn({ err: error, peer }, 'delivery not kicked'));
    }
  }

  async function deliverTurns(peer: string): Promise<void> {
    const owner = randomUUID();
    // A message queued while the previous holder was finishing is found by the look after the release.
    for (let turn = 0; turn < 100; turn++) {
      if (!(await takeLease(db, peer, owner, leaseMs))) return;
      let outcome: Turn;
      try {
        outcome = await deliverHolding(peer, owner);
      } finally {
        await releaseLease(db, peer, owner);
      }
      if (typeof outcome === 'object') {
        const at = outcome.retryAt;
        await jobs().schedule(deliveryJobId(peer, at.getTime()), at, { peer } satisfies DeliveryJob);
        return;
      }
      if (outcome === 'stopped' || !(await hasPending(db, peer))) return;
    }
  }

  async function sweep(): Promise<void> {
    for (const peer of await peersDue(db)) await kick(peer);
  }

  return { deliver, kick, sweep };
}

/**
 * Kicks for one peer are coalesced: the first goes at once, the ones within the next KICK_WINDOW_MS become one
 * more at its end (so a message queued just after a delivery looked is still kicked). A burst of sends costs a
 * few jobs, not one each. A peer being delivered to (`delivering`) only notes the kick.
 */
function coalescedKick(
  schedule: (peer: string) => Promise<unknown>,
  log: Logger,
  delivering: ReadonlyMap<string, { again: boolean }>,
): (peer: string) => Promise<void> {
  const windows = new Map<string, { again: boolean }>();
  const kick = async (peer: string) => {
    const running = delivering.get(peer);
    if (running) {
      running.again = true;
      return;
    }
    const open = windows.get(peer);
    if (open) {
      open.again = true;
      return;
    }
    const window = { again: false };
    windows.set(peer, window);
    const close = () => {
      windows.delete(peer);
      if (window.again) void kick(peer).catch((error) => log.warn({ err: error, peer }, 'delivery not kicked'));
    };
    setTimeout(close, KICK_WINDOW_MS).unref?.();
    await schedule(peer);
  };
  return kick;
}
