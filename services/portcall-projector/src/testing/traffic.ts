// Generated vessel traffic for tests and benchmarks: realistic visit sequences (ETAs posted days ahead, inbound
// pilotage, arrival at berth, cargo, ETDs, outbound pilotage, departures), many vessels interleaved in the order
// the posts would arrive. Deterministic for a seed. Pure: callers append the posts to the event store.

import type { TimestampReceived } from '@pcas/contracts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A small deterministic random source (LCG). */
export function seeded(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

export interface Post {
  /** When it is posted (epoch ms): the order of the log. */
  at: number;
  data: TimestampReceived;
}

export interface TrafficOptions {
  vessels: number;
  /** First IMO; vessels get consecutive ones. */
  firstImo?: number;
  /** The traffic covers [from, to] (epoch ms): visits start from `from`, posts after `to` are not made. */
  from: number;
  to: number;
  seed?: number;
  /** Data-source API keys (default [1, 2, 3]); one post in twenty is manual. */
  apiKeys?: readonly number[];
  /** Days at sea between visits (default 5–12). */
  interval?: [number, number];
  /** ETAs posted per visit (default 2–5; an agent following AIS sends dozens). */
  etas?: [number, number];
  /** ETDs posted per visit (default 1–3). */
  etds?: [number, number];
}

const iso = (ms: number) => `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}+00:00`;

/** One vessel's posts over the period, in posting order. */
export function vesselPosts(imo: number, options: TrafficOptions, seed: number): Post[] {
  const r = seeded(seed);
  const between = (a: number, b: number) => a + (b - a) * r();
  const keys = options.apiKeys ?? [1, 2, 3];
  const [i0, i1] = options.interval ?? [5, 12];
  const count = ([lo, hi]: [number, number]) => lo + Math.floor(r() * (hi - lo + 1));
  const name = `Vessel ${imo}`;
  const posts: Post[] = [];
  const add = (at: number, time_type: string, state: string, time: number, payload: Record<string, unknown> = {}) => {
    if (at > options.to) return;
    const manual = r() < 0.05;
    const key = keys[Math.floor(r() * keys.length)];
    posts.push({
      at,
      data: {
        imo,
        vessel_name: name,
        time_type,
        state,
        time: iso(time),
        payload: { source: manual ? 'manual' : `agent-${key}`, ...payload },
        source: manual ? 'manual' : 'api_key',
        api_key_id: manual ? null : key,
        user_id: manual ? 7 : 100 + key,
      },
    });
  };
  let arrival = options.from + between(0.5, i1) * DAY_MS;
  while (arrival - 4 * DAY_MS < options.to) {
    const stay = between(0.5, 2.5) * DAY_MS;
    const departure = arrival + stay;
    const berth = `B${1 + Math.floor(r() * 9)}`;
    const etas = count(options.etas ?? [2, 5]);
    for (let k = 0; k < etas; k++) {
      add(
        arrival - between(0.2, 4) * DAY_MS,
        'Estimated',
        'Arrival_Vessel_PortArea',
        arrival + between(-6, 6) * HOUR_MS,
        {
          berth_name: berth,
        },
      );
    }
    add(arrival - 2 * HOUR_MS, 'Actual', 'Pilotage_Commenced', arrival - 2 * HOUR_MS, { direction: 'inbound' });
    add(arrival - HOUR_MS, 'Actual', 'Arrival_Vessel_PortArea', arrival - HOUR_MS);
    add(arrival + 5 * 60_000, 'Actual', 'Arrival_Vessel_Berth', arrival, { berth_name: berth });
    add(arrival + 10 * 60_000, 'Actual', 'Pilotage_Completed', arrival + 5 * 60_000, { direction: 'inbound' });
    if (r() < 0.8) add(arrival + HOUR_MS, 'Actual', 'CargoOp_Commenced', arrival + HOUR_MS);
    const etds = count(options.etds ?? [1, 3]);
    for (let k = 0; k < etds; k++) {
      add(
        arrival + between(0, 0.9) * stay,
        'Estimated',
        'Departure_Vessel_Berth',
        departure + between(-4, 4) * HOUR_MS,
      );
    }
    if (r() < 0.8) add(departure - HOUR_MS, 'Actual', 'CargoOp_Completed', departure - HOUR_MS);
    add(departure - 10 * 60_000, 'Actual', 'Pilotage_Commenced', departure - 10 * 60_000, { direction: 'outbound' });
    if (r() < 0.9) add(departure + 5 * 60_000, 'Actual', 'Departure_Vessel_Berth', departure);
    if (r() < 0.7) add(departure + 2 * HOUR_MS, 'Actual', 'Departure_Vessel_PortArea', departure + 1.5 * HOUR_MS);
    arrival = departure + between(i0, i1) * DAY_MS;
  }
  return posts.filter((p) => p.at >= options.from).sort((a, b) => a.at - b.at);
}

/** Every vessel's posts, merged in posting order (vessels interleaved). */
export function trafficPosts(options: TrafficOptions): Post[] {
  const first = options.firstImo ?? 9_000_000;
  const all: Post[] = [];
  for (let v = 0; v < options.vessels; v++) {
    all.push(...vesselPosts(first + v, options, (options.seed ?? 1) * 7919 + v));
  }
  return all.sort((a, b) => a.at - b.at || a.data.imo - b.data.imo);
}
