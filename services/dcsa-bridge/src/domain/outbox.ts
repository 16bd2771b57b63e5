// Sending to a partner (docs/dcsa.md#sending): what one of our times becomes at a partner (the port call, terminal
// call and service it needs there, created once, then the timestamp), and what a partner's answer means for the
// message at the head of its queue. Messages go one at a time in queue order, so a partner sees our times in the
// order they happened; a refused one is set aside (shown as refused) and the next goes. Pure.

import type { BackoffPolicy } from '@pcas/values';
import type { DcsaTime } from './mapping.ts';

export interface OutgoingMessage {
  /** The same source handled twice queues one message. */
  dedupe_key: string;
  method: 'PUT' | 'POST';
  /** The standard's path after the partner's base URL, e.g. `/v2/timestamps/<id>`. */
  path: string;
  body: Record<string, unknown>;
}

/** Where a time goes at the partner: ids that exist there (theirs), or ours to create first. */
export interface Placement {
  portCall: { id: string; create: boolean };
  terminalCall: { id: string; create: boolean };
  service: { id: string; create: boolean };
  /** The partner's latest timestamp on its service, which ours answers. */
  replyTo?: string;
}

export interface OurTime {
  imo: number;
  vessel_name: string;
  unLocationCode: string;
  dcsa: DcsaTime;
  timestampId: string;
  /** ISO 8601. */
  dateTime: string;
  remark?: string;
}

/** The messages for one of our times, in the order they must arrive. */
export function messagesFor(time: OurTime, placement: Placement): OutgoingMessage[] {
  const out: OutgoingMessage[] = [];
  const location = { UNLocationCode: time.unLocationCode };
  if (placement.portCall.create) {
    out.push({
      dedupe_key: `port-call:${placement.portCall.id}`,
      method: 'PUT',
      path: `/v2/port-calls/${placement.portCall.id}`,
      body: {
        portCallID: placement.portCall.id,
        UNLocationCode: time.unLocationCode,
        vessel: {
          vesselIMONumber: String(time.imo),
          ...(time.vessel_name.trim() !== '' ? { name: time.vessel_name.trim().slice(0, 50) } : {}),
        },
      },
    });
  }
  if (placement.terminalCall.create) {
    out.push({
      dedupe_key: `terminal-call:${placement.terminalCall.id}`,
      method: 'PUT',
      path: `/v2/terminal-calls/${placement.terminalCall.id}`,
      // Required by the standard; a port has no carrier service of its own (docs/dcsa.md#sending).
      body: {
        terminalCallID: placement.terminalCall.id,
        portCallID: placement.portCall.id,
        carrierServiceName: 'Port call',
        carrierServiceCode: 'PORT',
      },
    });
  }
  if (placement.service.create) {
    out.push({
      dedupe_key: `port-call-service:${placement.service.id}`,
      method: 'PUT',
      path: `/v2/port-call-services/${placement.service.id}`,
      body: {
        terminalCallID: placement.terminalCall.id,
        portCallServiceID: placement.service.id,
        portCallServiceType: time.dcsa.serviceType,
        portCallServiceEventTypeCode: time.dcsa.eventType,
        ...(time.dcsa.phase ? { portCallPhaseTypeCode: time.dcsa.phase } : {}),
        portCallServiceLocation: location,
      },
    });
  }
  out.push({
    dedupe_key: `timestamp:${time.timestampId}`,
    method: 'PUT',
    path: `/v2/timestamps/${time.timestampId}`,
    body: timestampBody(time, placement),
  });
  return out;
}

export function timestampBody(time: OurTime, placement: Placement): Record<string, unknown> {
  return {
    timestampID: time.timestampId,
    ...(placement.replyTo ? { replyToTimestampID: placement.replyTo } : {}),
    portCallServiceID: placement.service.id,
    classifierCode: time.dcsa.classifier,
    dateTime: time.dateTime,
    ...(time.remark ? { remark: time.remark.slice(0, 500) } : {}),
  };
}

/** What the partner's answer means for the message sent. */
export type SendOutcome = { kind: 'unreachable'; error: string } | { kind: 'answered'; status: number; body: string };

export type SendDecision =
  | { kind: 'delivered' }
  /** Refused for good: the partner will never take it as it is. */
  | { kind: 'refused'; error: string }
  | { kind: 'retry'; error: string };

// Worth another try: the partner is down, busy, not ready (its PUT of the object before may still be processing:
// the standard allows a 404 then), or not yet trusting our key.
const AGAIN = new Set([401, 403, 404, 408, 425, 429]);

export function decideSend(outcome: SendOutcome, attempts: number, maxAttempts: number): SendDecision {
  if (outcome.kind === 'unreachable') return { kind: 'retry', error: outcome.error };
  const { status } = outcome;
  if (status >= 200 && status < 300) return { kind: 'delivered' };
  const error = `${status} ${outcome.body.slice(0, 300)}`.trim();
  if ((AGAIN.has(status) || status >= 500) && attempts < maxAttempts) return { kind: 'retry', error };
  return { kind: 'refused', error };
}

/** Between attempts at a partner: retryDelayMs of @pcas/values, up to 30 s. */
export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 250, maxMs: 30_000 };
