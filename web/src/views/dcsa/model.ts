// What the DCSA view reads and sends (docs/dcsa.md#the-web-ui): partners, their outbox, the DCSA timestamps of a
// vessel, and how a timestamp that came from DCSA is told on the timeline (its payload's `source`).

export const PATHS = {
  partners: 'dcsa-partners',
  outbox: 'dcsa-outbox',
  timestamps: 'dcsa-timestamps',
  plan: (id: string) => `dcsa-timestamps/${id}/plan`,
  retry: (id: number) => `dcsa-partners/${id}/retry`,
};

export interface PartnerRow {
  id: number;
  name: string;
  api_key_id: number;
  base_url: string;
  vessel_imos: number[];
  active: boolean;
  has_credentials: boolean;
  pending: number;
  refused: number;
  delivered: number;
}

export interface OutboxRow {
  id: number;
  partner_id: number;
  partner_name: string;
  method: string;
  path: string;
  status: 'pending' | 'refused' | 'delivered';
  attempts: number;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface DcsaTimestampRow {
  timestamp_id: string;
  direction: 'in' | 'out';
  classifier: 'EST' | 'REQ' | 'PLN' | 'ACT';
  date_time: string;
  imo: number | null;
  vessel_name: string | null;
  time_type: string | null;
  state: string | null;
  s211_status: 'posted' | 'refused' | 'dcsa_only';
  s211_error: string | null;
  service_type: string | null;
  event_type: string | null;
  cancelled: boolean | null;
  partner_name: string;
}

/** A timestamp of the activity timeline that a DCSA partner sent (or that answered one). */
export function isDcsaSourced(payload: unknown): boolean {
  let value = payload;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return false;
    }
  }
  return value !== null && typeof value === 'object' && (value as { source?: unknown }).source === 'dcsa';
}

/** Only a partner's requested or estimated time on an open service is answered with our plan. */
export const answerable = (row: DcsaTimestampRow): boolean =>
  row.direction === 'in' && (row.classifier === 'REQ' || row.classifier === 'EST') && row.cancelled !== true;

/** The IMO numbers as typed (commas or blanks between), or the first that is not one. */
export function parseImos(text: string): { imos: number[] } | { problem: string } {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  for (const part of parts) if (!/^\d{7}$/.test(part)) return { problem: part };
  return { imos: parts.map(Number) };
}
