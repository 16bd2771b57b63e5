// What the STM/VIS views share: the API's paths and rows (the vis-bridge's lists, see docs/web-ui.md#stm--vis), the
// RTZ states in words, and the checks a form makes before asking the API.

import { isUnLocode } from '@pcas/values';
import { normaliseTime } from '../../components/time.ts';

export const VIS_MODULE = 'vis_module';
/** Anything these views list changed (ours; the original had no VIS channel): `[]`, refetch. */
export const VIS_CHANNEL = 'vis-changed';

export const PATHS = {
  vessels: 'vis-vessels',
  textMessages: 'vis-text-messages',
  textMessagesWithImo: 'vis-text-messages-with-imo',
  voyagePlans: 'vis-voyage-plans',
  notifications: 'vis-notifications',
  inboundVessels: 'inbound-vessels',
  ports: 'ports',
  whitelistIn: 'port-whitelist-in',
  whitelistOut: 'port-whitelist-out',
  services: 'vis-services',
  poll: 'vis-service-poll',
  configuration: 'vis-configuration',
  sendRta: 'vis-send-rta',
} as const;

export const PERMISSIONS = {
  view: 'view_vis_information',
  sendText: 'send_vis_text_message',
  sendRta: 'send_vis_rta',
  managePorts: 'manage_port',
  inbound: 'basic_user_action',
} as const;

/** A row of GET /vis-vessels. */
export interface VisVesselRow {
  id: number;
  imo: number;
  vessel_name: string;
  service_id: string;
  service_url: string;
}

/** What a text message and a voyage plan row share: which message passed when, from which service to which. */
export interface VisMessageRow {
  id: number;
  time: string;
  from_service_id: string;
  to_service_id: string;
  from_name?: string | null;
  to_name?: string | null;
  message_id: string;
}

/** A row of GET /vis-text-messages. */
export interface TextMessageRow extends VisMessageRow {
  author?: string | null;
  subject?: string | null;
  body?: string | null;
  ack: boolean;
  operational_ack?: boolean | null;
}

/** A row of GET /vis-voyage-plans. */
export interface VoyagePlanRow extends VisMessageRow {
  rtz_state_name?: string | null;
  route_name?: string | null;
  eta?: string | null;
  rta?: string | null;
  eta_min?: string | null;
  eta_max?: string | null;
  rtz?: string | null;
  ack: boolean;
  operational_ack?: boolean | null;
}

/** A row of GET /vis-notifications. */
export interface VisNotificationRow {
  id: number;
  time: string;
  from_service_id: string;
  from_name?: string | null;
  message_id: string;
  message_type: string;
  notification_type: string;
  subject: string;
}

/** A row of GET /inbound-vessels. */
export interface InboundVesselRow {
  id: number;
  time: string;
  imo: number;
  vessel_name: string;
  from_service_id: string;
  from_service_name?: string | null;
}

/** A row of GET /ports. */
export interface PortRow {
  id: number;
  name: string;
  service_id: string;
  locodes: string[] | null;
  whitelist_in: boolean;
  whitelist_out: boolean;
}

/** The RTZ states of a received voyage plan (what the route says about our synchronisation point), in words. */
export const RTZ_STATES: Readonly<Record<string, string>> = {
  CALCULATED_SCHEDULE_NOT_FOUND: 'No calculated schedule in the route',
  SYNC_WITH_ETA_FOUND: 'Waypoint near the port with an ETA',
  SYNC_WITHOUT_ETA_FOUND: 'Waypoint near the port without an ETA',
  SYNC_NOT_FOUND_CAN_BE_ADDED: 'No waypoint near the port; one can be added',
  SYNC_NOT_FOUND_CAN_NOT_BE_ADDED: 'No waypoint near the port; none can be added',
  RTA_SENT: 'RTA sent',
  PORT_TO_PORT: 'Port to port',
};

/** An RTZ state name in words; an unknown name as it is, spaced. */
export function rtzStateWords(name: string | null | undefined): string {
  if (!name) return '';
  return RTZ_STATES[name] ?? name.replaceAll('_', ' ').toLowerCase();
}

/** A service's name where the API knows it, else its id. */
export const serviceLabel = (name: string | null | undefined, id: string | null | undefined): string =>
  name?.trim() || id || '';

/** A UN/LOCODE: two letters of the country, three of the place (letters or digits 2-9). */
export function locodeProblem(code: string): string | null {
  return isUnLocode(code) ? null : 'A UN/LOCODE is five characters, e.g. FIRAU';
}

/** What the user typed as locodes, upper-cased, spaces and duplicates gone. */
export function cleanLocodes(typed: readonly string[]): string[] {
  return [...new Set(typed.map((code) => code.replace(/\s+/g, '').toUpperCase()).filter(Boolean))];
}

const MINUTE = 60_000;

/** The original's RTA window: 30 minutes either side of the RTA (as UTC text, the API's form). */
export function defaultWindow(rta: string): { eta_min: string; eta_max: string } | null {
  if (!rta) return null;
  const time = new Date(normaliseTime(rta)).getTime();
  if (Number.isNaN(time)) return null;
  const at = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
  return { eta_min: at(time - 30 * MINUTE), eta_max: at(time + 30 * MINUTE) };
}

/** What is wrong with an RTA and its window, before asking the API. */
export function rtaProblem(rta: string, etaMin: string, etaMax: string): string | null {
  if (!rta) return 'Give the recommended time of arrival';
  if (!etaMin || !etaMax) return 'Give the earliest and the latest time of arrival';
  const [at, min, max] = [rta, etaMin, etaMax].map((value) => new Date(normaliseTime(value)).getTime());
  if (min > at || at > max) return 'The RTA must lie between the earliest and the latest time';
  return null;
}

/** A service id as the user typed it in "Find service": an IMO when it is 7 digits, else a service id. */
export function findQuery(typed: string): { imo: number } | { service_id: string } | null {
  const value = typed.trim();
  if (value === '') return null;
  if (/^\d{7}$/.test(value)) return { imo: Number(value) };
  return { service_id: value };
}
