// What every command group of the queue is given (commands.ts wires it): the adapters, the clock, one transaction
// retried on a lost version race (libs/commands), and what follows a commit.

import type { Decided, DecidedEvent, TransactionalCommand } from '@pcas/commands';
import type { Actor } from '@pcas/contracts';
import type { EventMetadata, EventStore } from '@pcas/eventstore';
import type { Logger } from '@pcas/observability';
import type { Db, Queryable } from '@pcas/sql';
import type { AfterCommitQueue, QueueJobs } from './after-commit.ts';

export interface QueueCommandContext {
  db: Db;
  store: EventStore;
  log: Logger;
  now: () => number;
  timeZone: string;
  jobs?: QueueJobs;
  /** One transaction, decided again on a lost version race (a bounded number of times, then 503). */
  transact<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** libs/commands' decideAndAppendInTransaction on the queue's database, with the queue's retry options. */
  decideAndAppend<S, E extends DecidedEvent>(command: TransactionalCommand<S, E>): Promise<Decided<E>>;
  /** A create command: decided in one transaction, once per RPC request (libs/commands decideOnce). */
  createOnce<T>(headers: Record<string, unknown>, decide: (tx: Queryable) => Promise<T>): Promise<T>;
  after: AfterCommitQueue;
  /** Places again the slot requests waiting for a nomination or a free slot (all, or those of one IMO). */
  resolve(metadata: EventMetadata, actor: Actor, imo?: number): Promise<void>;
}

export const OK = { result: 'OK' } as const;
