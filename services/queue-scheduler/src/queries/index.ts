// What the gateway runs of the queue-scheduler in its own process (`@pcas/queue-scheduler/queries`,
// docs/architecture.md#queries): the reads of this service's read models, and of its signed links' key.

/** Sets up this service's tables (idempotent), so that its queries run in whichever process serves them first. */
export { ensureSchema as prepareQueries } from '../adapters/schema.ts';
export { type BoardBerth, type BoardReservation, boardBerths, boardReservations } from './berth-board.ts';
export { linkPublicKey, linksTypedSince } from './links.ts';
export { createQueueQueries, type ListQuery, type QueueLent, type QueueQueries } from './queue.ts';
