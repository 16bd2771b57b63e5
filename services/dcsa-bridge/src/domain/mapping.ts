// The one table between DCSA JIT 2.0.0 port-call services and the IALA S-211 states (libs/s211), both ways, and the
// classifier ↔ time type rule (docs/dcsa.md#mapping). A DCSA service type with no S-211 state (`state: null`) is
// kept as a DCSA-only timestamp. Pure.

import { isStateName, type TimeTypeName } from '@pcas/s211';

export type Classifier = 'EST' | 'REQ' | 'PLN' | 'ACT';
export type EventTypeCode = 'STRT' | 'CMPL' | 'ARRI' | 'DEPA';
export type PhaseTypeCode = 'INBD' | 'ALGS' | 'SHIF' | 'OUTB';
/** The service types of the standard negotiated with the E-R-P pattern (and an A). */
export const NEGOTIABLE_SERVICE_TYPES = [
  'BERTH',
  'CARGO_OPERATIONS',
  'PILOTAGE',
  'TOWAGE',
  'MOORING',
  'BUNKERING',
  'PILOT_BOARDING_PLACE',
  'ANCHORAGE',
  'SLUDGE',
] as const;

/** The service types of the standard with an A only. */
export const ACTUAL_ONLY_SERVICE_TYPES = [
  'SEA_PASSAGE',
  'ALL_FAST',
  'GANGWAY_DOWN_AND_SECURE',
  'VESSEL_READY_FOR_CARGO_OPERATIONS',
  'VESSEL_READY_TO_SAIL',
  'DISCHARGE_CARGO_OPERATIONS',
  'LOADING_CARGO_OPERATIONS',
  'LASHING',
  'SAFETY',
  'ANCHORAGE_OPERATIONS',
  'SHORE_POWER',
] as const;

/** Every service type of the standard; MOVES carries forecasts only, no time. */
export const SERVICE_TYPES = [...NEGOTIABLE_SERVICE_TYPES, ...ACTUAL_ONLY_SERVICE_TYPES, 'MOVES'] as const;
export type ServiceType = (typeof SERVICE_TYPES)[number];

/** The event type codes the standard allows with each service type (portCallServiceEventTypeCode's conditions). */
export const EVENT_TYPES_OF: Readonly<Record<ServiceType, readonly EventTypeCode[]>> = {
  BERTH: ['ARRI', 'DEPA'],
  CARGO_OPERATIONS: ['STRT', 'CMPL'],
  PILOTAGE: ['STRT', 'CMPL'],
  TOWAGE: ['STRT', 'CMPL'],
  MOORING: ['STRT', 'CMPL'],
  BUNKERING: ['STRT', 'CMPL'],
  PILOT_BOARDING_PLACE: ['ARRI'],
  ANCHORAGE: ['STRT', 'CMPL'],
  SLUDGE: ['STRT', 'CMPL'],
  SEA_PASSAGE: ['STRT', 'CMPL'],
  ALL_FAST: ['ARRI'],
  GANGWAY_DOWN_AND_SECURE: ['ARRI'],
  VESSEL_READY_FOR_CARGO_OPERATIONS: ['ARRI'],
  VESSEL_READY_TO_SAIL: ['ARRI'],
  DISCHARGE_CARGO_OPERATIONS: ['STRT', 'CMPL'],
  LOADING_CARGO_OPERATIONS: ['STRT', 'CMPL'],
  LASHING: ['STRT', 'CMPL'],
  SAFETY: ['DEPA'],
  ANCHORAGE_OPERATIONS: ['STRT', 'CMPL'],
  SHORE_POWER: ['STRT', 'CMPL'],
  MOVES: ['ARRI'],
};

export interface ServiceKey {
  serviceType: string;
  eventType: string;
  /** Only where it decides the state (MOORING outbound is unmooring, shifting is berth shifting). */
  phase?: string;
}

interface Row {
  serviceType: ServiceType;
  eventType: EventTypeCode;
  phase?: PhaseTypeCode;
  /** The S-211 state, or null: a DCSA-only timestamp. */
  state: string | null;
  /** This row is what the state is sent back as (one per state). */
  canonical?: true;
}

/**
 * THE table. Read top to bottom: the first row whose type, event and (if given) phase match wins. Where two DCSA
 * services mean one S-211 state (ALL_FAST and MOORING completed), `canonical` marks the one we send.
 */
export const SERVICE_STATE_TABLE: readonly Row[] = [
  { serviceType: 'BERTH', eventType: 'ARRI', state: 'Arrival_Vessel_Berth', canonical: true },
  { serviceType: 'BERTH', eventType: 'DEPA', state: 'Departure_Vessel_Berth', canonical: true },
  { serviceType: 'CARGO_OPERATIONS', eventType: 'STRT', state: 'CargoOp_Commenced', canonical: true },
  { serviceType: 'CARGO_OPERATIONS', eventType: 'CMPL', state: 'CargoOp_Completed', canonical: true },
  { serviceType: 'PILOTAGE', eventType: 'STRT', state: 'Pilotage_Commenced', canonical: true },
  { serviceType: 'PILOTAGE', eventType: 'CMPL', state: 'Pilotage_Completed', canonical: true },
  { serviceType: 'TOWAGE', eventType: 'STRT', state: 'Towage_Commenced', canonical: true },
  { serviceType: 'TOWAGE', eventType: 'CMPL', state: 'Towage_Completed', canonical: true },
  { serviceType: 'MOORING', eventType: 'STRT', phase: 'OUTB', state: 'UnMooringOp_Commenced', canonical: true },
  { serviceType: 'MOORING', eventType: 'CMPL', phase: 'OUTB', state: 'UnMooringOp_Completed', canonical: true },
  { serviceType: 'MOORING', eventType: 'STRT', phase: 'SHIF', state: 'BerthShifting_Commenced', canonical: true },
  { serviceType: 'MOORING', eventType: 'CMPL', phase: 'SHIF', state: 'BerthShifting_Completed', canonical: true },
  { serviceType: 'MOORING', eventType: 'STRT', state: 'MooringOp_Commenced', canonical: true },
  { serviceType: 'MOORING', eventType: 'CMPL', state: 'MooringOp_Completed', canonical: true },
  { serviceType: 'BUNKERING', eventType: 'STRT', state: 'Bunkering_Commenced', canonical: true },
  { serviceType: 'BUNKERING', eventType: 'CMPL', state: 'Bunkering_Completed', canonical: true },
  { serviceType: 'PILOT_BOARDING_PLACE', eventType: 'ARRI', state: 'Arrival_Vessel_PilotBA', canonical: true },
  { serviceType: 'ANCHORAGE', eventType: 'STRT', state: 'Arrival_Vessel_AnchorageArea', canonical: true },
  { serviceType: 'ANCHORAGE', eventType: 'CMPL', state: 'Departure_Vessel_AnchorageArea', canonical: true },
  { serviceType: 'SLUDGE', eventType: 'STRT', state: 'SludgeOp_Commenced', canonical: true },
  { serviceType: 'SLUDGE', eventType: 'CMPL', state: 'SludgeOp_Completed', canonical: true },
  // Sea passage starts when the vessel leaves the port area and completes when it reaches it.
  { serviceType: 'SEA_PASSAGE', eventType: 'STRT', state: 'Departure_Vessel_PortArea', canonical: true },
  { serviceType: 'SEA_PASSAGE', eventType: 'CMPL', state: 'Arrival_Vessel_PortArea', canonical: true },
  // All fast is the moment mooring completes.
  { serviceType: 'ALL_FAST', eventType: 'ARRI', state: 'MooringOp_Completed' },
  { serviceType: 'GANGWAY_DOWN_AND_SECURE', eventType: 'ARRI', state: 'Gangway_Completed', canonical: true },
  { serviceType: 'VESSEL_READY_FOR_CARGO_OPERATIONS', eventType: 'ARRI', state: null },
  { serviceType: 'VESSEL_READY_TO_SAIL', eventType: 'ARRI', state: 'ReadyToSailOp_Completed', canonical: true },
  { serviceType: 'DISCHARGE_CARGO_OPERATIONS', eventType: 'STRT', state: 'UnloadingOp_Commenced', canonical: true },
  { serviceType: 'DISCHARGE_CARGO_OPERATIONS', eventType: 'CMPL', state: 'UnloadingOp_Completed', canonical: true },
  { serviceType: 'LOADING_CARGO_OPERATIONS', eventType: 'STRT', state: 'LoadingOp_Commenced', canonical: true },
  { serviceType: 'LOADING_CARGO_OPERATIONS', eventType: 'CMPL', state: 'LoadingOp_Completed', canonical: true },
  { serviceType: 'LASHING', eventType: 'STRT', state: null },
  { serviceType: 'LASHING', eventType: 'CMPL', state: null },
  { serviceType: 'SAFETY', eventType: 'DEPA', state: null },
  { serviceType: 'ANCHORAGE_OPERATIONS', eventType: 'STRT', state: 'Anchoring_Commenced', canonical: true },
  { serviceType: 'ANCHORAGE_OPERATIONS', eventType: 'CMPL', state: 'Anchoring_Completed', canonical: true },
  { serviceType: 'SHORE_POWER', eventType: 'STRT', state: null },
  { serviceType: 'SHORE_POWER', eventType: 'CMPL', state: null },
  { serviceType: 'MOVES', eventType: 'ARRI', state: null },
];

for (const row of SERVICE_STATE_TABLE) {
  if (row.state !== null && !isStateName(row.state))
    throw new Error(`DCSA mapping names an unknown state ${row.state}`);
}

/** Classifier → S-211 time type. A consumer's REQ is what it requires of us. */
export const CLASSIFIER_TIME_TYPES: Readonly<Record<Classifier, TimeTypeName>> = {
  EST: 'Estimated',
  REQ: 'Required',
  PLN: 'Planned',
  ACT: 'Actual',
};

/** S-211 time type → the classifier we send as provider (a recommendation is our plan; nothing sends REQ). */
export const TIME_TYPE_CLASSIFIERS: Readonly<Partial<Record<string, Classifier>>> = {
  Estimated: 'EST',
  Planned: 'PLN',
  Recommended: 'PLN',
  Actual: 'ACT',
};

export const isServiceType = (value: unknown): value is ServiceType =>
  typeof value === 'string' && (SERVICE_TYPES as readonly string[]).includes(value);

export const isNegotiable = (serviceType: string): boolean =>
  (NEGOTIABLE_SERVICE_TYPES as readonly string[]).includes(serviceType);

/** Whether the standard allows this classifier for this service type (classifierCode's conditions). */
export function classifierAllowed(serviceType: string, classifier: Classifier): boolean {
  if (classifier === 'ACT') return serviceType !== 'MOVES';
  return isNegotiable(serviceType);
}

/** The S-211 state of a DCSA service, or null (DCSA-only: no S-211 state, or a type the standard does not list). */
export function stateOfService(key: ServiceKey): string | null {
  const row = SERVICE_STATE_TABLE.find(
    (r) => r.serviceType === key.serviceType && r.eventType === key.eventType && (!r.phase || r.phase === key.phase),
  );
  return row?.state ?? null;
}

export interface S211Time {
  time_type: TimeTypeName;
  state: string;
}

/** A DCSA timestamp's S-211 time type and state, or null when it stays DCSA-only. */
export function toS211(key: ServiceKey, classifier: Classifier): S211Time | null {
  const state = stateOfService(key);
  return state === null ? null : { time_type: CLASSIFIER_TIME_TYPES[classifier], state };
}

export interface DcsaTime {
  serviceType: ServiceType;
  eventType: EventTypeCode;
  phase?: PhaseTypeCode;
  classifier: Classifier;
}

/**
 * How one of our S-211 times goes to a partner as provider: the canonical service of its state and the classifier
 * of its time type; null when the state has no DCSA service, the time type no classifier, or the standard does
 * not allow that classifier for that service (only an A for the actual-only services).
 */
export function fromS211(timeType: string, state: string): DcsaTime | null {
  const classifier = TIME_TYPE_CLASSIFIERS[timeType];
  const row = SERVICE_STATE_TABLE.find((r) => r.state === state && r.canonical);
  if (!classifier || !row || !classifierAllowed(row.serviceType, classifier)) return null;
  return {
    serviceType: row.serviceType,
    eventType: row.eventType,
    ...(row.phase ? { phase: row.phase } : {}),
    classifier,
  };
}
