// Generated vessel traffic for tests and benchmarks: realistic visit sequences (ETAs posted days ahead, inbound
// pilotage, arrival at berth, cargo, ETDs, outbound pilotage, departures), many vessels interleaved in the order
// the posts would arrive. Deterministic for a seed. Pure: callers append the posts to the event store.

import type { TimestampReceived } from '@pcas/contracts';
import { type AddPost, visitPosts } from '../domain/port-call-test-kit.ts';
import { DAY_MS } from '../domain/port-call-time.ts';

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
  const name = `Vessel ${imo}`;
  const posts: Post[] = [];
  const add: AddPost = (at, time_type, state, time, payload = {}) => {
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
    const berth = { berth_name: `B${1 + Math.floor(r() * 9)}` };
    visitPosts({ arrival, stay, etas: options.etas ?? [2, 5], etds: options.etds ?? [1, 3], berth }, r, add);
    arrival = arrival + stay + between(i0, i1) * DAY_MS;
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
