// What the gateway runs of the portcall-projector in its own process (`@pcas/portcall-projector/queries`,
// docs/architecture.md#queries): the reads of the projector's read models (schema `portcall`) and the rules they
// apply.

export { hasOngoingPortCall, ongoing, portCallsTableExists } from './ongoing.ts';
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
} from './timestamps.ts';
export { livePortCall } from './vessel-port-call.ts';
export { vesselVisibility } from './vessels.ts';
