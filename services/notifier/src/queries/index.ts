// What the gateway runs of the notifier in its own process (`@pcas/notifier/queries`,
// docs/architecture.md#queries): the reads of this service's read models.

export {
  DECISION_STATUSES,
  type DecisionListQuery,
  decisionById,
  listDecisions,
  listNotifications,
  NOTIFICATION_LIST_SIZE,
} from './notifications.ts';
export { PINS_SQL, PINS_TABLE, pinnedVessels, pinsByUser, pinsOf } from './pins.ts';
