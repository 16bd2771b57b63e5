// What the vessels and timestamps views read from the API, and how they read the parts that arrive in odd shapes:
// a timestamp's payload is JSON text (sometimes JSON text inside JSON text, as the VIS agent posts it), and
// `is_trash` is PostgreSQL's text boolean.

export interface Vessel {
  id: number;
  imo: number;
  vessel_name: string;
  visible: boolean;
  vessel_type: number;
}

/** A row of GET /vessel-types. */
export interface VesselTypeRow {
  id: number;
  name: string;
  sea_chart_marker_type_id?: number;
}

/**
 * The name of a vessel type id (`vessel_type` of a vessel) among GET /vessel-types' rows, or null when the list
 * has no such id (or has not arrived yet).
 */
export function vesselTypeName(types: readonly VesselTypeRow[] | undefined, id: unknown): string | null {
  const n = typeof id === 'string' && id.trim() !== '' ? Number(id) : id;
  return types?.find((type) => type.id === n)?.name ?? null;
}

export interface TimestampRow {
  id: number;
  port_call_id: number | null;
  imo: number;
  vessel_name: string;
  time_type: string;
  state: string;
  time: string;
  /** JSON text as stored. */
  payload: unknown;
  is_trash: unknown;
  weight?: number | null;
  created_by: number | null;
  /**
   * Who created it in words, as the port call's timesheet names its sources (a data source's API key name, else
   * the user's name), once GET timestamps sends it; until then the view falls back to the user's id.
   */
  created_by_name?: string | null;
  created_at: string | null;
  modified_by?: number | null;
  modified_at?: string | null;
}

/** True for `'t'`, `true`, `'true'`, 1: the original's raw model sends 't'/'f'. */
export function isTrashed(value: unknown): boolean {
  return value === true || value === 't' || value === 'true' || value === 1 || value === '1';
}

/** The vessel list's `visible` (a boolean, but read defensively: the original's PHP sent strings at times). */
export function isVisible(value: unknown): boolean {
  return !(value === false || value === 'f' || value === 'false' || value === 0 || value === '0');
}

/**
 * The payload as an object when it is one (or JSON text of one, at most twice encoded); otherwise the value
 * itself (a string that is not JSON stays the string). Never throws.
 */
export function parsePayload(value: unknown): unknown {
  let current = value;
  for (let depth = 0; depth < 2 && typeof current === 'string'; depth++) {
    const text = current.trim();
    if (!text) return null;
    try {
      current = JSON.parse(text);
    } catch {
      return current;
    }
  }
  return current;
}

/** A payload in one line for a table cell: `source: e2e · external_id: x-1`. Empty for none. */
export function payloadSummary(value: unknown, maxLength = 120): string {
  const payload = parsePayload(value);
  if (payload === null || payload === undefined) return '';
  let text: string;
  if (typeof payload === 'object' && !Array.isArray(payload)) {
    text = Object.entries(payload as Record<string, unknown>)
      .filter(([, item]) => item !== null && item !== undefined && item !== '')
      .map(([key, item]) => `${key}: ${typeof item === 'object' ? JSON.stringify(item) : String(item)}`)
      .join(' · ');
  } else {
    text = typeof payload === 'string' ? payload : JSON.stringify(payload);
  }
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

/** Where the timestamp came from, as its payload says (`source`), if it says. */
export function payloadSource(value: unknown): string {
  const payload = parsePayload(value);
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return '';
  const source = (payload as Record<string, unknown>).source;
  return typeof source === 'string' || typeof source === 'number' ? String(source) : '';
}

/** A timestamp as JSON for reading: its payload decoded, so it shows as an object instead of escaped text. */
export function readableJson(row: unknown): string {
  if (row && typeof row === 'object' && !Array.isArray(row) && 'payload' in row) {
    return JSON.stringify({ ...row, payload: parsePayload((row as { payload: unknown }).payload) }, null, 2);
  }
  return JSON.stringify(row, null, 2) ?? '';
}

/** An IMO from a path segment: seven digits, else null. */
export function imoOf(text: string | undefined): number | null {
  if (!text || !/^\d{7}$/.test(text)) return null;
  return Number(text);
}

// Colours that tell neighbouring port calls apart in the timestamp list (the rows are banded by port call).
const BANDS = ['blue', 'teal', 'grape', 'orange', 'cyan', 'pink', 'lime', 'indigo'] as const;

export function portCallColour(portCallId: number | null | undefined): string {
  if (portCallId === null || portCallId === undefined || !Number.isFinite(Number(portCallId))) return 'gray';
  return BANDS[Math.abs(Number(portCallId)) % BANDS.length];
}
