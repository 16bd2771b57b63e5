// Events of the logistics streams. Re-exported by events.ts, which says how events are named.

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
