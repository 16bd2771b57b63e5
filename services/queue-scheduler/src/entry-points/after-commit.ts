// What follows a queue decision's commit, after the reply (docs/queue.md): its recorded ingest work done, its
// completion job armed, the notices sent; in order per slot request (a cancellation's removal of the timestamps
// waits for their posting). `settled()` waits for all of it (tests, shutdown).

import type { Logger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import type { IngestWork } from '../adapters/ingest-work.ts';
import { loadBerth } from '../adapters/states.ts';
import type { QueueNotifications } from '../domain/notifications.ts';
import { completionDue } from '../domain/slot-requests.ts';
import { type AfterCommit, settingsOf } from './decision-parts.ts';

/** Delayed work at a due time: a nomination's expiry, a slot request's completion (see service.ts). */
export interface QueueJobs {
  expireNomination(id: number, at: number): Promise<void>;
  completeSlotRequest(id: number, at: number): Promise<void>;
}

export interface AfterCommitDeps {
  db: Db;
  log: Logger;
  ingest: IngestWork;
  notifications: QueueNotifications;
  jobs?: QueueJobs;
}

export function afterCommitQueue({ db, log, ingest, notifications, jobs }: AfterCommitDeps) {
  const chains = new Map<string, Promise<void>>();
  function enqueue(keys: string[], work: () => Promise<void>): void {
    const previous = Promise.all(keys.map((k) => chains.get(k)));
    const run = previous.then(work).catch((err) => log.error({ err }, 'queue after-commit work failed'));
    for (const k of keys) chains.set(k, run);
    void run.finally(() => {
      for (const k of keys) if (chains.get(k) === run) chains.delete(k);
    });
  }
  const settled = async () => {
    while (chains.size > 0) await Promise.all(chains.values());
  };
  // The completion times this process armed lately (a bounded memory, oldest forgotten first): scheduling one
  // again at the same time is a no-op, skipped without asking the job queue.
  const completionArmed = new Map<number, number>();
  const armCompletion = async (id: number, at: number) => {
    if (completionArmed.get(id) === at) return;
    await jobs?.completeSlotRequest(id, at);
    completionArmed.delete(id);
    completionArmed.set(id, at);
    if (completionArmed.size > 10_000) completionArmed.delete(completionArmed.keys().next().value as number);
  };

  async function finish(after: AfterCommit): Promise<void> {
    const settings = after.slots.length > 0 ? (after.settings ?? (await settingsOf(db))) : undefined;
    await ingest.doIngestWork(after.work);
    for (const { state, event } of after.slots) {
      if (event.type !== 'SlotRequestCancelled' && event.type !== 'SlotRequestCompleted' && settings) {
        const due = completionDue(state, settings);
        if (due !== null) await armCompletion(state.id, due);
      }
      if (event.type === 'SlotRequestCompleted') continue;
      await notifications
        .slotRequestChanged({
          slot_request_id: state.id,
          event: event.type,
          status: state.status,
          email: state.email,
          imo: state.imo,
          vessel_name: state.vessel_name,
          rta_window_start: state.rta_window_start,
          rta_window_end: state.rta_window_end,
          jit_eta: state.jit_eta,
        })
        .catch((err) => log.error({ err, slot_reservation_id: state.id }, 'slot request notice failed'));
    }
    for (const block of after.blocks) {
      const berth = (await loadBerth(db, block.berth_id)).state.berth;
      await notifications
        .berthBlockShifted({
          berth_id: block.berth_id,
          berth_code: berth?.code ?? '',
          berth_name: berth?.name ?? '',
          berth_reservation_id: block.id,
          reservation_start: block.reservation_start,
          reservation_end: block.reservation_end,
        })
        .catch((err) => log.error({ err, berth_reservation_id: block.id }, 'berth block notice failed'));
    }
  }

  return {
    /** Queues what a committed decision leaves to do, behind what is still being done for its slot requests. */
    finishLater: (done: AfterCommit) =>
      enqueue(
        [...done.slots.map((x) => `slot-${x.state.id}`), ...done.removeTimestampsOf.map((id) => `slot-${id}`)],
        () => finish(done),
      ),
    settled,
    sweepTimestampWork: () => ingest.sweepTimestampWork(enqueue),
  };
}

export type AfterCommitQueue = ReturnType<typeof afterCommitQueue>;
