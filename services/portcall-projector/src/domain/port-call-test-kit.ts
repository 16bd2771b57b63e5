// Test support for the port-call rules: builds a vessel stream event by event (positions, clock, actors) so
// that tests read as "these events in → these port calls out", and the posts of one realistic visit (also behind
// testing/traffic.ts's generated traffic). Pure; used by tests only.

import type { TimestampReceived, VesselEvents } from '@pcas/contracts';
import { DEFAULT_PORT_CALL_SETTINGS, type PortCallSettings } from './port-call-settings.ts';
import { DAY_MS, HOUR_MS, isoUtc } from './port-call-time.ts';
import type { VesselPortCalls } from './port-call-types.ts';
import { NO_PRIORITIES, type Priorities } from './priorities.ts';
import type { VesselEvent } from './timestamp-rows.ts';
import { foldVessel, type ProjectionContext, replayVessel } from './vessel-port-calls.ts';

export const IMO = 9074729;

/** Hours after 2024-05-01T00:00:00Z as a stored timestamp time. */
export const at = (hours: number): string => isoUtc(Date.UTC(2024, 4, 1) + hours * HOUR_MS);

export interface PostOptions {
  payload?: Record<string, unknown>;
  /** API key id (a data source); omit or null for a person. */
  key?: number | null;
  user?: number;
  vessel_name?: string;
}

/** A vessel stream under construction. Events are received one hour after each other unless told otherwise. */
export class VesselStream {
  readonly events: VesselEvent[] = [];
  position: number;
  /** Epoch ms of the next event's `created`. */
  clock: number;

  constructor(
    readonly imo = IMO,
    start = 100,
    clockIso = '2024-04-30T00:00:00Z',
  ) {
    this.position = start;
    this.clock = Date.parse(clockIso);
  }

  /** Sets the time of the next events (as a stored time string or ISO). */
  now(iso: string): this {
    this.clock = Date.parse(iso);
    return this;
  }

  push<K extends keyof VesselEvents>(type: K, data: VesselEvents[K], metadata: Record<string, unknown> = {}): number {
    this.position += 1;
    this.events.push({ type, data, metadata, globalPosition: this.position, created: new Date(this.clock) });
    this.clock += 60_000;
    return this.position;
  }

  /** Posts a timestamp; returns its id. */
  post(timeType: string, state: string, time: string, options: PostOptions = {}): number {
    const key = options.key ?? null;
    const data: TimestampReceived = {
      imo: this.imo,
      vessel_name: options.vessel_name ?? 'Ship One',
      time_type: timeType,
      state,
      time,
      payload: options.payload ?? {},
      source: key === null ? 'manual' : 'api_key',
      api_key_id: key,
      user_id: options.user ?? (key === null ? 1 : 100 + key),
    };
    return this.push('TimestampReceived', data, { user_id: data.user_id, api_key_id: key });
  }

  /** Events appended since `from` (an index into `events`). */
  since(from: number): VesselEvent[] {
    return this.events.slice(from);
  }
}

export const context = (
  settings: Partial<PortCallSettings> = {},
  priorities: Priorities = NO_PRIORITIES,
  clustering: ProjectionContext['clustering'] = 'density',
): ProjectionContext => ({ settings: { ...DEFAULT_PORT_CALL_SETTINGS, ...settings }, priorities, clustering });

/** API key 1 weighs more than key 2 for the ETA to the port area and for the berth_name payload key. */
export const ONE_BEFORE_TWO: Priorities = {
  timestamp_weights: [
    { time_type: 'Estimated', state: 'Arrival_Vessel_PortArea', api_key_id: 1, weight: 2 },
    { time_type: 'Estimated', state: 'Arrival_Vessel_PortArea', api_key_id: 2, weight: 1 },
  ],
  payload_key_weights: [
    { payload_key: 'berth_name', api_key_id: 1, weight: 2 },
    { payload_key: 'berth_name', api_key_id: 2, weight: 1 },
  ],
};

export const masterContext = (settings: Partial<PortCallSettings> = {}, priorities: Priorities = NO_PRIORITIES) =>
  context({ masterSources: ['portnet'], masterStartBuffer: 'PT6H', masterEndBuffer: 'PT12H', ...settings }, priorities);

export const project = (stream: VesselStream, ctx: ProjectionContext): VesselPortCalls =>
  replayVessel(stream.imo, stream.events, ctx);

export const projectMore = (state: VesselPortCalls, events: readonly VesselEvent[], ctx: ProjectionContext) =>
  foldVessel(state, events, ctx);

/** A small deterministic random source (LCG), so generated histories are the same on every run. */
export function seeded(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

/** Adds a post: when it is posted (epoch ms), its time type and state, its time and payload fields. */
export type AddPost = (
  created: number,
  type: string,
  state: string,
  time: number,
  extra?: Record<string, unknown>,
) => void;

/** One visit of a generated history: its arrival at berth (epoch ms), its stay (ms), how many ETAs and ETDs. */
export interface Visit {
  arrival: number;
  stay: number;
  /** The fewest and most ETAs, and ETDs: how many is drawn when the first of them is made. */
  etas: [number, number];
  etds: [number, number];
  /** Payload fields of the ETAs and of the arrival at berth (e.g. the berth's name). */
  berth?: Record<string, unknown>;
}

/**
 * The posts of one visit, each handed to `add`: its ETAs posted up to 4 days ahead, inbound pilotage, arrivals,
 * berth, cargo, its ETDs, outbound pilotage and (mostly) the departures, each posted when it happens. `r` draws the
 * spread of the times and what is left out, in the same order on every run.
 */
export function visitPosts(visit: Visit, r: () => number, add: AddPost): void {
  const between = (a: number, b: number) => a + (b - a) * r();
  const count = ([lo, hi]: [number, number]) => lo + Math.floor(r() * (hi - lo + 1));
  const { arrival, stay, berth = {} } = visit;
  const departure = arrival + stay;
  const etas = count(visit.etas);
  for (let k = 0; k < etas; k++) {
    add(
      arrival - between(0.2, 4) * DAY_MS,
      'Estimated',
      'Arrival_Vessel_PortArea',
      arrival + between(-6, 6) * HOUR_MS,
      berth,
    );
  }
  const inbound = { direction: 'inbound' };
  add(arrival - 2 * HOUR_MS, 'Actual', 'Pilotage_Commenced', arrival - 2 * HOUR_MS, inbound);
  add(arrival - HOUR_MS, 'Actual', 'Arrival_Vessel_PortArea', arrival - HOUR_MS);
  add(arrival + 5 * 60_000, 'Actual', 'Arrival_Vessel_Berth', arrival, berth);
  add(arrival + 10 * 60_000, 'Actual', 'Pilotage_Completed', arrival + 5 * 60_000, inbound);
  if (r() < 0.8) add(arrival + HOUR_MS, 'Actual', 'CargoOp_Commenced', arrival + HOUR_MS);
  const etds = count(visit.etds);
  for (let k = 0; k < etds; k++) {
    add(arrival + between(0, 0.9) * stay, 'Estimated', 'Departure_Vessel_Berth', departure + between(-4, 4) * HOUR_MS);
  }
  if (r() < 0.8) add(departure - HOUR_MS, 'Actual', 'CargoOp_Completed', departure - HOUR_MS);
  add(departure - 10 * 60_000, 'Actual', 'Pilotage_Commenced', departure - 10 * 60_000, { direction: 'outbound' });
  if (r() < 0.9) add(departure + 5 * 60_000, 'Actual', 'Departure_Vessel_Berth', departure);
  if (r() < 0.7) add(departure + 2 * HOUR_MS, 'Actual', 'Departure_Vessel_PortArea', departure + 1.5 * HOUR_MS);
}

export interface HistoryOptions {
  visits: number;
  /** Days at sea between departure and the next arrival. */
  interval?: [number, number];
  /** Days at berth. */
  stay?: [number, number];
  /** Payload of every timestamp (e.g. a master source). */
  payloadOf?: (visit: number) => Record<string, unknown>;
  key?: number;
}

/**
 * A realistic vessel history: visits (visitPosts) with 2–5 ETAs and 1–3 ETDs each. Posts are in the order they
 * would be received, so a next visit's ETAs can arrive while the vessel is still in port.
 */
export function vesselHistory(seed: number, options: HistoryOptions, stream = new VesselStream()): VesselStream {
  const r = seeded(seed);
  const between = (a: number, b: number) => a + (b - a) * r();
  const [i0, i1] = options.interval ?? [5, 12];
  const [s0, s1] = options.stay ?? [0.5, 2.5];
  const key = options.key ?? 1;
  const posts: { created: number; type: string; state: string; time: number; payload: Record<string, unknown> }[] = [];
  let arrival = Date.UTC(2024, 0, 1) + between(1, 3) * DAY_MS;
  for (let v = 0; v < options.visits; v++) {
    const base = options.payloadOf?.(v) ?? {};
    const add: AddPost = (created, type, state, time, extra = {}) =>
      posts.push({ created, type, state, time, payload: { ...base, ...extra } });
    const stay = between(s0, s1) * DAY_MS;
    visitPosts({ arrival, stay, etas: [2, 5], etds: [1, 3] }, r, add);
    arrival = arrival + stay + between(i0, i1) * DAY_MS;
  }
  posts.sort((a, b) => a.created - b.created);
  for (const p of posts) {
    stream.clock = Math.round(p.created);
    stream.post(p.type, p.state, isoUtc(p.time), { key, payload: p.payload });
  }
  return stream;
}
