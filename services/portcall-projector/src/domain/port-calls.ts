// The port-call rules' public face (docs/domain.md#port-calls), for the
// projection, the commands and the queries that wire them.

export type { ClusteringRule } from './clustering.ts';
export {
  decideAttachOrphans,
  decideForceClose,
  decideForceScan,
  decideSetPortCallRange,
  decideUnsetPortCallId,
  decideUpdatePortCallId,
  decideVesselVisibility,
  invalidPortCallId,
  type PortCallCommandEvent,
} from './port-call-commands.ts';
export { decideSetLiveEta, decideSetPortCallRta, type PortCallRtaEvent } from './port-call-rta.ts';
export {
  DEFAULT_PORT_CALL_SETTINGS,
  isMasterMode,
  type PortCallSettings,
  parsePortCallSettings,
} from './port-call-settings.ts';
export {
  parsePortCallTemplate,
  portCallTemplate,
  type TemplateEntry,
  templatePairs,
} from './port-call-template.ts';
export { parseStrictIso } from './port-call-time.ts';
export type {
  NextEventTitle,
  PortCall,
  PortCallStatus,
  RtaDetails,
  VesselPortCalls,
  VesselTimestamp,
} from './port-call-types.ts';
export {
  MANUAL_PAYLOAD_KEY_WEIGHT,
  MANUAL_WEIGHT,
  NO_PRIORITIES,
  type PayloadKeyWeightRow,
  type Priorities,
  payloadKeyWeight,
  type TimestampWeightRow,
  timestampWeight,
} from './priorities.ts';
export {
  type Badge,
  compareOngoing,
  isOngoing,
  type OngoingEntry,
  ongoingEntry,
  portCallRange,
  type Ship,
  type ShipContext,
  shipOf,
} from './ship.ts';
export {
  buildTimeline,
  portCallTimeline,
  type SourceOf,
  type Timeline,
  type TimelineEvent,
  type TimelineInput,
  type TimelineSlot,
  timelineSlots,
} from './timeline.ts';
export {
  type DueTimer,
  diffVessel,
  dueTimers,
  emptyVesselPortCalls,
  evolve,
  foldVessel,
  nextTimerAt,
  orphanTimestamps,
  type ProjectionContext,
  portCallOf,
  replayVessel,
  tick,
  timestampOf,
  timestampsOfPortCall,
  type VesselChanges,
} from './vessel-port-calls.ts';
