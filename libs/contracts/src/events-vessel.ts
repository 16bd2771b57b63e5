// Events of the port-call streams: vessel-<imo> (owned by ingest), portcall-changes (owned by the portcall-
// projector) and the priorities streams (owned by ingest). Re-exported by events.ts, which says how events are named.

// ---- vessel-<imo> streams (owned by ingest) ----

export interface VesselRegistered {
  imo: number;
  vessel_name: string;
}

export interface VesselRenamed {
  imo: number;
  vessel_name: string;
  previous_vessel_name: string;
}

/**
 * The vessel's type (an id of the vessel types, libs/s211) was set, by an operator (PUT /vessel) or a data
 * source (POST /agent/rest/vessel-type). A vessel without one has type 1, "Unknown Vessel Type".
 */
export interface VesselTypeSet {
  imo: number;
  vessel_type: number;
  previous_vessel_type: number;
}

export interface TimestampReceived {
  imo: number;
  vessel_name: string;
  time_type: string;
  state: string;
  /** UTC, `YYYY-MM-DDThh:mm:ss+00:00` */
  time: string;
  payload: Record<string, unknown>;
  /** 'api_key' for data sources, 'manual' for people (weighs 999 in the original). */
  source: 'api_key' | 'manual';
  api_key_id: number | null;
  user_id: number | null;
  /**
   * The weight the post was admitted with: the API key's weight for (time_type, state) then, 999 for manual
   * timestamps. For information only (absent on older events): projections weigh timestamps by the
   * priorities-* events, so a rebuild applies the priorities as they are set now.
   */
  weight?: number;
}

export interface TimestampDeleted {
  timestamp_id: number;
}

export interface TimestampRestored {
  timestamp_id: number;
}

// Manual port-call corrections (docs/domain.md#corrections), kept in the vessel stream so that a
// replay reproduces them. What each one does to the port calls is decided when projecting; "now" is the
// event's `created` time.

/** GET /force-close-port-call: the port call departs (atd = its best end time, at most now) and is closed. */
export interface PortCallForceClosed {
  port_call_id: number;
}

/** GET /force-scan-port-call: derived fields are cleared and re-read from the port call's timestamps. */
export interface PortCallForceScanned {
  port_call_id: number;
}

/** POST /port-call-range: a manual master range; timestamps in it (plus buffers) are re-attached. */
export interface PortCallRangeSet {
  port_call_id: number;
  /** UTC, `YYYY-MM-DDThh:mm:ss+00:00`; start <= end. */
  start: string;
  end: string;
}

/** POST /update-port-call-id: the timestamp moves to this port call (same vessel) and is untrashed. */
export interface TimestampPortCallSet {
  timestamp_id: number;
  port_call_id: number;
}

/** POST /unset-port-call-id: the timestamp leaves its port call and is trashed. */
export interface TimestampPortCallUnset {
  timestamp_id: number;
}

/** GET /timestamps-to-port-calls: orphan timestamps of the vessel are attached where a port call fits. */
export interface OrphanTimestampsAttachRequested {
  is_from_agent: boolean;
  ignore_status: boolean;
}

/** POST /vessel-visibility: a hidden vessel's port calls stay out of the activity timeline. */
export interface VesselVisibilitySet {
  imo: number;
  visible: boolean;
}

/**
 * Appended when a port-call timer is due (departed → done after 180 minutes, force-depart after 30 days), so the
 * change happens without new traffic and a replay applies it at the same point of the stream.
 */
export interface PortCallTimersElapsed {
  imo: number;
}

/**
 * The port's Required Time of Arrival for a port call (POST /rta-web-form, the VIS bridge's vis-send-rta), with the
 * window around it; shown as the port call's synthetic Recommended timestamp. Who set it is the event's actor,
 * when, its time.
 */
export interface PortCallRtaSet {
  port_call_id: number;
  /** UTC, `YYYY-MM-DDThh:mm:ss+00:00`. */
  rta: string;
  eta_min: string | null;
  eta_max: string | null;
}

/**
 * POST /agent/rest/live-eta: a data source's live ETA for the vessel's first port call not done (by current ETA);
 * the JIT queue compares it with the slot request's JIT ETA (`slot_reservation_id`, the port call's, or null).
 */
export interface PortCallLiveEtaSet {
  port_call_id: number;
  /** UTC, `YYYY-MM-DDThh:mm:ss+00:00`. */
  live_eta: string;
  payload: Record<string, unknown>;
  slot_reservation_id: number | null;
}

export interface VesselEvents {
  VesselRegistered: VesselRegistered;
  VesselRenamed: VesselRenamed;
  VesselTypeSet: VesselTypeSet;
  TimestampReceived: TimestampReceived;
  TimestampDeleted: TimestampDeleted;
  TimestampRestored: TimestampRestored;
  PortCallForceClosed: PortCallForceClosed;
  PortCallForceScanned: PortCallForceScanned;
  PortCallRangeSet: PortCallRangeSet;
  TimestampPortCallSet: TimestampPortCallSet;
  TimestampPortCallUnset: TimestampPortCallUnset;
  OrphanTimestampsAttachRequested: OrphanTimestampsAttachRequested;
  VesselVisibilitySet: VesselVisibilitySet;
  PortCallTimersElapsed: PortCallTimersElapsed;
  PortCallRtaSet: PortCallRtaSet;
  PortCallLiveEtaSet: PortCallLiveEtaSet;
}

export const vesselStream = (imo: number): string => `vessel-${imo}`;

// ---- the portcall-changes stream (owned by the portcall-projector): change signals ----

/**
 * A port call changed in the read models (created, re-scanned, closed, its timeline changed, or deleted: then
 * `deleted` is true). Appended in the same transaction as the read-model change, so none is lost; consumers (the
 * notifier) re-read the read models and may see a signal twice. Routing key `portcall.PortCallChanged`.
 */
export interface PortCallChanged {
  imo: number;
  port_call_id: number;
  deleted: boolean;
  /** The port call's status and master id after the change (absent when deleted, and in signals of earlier versions). */
  status?: string;
  master_id?: string | null;
  /**
   * The new timestamps this change placed on the port call, in stream order: the VESSEL push's news. Absent when
   * it placed none, and in signals of earlier versions (which appended each as its own TimestampPlaced event).
   */
  placed?: TimestampPlaced[];
}

/**
 * A new timestamp was placed on a port call by the projection (its TimestampReceived folded in, the timestamp on a
 * port call and not trashed), carried in the `placed` list of that port call's PortCallChanged, in the same
 * transaction as the read-model change. Earlier versions appended each as an event of its own, type
 * `TimestampPlaced` (routing key below): a log may still hold such events, and the notifier reads both.
 * `heaviest`: no other live timestamp of that port call with the same time type and state weighs more (under the
 * priorities of that moment). The notifier's VESSEL push reacts to it.
 */
export interface TimestampPlaced {
  imo: number;
  port_call_id: number;
  /** The timestamp's id (the global position of its TimestampReceived). */
  timestamp_id: number;
  time_type: string;
  state: string;
  /** UTC `YYYY-MM-DDThh:mm:ss+00:00`. */
  time: string;
  source: 'api_key' | 'manual';
  heaviest: boolean;
  vessel_name: string;
}

export interface PortCallEvents {
  PortCallChanged: PortCallChanged;
  TimestampPlaced: TimestampPlaced;
}

/** One stream for every signal: a projection batch appends its signals in one round trip. */
export const PORTCALL_CHANGES_STREAM = 'portcall-changes';
export const PORTCALL_CHANGED_ROUTING_KEY = 'portcall.PortCallChanged';
export const TIMESTAMP_PLACED_ROUTING_KEY = 'portcall.TimestampPlaced';

// ---- priorities-timestamps, priorities-payload-keys streams (owned by ingest): API-key weights ----

/** Every timestamp weight change is an event of this one stream (category `priorities`). */
export const TIMESTAMP_PRIORITIES_STREAM = 'priorities-timestamps';
/** Every payload-key weight change is an event of this one stream (category `priorities`). */
export const PAYLOAD_KEY_PRIORITIES_STREAM = 'priorities-payload-keys';

/** One API key's weight; higher wins. An ordered list [k1, k2, ... kN] gives k1 weight N, kN weight 1. */
export interface ApiKeyWeight {
  api_key_id: number;
  weight: number;
}

/**
 * POST /timestamp-api-key-weights: the complete weights of (time_type, state) from now on, highest first. It
 * replaces the previous ones; an empty list removes them all (the pair's timestamps are then refused from every
 * API key). Appended only when the weights change.
 */
export interface TimestampApiKeyWeightsSet {
  time_type: string;
  state: string;
  weights: ApiKeyWeight[];
}

/** POST /payload-key-api-key-weights: as TimestampApiKeyWeightsSet, for one payload key (never refuses posts). */
export interface PayloadKeyApiKeyWeightsSet {
  payload_key: string;
  weights: ApiKeyWeight[];
}

export interface PriorityEvents {
  TimestampApiKeyWeightsSet: TimestampApiKeyWeightsSet;
  PayloadKeyApiKeyWeightsSet: PayloadKeyApiKeyWeightsSet;
}
