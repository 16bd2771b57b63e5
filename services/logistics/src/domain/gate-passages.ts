// Truck gate passages (docs/domain.md#gate-logistics): a gate system posts each truck passing a checkpoint. Pure:
// the original's checks and messages, the time in UTC, and the passage's event, whose id derives from what the
// original's duplicate check compares (time, checkpoint, direction, payload), so a passage posted again (a retry,
// a redelivery, two identical posts at once) is stored once.

import {
  ApiError,
  type GateContainer,
  type GatePassageRecorded,
  type LicensePlate,
  type RecordGatePassageCommand,
  toUtcTimestamp,
} from '@pcas/contracts';
import { nameUuid, uuidNamespace } from '@pcas/values/name-uuid';

export const DIRECTIONS = ['In', 'Out'] as const;

/** Bounds the original did not have, so a malformed post is a 400 rather than a huge row. */
export const MAX_ITEMS = 100;
export const MAX_VALUE_LENGTH = 255;

const PLATE_KEYS = ['number', 'nationality'] as const;
const CONTAINER_KEYS = ['identification'] as const;

/** A passage as checked: the time in UTC, plates and containers with exactly their keys, in a fixed key order. */
export type GatePassage = Omit<GatePassageRecorded, 'user_id' | 'api_key_id'>;

/**
 * Each item must be an object with exactly `keys`: missing keys first ("Missing parameter(s) from <list>: …"),
 * then unknown ones ("Invalid parameter(s) in <list>: …"), as the original; then each value must be text.
 */
function readItems<K extends string>(list: string, items: unknown[], keys: readonly K[]): Record<K, string>[] {
  if (items.length > MAX_ITEMS) throw ApiError.badRequest(`Too many items in ${list}: at most ${MAX_ITEMS}`);
  return items.map((item) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      throw ApiError.badRequest(`Missing parameter(s) from ${list}: ${keys.join(', ')}`);
    }
    const given = Object.keys(item);
    const missing = keys.filter((k) => !given.includes(k));
    if (missing.length > 0) throw ApiError.badRequest(`Missing parameter(s) from ${list}: ${missing.join(', ')}`);
    const extra = given.filter((k) => !(keys as readonly string[]).includes(k));
    if (extra.length > 0) throw ApiError.badRequest(`Invalid parameter(s) in ${list}: ${extra.join(', ')}`);
    const out = {} as Record<K, string>;
    for (const key of keys) {
      const value = (item as Record<string, unknown>)[key];
      if (typeof value !== 'string' || value.length > MAX_VALUE_LENGTH) {
        throw ApiError.badRequest(
          `Invalid parameter(s) in ${list}: ${key} must be text of at most ${MAX_VALUE_LENGTH}`,
        );
      }
      out[key] = value;
    }
    return out;
  });
}

/** The original's checks, in its order: direction, the time's format, then the plates and containers. */
export function readGatePassage(input: RecordGatePassageCommand): GatePassage {
  if (!(DIRECTIONS as readonly string[]).includes(input.direction)) {
    throw ApiError.badRequest(`Invalid direction value: ${input.direction}`);
  }
  const time = toUtcTimestamp(input.time);
  const front = readItems('front_license_plates', input.front_license_plates, PLATE_KEYS);
  const rear = readItems('rear_license_plates', input.rear_license_plates, PLATE_KEYS);
  const containers = readItems('containers', input.containers, CONTAINER_KEYS);
  const plate = (p: Record<'number' | 'nationality', string>): LicensePlate => ({
    number: p.number,
    nationality: p.nationality,
  });
  return {
    time,
    checkpoint: input.checkpoint,
    direction: input.direction as GatePassage['direction'],
    external_id: input.external_id,
    front_license_plates: front.map(plate),
    rear_license_plates: rear.map(plate),
    containers: containers.map((c): GateContainer => ({ identification: c.identification })),
  };
}

// Fixed namespace of the passages' name-based ids; changing it would break deduplication of old posts.
const NAMESPACE = uuidNamespace('b7c1e0a4f35d4e2a9c6b18d0e5a7f312');

/** RFC 4122 version-5 UUID of the fields the original's duplicate check compares (key order fixed above). */
export function gatePassageEventId(p: GatePassage): string {
  const name = JSON.stringify([
    p.time,
    p.checkpoint,
    p.direction,
    {
      external_id: p.external_id,
      front_license_plates: p.front_license_plates,
      rear_license_plates: p.rear_license_plates,
      containers: p.containers,
    },
  ]);
  return nameUuid(NAMESPACE, name);
}

/** The event a checked passage is recorded as, by whoever posted it. */
export function decideGatePassage(
  passage: GatePassage,
  actor: { user_id: number | null; api_key_id: number | null },
): { id: string; type: 'GatePassageRecorded'; data: GatePassageRecorded } {
  return {
    id: gatePassageEventId(passage),
    type: 'GatePassageRecorded',
    data: { ...passage, user_id: actor.user_id, api_key_id: actor.api_key_id },
  };
}
