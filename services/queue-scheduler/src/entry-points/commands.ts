// cmd.queue-scheduler (docs/queue.md): the queue's commands by group, each reading as decode → load the state →
// decide (pure, src/domain) → append with the version read → reply, its rows written in the same transaction;
// a lost race on any stream rolls all back and decides again (libs/commands). What a decision leaves to do (the
// generated timestamps through ingest, the notices, the jobs) is recorded in its transaction and done after the
// reply (after-commit.ts, adapters/ingest-work.ts). The create commands are decided once per RPC request.

import { decideAndAppendInTransaction, decideOnce, retryOnConflict } from '@pcas/commands';
import type { ServiceDeps } from '@pcas/contracts';
import { createIngestWork } from '../adapters/ingest-work.ts';
import { cannotFindNomination } from '../domain/nominations.ts';
import { NO_NOTIFICATIONS, type QueueNotifications } from '../domain/notifications.ts';
import { afterCommitQueue, type QueueJobs } from './after-commit.ts';
import { berthBlockCommands } from './berth-block-commands.ts';
import { berthCommands } from './berth-commands.ts';
import type { QueueCommandContext } from './command-context.ts';
import { nominationCommands } from './nomination-commands.ts';
import { completeSlotRequest, resolve, slotRequestCommands } from './slot-request-commands.ts';

export type { QueueJobs } from './after-commit.ts';

// Many vessels may ask for one berth at once: each lost race costs one more attempt (a quick one: a few reads).
const ATTEMPTS = 25;
const BUSY = 'The queue is being updated concurrently; retry';

export interface QueueCommandDeps extends ServiceDeps {
  notifications?: QueueNotifications;
  jobs?: QueueJobs;
  now?: () => number;
}

export function createQueueCommands(deps: QueueCommandDeps) {
  const { db, store, bus, log, config } = deps;
  const retry = { attempts: ATTEMPTS, busyMessage: BUSY, log };
  const after = afterCommitQueue({
    db,
    log,
    ingest: createIngestWork({ db, bus, log }),
    notifications: deps.notifications ?? NO_NOTIFICATIONS,
    jobs: deps.jobs,
  });
  const context: QueueCommandContext = {
    db,
    store,
    log,
    now: deps.now ?? Date.now,
    timeZone: config.portDefaultTimeZone ?? 'UTC',
    jobs: deps.jobs,
    transact: (fn) => retryOnConflict('queue', () => db.transaction(fn), retry),
    decideAndAppend: (command) => decideAndAppendInTransaction(db, store, command, retry),
    createOnce: (headers, decide) => context.transact((tx) => decideOnce(tx, 'queue', headers, () => decide(tx))),
    after,
    resolve: (metadata, actor, imo) => resolve(context, metadata, actor, imo),
  };
  const nominations = nominationCommands(context);
  return {
    handlers: {
      ...berthCommands(context),
      ...nominations.handlers,
      ...berthBlockCommands(context),
      ...slotRequestCommands(context),
    },
    expireNomination: nominations.expireNomination,
    completeSlotRequest: (id: number) => completeSlotRequest(context, id),
    cannotFindNomination,
    settled: after.settled,
    sweepTimestampWork: after.sweepTimestampWork,
  };
}
