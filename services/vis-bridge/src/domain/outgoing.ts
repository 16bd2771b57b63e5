// What this port sends over VIS (docs/domain.md#vis-and-other-ports): the automatic "Route inconsistent" reply
// and "Share voyage plan request", the checks of a user's text message and RTA, and the departure notices to the
// next port's services. Pure: the texts are the original's (@pcas/stm).

import type { VisConfig } from '@pcas/config';
import { ApiError, type LookedUpPortCall, type RtzState, type VisText } from '@pcas/contracts';
import {
  AUTOMATIC_AUTHOR,
  ROUTE_INCONSISTENT_SUBJECT,
  routeInconsistentBody,
  VOYAGE_PLAN_REQUEST_SUBJECT,
  voyagePlanRequestBody,
} from '@pcas/stm';

/** How the port names itself and where its synchronisation point is (the VIS variables, libs/config). */
export type VisPortSettings = Pick<
  VisConfig,
  'portName' | 'portUnlocode' | 'rtaPointLocationName' | 'syncPointLat' | 'syncPointLon' | 'syncPointRadius'
>;

/** The synchronisation point as the original wrote a text message's area (a Circle element, as text). */
export function syncPointArea(s: VisPortSettings): string {
  return `<Circle><position lat="${s.syncPointLat}" lon="${s.syncPointLon}"/><radius>${s.syncPointRadius}</radius></Circle>`;
}

/**
 * A voyage plan whose schedule is missing, or without a waypoint near the port that could take one, gets the
 * original's "Route inconsistent" reply; any other state none.
 */
export function routeInconsistentReply(
  state: RtzState,
  messageId: string,
  routeName: string | null,
  s: VisPortSettings,
): VisText | undefined {
  const body = routeInconsistentBody(state, routeName ?? undefined, s.rtaPointLocationName);
  if (body === undefined) return undefined;
  return {
    author: AUTOMATIC_AUTHOR,
    subject: ROUTE_INCONSISTENT_SUBJECT,
    body,
    information_object_reference_id: messageId,
    information_object_reference_type: 'RTZ',
    area: syncPointArea(s),
  };
}

/** The request a VIS vessel gets once per port call, at its first ETA, unless it already shares its plan. */
export function voyagePlanRequest(s: VisPortSettings): VisText {
  return {
    author: AUTOMATIC_AUTHOR,
    subject: VOYAGE_PLAN_REQUEST_SUBJECT,
    body: voyagePlanRequestBody(s.portName, s.portUnlocode, s.rtaPointLocationName),
  };
}

/** What the port-call watch knows of one port call: the projector's lookup (libs/contracts/src/lookups.ts). */
export type WatchedPortCall = LookedUpPortCall;

export interface PortCallSent {
  voyage_plan_requested: boolean;
  /** The ETD last handled for the next port (ISO 8601 UTC), null before the first. */
  last_etd: string | null;
}

const CLOSED = new Set(['departed', 'done']);

/** Whether the voyage-plan request is due: an ETA, not asked before, and the port call still ahead. */
export function voyagePlanRequestDue(pc: WatchedPortCall, sent: PortCallSent): boolean {
  return pc.current_eta !== null && !sent.voyage_plan_requested && !CLOSED.has(pc.status);
}

/** Whether the ETD changed with a next port named, so the next port's services get the departure. */
export function departureDue(pc: WatchedPortCall, sent: PortCallSent): boolean {
  return (
    pc.current_etd !== null &&
    pc.current_etd !== sent.last_etd &&
    (pc.next_port ?? '').trim() !== '' &&
    pc.status !== 'done'
  );
}

/** A 7-digit IMO is shown to other ports; a made-up one (of a vessel without an IMO) is sent as 0. */
export function sharedImo(imo: number): number {
  return imo >= 1_000_000 && imo <= 9_999_999 ? imo : 0;
}

/** UN/LOCODE coordinates `DDMMN DDDMME` → decimal degrees (S and W negative); undefined when not in that form. */
export function parseLocodeCoordinates(text: string): { lat: number; lon: number } | undefined {
  const m = /^\s*(\d{2})(\d{2})([NS])\s+(\d{3})(\d{2})([EW])\s*$/.exec(text);
  if (!m) return undefined;
  const lat = (Number(m[1]) + Number(m[2]) / 60) * (m[3] === 'S' ? -1 : 1);
  const lon = (Number(m[4]) + Number(m[5]) / 60) * (m[6] === 'W' ? -1 : 1);
  return { lat: Math.round(lat * 10_000) / 10_000, lon: Math.round(lon * 10_000) / 10_000 };
}

// ---- ports and whitelists ----

export interface PortRow {
  name: string;
  service_id: string;
  whitelist_in: boolean;
  whitelist_out: boolean;
  locodes: string[];
}

/** POST /ports: `locodes` a list of texts; they are merged into the port's (kept in order, no repeats). */
export function readLocodes(value: unknown): string[] {
  const list = Array.isArray(value)
    ? value
    : value !== null && typeof value === 'object'
      ? Object.values(value)
      : undefined;
  if (!list || list.some((l) => typeof l !== 'string' || l.trim() === '' || l.length > 16)) {
    throw ApiError.badRequest('Invalid locodes: a list of UN/LOCODEs');
  }
  return list.map((l) => (l as string).trim().toUpperCase());
}

export function mergeLocodes(current: readonly string[], added: readonly string[]): string[] {
  return [...new Set([...current, ...added])];
}

/** The whitelist value: a JSON boolean only; anything else is the original's `{"result":"ERROR"}`. */
export function readWhitelist(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

/** POST /agent/rest/inbound-vessels: a port whose whitelist_in is off may not announce vessels. */
export function checkInboundAllowed(port: PortRow): void {
  if (!port.whitelist_in) {
    throw ApiError.badRequest(`Service ID is not whitelisted to post inbound vessel data: ${port.service_id}`);
  }
}

// ---- sending ----

export function requireServiceId(value: string): string {
  const id = value.trim();
  if (id === '') throw ApiError.badRequest(`VIS service ID not found: ${value}`);
  return id;
}

/** The RTA's times must be ISO 8601 with a zone, as the web UI sends them. */
export function readRtaTime(name: string, value: string): string {
  const t = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(t) || Number.isNaN(Date.parse(t))) {
    throw ApiError.badRequest(`Invalid ${name}: ${value}`);
  }
  return t;
}
