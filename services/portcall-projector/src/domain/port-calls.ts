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
export { type PortCallSettings, parsePortCallSettings } from './port-call-settings.ts';
export {
  portCallTemplate,
  type TemplateEntry,
} from './port-call-template.ts';
export type {
  PortCall,
  VesselPortCalls,
  VesselTimestamp,
} from './port-call-types.ts';
export type { Priorities } from './priorities.ts';
export { portCallRange } from './ship.ts';
export {
  dueTimers,
  emptyVesselPortCalls,
  foldVessel,
  nextTimerAt,
  type ProjectionContext,
  portCallOf,
  replayVessel,
} from './vessel-port-calls.ts';
