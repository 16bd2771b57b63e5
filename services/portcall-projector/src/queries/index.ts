// What the gateway runs of the portcall-projector in its own process (`@pcas/portcall-projector/queries`,
// docs/architecture.md#queries): the reads of the projector's read models (schema `portcall`) and the rules they
// apply.

/** Sets up this service's tables (idempotent), so that its queries run in whichever process serves them first. */
export { ensureSchema as prepareQueries } from '../adapters/schema.ts';
export {
  type BerthBoardRow,
  type BerthStay,
  BOARD_MAX_PORT_CALLS,
  berthBoardStays,
  berthStayOf,
  OPEN_STAY_MS,
  type StayEndKind,
} from './berth-board.ts';
export { hasOngoingPortCall, ongoing } from './ongoing.ts';
export {
  exportPortCalls,
  listPortCalls,
  ONGOING_FINGERPRINT_SQL,
  ONGOING_PORT_CALLS_SQL,
  type PortCallExportFilter,
  type PortCallListQuery,
  type PortCallView,
  portCallById,
  portCallOrderBy,
} from './port-calls.ts';
export {
  type ListPage,
  listTimestamps,
  type TimestampFilter,
  type TimestampListRow,
  timestampOrderBy,
  withCreatorNames,
} from './timestamps.ts';
export { livePortCall } from './vessel-port-call.ts';
export { vesselVisibility } from './vessels.ts';
