// What the gateway runs of the queue-scheduler in its own process (`@pcas/queue-scheduler/queries`,
// docs/architecture.md#queries): the reads of this service's read models, and of its signed links' key.

export { linkPublicKey, linksTypedSince } from './links.ts';
export { createQueueQueries, type ListQuery, type QueueLent, type QueueQueries } from './queue.ts';
