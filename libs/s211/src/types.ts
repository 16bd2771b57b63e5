export type StateGroup = 'Location' | 'Service' | 'Administration';

/** One S-211 state. `name` is the catalogue's StateId, the value a timestamp's `state` carries. */
export interface State {
  /** The original app's `timestamp_state.id` (Location 1–76, Service 77–128, Administration 129–268). */
  id: number;
  name: string;
  /** The catalogue's human-readable Name, e.g. "Pilotage Commenced". */
  label: string;
  description: string;
  group: StateGroup;
  /** ARRIVAL_TO / DEPARTURE_FROM (Location), COMMENCED / COMPLETED (Service), REQUESTED ... (Administration). */
  timeSequence: string;
  /** NAUTICAL / STATIONARY (Service and Administration). */
  serviceType?: string;
  serviceObject?: string;
  /** Location states: who arrives or departs, e.g. VESSEL, PILOT. */
  referenceObject?: string;
  /** Location states: where, e.g. BERTH, PORT_AREA. */
  locationType?: string;
  critical?: boolean;
}

export interface TimeType {
  id: number;
  name: TimeTypeName;
}

export type TimeTypeName = 'Planned' | 'Estimated' | 'Actual' | 'Recommended' | 'Required';

/** A manual-entry shortcut offered by the UI (`GET /timestamp-definitions`); ingestion does not check them. */
export interface TimestampDefinition {
  id: number;
  /** Time type, a space, and the state with underscores as spaces: "Actual Pilotage Commenced". */
  name: string;
  time_type: TimeTypeName;
  time_type_id: number;
  state: string;
  state_id: number;
}
