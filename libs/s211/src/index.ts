// The IALA S-211 state catalogue, the timestamp time types and the manual-entry definitions, with the ids the
// original Port Activity App gave them (docs/domain.md#time-types-and-states), and the vessel types with their
// sea-chart marker classes (vessel-types.ts). Pure data and lookups.

import { STATES } from './catalogue.ts';
import type { State, StateGroup, TimestampDefinition, TimeType, TimeTypeName } from './types.ts';

export type { State, StateGroup, TimestampDefinition, TimeType, TimeTypeName };
export { STATES };

/** In the original's insertion order, which is also the order its error messages list them in. */
export const TIME_TYPES: readonly TimeType[] = [
  { id: 1, name: 'Planned' },
  { id: 2, name: 'Estimated' },
  { id: 3, name: 'Actual' },
  { id: 4, name: 'Recommended' },
  { id: 5, name: 'Required' },
];

/** The original's `timestamp_state_type` rows. */
export const STATE_GROUPS: readonly { id: number; name: StateGroup }[] = [
  { id: 1, name: 'Location' },
  { id: 2, name: 'Service' },
  { id: 3, name: 'Administration' },
];

export const TIME_TYPE_NAMES: readonly TimeTypeName[] = TIME_TYPES.map((t) => t.name);
export const STATE_NAMES: readonly string[] = STATES.map((s) => s.name);

const statesByName = new Map(STATES.map((s) => [s.name, s]));
const statesById = new Map(STATES.map((s) => [s.id, s]));
const timeTypesByName = new Map(TIME_TYPES.map((t) => [t.name as string, t]));
const timeTypesById = new Map(TIME_TYPES.map((t) => [t.id, t]));
const groupIds = new Map(STATE_GROUPS.map((g) => [g.name, g.id]));

/** Exact, case-sensitive, as the original's lookup. */
export const stateByName = (name: string): State | undefined => statesByName.get(name);
export const stateById = (id: number): State | undefined => statesById.get(id);
export const timeTypeByName = (name: string): TimeType | undefined => timeTypesByName.get(name);
export const timeTypeById = (id: number): TimeType | undefined => timeTypesById.get(id);
export const isStateName = (name: unknown): name is string => typeof name === 'string' && statesByName.has(name);
export const isTimeTypeName = (name: unknown): name is TimeTypeName =>
  typeof name === 'string' && timeTypesByName.has(name);
/** The original's `state_type_id` of a state's group. */
export const stateGroupId = (group: StateGroup): number => groupIds.get(group)!;

/** The translation key of a timestamp label, as the UI, the CSV export and the vessel pushes build it. */
export const timestampLabelKey = (timeType: string, state: string): string =>
  `${timeType} ${state.replaceAll('_', ' ')}`;

/** A timestamp label's text where a port stores none: the time type and the state's S-211 name (unknown: none). */
export const defaultTimestampLabel = (timeType: string, state: string): string | undefined => {
  const label = statesByName.get(state)?.label;
  return label === undefined ? undefined : `${timeType} ${label}`;
};

// The 19 pairs of the original migration minus its `Pilotage_Reguested` typo, which inserted nothing.
const DEFINITION_PAIRS: readonly [TimeTypeName, string][] = [
  ['Estimated', 'Arrival_Vessel_TrafficArea'],
  ['Actual', 'Arrival_Vessel_TrafficArea'],
  ['Actual', 'Arrival_Vessel_LOC'],
  ['Actual', 'Arrival_Vessel_AnchorageArea'],
  ['Estimated', 'Pilotage_Confirmed'],
  ['Actual', 'Pilotage_Commenced'],
  ['Actual', 'Pilotage_Completed'],
  ['Estimated', 'Arrival_Vessel_PortArea'],
  ['Recommended', 'Arrival_Vessel_PortArea'],
  ['Planned', 'Arrival_Vessel_PortArea'],
  ['Actual', 'Arrival_Vessel_PortArea'],
  ['Actual', 'Arrival_Vessel_Berth'],
  ['Actual', 'CargoOp_Commenced'],
  ['Estimated', 'CargoOp_Completed'],
  ['Actual', 'CargoOp_Completed'],
  ['Estimated', 'Departure_Vessel_Berth'],
  ['Actual', 'Departure_Vessel_Berth'],
  ['Actual', 'Departure_Vessel_PortArea'],
];

export const TIMESTAMP_DEFINITIONS: readonly TimestampDefinition[] = DEFINITION_PAIRS.map(([timeType, state], i) => {
  const s = stateByName(state);
  if (!s) throw new Error(`Timestamp definition names an unknown state: ${state}`);
  return {
    id: i + 1,
    name: `${timeType} ${state.replaceAll('_', ' ')}`,
    time_type: timeType,
    time_type_id: timeTypeByName(timeType)!.id,
    state,
    state_id: s.id,
  };
});

export {
  PORT_CALL_TEMPLATE_NAMESPACES,
  type PortCallTemplateEntry,
  parsePortCallTemplate,
  portCallTemplate,
  priorityPairProblem,
  TEMPLATE_GROUP_LOCATIONS,
  TEMPLATE_GROUPS,
  type TemplateGroup,
  type TimestampPair,
  templatePairs,
} from './port-call-templates.ts';

export {
  isVesselTypeId,
  MARKER_TYPES,
  type MarkerClass,
  markerClassOf,
  UNKNOWN_VESSEL_TYPE,
  VESSEL_TYPES,
  type VesselType,
  vesselMarkerClass,
  vesselTypeById,
} from './vessel-types.ts';
