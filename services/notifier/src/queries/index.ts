// What the gateway runs of the notifier in its own process (`@pcas/notifier/queries`,
// docs/architecture.md#queries): the reads of this service's read models.

/** Sets up this service's tables (idempotent), so that its queries run in whichever process serves them first. */
export { ensureSchema as prepareQueries } from '../adapters/schema.ts';
export {
  DECISION_STATUSES,
  type DecisionListQuery,
  decisionById,
  listDecisions,
  listNotifications,
  NOTIFICATION_LIST_SIZE,
} from './notifications.ts';
export { PINS_SQL, pinnedVessels, pinsByUser, pinsOf } from './pins.ts';
