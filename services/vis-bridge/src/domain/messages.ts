// What comes in over VIS (docs/domain.md#vis-and-other-ports): the checks and the original's messages for a VIS
// vessel, a text message, a voyage plan and a notification, and the events they are recorded as. Pure. Event
// ids derive from what was received, so the same post again (the agent's retry, a peer's redelivery) is stored
// once.

import {
  ApiError,
  type ReceiveVisMessageCommand,
  type ReceiveVisNotificationCommand,
  type ReceiveVisVoyagePlanCommand,
  type RecordVisVesselCommand,
  RTZ_STATES,
  type RtzState,
  toUtcTimestamp,
  type VisNotificationReceived,
  type VisTextMessageReceived,
  type VisVesselRecorded,
  type VisVoyagePlanReceived,
} from '@pcas/contracts';
import { nameBasedId } from './ids.ts';

/** The notification type that acknowledges a message as received by its addressee. */
export const ACKNOWLEDGEMENT_RECEIVED = 'ACKNOWLEDGEMENT_RECEIVED';

/** Longest id or name kept (the original had none; a bound keeps a malformed post from making huge rows). */
export const MAX_ID_LENGTH = 1024;

function requireText(name: string, value: string): string {
  if (value.trim() === '') throw ApiError.badRequest(`Missing ${name}`);
  if (value.length > MAX_ID_LENGTH) throw ApiError.badRequest(`Too long ${name}: at most ${MAX_ID_LENGTH}`);
  return value.trim();
}

/** A JSON text as posted (`payload`, `rtz_parse_results`): must parse to an object. */
export function parseJsonObject(name: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw ApiError.badRequest(`Invalid ${name}: not JSON`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw ApiError.badRequest(`Invalid ${name}: not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/** The STM message a payload carries (`stmMessage.message`), or undefined. */
export function stmMessageOf(payload: Record<string, unknown>): string | undefined {
  const stm = payload.stmMessage as Record<string, unknown> | undefined;
  const message = stm && typeof stm === 'object' ? stm.message : undefined;
  return typeof message === 'string' ? message : undefined;
}

export function readVisVessel(input: RecordVisVesselCommand): VisVesselRecorded {
  if (!Number.isSafeInteger(input.imo) || input.imo < 0) throw ApiError.badRequest(`Invalid IMO: ${input.imo}`);
  return {
    imo: input.imo,
    vessel_name: input.vessel_name.trim(),
    service_id: requireText('service_id', input.service_id),
    service_url: input.service_url.trim(),
  };
}

/**
 * The IMO a VIS vessel is recorded under (the original's rule for IMO 0): a given IMO stays; IMO 0 takes the IMO
 * already recorded for the same service id, else that of the vessel register's vessel of the same name (its
 * case-insensitive match, `namedImo`), else stays 0.
 */
export function resolveVisVesselImo(
  vessel: VisVesselRecorded,
  known: { current?: VisVesselRecorded; namedImo?: number },
): VisVesselRecorded {
  if (vessel.imo !== 0) return vessel;
  if (known.current && known.current.imo > 0) return { ...vessel, imo: known.current.imo };
  if (known.namedImo !== undefined && known.namedImo > 0) return { ...vessel, imo: known.namedImo };
  return vessel;
}

/** Whether resolveVisVesselImo may need the vessel register's vessel of the same name. */
export const needsImoByName = (vessel: VisVesselRecorded): boolean => vessel.imo === 0 && vessel.vessel_name !== '';

/** A VIS vessel's event: its id is of the whole record, so an unchanged one posted again stores nothing. */
export function decideVisVessel(
  vessel: VisVesselRecorded,
  current: VisVesselRecorded | undefined,
): { id: string; type: 'VisVesselRecorded'; data: VisVesselRecorded }[] {
  if (
    current &&
    current.imo === vessel.imo &&
    current.vessel_name === vessel.vessel_name &&
    current.service_url === vessel.service_url
  ) {
    return [];
  }
  return [{ id: nameBasedId(['VisVesselRecorded', vessel]), type: 'VisVesselRecorded', data: vessel }];
}

/** A received message's time (UTC), sender, addressee and id; the sender and id checked after the message's JSON. */
function messageAddress(input: ReceiveVisMessageCommand, time: string) {
  return {
    time,
    from_service_id: requireText('from_service_id', input.from_service_id),
    to_service_id: input.to_service_id.trim(),
    message_id: requireText('message_id', input.message_id),
  };
}

/** POST /agent/rest/vis-messages: a TXT message; `ack` when its acknowledgement arrived first. */
export function readTextMessage(input: ReceiveVisMessageCommand, acknowledged: boolean): VisTextMessageReceived {
  if (input.message_type !== 'TXT') {
    throw ApiError.badRequest(`Message type is not valid: ${input.message_type}. Should be: TXT`);
  }
  const time = toUtcTimestamp(input.time);
  parseJsonObject('payload', input.payload);
  return {
    ...messageAddress(input, time),
    message_type: 'TXT',
    payload: input.payload,
    ack: acknowledged,
  };
}

export function textMessageEventId(m: VisTextMessageReceived): string {
  return nameBasedId(['VisTextMessageReceived', m.message_id, m.from_service_id, m.time, m.payload]);
}

export function isRtzState(value: string): value is RtzState {
  return (RTZ_STATES as readonly string[]).includes(value);
}

/** POST /agent/rest/vis-voyage-plans: the original's check of the RTZ state, then the two JSON texts. */
export function readVoyagePlan(input: ReceiveVisVoyagePlanCommand, acknowledged: boolean): VisVoyagePlanReceived {
  if (!isRtzState(input.rtz_state)) {
    throw ApiError.badRequest(`RTZ state is not valid: ${input.rtz_state}. Should be one of: ${RTZ_STATES.join(', ')}`);
  }
  if (input.message_type !== 'RTZ') {
    throw ApiError.badRequest(`Message type is not valid: ${input.message_type}. Should be: RTZ`);
  }
  const time = toUtcTimestamp(input.time);
  parseJsonObject('rtz_parse_results', input.rtz_parse_results);
  parseJsonObject('payload', input.payload);
  return {
    ...messageAddress(input, time),
    message_type: 'RTZ',
    rtz_state: input.rtz_state,
    rtz_parse_results: input.rtz_parse_results,
    payload: input.payload,
    // As the original: only a plan this port sent with an RTA can have been acknowledged already.
    ack: input.rtz_state === 'RTA_SENT' && acknowledged,
  };
}

export function voyagePlanEventId(p: VisVoyagePlanReceived): string {
  return nameBasedId(['VisVoyagePlanReceived', p.message_id, p.from_service_id, p.time, p.rtz_state, p.payload]);
}

export function readNotification(input: ReceiveVisNotificationCommand): VisNotificationReceived {
  return {
    time: toUtcTimestamp(input.time),
    from_service_id: requireText('from_service_id', input.from_service_id),
    message_id: requireText('message_id', input.message_id),
    message_type: input.message_type.trim(),
    notification_type: input.notification_type.trim(),
    subject: input.subject,
    payload: input.payload,
  };
}

export function notificationEventId(n: VisNotificationReceived): string {
  return nameBasedId(['VisNotificationReceived', n]);
}

/** What an acknowledgement marks: a TXT message by id, or the newest RTA_SENT plan with the id; else nothing. */
export function acknowledges(n: VisNotificationReceived): 'TXT' | 'RTZ' | undefined {
  if (n.notification_type !== ACKNOWLEDGEMENT_RECEIVED) return undefined;
  return n.message_type === 'TXT' || n.message_type === 'RTZ' ? n.message_type : undefined;
}

/** The route name and ETA a voyage plan's parse results name (keys `route_name`, `eta`), when present. */
export function parseResultsOf(text: string): { route_name: string | null; eta: string | null } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { route_name: null, eta: null };
  }
  const o = (value ?? {}) as Record<string, unknown>;
  const s = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  return { route_name: s(o.route_name), eta: s(o.eta) };
}
