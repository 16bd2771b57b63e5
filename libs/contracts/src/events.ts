// Event types shared between services. An event's `type` is its name below; the routing key on the bus is
// `<stream category>.<type>` (e.g. `vessel.TimestampReceived`). Data is plain JSON, snake_case like the API.

/** Who caused a change: the acting user, and the API key when a data source posted it. */
export interface Actor {
  user_id: number | null;
  api_key_id: number | null;
}

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
}

export interface PortCallEvents {
  PortCallChanged: PortCallChanged;
}

/** One stream for every signal: a projection batch appends its signals in one round trip. */
export const PORTCALL_CHANGES_STREAM = 'portcall-changes';
export const PORTCALL_CHANGED_ROUTING_KEY = 'portcall.PortCallChanged';

// ---- gateway streams: user-<id>, apikey-<id> ----
// No gateway event carries a secret (password hash, API key, registration code): the relay publishes every event
// to the broker. The gateway keeps secrets in gateway.credentials, written in the event's transaction; events
// written before that are scrubbed at the gateway's start, and published without them meanwhile (legacy-secrets.ts).

export interface UserCreated {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  status: 'active' | 'api_user';
  registration_type: 'manual' | 'code' | 'codeless' | 'seed' | 'api_key';
  created_by: number | null;
  /** The registration code used (registration_type 'code'); absent or null otherwise. */
  registration_code_id?: number | null;
}

export interface ApiKeyCreated {
  id: number;
  name: string;
  bound_user_id: number;
  /**
   * The API-key permissions it holds; absent or null: all of them (a key created without a list, as the original
   * web UI creates them, and every key of an earlier version).
   */
  permissions?: string[] | null;
}

/** An administrator changed which API-key permissions a key holds (null: all of them). */
export interface ApiKeyPermissionsSet {
  id: number;
  permissions: string[] | null;
}

export interface ApiKeyEnabled {
  id: number;
}

export interface ApiKeyDisabled {
  id: number;
}

export const userStream = (id: number): string => `user-${id}`;
export const apiKeyStream = (id: number): string => `apikey-${id}`;

/**
 * Appended on every successful login; the user's last_login_* columns follow it, and its failed-login counters
 * reset: the account's, and those of the client at `remote_addr` (an IPv6 one by its /64), not other clients'.
 */
export interface UserLoggedIn {
  id: number;
  /** UTC ISO 8601. */
  last_login_time: string;
  /** What the original kept: HTTP_USER_AGENT, REMOTE_ADDR (the client's address), HTTP_X_FORWARDED_FOR. */
  last_login_data: { user_agent: string | null; remote_addr: string | null; x_forwarded_for: string | null };
}

/** The ClientTimeZone header named a different (valid IANA) zone than the one stored. */
export interface UserTimeZoneChanged {
  id: number;
  time_zone: string;
  previous_time_zone: string | null;
}

/** PUT /users/:id: the user's fields after the change (role is the role's name). */
export interface UserUpdated {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  previous_role: string;
}

/** The password was set (change-password or reset). Carries no hash, as no event does. */
export interface UserPasswordChanged {
  id: number;
  reason: 'change' | 'reset';
}

/**
 * A wrong password: the counters after it (suspend_start UTC ISO 8601 when this failure suspended). With `client`,
 * they are that client's counters for this account (docs/domain.md#login-suspension-and-lock); an event without it
 * (written before failures were counted per client) holds the account's own counters, which block every client.
 */
export interface UserLoginFailed {
  id: number;
  failed_logins: number;
  suspend_start: string | null;
  locked: boolean;
  /** The client's address (an IPv6 one's /64 network) whose failures these are. */
  client?: string;
}

/** POST /user-suspend {suspended: true}; suspend_start UTC ISO 8601. */
export interface UserSuspended {
  id: number;
  suspend_start: string;
}

/** POST /user-suspend {suspended: false}: ends every client's suspension too; the failed-login counters stay. */
export interface UserUnsuspended {
  id: number;
}

export interface UserLocked {
  id: number;
}

/** Unlocking also zeroes the failed-login counters (the account's and every client's) and ends a suspension. */
export interface UserUnlocked {
  id: number;
}

/**
 * DELETE /users/:id: the user is marked deleted and anonymised in every read model (e-mail `<id>@deleted`,
 * names and password emptied, role inactive_user). The event carries no personal data.
 */
export interface UserDeleted {
  id: number;
}

export interface UserEvents {
  UserCreated: UserCreated;
  UserLoggedIn: UserLoggedIn;
  UserTimeZoneChanged: UserTimeZoneChanged;
  UserUpdated: UserUpdated;
  UserPasswordChanged: UserPasswordChanged;
  UserLoginFailed: UserLoginFailed;
  UserSuspended: UserSuspended;
  UserUnsuspended: UserUnsuspended;
  UserLocked: UserLocked;
  UserUnlocked: UserUnlocked;
  UserDeleted: UserDeleted;
}

// ---- regcode-<id> streams (owned by the gateway): registration codes ----

export const registrationCodeStream = (id: number): string => `regcode-${id}`;

export interface RegistrationCodeCreated {
  id: number;
  role: string;
  description: string;
  enabled: boolean;
  created_by: number | null;
}

export interface RegistrationCodeUpdated {
  id: number;
  enabled: boolean;
  role: string;
}

export interface RegistrationCodeDeleted {
  id: number;
}

export interface RegistrationCodeEvents {
  RegistrationCodeCreated: RegistrationCodeCreated;
  RegistrationCodeUpdated: RegistrationCodeUpdated;
  RegistrationCodeDeleted: RegistrationCodeDeleted;
}

export interface ApiKeyEvents {
  ApiKeyCreated: ApiKeyCreated;
  ApiKeyEnabled: ApiKeyEnabled;
  ApiKeyDisabled: ApiKeyDisabled;
  ApiKeyPermissionsSet: ApiKeyPermissionsSet;
}

// ---- gateway streams: rolepermissions-<role>, setting-<name>, translations-<ns>-<lng>; pushtoken-<id> (notifier) ----

export const rolePermissionsStream = (role: string): string => `rolepermissions-${role}`;
export const settingStream = (name: string): string => `setting-${name}`;
/** Namespaces carry no '-', so the stream id names exactly one (namespace, language) pair. */
export const translationsStream = (namespace: string, language: string): string =>
  `translations-${namespace}-${language}`;
/** Owned by the notifier (it moved there from the gateway; the streams and their ids carry on). */
export const pushTokenStream = (id: number): string => `pushtoken-${id}`;

/** PUT /role-permissions/:role/:permission added a permission the role did not have. */
export interface RolePermissionGranted {
  role: string;
  permission: string;
}

/** DELETE /role-permissions/:role/:permission removed a permission the role had. */
export interface RolePermissionRevoked {
  role: string;
  permission: string;
}

export interface RolePermissionEvents {
  RolePermissionGranted: RolePermissionGranted;
  RolePermissionRevoked: RolePermissionRevoked;
}

/** PUT /settings/:name/:value. Appended even when the value stays, as the actor becomes the setting's modifier. */
export interface SettingChanged {
  name: string;
  value: string;
  previous_value: string;
}

export interface SettingEvents {
  SettingChanged: SettingChanged;
}

export interface TranslationEntry {
  key: string;
  value: string;
}

/** POST /translation/:ns/:lng: keys that had neither a stored nor a default text (i18next saveMissing). */
export interface TranslationsAdded {
  namespace: string;
  language: string;
  translations: TranslationEntry[];
}

/** PUT /translations/:ns/:lng: the entries whose stored text changed. */
export interface TranslationsUpdated {
  namespace: string;
  language: string;
  translations: TranslationEntry[];
}

/** POST /translations/:ns/:lng: the stored texts of the pair are exactly these now. */
export interface TranslationsReplaced {
  namespace: string;
  language: string;
  translations: TranslationEntry[];
}

export interface TranslationEvents {
  TranslationsAdded: TranslationsAdded;
  TranslationsUpdated: TranslationsUpdated;
  TranslationsReplaced: TranslationsReplaced;
}

/** A device's push token, one per (platform, installation_id); registering again moves it to the caller. */
/**
 * A device registered for pushes, or moved to another user, or given a new token. The token itself is not here:
 * anyone holding it can push to the device, and the log is published and kept forever; it lives in
 * notifier.push_tokens, written in this event's transaction.
 */
export interface PushTokenRegistered {
  id: number;
  user_id: number;
  platform: string;
  installation_id: string;
  /** The user the device was registered to before, if any. */
  previous_user_id: number | null;
}

/** The token is gone: the device unregistered (empty token) or the push service reported it stale. */
export interface PushTokenRemoved {
  id: number;
  user_id: number;
  platform: string;
  installation_id: string;
  reason: 'unregistered' | 'stale';
}

export interface PushTokenEvents {
  PushTokenRegistered: PushTokenRegistered;
  PushTokenRemoved: PushTokenRemoved;
}

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

// ---- notifier: pins-<userId> streams (a user's pinned vessels) ----

/**
 * PUT /pinned-vessel-ids: the user's whole list of pinned IMOs from now on, in the order given (the web UI shows
 * pinned vessels first, in this order); an empty list unpins all. Appended only when the list changes. Routing key
 * `pins.PinnedVesselsSet`; real time sends `portcalls-changed-<user_id>` for it.
 */
export interface PinnedVesselsSet {
  user_id: number;
  imos: number[];
}

export interface PinEvents {
  PinnedVesselsSet: PinnedVesselsSet;
}

export const pinsStream = (userId: number): string => `pins-${userId}`;
export const PINNED_VESSELS_SET_ROUTING_KEY = 'pins.PinnedVesselsSet';

// ---- notification-<id>, decision-<id> streams (owned by the notifier): notifications and decisions ----
// Ids come from sequences in schema `notifier`. A decision is created with its port_call_decision notification
// (carried by that NotificationCreated); what happens to it later is on its own stream. Times are UTC ISO 8601.

export const notificationStream = (id: number): string => `notification-${id}`;
export const decisionStream = (id: number): string => `decision-${id}`;

/** `port_call_decision_response` is made by the notifier when a decision item is answered; it cannot be posted. */
export type NotificationType = 'port' | 'ship' | 'port_call_decision' | 'port_call_decision_response';

export type DecisionResponseType = 'positive' | 'negative' | 'neutral';

/** The answers an item offers, by name (`{"Accept":{"type":"positive"},"Reject":{"type":"negative"}}`). */
export type DecisionResponseOptions = Record<string, { type: DecisionResponseType }>;

export interface DecisionItemCreated {
  id: number;
  label: string;
  response_options: DecisionResponseOptions;
}

export interface DecisionCreatedData {
  id: number;
  type: 'port_call_decision';
  port_call_master_id: string;
  /** One item per label, in the order given. */
  decision_items: DecisionItemCreated[];
}

/** POST /notifications, or a decision item's answer (then type port_call_decision_response, made by the notifier). */
export interface NotificationCreated {
  id: number;
  type: NotificationType;
  message: string;
  ship_imo: number | null;
  parent_notification_id: number | null;
  created_at: string;
  created_by: number | null;
  /** The decision created with a port_call_decision notification (status open); null otherwise. */
  decision: DecisionCreatedData | null;
}

/** DELETE /notifications/:id: its replies and its decision go with it. */
export interface NotificationDeleted {
  id: number;
  children_ids: number[];
  decision_id: number | null;
}

export interface NotificationEvents {
  NotificationCreated: NotificationCreated;
  NotificationDeleted: NotificationDeleted;
}

/** POST /decision-item-response: the item's answer (null name and type: cleared); the reply is a new notification. */
export interface DecisionItemAnswered {
  decision_id: number;
  item_id: number;
  response_name: string | null;
  response_type: DecisionResponseType | null;
  /** The port_call_decision_response notification created with it (its own NotificationCreated). */
  response_notification_id: number;
}

/** Closed by a user (POST /close-decision) or because its port call became done. */
export interface DecisionClosed {
  decision_id: number;
  notification_id: number;
  port_call_master_id: string;
  reason: 'user' | 'port_call_done';
}

/** DELETE /decisions: the decision and its items; its notification stays (with no decision). */
export interface DecisionDeleted {
  decision_id: number;
  notification_id: number;
}

export interface DecisionEvents {
  DecisionItemAnswered: DecisionItemAnswered;
  DecisionClosed: DecisionClosed;
  DecisionDeleted: DecisionDeleted;
}

// ---- logistics-<checkpoint> streams (owned by logistics): truck gate passages ----

/** One stream per gate checkpoint (category `logistics`): the passages recorded there, in order. */
export const logisticsStream = (checkpoint: string): string => `logistics-${checkpoint}`;
export const GATE_PASSAGE_RECORDED_ROUTING_KEY = 'logistics.GatePassageRecorded';

export interface LicensePlate {
  number: string;
  nationality: string;
}

export interface GateContainer {
  identification: string;
}

/**
 * POST /agent/rest/logistics-timestamps: a truck passed a gate checkpoint. Its id derives from (time, checkpoint,
 * direction, payload), so the same passage posted again is stored once. Real time sends `logistics-changed` for it.
 */
export interface GatePassageRecorded {
  /** UTC, `YYYY-MM-DDThh:mm:ss+00:00` */
  time: string;
  checkpoint: string;
  direction: 'In' | 'Out';
  external_id: number;
  front_license_plates: LicensePlate[];
  rear_license_plates: LicensePlate[];
  containers: GateContainer[];
  /** The API key's user, and the key. */
  user_id: number | null;
  api_key_id: number | null;
}

export interface LogisticsEvents {
  GatePassageRecorded: GatePassageRecorded;
}
