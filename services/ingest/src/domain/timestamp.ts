// What a posted timestamp must look like and which events it produces (docs/domain.md#posting-a-timestamp;
// admission is domain/priorities.ts). Pure: the caller supplies the clock and the vessel as currently stored.

import {
  type Actor,
  ApiError,
  assertStorable,
  type PostTimestampCommand,
  type TimestampReceived,
  type VesselRegistered,
  type VesselRenamed,
} from '@pcas/contracts';
import { isStateName, isTimeTypeName, STATE_NAMES, TIME_TYPE_NAMES, type TimeTypeName } from '@pcas/s211';
import { canonicalJson } from '@pcas/values';
import { uuidV5 } from './event-id.ts';
import { assertValidImo } from './imo.ts';
import { formatUtc, parseAgentTime } from './time.ts';
import type { Vessel } from './vessel.ts';

/** "Actual" may lie this far in the future (clock skew between sources). */
export const ACTUAL_FUTURE_TOLERANCE_MS = 10 * 60_000;

export interface ValidTimestamp {
  /** 0 when the source does not know it; the vessel is then found (or created) by name. */
  imo: number;
  vessel_name: string;
  time_type: TimeTypeName;
  state: string;
  /** UTC, `YYYY-MM-DDThh:mm:ss+00:00` */
  time: string;
  payload: Record<string, unknown>;
}

const wrongType = (name: string, type: string, value: unknown) =>
  ApiError.badRequest(`Wrong parameter type: ${name} should be ${type} but got '${String(value)}'`);

function requireString(name: string, value: unknown): string {
  if (typeof value !== 'string') throw wrongType(name, 'string', value);
  return value;
}

/** An int as the original's router accepts it: a non-negative JSON integer, or a string of digits. */
function requireImo(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^[0-9]{1,15}$/.test(value)) return Number(value);
  throw wrongType('imo', 'int', value);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The payload as an object. Some agents (VIS) send it JSON-encoded; an empty list is PHP's empty array, which
 * the original accepted as an empty payload.
 */
export function parsePayload(value: unknown): Record<string, unknown> {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw ApiError.badRequest('Invalid payload');
    }
    // The HTTP kit checked the request's own strings; those inside this JSON text only exist from here on.
    assertStorable('payload', parsed);
  }
  if (Array.isArray(parsed) && parsed.length === 0) return {};
  if (!isPlainObject(parsed)) throw ApiError.badRequest('Invalid payload');
  return parsed;
}

/** Steps 2–4 of the original, in its order: time format, IMO / vessel name, time type, state, future Actual. */
export function validateTimestamp(input: PostTimestampCommand, now: Date): ValidTimestamp {
  const imo = requireImo(input.imo);
  const vesselName = requireString('vessel_name', input.vessel_name);
  const timeType = requireString('time_type', input.time_type);
  const state = requireString('state', input.state);
  const time = parseAgentTime(requireString('time', input.time));

  if (imo !== 0) assertValidImo(imo);
  else if (vesselName === '') throw ApiError.badRequest('IMO is 0 and vessel name is empty.');
  if (!isTimeTypeName(timeType)) {
    throw ApiError.badRequest(
      `Timestamp time type is not valid: ${timeType}. Should be one of: ${TIME_TYPE_NAMES.join(', ')}`,
    );
  }
  if (!isStateName(state)) {
    throw ApiError.badRequest(`Timestamp state is not valid: ${state}. Should be one of: ${STATE_NAMES.join(', ')}`);
  }
  // The original compares whole seconds on both sides.
  const nowSeconds = new Date(Math.floor(now.getTime() / 1000) * 1000);
  if (timeType === 'Actual' && time.getTime() - nowSeconds.getTime() > ACTUAL_FUTURE_TOLERANCE_MS) {
    throw ApiError.badRequest(
      `Time type is actual, but time is in future. Now: ${formatUtc(nowSeconds)}, Time: ${formatUtc(time)}`,
    );
  }
  const payload = parsePayload(input.payload);
  return { imo, vessel_name: vesselName, time_type: timeType, state, time: formatUtc(time), payload };
}

/** The fields the original's duplicate check compares; equal fields give the same event id. */
export function timestampEventId(
  t: Pick<TimestampReceived, 'imo' | 'vessel_name' | 'time_type' | 'state' | 'time' | 'payload'>,
): string {
  return uuidV5(
    canonicalJson({
      imo: t.imo,
      vessel_name: t.vessel_name,
      time_type: t.time_type,
      state: t.state,
      time: t.time,
      payload: t.payload,
    }),
  );
}

export type VesselStreamEvent =
  | { type: 'VesselRegistered'; data: VesselRegistered; id?: string }
  | { type: 'VesselRenamed'; data: VesselRenamed; id?: string }
  | { type: 'TimestampReceived'; data: TimestampReceived; id: string };

export interface PostTimestampContext {
  now: Date;
  actor: Actor;
  /** true for POST /timestamps (people), false for data sources posting with an API key. */
  manual: boolean;
  /** The vessel as stored now; for an IMO-0 post, the vessel found by name. */
  knownVessel?: Vessel;
  /** IMO-0 post and no vessel by that name: the fake IMO reserved for the vessel to register. */
  assignedImo?: number;
  /** The weight the post was admitted with (domain/priorities.ts admitTimestamp), recorded for information. */
  weight: number;
}

export interface PostTimestampDecision {
  imo: number;
  /** The vessel after these events. */
  vessel: Vessel;
  vesselChange: 'registered' | 'renamed' | 'none';
  /** To append to `vessel-<imo>` in this order; the TimestampReceived is last. */
  events: VesselStreamEvent[];
}

/** Validates a post and decides its events: the vessel's registration or rename, then the timestamp. */
export function decidePostTimestamp(input: PostTimestampCommand, context: PostTimestampContext): PostTimestampDecision {
  return decideTimestamp(validateTimestamp(input, context.now), context);
}

/**
 * decidePostTimestamp for a post validated already (validateTimestamp at `context.now`), so a post decided more
 * than once (a batch, a retry) is not validated, its time not parsed and formatted, again each time.
 */
export function decideTimestamp(ts: ValidTimestamp, context: PostTimestampContext): PostTimestampDecision {
  const { knownVessel } = context;
  const events: VesselStreamEvent[] = [];
  let vessel: Vessel;
  let vesselChange: PostTimestampDecision['vesselChange'] = 'none';

  if (ts.imo === 0) {
    // Found by name: the timestamp takes that vessel's IMO and stored name; nothing is renamed.
    if (knownVessel) vessel = knownVessel;
    else if (context.assignedImo !== undefined) {
      vessel = { imo: context.assignedImo, vessel_name: ts.vessel_name };
      vesselChange = 'registered';
      events.push({ type: 'VesselRegistered', data: { ...vessel } });
    } else throw new Error('IMO-0 timestamp needs the vessel found by name or an assigned fake IMO');
  } else if (!knownVessel) {
    vessel = { imo: ts.imo, vessel_name: ts.vessel_name };
    vesselChange = 'registered';
    events.push({ type: 'VesselRegistered', data: { ...vessel } });
  } else {
    if (knownVessel.imo !== ts.imo) throw new Error(`Known vessel ${knownVessel.imo} is not IMO ${ts.imo}`);
    vessel = knownVessel;
    if (ts.vessel_name !== '' && ts.vessel_name !== knownVessel.vessel_name) {
      vessel = { imo: ts.imo, vessel_name: ts.vessel_name };
      vesselChange = 'renamed';
      events.push({
        type: 'VesselRenamed',
        data: { imo: ts.imo, vessel_name: ts.vessel_name, previous_vessel_name: knownVessel.vessel_name },
      });
    }
  }

  const fields = {
    imo: vessel.imo,
    vessel_name: vessel.vessel_name,
    time_type: ts.time_type,
    state: ts.state,
    time: ts.time,
    payload: ts.payload,
  };
  // Written out rather than spread from `fields` (every post makes one), in the same key order.
  const data: TimestampReceived = {
    imo: fields.imo,
    vessel_name: fields.vessel_name,
    time_type: fields.time_type,
    state: fields.state,
    time: fields.time,
    payload: fields.payload,
    source: context.manual ? 'manual' : 'api_key',
    api_key_id: context.manual ? null : context.actor.api_key_id,
    user_id: context.actor.user_id,
    weight: context.weight,
  };
  events.push({ type: 'TimestampReceived', id: timestampEventId(fields), data });
  return { imo: vessel.imo, vessel, vesselChange, events };
}
