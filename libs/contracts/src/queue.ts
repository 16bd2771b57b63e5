// ---- cmd.queue-scheduler: the just-in-time arrival queue (berths, nominations, berth reservations, slot
// requests, live ETA). Streams, events and commands of the queue-scheduler service (docs/domain.md#queue). ----

export const QUEUE_SCHEDULER = 'queue-scheduler';

// ---- Streams (owned by queue-scheduler). A berth's stream carries its calendar too: every reservation on it is
// decided against the berth's version, so two slot requests can never both take one gap. ----

export const berthStream = (id: number): string => `berth-${id}`;
export const nominationStream = (id: number): string => `nomination-${id}`;
export const slotRequestStream = (id: number): string => `slotrequest-${id}`;

/**
 * The queue's settings (docs/queue.md) and the values the gateway seeds them with: one definition for the gateway's
 * seed and the queue-scheduler's fallback while a setting has never been changed (its copy has no row then).
 */
export const QUEUE_SETTING_DEFAULTS = {
  queue_travel_duration_to_berth: 'PT30M',
  queue_rta_window_duration: 'PT30M',
  queue_laytime_buffer_duration: 'PT30M',
  queue_live_eta_alert_buffer_duration: 'PT1H',
  queue_live_eta_alert_delay_duration: 'PT2H',
  // Not the original's (it took any `\d+:\d\d`): the longest laytime any caller may give, so that a form link or an
  // API key cannot push the berth's following reservations forward without limit (docs/domain.md#queue).
  queue_max_laytime_duration: 'PT72H',
} as const;

/** The port operators' addresses the queue's alert mails go to (space or comma separated); seeded empty. */
export const PORT_OPERATOR_EMAILS_DEFAULT = '';

/** The settings the queue-scheduler keeps a copy of (its durations and the port operators' addresses). */
export const isQueueCopiedSetting = (name: string): boolean =>
  Object.hasOwn(QUEUE_SETTING_DEFAULTS, name) || name === 'port_operator_emails';

export const NOMINATION_STATUSES = ['open', 'reserved', 'expired'] as const;
export type NominationStatus = (typeof NOMINATION_STATUSES)[number];

export const BERTH_RESERVATION_TYPES = ['vessel_reserved', 'port_blocked'] as const;
export type BerthReservationType = (typeof BERTH_RESERVATION_TYPES)[number];

export const SLOT_REQUEST_STATUSES = [
  'requested',
  'no_nomination',
  'no_free_slot',
  'offered',
  'accepted',
  'updated',
  'cancelled_by_vessel',
  'cancelled_by_port',
  'completed',
] as const;
export type SlotRequestStatus = (typeof SLOT_REQUEST_STATUSES)[number];

/** Times in these events are UTC `YYYY-MM-DDThh:mm:ss+00:00`; durations ISO 8601 (`PT2H30M`). */
export interface BerthData {
  id: number;
  code: string;
  name: string;
  nominatable: boolean;
}

export interface BerthReservationData {
  id: number;
  berth_id: number;
  berth_reservation_type: BerthReservationType;
  reservation_start: string;
  reservation_end: string;
  slot_reservation_id: number | null;
}

/** berth-<id>: the berth and its calendar. */
export interface BerthEvents {
  BerthCreated: BerthData;
  BerthUpdated: BerthData;
  BerthDeleted: { id: number };
  BerthReservationMade: BerthReservationData;
  /** Moved by a port operator, a slot request's laytime or RTA change, or pushed forward by one before it. */
  BerthReservationMoved: { id: number; berth_id: number; reservation_start: string; reservation_end: string };
  BerthReservationRemoved: { id: number; berth_id: number };
}

export interface NominationData {
  id: number;
  company_name: string;
  email: string;
  imo: number;
  vessel_name: string;
  window_start: string;
  window_end: string;
  /** In priority order (first = priority 1). */
  berth_ids: number[];
  /** The consignee the nomination belongs to (its "own" scope). */
  created_by: number | null;
}

/** nomination-<id>. */
export interface NominationEvents {
  NominationCreated: NominationData;
  NominationUpdated: NominationData;
  NominationDeleted: { id: number };
  NominationReserved: { id: number; slot_reservation_id: number };
  NominationReopened: { id: number; slot_reservation_id: number };
  NominationExpired: { id: number };
}

/** A slot request's placement: what an offer, a resolve or a push forward decides. */
export interface SlotRequestPlacement {
  id: number;
  status: SlotRequestStatus;
  nomination_id: number | null;
  berth_id: number | null;
  berth_reservation_id: number | null;
  rta_window_start: string | null;
  rta_window_end: string | null;
}

export interface SlotRequestData extends SlotRequestPlacement {
  email: string;
  imo: number;
  vessel_name: string;
  loa: number;
  beam: number;
  draft: number;
  laytime: string;
  eta: string;
  jit_eta: string | null;
}

/** slotrequest-<id>: every decision on a slot request, so its history reads back and replays. */
export interface SlotRequestEvents {
  /** Created by the vessel (agent route) or the port; status requested/no_nomination/no_free_slot/offered. */
  SlotRequestReceived: SlotRequestData;
  /** A pending request (no_nomination/no_free_slot) placed again after a nomination or calendar change. */
  SlotRequestResolved: SlotRequestPlacement;
  /** The vessel's JIT ETA and laytime (accepted) or the port's change (updated). */
  SlotRequestUpdated: SlotRequestPlacement & { laytime: string; jit_eta: string };
  /** Pushed forward by an earlier reservation's longer laytime: new RTA window, JIT ETA not before it. */
  SlotRequestPushedForward: SlotRequestPlacement & { jit_eta: string | null };
  SlotRequestCancelled: { id: number; status: 'cancelled_by_vessel' | 'cancelled_by_port' };
  SlotRequestCompleted: { id: number };
}

export type BerthEvent = { [K in keyof BerthEvents]: { type: K; data: BerthEvents[K] } }[keyof BerthEvents];
export type NominationEvent = {
  [K in keyof NominationEvents]: { type: K; data: NominationEvents[K] };
}[keyof NominationEvents];
export type SlotRequestEvent = {
  [K in keyof SlotRequestEvents]: { type: K; data: SlotRequestEvents[K] };
}[keyof SlotRequestEvents];

// ---- Commands (inputs as the routes receive them: types checked by the gateway, values by the service) ----

export interface BerthInput {
  id?: number;
  code: string;
  name: string;
  nominatable: unknown;
}

export interface NominationInput {
  id?: number;
  company_name: string;
  email: string;
  imo: number;
  vessel_name: string;
  window_start?: string;
  window_end?: string;
  berth_ids?: unknown[];
  /** Create: whose nomination it is (the caller, or the consignee chosen by an operator). */
  owner_user_id?: number | null;
  /** Update/delete through the own-* routes: only the caller's nominations. */
  own?: boolean;
}

export interface BerthReservationInput {
  id?: number;
  berth_id?: number;
  berth_reservation_type?: string;
  reservation_start: string;
  reservation_end: string;
  slot_reservation_id?: number;
}

export interface SlotRequestInput {
  id?: number;
  email?: string;
  imo?: number;
  vessel_name?: string;
  loa?: unknown;
  beam?: unknown;
  draft?: unknown;
  /** `hh:mm` from a vessel (agent routes), ISO 8601 from the port. */
  laytime?: string;
  eta?: string;
  jit_eta?: string;
  rta_window_start?: string;
  /** true: the agent routes (the vessel); laytime as `hh:mm`. */
  agent: boolean;
}

export interface CancelSlotRequestInput {
  id: number;
  by_vessel: boolean;
}

export interface IdInput {
  id: number;
}

/** Every command replies `{result: 'OK'}`. */
export const QueueCommands = {
  createBerth: 'createBerth',
  updateBerth: 'updateBerth',
  deleteBerth: 'deleteBerth',
  createNomination: 'createNomination',
  updateNomination: 'updateNomination',
  deleteNomination: 'deleteNomination',
  createBerthReservation: 'createBerthReservation',
  updateBerthReservation: 'updateBerthReservation',
  deleteBerthReservation: 'deleteBerthReservation',
  createSlotRequest: 'createSlotRequest',
  updateSlotRequest: 'updateSlotRequest',
  cancelSlotRequest: 'cancelSlotRequest',
  /** `{name}`: a setting the gateway changed, copied by the queue from the log at once (docs/queue.md). */
  copyPortSetting: 'copyPortSetting',
} as const;
