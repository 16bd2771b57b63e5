// Commands the gateway sends to the owning service over RPC (queue `cmd.<service>`). A reply is either
// `{ ok: true, result }` or `{ ok: false, status, error }`; the messaging lib turns the latter back into an
// ApiError so the gateway answers with the original's status and message.

import type { Actor } from './events.ts';

/** What the gateway sends as the RPC payload: the validated input and who is acting. */
export interface CommandBody<P = unknown> {
  actor: Actor;
  input: P;
}

export type RpcReply<R = unknown> = { ok: true; result: R } | { ok: false; status: number; error: string };

/** One item's reply inside a batch command's reply: the same shape as a whole RPC's. */
export type ItemReply<R = unknown> = RpcReply<R>;

export const INGEST = 'ingest';
export const PORTCALL_PROJECTOR = 'portcall-projector';
export const NOTIFIER = 'notifier';
export const LOGISTICS = 'logistics';

/** Raw timestamp as posted (already parameter-checked by the gateway: types only). */
export interface PostTimestampCommand {
  imo: unknown;
  vessel_name: unknown;
  time_type: unknown;
  state: unknown;
  time: unknown;
  payload: unknown;
  /** true for POST /timestamps (people), false for POST /agent/rest/timestamps (data sources) */
  manual: boolean;
}

/**
 * Many commands of one kind in one RPC (the gateway gathers concurrent ones): each item carries its own actor and
 * trace headers and gets its own ItemReply, in item order.
 */
export interface BatchCommand<P> {
  items: { body: CommandBody<P>; headers?: Record<string, string> }[];
}

/** Many timestamp posts in one RPC. */
export type PostTimestampsCommand = BatchCommand<PostTimestampCommand>;

/** The most posts one postTimestamps command may carry. */
export const MAX_TIMESTAMP_BATCH = 256;

export interface TimestampIdCommand {
  id: number;
}

/** Ordered API key ids, highest priority first (already checked by the gateway: distinct, existing keys). */
export interface SetTimestampApiKeyWeightsCommand {
  time_type: string;
  state: string;
  api_key_ids: number[];
}

export interface SetPayloadKeyApiKeyWeightsCommand {
  payload_key: string;
  api_key_ids: number[];
}

/**
 * PUT /vessel {id, vesselType} (an operator; `id` the vessel's row id) or POST /agent/rest/vessel-type {imo,
 * vessel_type} (a data source): exactly one of `id` and `imo`. Values checked by ingest. Replies `{result: 'OK'}`.
 */
export interface SetVesselTypeCommand {
  id?: number;
  imo?: number;
  vessel_type: unknown;
}

export const IngestCommands = {
  postTimestamp: 'postTimestamp',
  postTimestamps: 'postTimestamps',
  deleteTimestamp: 'deleteTimestamp',
  restoreTimestamp: 'restoreTimestamp',
  setTimestampApiKeyWeights: 'setTimestampApiKeyWeights',
  setPayloadKeyApiKeyWeights: 'setPayloadKeyApiKeyWeights',
  setVesselType: 'setVesselType',
} as const;

// ---- cmd.portcall-projector: manual port-call corrections (docs/domain.md#corrections) ----
// Inputs as the routes receive them (types checked by the gateway, values by the service: unknown ids, bad times
// → 400 with the original's messages). Each correction is appended to the vessel's stream, so a replay repeats it.

/** GET /force-close-port-call, GET /force-scan-port-call, GET /port-call-range. */
export interface PortCallIdCommand {
  port_call_id: number;
}

/** POST /port-call-range: strict ISO times (`2020-02-23T20:15:00+00:00`). Replies null, as the original. */
export interface SetPortCallRangeCommand {
  port_call_id: number;
  start: string;
  end: string;
}

/** GET /port-call-range's reply; times in PostgreSQL text form (`2020-02-23 20:15:00+00`), null when unset. */
export interface PortCallRangeReply {
  port_call_id: number;
  start: string | null;
  end: string | null;
  master_id: string | null;
  master_manual: boolean;
}

/** POST /update-port-call-id {id, portCallId}. */
export interface UpdatePortCallIdCommand {
  id: number;
  portCallId: number;
}

/** POST /unset-port-call-id {id}. */
export interface UnsetPortCallIdCommand {
  id: number;
}

/** GET /timestamps-to-port-calls. */
export interface AttachOrphansCommand {
  imo: number;
  isFromAgent?: boolean;
  ignoreStatus?: boolean;
}

/** POST /vessel-visibility. */
export interface SetVesselVisibilityCommand {
  imo: number;
  visible: boolean;
}

/** GET /rebuild-port-calls: the vessel's port calls replayed from its stream. */
export interface RebuildVesselCommand {
  imo: number;
}

/**
 * The port's RTA for a port call (POST /rta-web-form, the VIS bridge's vis-send-rta): `port_call_id` names it
 * (it must be the IMO's), else the IMO's first port call not done by current ETA. Times ISO 8601 with an offset;
 * `eta_min` / `eta_max` optional. Replies `{result: 'OK', port_call_id}`; 400 `Cannot set RTA for imo: X`.
 */
export interface SetPortCallRtaCommand {
  imo: number;
  port_call_id?: number | null;
  rta: string;
  eta_min?: string | null;
  eta_max?: string | null;
}

/**
 * POST /agent/rest/live-eta: the live ETA of the IMO's first port call not done (by current ETA). Replies
 * `{result: 'OK'}`; 400 `Cannot set live eta for imo: X` (no such port call), `Invalid time: X`.
 */
export interface SetLiveEtaCommand {
  imo: number;
  time: string;
  payload: unknown;
}

/** Every command but getPortCallRange and setPortCallRange replies `{result: 'OK'}`. */
export const PortcallCommands = {
  forceClose: 'forceClose',
  forceScan: 'forceScan',
  setPortCallRange: 'setPortCallRange',
  getPortCallRange: 'getPortCallRange',
  updatePortCallId: 'updatePortCallId',
  unsetPortCallId: 'unsetPortCallId',
  attachOrphans: 'attachOrphans',
  setVesselVisibility: 'setVesselVisibility',
  rebuildVessel: 'rebuildVessel',
  /** SetPortCallRtaCommand: the port call's `rta` and `rta_details` (RTA web form, VIS). */
  setPortCallRta: 'setPortCallRta',
  /** SetLiveEtaCommand: the port call's `live_eta` and `live_eta_details`. */
  setLiveEta: 'setLiveEta',
} as const;

/** PortcallQueries.masterPortCall: the port call a decision's master id names (the newest, should several). */
export interface MasterPortCallQuery {
  master_id: string;
}

/** The port call's vessel and status, or null when no port call carries the master id. */
export type MasterPortCallReply = { imo: number; status: string } | null;

/** Read-only queries the portcall-projector answers on its RPC queue, besides its commands. */
export const PortcallQueries = {
  /** VesselPortCallsQuery → VesselPortCall[]: the queue's RTA form and live ETA alert read a vessel's port calls. */
  vesselPortCalls: 'vesselPortCalls',
  /** MasterPortCallQuery → MasterPortCallReply: the notifier checks a decision's master id. */
  masterPortCall: 'masterPortCall',
} as const;

export interface VesselPortCallsQuery {
  imo: number;
}

/** A vessel's port call as the queue reads it; the list is by current ETA, then id. */
export interface VesselPortCall {
  id: number;
  imo: number;
  status: string;
  vessel_name: string | null;
  loa: number | null;
  beam: number | null;
  draft: number | null;
  berth: string | null;
  eta_form_email: string | null;
  live_eta: string | null;
}

// ---- cmd.queue-scheduler: the vessel-facing side (docs/domain.md#queue-e-mails-and-live-eta). The queue's own
// commands are in queue.ts. ----

/** POST /rta-web-form (types checked by the gateway). Replies `{result: 'OK'}`. */
export interface SendRtaWebFormCommand {
  port_call_id?: number | null;
  port: string;
  imo: number;
  rta: string;
  eta_min: string;
  eta_max: string;
}

export const QueueLinkCommands = {
  sendRtaWebForm: 'sendRtaWebForm',
} as const;

/**
 * The `aud` claim of the queue's signed links, naming their kind: the queue-scheduler signs them, the gateway takes a
 * link only on the form of its kind (services/gateway/src/adapters/eta-form-links.ts).
 */
export const LinkAudience = {
  /** A slot request's JIT ETA form link (with a `jti`, the link's id: only the newest mailed one allows changes). */
  etaForm: 'pcas:jit-eta-form',
  /** The RTA web form link. */
  rtaForm: 'pcas:rta-form',
} as const;

// ---- cmd.notifier: pinned vessels ----

/** PUT /pinned-vessel-ids: the caller's whole list (values checked by the notifier). Replies the list as stored. */
export interface SetPinnedVesselsCommand {
  vessel_ids: unknown;
}

export const PinCommands = {
  setPinnedVessels: 'setPinnedVessels',
} as const;

// ---- cmd.notifier: push tokens (docs/domain.md#push-tokens) ----

/** POST /register-push-token: values checked by the notifier (an empty token unregisters the device). */
export interface RegisterPushTokenCommand {
  installation_id: unknown;
  platform: unknown;
  push_token: unknown;
}

/** POST /push-notification-tokens: tokens a push service found stale. */
export interface RemoveStalePushTokensCommand {
  tokens: unknown;
}

/** registerPushToken replies the device's id (0: an empty token named no device); removeStalePushTokens null. */
export const PushTokenCommands = {
  registerPushToken: 'registerPushToken',
  removeStalePushTokens: 'removeStalePushTokens',
} as const;

// ---- cmd.notifier: notifications and decisions (docs/domain.md#notifications-and-decisions) ----
// Inputs as the routes receive them (types checked by the gateway; values and the original's messages by the
// notifier).

/** POST /notifications. */
export interface CreateNotificationCommand {
  type?: string;
  message?: string;
  ship_imo?: string;
  port_call_master_id?: string;
  decisions?: unknown[];
  parent_id?: number;
}

/** DELETE /notifications/:id, POST /close-decision, DELETE /decisions. */
export interface NotifierIdCommand {
  id: number;
}

/** POST /decision-item-response: `response` '' clears the answer. */
export interface AnswerDecisionItemCommand {
  id: number;
  response: string;
}

/** createNotification replies the created notification object; the others `{result: 'OK'}`. */
export const NotificationCommands = {
  createNotification: 'createNotification',
  deleteNotification: 'deleteNotification',
  answerDecisionItem: 'answerDecisionItem',
  closeDecision: 'closeDecision',
  deleteDecision: 'deleteDecision',
} as const;

// ---- cmd.logistics: truck gate passages (POST /agent/rest/logistics-timestamps) ----

/** As posted (types checked by the gateway); the values and the original's messages are the logistics service's. */
export interface RecordGatePassageCommand {
  time: string;
  external_id: number;
  checkpoint: string;
  direction: string;
  front_license_plates: unknown[];
  rear_license_plates: unknown[];
  containers: unknown[];
}

/** recordGatePassage replies `{result: 'OK'}`, a duplicate too. */
export const LogisticsCommands = {
  recordGatePassage: 'recordGatePassage',
} as const;
