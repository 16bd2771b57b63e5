// The port-call record and a vessel's port-call state (docs/domain.md#the-port-call-record). Plain JSON
// data throughout, so an adapter can keep the state as one document per vessel and compare replays field by field.

import type { TimestampReceived } from '@pcas/contracts';

export type PortCallStatus = 'arriving' | 'at berth' | 'departing' | 'departed berth' | 'departed' | 'done';

export type NextEventTitle = 'ETA' | 'ETD' | 'ATD';

/** Who set the RTA and the window around it (the JIT queue, VIS); `rta` itself is on the port call. */
export interface RtaDetails {
  eta_min?: string | null;
  eta_max?: string | null;
  updated_at?: string | null;
  updated_by?: number | null;
}

/** One port call. Times are UTC `YYYY-MM-DDThh:mm:ss+00:00` strings or null. */
export interface PortCall {
  /** The id of the timestamp that opened it: stable across replays and unique across vessels. */
  id: number;
  imo: number;
  vessel_name: string | null;
  status: PortCallStatus;
  from_port: string | null;
  to_port: string | null;
  next_port: string | null;
  mmsi: number | null;
  call_sign: string | null;
  loa: number | null;
  beam: number | null;
  draft: number | null;
  net_weight: number | null;
  gross_weight: number | null;
  nationality: string | null;
  first_eta: string;
  first_etd: string | null;
  current_eta: string;
  current_etd: string | null;
  rta: string | null;
  rta_details: RtaDetails | null;
  /** Never set by any rule of the original; kept because the end-time fallbacks read it. */
  current_pta: string | null;
  current_ptd: string | null;
  ata: string | null;
  atd: string | null;
  is_vis: boolean;
  inbound_piloting_status: string | null;
  outbound_piloting_status: string | null;
  cargo_operations_status: string | null;
  next_event_title: NextEventTitle | null;
  next_event_ts: string | null;
  berth: string | null;
  eta_form_email: string | null;
  berth_name: string | null;
  live_eta: string | null;
  live_eta_details: Record<string, unknown> | null;
  voyage_plan_request: string | null;
  slot_reservation_id: number | null;
  slot_reservation_status: string | null;
  rta_window_start: string | null;
  rta_window_end: string | null;
  laytime: string | null;
  master_id: string | null;
  master_start: string | null;
  master_end: string | null;
  master_manual: boolean;
  /**
   * The original's `port_call_payload_key_weight` rows: per payload key, the weight of the source that last set
   * the field. Survives forced scans; weight 0 is never remembered.
   */
  payload_key_weights: Record<string, number>;
  /** Creation order within the vessel; the original's "by id" orders. */
  seq: number;
}

/** What a timestamp says, as received (`time` in UTC, `YYYY-MM-DDThh:mm:ss+00:00`). */
export type ReceivedTimestamp = Pick<
  TimestampReceived,
  'imo' | 'vessel_name' | 'time_type' | 'state' | 'time' | 'payload'
>;

/** A timestamp as the port-call rules see it: the received data plus its place in the port calls. */
export interface VesselTimestamp extends ReceivedTimestamp, Pick<TimestampReceived, 'source' | 'api_key_id'> {
  /** Global position of its TimestampReceived event (= the timestamp id everywhere). */
  id: number;
  /** `time` in epoch milliseconds. */
  time_ms: number;
  created_by: number | null;
  /** UTC `YYYY-MM-DDThh:mm:ss+00:00`, when it was received. */
  created_at: string;
  port_call_id: number | null;
  is_trash: boolean;
  /**
   * Why automatic attachment leaves it alone: `deleted` (DELETE /timestamps; the original removed the row, so it
   * is out of clustering and scans too) or `unset` (detached by hand). Cleared by a restore or a manual move.
   */
  hold: 'deleted' | 'unset' | null;
}

/** Everything the port-call rules know about one vessel: the fold's state. */
export interface VesselPortCalls {
  imo: number;
  /** POST /vessel-visibility. */
  visible: boolean;
  /** Global position of the last event folded in; older or equal ones are redeliveries and change nothing. */
  version: number;
  /** The fold's "now": the latest event time seen (UTC ISO), or null before the first event. */
  clock: string | null;
  /** Ascending id. */
  timestamps: VesselTimestamp[];
  /** Ascending seq (creation order). */
  port_calls: PortCall[];
  /** Next creation sequence number. */
  next_seq: number;
  /** Ids of deleted port calls: never given out again. */
  retired_port_call_ids: number[];
  /** The vessel's type (ingest's VesselTypeSet), named in the ship object; absent: never set (type 1). */
  vessel_type?: number;
}
