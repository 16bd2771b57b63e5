// The push jobs (docs/architecture.md#time-and-jobs): every push leaves through delayed jobs (BullMQ in the fleet,
// in-process timers embedded), so a push server that is down or slow never holds up what made the push; a failing
// job is tried again with a growing delay. Three kinds:
//   send      one request to Expo (at most 100 devices); afterwards the receipts job is armed;
//   receipts  asks Expo what became of the messages (the original waited an hour), removes DeviceNotRegistered ones;
//   vessel    makes the VESSEL push of a data source's timestamp the projector placed as the heaviest of its kind.
// Jobs name devices by row id (and a digest of the token sent to): tokens themselves never sit in Redis.

import { userNotificationsChanged } from '@pcas/contracts';
import type { EventStore } from '@pcas/eventstore';
import type { DelayedJobs, DueJob } from '@pcas/jobs';
import type { Bus } from '@pcas/messaging';
import type { Logger } from '@pcas/observability';
import { timestampLabelKey } from '@pcas/s211';
import type { Db, Queryable } from '@pcas/sql';
import {
  expoMessages,
  type PinnedUser,
  type Push,
  readReceipts,
  readTickets,
  splitPush,
  type VesselNews,
  vesselPush,
} from '../domain/push-messages.ts';
import { type ExpoClient, ExpoUnavailableError } from './expo.ts';
import { removeUnregisteredDevices, tokenDigest, tokensByIds } from './push-tokens.ts';

export type PushJob =
  | { kind: 'send'; push: Push; message_id: string }
  /** Receipt id → [device id, digest of the token the message went to]. */
  | { kind: 'receipts'; receipts: Record<string, [number, string]> }
  | { kind: 'vessel'; news: VesselNews };

export const PUSHES_DDL = [
  // Pushes already decided, by key: a redelivered event or a job run twice makes no second push.
  `CREATE TABLE IF NOT EXISTS notifier.pushes_made (
     key text PRIMARY KEY,
     made_at timestamptz NOT NULL DEFAULT now()
   )`,
  // A send job's claim while it talks to Expo, then its sent mark: a job run again (its process killed after Expo
  // took the messages, or a stalled job taken up by another process while the first still runs) sends nothing
  // twice. A claim outlives Expo's timeout; a crashed sender's expires, and the messages go then (nothing lost).
  `CREATE TABLE IF NOT EXISTS notifier.push_sends (
     job_id text PRIMARY KEY,
     claimed_until timestamptz,
     sent_at timestamptz
   )`,
];

/** How long a send job's claim holds (well beyond Expo's request timeout). */
const SEND_CLAIM_SECONDS = 30;

/** A send job's claim: taken, or the job's messages went already, or another run holds it now. */
type SendClaim = 'claimed' | 'sent' | 'held';

async function claimSend(q: Queryable, jobId: string): Promise<SendClaim> {
  const { rows } = await q.query<{ claimed: boolean; sent: boolean }>(
    `WITH claimed AS (
       INSERT INTO notifier.push_sends AS s (job_id, claimed_until)
       VALUES ($1, now() + make_interval(secs => $2))
       ON CONFLICT (job_id) DO UPDATE SET claimed_until = EXCLUDED.claimed_until
        WHERE s.sent_at IS NULL AND (s.claimed_until IS NULL OR s.claimed_until < now())
       RETURNING 1)
     SELECT EXISTS (SELECT 1 FROM claimed) AS claimed,
            EXISTS (SELECT 1 FROM notifier.push_sends WHERE job_id = $1 AND sent_at IS NOT NULL) AS sent`,
    [jobId, SEND_CLAIM_SECONDS],
  );
  return rows[0].claimed ? 'claimed' : rows[0].sent ? 'sent' : 'held';
}

/** Another run of the job holds its claim: this one tries again later. */
class SendClaimHeldError extends Error {
  constructor(jobId: string) {
    super(`push job ${jobId} is being sent by another run`);
    this.name = 'SendClaimHeldError';
  }
}

export interface PushJobsDeps {
  db: Db;
  store: EventStore;
  bus: Bus;
  log: Logger;
  expo: ExpoClient;
  /** Set once the jobs exist (the handler and the queue need each other). */
  jobs: () => DelayedJobs;
  receiptDelayMs: number;
  namespace: string;
  portTimeZone: string | null;
  now?: () => Date;
}

/** Schedules a push's send jobs, one per part of at most 100 devices (ids from its key: scheduling twice is one). */
export async function enqueuePush(jobs: DelayedJobs, push: Push, now: Date): Promise<void> {
  const messageId = `${Math.floor(now.getTime() / 1000)}-${push.key}`;
  for (const [i, part] of splitPush(push).entries()) {
    const job: PushJob = { kind: 'send', push: part, message_id: messageId };
    await jobs.schedule(`push-${push.key}-${i}`, now, job);
  }
}

/** Records that the push of `key` is being made; false when it was already. */
export async function claimPush(q: Queryable, key: string): Promise<boolean> {
  const { rows } = await q.query(
    'INSERT INTO notifier.pushes_made (key) VALUES ($1) ON CONFLICT DO NOTHING RETURNING key',
    [key],
  );
  return rows.length > 0;
}

export function pushJobHandler(deps: PushJobsDeps): (job: DueJob) => Promise<void> {
  const { db, store, log, expo } = deps;
  const now = deps.now ?? (() => new Date());

  async function send(id: string, job: Extract<PushJob, { kind: 'send' }>): Promise<void> {
    const tokens = await tokensByIds(
      db,
      job.push.recipients.map((r) => r.token_id),
    );
    const { token_ids, messages } = expoMessages(job.push, (tokenId) => tokens.get(tokenId), job.message_id);
    if (messages.length === 0) return;
    const claim = await claimSend(db, id);
    if (claim === 'sent') return;
    if (claim === 'held') throw new SendClaimHeldError(id);
    let outcome: ReturnType<typeof readTickets>;
    try {
      outcome = readTickets(await expo.send(messages), token_ids);
      if (!outcome) throw new ExpoUnavailableError('push', 200, 'the reply holds no ticket per message');
    } catch (error) {
      // Not taken: the claim goes, so the retry sends.
      await db.query('UPDATE notifier.push_sends SET claimed_until = NULL WHERE job_id = $1', [id]);
      throw error;
    }
    // Expo took the messages: marked at once, and nothing below may fail the job.
    try {
      await db.query('UPDATE notifier.push_sends SET sent_at = now(), claimed_until = NULL WHERE job_id = $1', [id]);
      const digestOf = (tokenId: number) => tokenDigest(tokens.get(tokenId) ?? '');
      const removed = await removeUnregisteredDevices(
        db,
        store,
        outcome.unregistered.map((tokenId) => ({ id: tokenId, digest: digestOf(tokenId) })),
      );
      const receipts = Object.fromEntries(
        Object.entries(outcome.receipts).map(([receipt, tokenId]) => [receipt, [tokenId, digestOf(tokenId)]]),
      ) as Record<string, [number, string]>;
      if (Object.keys(receipts).length > 0) {
        const check: PushJob = { kind: 'receipts', receipts };
        await deps.jobs().schedule(`receipts-${id}`, new Date(now().getTime() + deps.receiptDelayMs), check);
      }
      log.debug({ job: id, sent: messages.length, removed }, 'push sent');
    } catch (error) {
      log.warn({ err: error, job: id }, 'push sent; its receipts will not be checked');
    }
  }

  async function checkReceipts(job: Extract<PushJob, { kind: 'receipts' }>): Promise<void> {
    const ids = Object.keys(job.receipts);
    const reply = await expo.receipts(ids);
    const unregistered = readReceipts(
      reply,
      Object.fromEntries(ids.map((receipt) => [receipt, job.receipts[receipt][0]])),
    );
    if (!unregistered) throw new ExpoUnavailableError('receipts', 200, 'the reply holds no receipts');
    const digests = new Map(ids.map((receipt) => job.receipts[receipt]));
    const removed = await removeUnregisteredDevices(
      db,
      store,
      unregistered.map((tokenId) => ({ id: tokenId, digest: digests.get(tokenId) ?? '' })),
    );
    if (removed > 0) log.info({ removed }, 'devices Expo no longer knows removed');
  }

  async function vessel(job: Extract<PushJob, { kind: 'vessel' }>): Promise<void> {
    const { news } = job;
    const key = `vessel-${news.timestamp_id}`;
    if (!(await claimPush(db, key))) return;
    const at = now();
    const users = await pinnedUsers(db, news.imo);
    const translations = await labelTranslation(db, deps.namespace, news.time_type, news.state);
    const outcome = vesselPush(news, users, { translations, portTimeZone: deps.portTimeZone, now: at });
    if (outcome.push) await enqueuePush(deps.jobs(), outcome.push, at);
    for (const { user_id, notification } of outcome.notifications) {
      const channel = userNotificationsChanged(user_id);
      await deps.bus
        .broadcast(channel, { channel, data: notification })
        .catch((error) => log.warn({ err: error, channel }, 'real-time message not sent'));
    }
  }

  return async (due) => {
    const job = due.data as PushJob;
    if (job.kind === 'send') return send(due.id, job);
    if (job.kind === 'receipts') return checkReceipts(job);
    if (job.kind === 'vessel') return vessel(job);
    log.error({ job: due.id }, 'unknown push job');
  };
}

/** Who pinned the vessel (deleted users aside), their time zone and devices. */
export async function pinnedUsers(db: Queryable, imo: number): Promise<PinnedUser[]> {
  const { rows } = await db.query<{ user_id: number; time_zone: string | null; token_ids: number[] }>(
    `SELECT p.user_id, u.time_zone,
            coalesce(array_agg(t.id ORDER BY t.id) FILTER (WHERE t.id IS NOT NULL), '{}') AS token_ids
       FROM notifier.pinned_vessels p
       LEFT JOIN notifier.users u ON u.id = p.user_id
       LEFT JOIN notifier.push_tokens t ON t.user_id = p.user_id
      WHERE p.imo = $1 AND u.status IS DISTINCT FROM 'deleted'
      GROUP BY p.user_id, u.time_zone
      ORDER BY p.user_id`,
    [imo],
  );
  return rows.map((r) => ({ user_id: Number(r.user_id), time_zone: r.time_zone, token_ids: r.token_ids.map(Number) }));
}

/** The port's stored text of the timestamp's label, if any (the notifier's copy of the gateway's translations). */
async function labelTranslation(
  db: Queryable,
  namespace: string,
  timeType: string,
  state: string,
): Promise<Map<string, string>> {
  const key = timestampLabelKey(timeType, state);
  const { rows } = await db.query<{ value: string }>(
    "SELECT value FROM notifier.translations WHERE namespace = $1 AND language = 'en' AND key = $2",
    [namespace, key],
  );
  return new Map(rows.map((r) => [key, r.value]));
}

/** Devices and pins for a notification's push: every device, and who pinned its ship (if it has one). */
export async function notificationAudience(
  q: Queryable,
  shipImo: number | null,
): Promise<{ devices: { token_id: number; user_id: number }[]; pinnedBy: Set<number>; vesselName: string | null }> {
  const devices = await q.query<{ token_id: number; user_id: number }>(
    // A deleted user's devices get nothing, as in the VESSEL audience.
    `SELECT t.id AS token_id, t.user_id FROM notifier.push_tokens t
       LEFT JOIN notifier.users u ON u.id = t.user_id
      WHERE u.status IS DISTINCT FROM 'deleted'
      ORDER BY t.id`,
  );
  if (shipImo === null) {
    return {
      devices: devices.rows.map((d) => ({ token_id: Number(d.token_id), user_id: Number(d.user_id) })),
      pinnedBy: new Set(),
      vesselName: null,
    };
  }
  const pins = await q.query<{ user_id: number }>('SELECT user_id FROM notifier.pinned_vessels WHERE imo = $1', [
    shipImo,
  ]);
  const vessel = await q.query<{ vessel_name: string }>('SELECT vessel_name FROM notifier.vessels WHERE imo = $1', [
    shipImo,
  ]);
  return {
    devices: devices.rows.map((d) => ({ token_id: Number(d.token_id), user_id: Number(d.user_id) })),
    pinnedBy: new Set(pins.rows.map((p) => Number(p.user_id))),
    vesselName: vessel.rows[0]?.vessel_name ?? null,
  };
}
