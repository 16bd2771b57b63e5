// What a partner's DCSA request does (docs/dcsa.md#receiving): the standard's conditions that its schema cannot
// say (ids matching the path, event types and classifiers per service type, omitted and cancelled objects), who
// may touch what, and the events a request appends. A request that changes nothing appends nothing, which is what
// makes a repeated PUT store nothing new. Pure: the caller loads the rows and appends what is decided.

import type { DcsaDetailedError, DcsaOutcome } from '@pcas/contracts';
import { canonicalJson } from '@pcas/values';
import { type Classifier, classifierAllowed, EVENT_TYPES_OF, isServiceType } from './mapping.ts';
import { ERROR_CODES } from './validation.ts';

export type Body = Record<string, unknown>;

/** What a partner sent, as stored (its read-model row and the version of its stream). */
export interface PortCallRow {
  port_call_id: string;
  partner_id: number;
  body: Body;
  omitted: boolean;
  version: number;
}
export interface TerminalCallRow {
  terminal_call_id: string;
  port_call_id: string;
  partner_id: number;
  body: Body;
  omitted: boolean;
  version: number;
}
export interface ServiceRow {
  service_id: string;
  terminal_call_id: string;
  port_call_id: string;
  partner_id: number;
  body: Body;
  cancelled: boolean;
  declined: boolean;
  version: number;
}
export interface TimestampRow {
  timestamp_id: string;
  service_id: string;
  partner_id: number;
  body: Body;
  version: number;
}

export interface DcsaEvent {
  type: string;
  data: Record<string, unknown>;
}

export interface Decision {
  outcome: DcsaOutcome;
  events: DcsaEvent[];
}

export const NO_CONTENT: DcsaOutcome = { status: 204 };
const accept = (...events: DcsaEvent[]): Decision => ({ outcome: NO_CONTENT, events });

export function refuse(
  status: 400 | 403 | 404 | 409,
  statusCodeMessage: string,
  error: Partial<DcsaDetailedError> & { errorCodeText: string; errorCodeMessage: string },
): Decision {
  const errorCode =
    error.errorCode ??
    (status === 404 ? ERROR_CODES.notFound : status === 409 ? ERROR_CODES.conflict : ERROR_CODES.invalidValue);
  return { outcome: { status, statusCodeMessage, errors: [{ ...error, errorCode }] }, events: [] };
}

const notFound = (what: string, idName: string, id: string): Decision =>
  refuse(404, `${idName} not found`, {
    errorCodeText: `${idName} Not Found`,
    errorCodeMessage: `The ${what} ${id} does not exist`,
  });

const conflict = (message: string, text: string): Decision =>
  refuse(409, message, { errorCodeText: text, errorCodeMessage: message });

/** 400: a top-level property of the body has a value the standard's rules do not allow here. */
const invalidValue = (
  property: string,
  value: string | undefined,
  statusCodeMessage: string,
  errorCodeMessage: string,
): Decision =>
  refuse(400, statusCodeMessage, {
    property,
    ...(value !== undefined ? { value } : {}),
    jsonPath: `$.${property}`,
    errorCodeText: 'invalid property value',
    errorCodeMessage,
  });

function idMismatch(property: string, pathId: string, body: Body): Decision | undefined {
  if (body[property] === pathId) return undefined;
  return invalidValue(
    property,
    String(body[property]),
    `${property} does not match the path`,
    `${property} must be the id in the path (${pathId})`,
  );
}

/** What is stored of a body: without isFYI (how it was addressed, not what it says) and the read-only flags. */
export function storedBody(body: Body, readOnly: readonly string[]): Body {
  const out: Body = {};
  for (const [key, value] of Object.entries(body)) if (key !== 'isFYI' && !readOnly.includes(key)) out[key] = value;
  return out;
}

const same = (a: Body | undefined, b: Body): boolean => a !== undefined && canonicalJson(a) === canonicalJson(b);

/**
 * A partner sees and changes what it sent, and anything of a port call it sent (a terminal's partner answering a
 * carrier's call on the carrier's port call does so with its own key on that call only if it sent it).
 */
export const visibleTo = (partnerId: number, row: { partner_id: number }, portCall?: { partner_id: number }) =>
  row.partner_id === partnerId || portCall?.partner_id === partnerId;

// ---- port calls ----

export function decidePutPortCall(
  partnerId: number,
  pathId: string,
  body: Body,
  current: PortCallRow | undefined,
): Decision {
  const mismatch = idMismatch('portCallID', pathId, body);
  if (mismatch) return mismatch;
  const vessel = (body.vessel ?? {}) as Body;
  if (vessel.vesselIMONumber === undefined && vessel.MMSINumber === undefined) {
    return refuse(400, 'vessel must name vesselIMONumber or MMSINumber', {
      errorCode: ERROR_CODES.missing,
      property: 'vesselIMONumber',
      jsonPath: '$.vessel.vesselIMONumber',
      errorCodeText: 'mandatory property missing',
      errorCodeMessage: 'One of vesselIMONumber or MMSINumber must be specified to identify the vessel',
    });
  }
  if (current && !visibleTo(partnerId, current)) return conflict('portCallID belongs to another partner', 'Not yours');
  if (current?.omitted)
    return conflict('Trying to update a Port Call that has been OMITTED', 'Updating OMITTED Port Call');
  const stored = storedBody(body, ['omitted']);
  if (same(current?.body, stored)) return accept();
  return accept({ type: 'DcsaPortCallReceived', data: { port_call_id: pathId, partner_id: partnerId, body: stored } });
}

export function decideOmitPortCall(partnerId: number, pathId: string, body: Body, current: PortCallRow | undefined) {
  if (!current || !visibleTo(partnerId, current)) return notFound('Port Call', 'portCallID', pathId);
  if (current.omitted) return accept();
  return accept({ type: 'DcsaPortCallOmitted', data: { port_call_id: pathId, reason: body.reason ?? null } });
}

// ---- terminal calls ----

export function decidePutTerminalCall(
  partnerId: number,
  pathId: string,
  body: Body,
  current: TerminalCallRow | undefined,
  portCall: PortCallRow | undefined,
): Decision {
  const mismatch = idMismatch('terminalCallID', pathId, body);
  if (mismatch) return mismatch;
  if (!portCall || !visibleTo(partnerId, portCall)) return notFound('Port Call', 'portCallID', String(body.portCallID));
  if (current && !visibleTo(partnerId, current, portCall)) {
    return conflict('terminalCallID belongs to another partner', 'Not yours');
  }
  if (portCall.omitted || current?.omitted) {
    return conflict('Trying to update a Terminal Call that has been OMITTED', 'Updating OMITTED Terminal Call');
  }
  const stored = storedBody(body, ['omitted']);
  if (same(current?.body, stored)) return accept();
  return accept({
    type: 'DcsaTerminalCallReceived',
    data: { terminal_call_id: pathId, port_call_id: portCall.port_call_id, partner_id: partnerId, body: stored },
  });
}

export function decideOmitTerminalCall(
  partnerId: number,
  pathId: string,
  body: Body,
  current: TerminalCallRow | undefined,
  portCall: PortCallRow | undefined,
) {
  if (!current || !visibleTo(partnerId, current, portCall)) return notFound('Terminal Call', 'terminalCallID', pathId);
  if (current.omitted) return accept();
  return accept({
    type: 'DcsaTerminalCallOmitted',
    data: { terminal_call_id: pathId, port_call_id: current.port_call_id, reason: body.reason ?? null },
  });
}

// ---- port call services ----

function serviceConditions(body: Body): Decision | undefined {
  const type = String(body.portCallServiceType);
  const event = String(body.portCallServiceEventTypeCode);
  if (isServiceType(type) && !EVENT_TYPES_OF[type].includes(event as never)) {
    return invalidValue(
      'portCallServiceEventTypeCode',
      event,
      `portCallServiceEventTypeCode ${event} cannot be used with ${type}`,
      `${type} takes ${EVENT_TYPES_OF[type].join(' or ')}`,
    );
  }
  if (body.moves !== undefined && type !== 'MOVES') {
    const message = 'moves can only be provided if portCallServiceType is MOVES';
    return invalidValue('moves', undefined, message, message);
  }
  return undefined;
}

export function decidePutService(
  partnerId: number,
  pathId: string,
  body: Body,
  current: ServiceRow | undefined,
  terminalCall: TerminalCallRow | undefined,
  portCall: PortCallRow | undefined,
): Decision {
  const mismatch = idMismatch('portCallServiceID', pathId, body) ?? serviceConditions(body);
  if (mismatch) return mismatch;
  if (!terminalCall || !visibleTo(partnerId, terminalCall, portCall)) {
    return notFound('Terminal Call', 'terminalCallID', String(body.terminalCallID));
  }
  if (current && !visibleTo(partnerId, current, portCall)) {
    return conflict('portCallServiceID belongs to another partner', 'Not yours');
  }
  if (terminalCall.omitted || portCall?.omitted) {
    return conflict(
      'Trying to link a Port Call Service to an OMITTED Terminal Call',
      'Linking to OMITTED Terminal Call',
    );
  }
  if (current?.cancelled || current?.declined) {
    const how = current.cancelled ? 'CANCELLED' : 'DECLINED';
    return conflict(`Trying to update a ${how} Port Call Service`, `Updating ${how} Port Call Service`);
  }
  const stored = storedBody(body, ['cancelled', 'declined']);
  if (same(current?.body, stored)) return accept();
  return accept({
    type: 'DcsaPortCallServiceReceived',
    data: {
      port_call_service_id: pathId,
      terminal_call_id: terminalCall.terminal_call_id,
      port_call_id: terminalCall.port_call_id,
      partner_id: partnerId,
      body: stored,
    },
  });
}

function decideEnd(
  kind: 'cancelled' | 'declined',
  partnerId: number,
  pathId: string,
  body: Body,
  current: ServiceRow | undefined,
  portCall: PortCallRow | undefined,
): Decision {
  if (!current || !visibleTo(partnerId, current, portCall)) {
    return notFound('Port Call Service', 'portCallServiceID', pathId);
  }
  if (current.cancelled || current.declined) return accept();
  return accept({
    type: kind === 'cancelled' ? 'DcsaPortCallServiceCancelled' : 'DcsaPortCallServiceDeclined',
    data: { port_call_service_id: pathId, port_call_id: current.port_call_id, reason: body.reason ?? null },
  });
}

export const decideCancelService = (p: number, id: string, b: Body, s?: ServiceRow, pc?: PortCallRow) =>
  decideEnd('cancelled', p, id, b, s, pc);
export const decideDeclineService = (p: number, id: string, b: Body, s?: ServiceRow, pc?: PortCallRow) =>
  decideEnd('declined', p, id, b, s, pc);

// ---- timestamps and vessel statuses ----

function usableService(
  partnerId: number,
  service: ServiceRow | undefined,
  portCall: PortCallRow | undefined,
  id: string,
) {
  if (!service || !visibleTo(partnerId, service, portCall)) {
    return notFound('Port Call Service', 'portCallServiceID', id);
  }
  if (service.cancelled || service.declined) {
    const how = service.cancelled ? 'CANCELLED' : 'DECLINED';
    return conflict(`Trying to link to a ${how} Port Call Service`, `Linking to a ${how} Port Call Service`);
  }
  return undefined;
}

export function decidePutTimestamp(
  partnerId: number,
  pathId: string,
  body: Body,
  current: TimestampRow | undefined,
  service: ServiceRow | undefined,
  portCall: PortCallRow | undefined,
  repliedTo: TimestampRow | undefined,
): Decision {
  const refused =
    idMismatch('timestampID', pathId, body) ??
    usableService(partnerId, service, portCall, String(body.portCallServiceID));
  if (refused) return refused;
  const type = String(service!.body.portCallServiceType);
  const classifier = body.classifierCode as Classifier;
  if (!classifierAllowed(type, classifier)) {
    return invalidValue(
      'classifierCode',
      classifier,
      `classifierCode ${classifier} cannot be used for ${type}`,
      type === 'MOVES' ? 'MOVES takes no timestamps' : `${type} takes only ACT (it has no E-R-P negotiation)`,
    );
  }
  if (body.portCallServiceLocation !== undefined && classifier !== 'REQ') {
    const message = 'portCallServiceLocation can only be used with classifierCode REQ';
    return invalidValue('portCallServiceLocation', undefined, message, message);
  }
  if (repliedTo && repliedTo.service_id !== service!.service_id) {
    return invalidValue(
      'replyToTimestampID',
      String(body.replyToTimestampID),
      'replyToTimestampID names a Timestamp of another Port Call Service',
      'Can only reply to a Timestamp with the same portCallServiceID',
    );
  }
  if (current && (current.partner_id !== partnerId || current.service_id !== service!.service_id)) {
    return conflict('timestampID is already used for another Timestamp', 'Timestamp exists');
  }
  const stored = storedBody(body, []);
  if (same(current?.body, stored)) return accept();
  return accept({
    type: 'DcsaTimestampReceived',
    data: {
      timestamp_id: pathId,
      port_call_service_id: service!.service_id,
      port_call_id: service!.port_call_id,
      partner_id: partnerId,
      body: stored,
    },
  });
}

export function decidePutVesselStatus(
  partnerId: number,
  pathId: string,
  body: Body,
  latest: Body | undefined,
  service: ServiceRow | undefined,
  portCall: PortCallRow | undefined,
): Decision {
  const refused = idMismatch('portCallServiceID', pathId, body) ?? usableService(partnerId, service, portCall, pathId);
  if (refused) return refused;
  const stored = storedBody(body, []);
  if (same(latest, stored)) return accept();
  return accept({
    type: 'DcsaVesselStatusReceived',
    data: { port_call_service_id: pathId, port_call_id: service!.port_call_id, partner_id: partnerId, body: stored },
  });
}
