// Priorities (docs/domain.md#priorities): timestamp API-key weights per (time type, state) and
// payload-key API-key weights. The original stored a timestamp's weight when it was posted; here weights are
// looked up when projecting, so changing priorities and rebuilding re-derives every port call from the same
// raw timestamps.

import { MANUAL_WEIGHT } from './timestamp-rows.ts';

export { MANUAL_WEIGHT };

/** Manual timestamps outrank every source for payload keys too (`MAX_PAYLOAD_KEY_WEIGHT`). */
export const MANUAL_PAYLOAD_KEY_WEIGHT = 999;

export interface TimestampWeightRow {
  time_type: string;
  state: string;
  api_key_id: number;
  weight: number;
}

export interface PayloadKeyWeightRow {
  payload_key: string;
  api_key_id: number;
  weight: number;
}

/** The two priority tables as rows (what `GET /timestamp-api-key-weights` and its payload twin list). */
export interface Priorities {
  timestamp_weights: readonly TimestampWeightRow[];
  payload_key_weights: readonly PayloadKeyWeightRow[];
}

export const NO_PRIORITIES: Priorities = Object.freeze({ timestamp_weights: [], payload_key_weights: [] });

/** Who posted a timestamp: enough to weigh it. */
export interface WeighedSource {
  time_type: string;
  state: string;
  source: 'api_key' | 'manual';
  api_key_id: number | null;
}

// Looked up per timestamp and per payload key in every scan and timeline: nested maps (API key, then time type,
// then state) spare building a composite key string per lookup. API keys are keyed by their string form, as the
// composite keys had them.
interface Compiled {
  timestamp: Map<string, Map<string, Map<string, number>>>;
  payload: Map<string, Map<string, number>>;
}

const compiled = new WeakMap<Priorities, Compiled>();
// The priorities of the batch being projected: one object for thousands of lookups in a row.
let lastPriorities: Priorities | undefined;
let lastCompiled: Compiled | undefined;

function entryOf<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}

function compile(p: Priorities): Compiled {
  if (p === lastPriorities) return lastCompiled!;
  let c = compiled.get(p);
  if (!c) {
    c = { timestamp: new Map(), payload: new Map() };
    for (const r of p.timestamp_weights) {
      const byType = entryOf(c.timestamp, String(r.api_key_id), () => new Map<string, Map<string, number>>());
      entryOf(byType, r.time_type, () => new Map<string, number>()).set(r.state, r.weight);
    }
    for (const r of p.payload_key_weights) {
      entryOf(c.payload, String(r.api_key_id), () => new Map<string, number>()).set(r.payload_key, r.weight);
    }
    compiled.set(p, c);
  }
  lastPriorities = p;
  lastCompiled = c;
  return c;
}

/**
 * A timestamp's weight: 999 for people; for a data source its key's weight for the pair, and 0 when the
 * key no longer has one (admission happened when it was posted; a removed priority makes it the lightest).
 */
export function timestampWeight(priorities: Priorities, t: WeighedSource): number {
  if (t.source === 'manual') return MANUAL_WEIGHT;
  if (t.api_key_id === null) return 0;
  return compile(priorities).timestamp.get(String(t.api_key_id))?.get(t.time_type)?.get(t.state) ?? 0;
}

/** The weight a timestamp's source has for one payload key: 999 for people, 0 when unlisted. */
export function payloadKeyWeight(priorities: Priorities, key: string, t: WeighedSource): number {
  if (t.source === 'manual') return MANUAL_PAYLOAD_KEY_WEIGHT;
  if (t.api_key_id === null) return 0;
  return compile(priorities).payload.get(String(t.api_key_id))?.get(key) ?? 0;
}

/**
 * "Heavier" in insertion order: an item counts when its weight is at least the highest weight seen
 * so far for its (time type, state); ties go to the newer one. Returns one flag per item.
 */
export function heavierFlags<T>(items: readonly T[], keyOf: (item: T) => string, weightOf: (item: T) => number) {
  const max = new Map<string, number>();
  return items.map((item) => {
    const key = keyOf(item);
    const weight = weightOf(item);
    const seen = max.get(key);
    if (seen !== undefined && weight < seen) return false;
    max.set(key, weight);
    return true;
  });
}
