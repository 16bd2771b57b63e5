// The port-call projection against real PostgreSQL: batches of several vessels, redelivery, a vessel whose first
// events never arrived, priorities applied to later events and re-derived by a rebuild, change signals, and a
// rebuild that runs while traffic is projected.

import {
  PAYLOAD_KEY_PRIORITIES_STREAM,
  PORTCALL_CHANGES_STREAM,
  TIMESTAMP_PRIORITIES_STREAM,
  vesselStream,
} from '@pcas/contracts';
import type { EventStore, RecordedEvent } from '@pcas/eventstore';
import { createLogger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import { describe, expect, it } from 'vitest';
import { ONE_BEFORE_TWO } from '../domain/port-call-test-kit.ts';
import { GAVLE_RULES as rules, useProjectorDatabase } from '../testing/database.ts';
import { appendPosts, readLog, readModels } from '../testing/read-models.ts';
import { type Post, trafficPosts } from '../testing/traffic.ts';
import { loadPriorities } from './priorities.ts';
import { projectBatch, rebuildVessels } from './projection.ts';
import { rebuildAll } from './rebuild.ts';
import { VesselCache } from './vessel-state.ts';

const log = createLogger('projection-test', 'silent');
const DAY = 86_400_000;
let db: Db;
let store: EventStore;
useProjectorDatabase('pcas_portcalls', (database) => ({ db, store } = database));

const project = (events: readonly RecordedEvent[], cache?: VesselCache) =>
  db.transaction((tx) => projectBatch(tx, store, rules, events, cache));

async function projectInBatches(events: readonly RecordedEvent[], size: number, cache?: VesselCache) {
  for (let i = 0; i < events.length; i += size) await project(events.slice(i, i + size), cache);
}

/** Appends the posts and returns their events (commit order), leaving out the log's earlier events. */
async function appendTraffic(posts: readonly Post[]): Promise<RecordedEvent[]> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM eventstore.events');
  const before = await readLog(store, rows[0].n);
  const known = new Set(before.map((e) => e.id));
  await appendPosts(store, posts, 500);
  return (await readLog(store, before.length + posts.length)).filter((e) => !known.has(e.id));
}

const imosOf = (posts: readonly Post[]) => [...new Set(posts.map((p) => p.data.imo))].sort((a, b) => a - b);

/** A stored time this many hours from now (whole hours). */
const hoursFromNow = (h: number) =>
  `${new Date(Math.floor(Date.now() / 3_600_000 + h) * 3_600_000).toISOString().slice(0, 19)}+00:00`;

/** The change signals of these vessels. */
async function signalsOf(imos: readonly number[]): Promise<RecordedEvent[]> {
  const wanted = new Set(imos);
  return (await store.readStream(PORTCALL_CHANGES_STREAM)).filter(
    (e) => e.type === 'PortCallChanged' && wanted.has((e.data as { imo: number }).imo),
  );
}

const signalCount = async (imos: readonly number[]) => (await signalsOf(imos)).length;

describe('the live projection', () => {
  it('projects a batch of several vessels as a rebuild does; redelivered events change nothing', async () => {
    const now = Date.now();
    const posts = trafficPosts({ vessels: 4, firstImo: 9100000, from: now - 40 * DAY, to: now, seed: 3 });
    const imos = imosOf(posts);
    const events = await appendTraffic(posts);
    expect(events).toHaveLength(posts.length);

    const cache = new VesselCache();
    await projectInBatches(events, 37, cache);
    const live = await readModels(db, imos);
    expect(live.timestamps).toHaveLength(posts.length);
    expect(live.vessels.map((v) => Number(v.imo))).toEqual(imos);
    expect(live.port_calls.length).toBeGreaterThanOrEqual(imos.length * 3);
    // The history arrives at once, so past visits close as they are built (later posts of a closed visit are
    // trashed); the last days' visits are still open.
    expect(live.port_calls.some((pc) => pc.status !== 'done')).toBe(true);
    expect(live.timestamps.filter((t) => t.port_call_id !== null).length).toBeGreaterThan(posts.length / 2);
    const signals = await signalCount(imos);
    expect(signals).toBeGreaterThanOrEqual(live.port_calls.length);

    // Redelivery: single events, a batch again, the whole log again (with and without the cache).
    await project([events[5]], cache);
    await project(events.slice(100, 200), cache);
    await projectInBatches(events, 101);
    expect(await readModels(db, imos)).toEqual(live);
    expect(await signalCount(imos)).toBe(signals);

    // The same rows as replaying every stream from the start.
    await rebuildAll({ db, store, rules, log, imos, chunkEvents: 300 });
    expect(await readModels(db, imos)).toEqual(live);
    // A rebuild that changes nothing signals nothing.
    expect(await signalCount(imos)).toBe(signals);
  });

  it('replays a vessel whose earlier events never reached the projection', async () => {
    const now = Date.now();
    const posts = trafficPosts({ vessels: 2, firstImo: 9200000, from: now - 20 * DAY, to: now, seed: 5 });
    const imos = imosOf(posts);
    const events = await appendTraffic(posts);
    // Only the second half arrives (a queue created late, read models dropped): each vessel is replayed.
    await projectInBatches(events.slice(Math.floor(events.length / 2)), 50);
    const live = await readModels(db, imos);
    expect(live.timestamps).toHaveLength(posts.length);
    await rebuildAll({ db, store, rules, log, imos });
    expect(await readModels(db, imos)).toEqual(live);
  });

  it('writes the change signals in the projection transaction: one per port call changed', async () => {
    const imo = 9300001;
    const events = await appendTraffic([
      post(imo, 'Estimated', 'Arrival_Vessel_PortArea', hoursFromNow(20), 1),
      post(imo, 'Estimated', 'Arrival_Vessel_PortArea', hoursFromNow(21), 1),
    ]);
    await project(events.slice(0, 1));
    const [pc] = (await readModels(db, [imo])).port_calls;
    await project(events.slice(1));
    const signals = await signalsOf([imo]);
    // With the port call's status and master id after the change (what the notifier's auto-close reads), and the
    // timestamp each change placed on it, as the VESSEL push's news: equal weights, so each the heaviest.
    const changed = { imo, port_call_id: Number(pc.id), deleted: false, status: pc.status, master_id: null };
    const placedBy = (e: RecordedEvent) => [
      expect.objectContaining({
        timestamp_id: e.globalPosition,
        port_call_id: Number(pc.id),
        source: 'api_key',
        heaviest: true,
      }),
    ];
    expect(signals.map((s) => [s.type, s.data])).toEqual([
      ['PortCallChanged', { ...changed, placed: placedBy(events[0]) }],
      ['PortCallChanged', { ...changed, placed: placedBy(events[1]) }],
    ]);
    // Caused by the vessel event that changed it.
    expect(signals[1].metadata.causation_id).toBe(events[1].id);
  });
});

/** A post as a data source or a person makes it. */
function post(imo: number, timeType: string, state: string, time: string, key: number | null, payload = {}): Post {
  return {
    at: 0,
    data: {
      imo,
      vessel_name: `Vessel ${imo}`,
      time_type: timeType,
      state,
      time,
      payload,
      source: key === null ? 'manual' : 'api_key',
      api_key_id: key,
      user_id: key === null ? 7 : 100 + key,
    },
  };
}

describe('priorities', () => {
  it('apply to later events; a rebuild re-derives the port calls under them and keeps every raw timestamp', async () => {
    const imo = 9400001;
    const [eta1, eta2] = [hoursFromNow(30), hoursFromNow(32)];
    const events = await appendTraffic([
      post(imo, 'Estimated', 'Arrival_Vessel_PortArea', eta1, 1, { berth_name: 'K1' }),
      post(imo, 'Estimated', 'Arrival_Vessel_PortArea', eta2, 2, { berth_name: 'K2' }),
    ]);
    await project(events);
    const pcBefore = (await readModels(db, [imo])).port_calls[0];
    // Equal weights (none set): the newer ETA wins.
    expect(pcBefore).toMatchObject({ berth_name: 'K2' });
    expect((pcBefore.doc as { current_eta: string }).current_eta).toBe(eta2);

    // Key 1 above key 2 for ETAs, and for berth names.
    await store.append(TIMESTAMP_PRIORITIES_STREAM, [
      {
        type: 'TimestampApiKeyWeightsSet',
        data: {
          time_type: 'Estimated',
          state: 'Arrival_Vessel_PortArea',
          weights: [
            { api_key_id: 1, weight: 2 },
            { api_key_id: 2, weight: 1 },
          ],
        },
      },
    ]);
    await store.append(PAYLOAD_KEY_PRIORITIES_STREAM, [
      {
        type: 'PayloadKeyApiKeyWeightsSet',
        data: {
          payload_key: 'berth_name',
          weights: [
            { api_key_id: 1, weight: 2 },
            { api_key_id: 2, weight: 1 },
          ],
        },
      },
    ]);
    const priorityEvents = [
      ...(await store.readStream(TIMESTAMP_PRIORITIES_STREAM)),
      ...(await store.readStream(PAYLOAD_KEY_PRIORITIES_STREAM)),
    ];
    await project(priorityEvents);
    expect(await loadPriorities(db)).toEqual(ONE_BEFORE_TWO);
    // Applied again (redelivery): nothing changes.
    await project(priorityEvents);
    // Port calls are not re-derived by a priority change alone.
    expect((await readModels(db, [imo])).port_calls[0]).toEqual(pcBefore);

    await db.transaction((tx) => rebuildVessels(tx, store, rules, [imo]));
    const after = await readModels(db, [imo]);
    expect(after.port_calls).toHaveLength(1);
    expect(after.port_calls[0]).toMatchObject({ berth_name: 'K1' });
    expect((after.port_calls[0].doc as { current_eta: string }).current_eta).toBe(eta1);
    // Both raw timestamps are still there, weighed under the new priorities.
    expect(after.timestamps.map((t) => [Number(t.id), t.api_key_id, t.weight, t.is_trash])).toEqual([
      [events[0].globalPosition, 1, 2, false],
      [events[1].globalPosition, 2, 1, false],
    ]);
    // The rebuild signalled the port call it changed.
    const signals = await signalsOf([imo]);
    expect(signals.at(-1)?.data).toMatchObject({
      imo,
      port_call_id: Number(after.port_calls[0].id),
      deleted: false,
    });
  });
});

describe('a rebuild while traffic flows', () => {
  it('loses and doubles nothing', async () => {
    const now = Date.now();
    const posts = trafficPosts({ vessels: 12, firstImo: 9500000, from: now - 30 * DAY, to: now, seed: 11 });
    const imos = imosOf(posts);
    const half = Math.floor(posts.length / 2);
    const first = await appendTraffic(posts.slice(0, half));
    await projectInBatches(first, 80);

    // The second half is appended and projected while full rebuilds of these vessels run.
    const cache = new VesselCache();
    let done = false;
    const traffic = (async () => {
      const rest = posts.slice(half);
      for (let i = 0; i < rest.length; i += 40) {
        const events = await appendTraffic(rest.slice(i, i + 40));
        await projectInBatches(events, 25, cache);
      }
      done = true;
    })();
    let rebuilds = 0;
    while (!done) {
      await rebuildAll({ db, store, rules, log, imos, chunkEvents: 200, concurrency: 2 });
      rebuilds++;
    }
    await traffic;
    expect(rebuilds).toBeGreaterThan(0);
    const live = await readModels(db, imos);
    expect(live.timestamps).toHaveLength(posts.length);
    expect(new Set(live.timestamps.map((t) => t.id)).size).toBe(posts.length);
    await rebuildAll({ db, store, rules, log, imos });
    expect(await readModels(db, imos)).toEqual(live);
    // Every vessel's state is at the end of its stream.
    for (const v of live.vessels) {
      const stream = await store.readStream(vesselStream(Number(v.imo)));
      expect(Number(v.stream_position)).toBe(stream.length);
    }
  });
});
