// Clustering mode (docs/domain.md#clustering-mode): the agent's rules, our density rule against
// the agent's kernel density, and the port calls a clustering-mode fold builds.

import { describe, expect, it } from 'vitest';
import {
  bandwidthMs,
  type ClusterPoint,
  clusterPortCalls,
  DensityCache,
  DensityCuts,
  densityClusterIds,
  GapCuts,
  gapClusterIds,
  kdeClusterIds,
  postProcessClusters,
  temporaryPortCallOf,
} from './clustering.ts';
import { at, context, project, projectMore, VesselStream, vesselHistory } from './port-call-test-kit.ts';
import { DAY_MS, HOUR_MS } from './port-call-time.ts';
import type { VesselPortCalls } from './port-call-types.ts';
import { portCallOf, replayVessel, timestampOf, timestampsOfPortCall } from './vessel-port-calls.ts';

const day = (d: number) => Date.UTC(2024, 0, 1) + d * DAY_MS;
const p = (d: number, time_type: string, state: string): ClusterPoint => ({ time_ms: day(d), time_type, state });
const ETA = (d: number) => p(d, 'Estimated', 'Arrival_Vessel_PortArea');
const ATA = (d: number) => p(d, 'Actual', 'Arrival_Vessel_Berth');
const ETD = (d: number) => p(d, 'Estimated', 'Departure_Vessel_Berth');
const ATD = (d: number) => p(d, 'Actual', 'Departure_Vessel_Berth');

/** Which points share a temporary port call, as a list of index groups. */
const groups = (temp: number[]) => {
  const out = new Map<number, number[]>();
  temp.forEach((t, i) => {
    out.set(t, [...(out.get(t) ?? []), i]);
  });
  return [...out.values()];
};
const cutsOf = (ids: number[]) => ids.map((id, i) => i > 0 && id !== ids[i - 1]);

describe('the agent’s post-processing', () => {
  it('a cluster break after an Actual departure starts a new port call', () => {
    const points = [ETA(0), ATA(0.1), ATD(1), ETA(5)];
    expect(postProcessClusters(points, [0, 0, 0, 1])).toEqual([0, 0, 0, 1]);
  });

  it('without a departure, a break starts a new port call if the next cluster has an arrival or no departure', () => {
    expect(postProcessClusters([ETA(0), ATA(0.1), ETA(5)], [0, 0, 1])).toEqual([0, 0, 1]);
    const cargo = p(5, 'Actual', 'CargoOp_Completed');
    expect(postProcessClusters([ETA(0), ATA(0.1), cargo], [0, 0, 1])).toEqual([0, 0, 1]);
    // A next cluster of departures only is the same visit's end.
    expect(postProcessClusters([ETA(0), ATA(0.1), ETD(5)], [0, 0, 1])).toEqual([0, 0, 0]);
    expect(postProcessClusters([ETA(0), ATA(0.1), ETD(5), ATD(5.1)], [0, 0, 1, 1])).toEqual([0, 0, 0, 0]);
  });

  it('the look-ahead also reads the first point after the next cluster (as the agent did)', () => {
    // Cluster 1 has a departure only, but the first point of cluster 2 is an arrival: a new port call at 1.
    expect(postProcessClusters([ETA(0), ETD(5), ETA(9)], [0, 1, 2])).toEqual([0, 1, 2]);
  });

  it('within a cluster, an arrival more than a day after an Actual departure starts a new port call', () => {
    expect(postProcessClusters([ETA(0), ATD(1), ETA(2.01)], [0, 0, 0])).toEqual([0, 0, 1]);
    expect(postProcessClusters([ETA(0), ATD(1), ETA(1.99)], [0, 0, 0])).toEqual([0, 0, 0]);
  });

  it('an Actual departure opening a cluster counts for that break and is then forgotten', () => {
    expect(postProcessClusters([ETA(0), ATD(4), ETA(6)], [0, 1, 1])).toEqual([0, 1, 1]);
  });
});

describe('kernel density clusters', () => {
  const times = (...days: number[]) => days.map(day);

  it('uses the agent’s bandwidth: the span with the two 30-day dummy points, over 50', () => {
    expect(bandwidthMs(day(0), day(40)) / DAY_MS).toBeCloseTo(2);
  });

  it('cuts between visits and keeps a visit together, whatever the rule', () => {
    const t = times(0, 0.2, 0.5, 1, 1.2, 9, 9.3, 10, 20, 20.5);
    for (const rule of [kdeClusterIds, densityClusterIds, gapClusterIds]) {
      expect(groups(rule(t))).toEqual([
        [0, 1, 2, 3, 4],
        [5, 6, 7],
        [8, 9],
      ]);
    }
    expect(groups(kdeClusterIds(times(3)))).toEqual([[0]]);
  });

  it('a lone timestamp days after a busy visit gets its own cluster, as on the agent’s grid', () => {
    const busy = Array.from({ length: 13 }, (_, i) => i * 0.04);
    const t = times(...busy, 5);
    // Its minimum lies close to the lone timestamp: the slope just before it still falls.
    expect(cutsOf(kdeClusterIds(t)).filter(Boolean)).toHaveLength(1);
    expect(cutsOf(densityClusterIds(t))).toEqual(cutsOf(kdeClusterIds(t)));
  });

  it('the density rule cuts where the agent’s grid does, on the vessel histories', () => {
    let compared = 0;
    let same = 0;
    for (const seed of [1, 2, 3]) {
      const s = vesselHistory(seed, { visits: 3 + seed, interval: seed === 3 ? [2, 5] : [5, 12] });
      const all = project(s, context()).timestamps;
      for (let n = 2; n <= all.length; n += 3) {
        const points = all.slice(0, n).sort((a, b) => a.time_ms - b.time_ms || a.id - b.id);
        const t = points.map((x) => x.time_ms);
        compared++;
        const reference = postProcessClusters(points, kdeClusterIds(t));
        if (groups(postProcessClusters(points, densityClusterIds(t))).join('|') === groups(reference).join('|')) same++;
      }
    }
    expect(same / compared).toBeGreaterThan(0.95);
  });

  it('remembered decisions give exactly the results of a fresh run', () => {
    const s = vesselHistory(4, { visits: 6 });
    const all = project(s, context()).timestamps;
    const cache = new DensityCache();
    const sorted: number[] = [];
    for (const t of all) {
      sorted.splice(sorted.findIndex((x) => x > t.time_ms) >>> 0, 0, t.time_ms);
      cache.touch(t.time_ms);
      expect(cutsOf(densityClusterIds(sorted, cache))).toEqual(cutsOf(densityClusterIds(sorted)));
    }
  });
});

describe('the temporary port call of one timestamp, from the clusters around it', () => {
  // Point sets that exercise every branch of the post-processing: departures opening and closing clusters,
  // arrivals a day after a departure, clusters of departures only, narrow and wide gaps.
  const STATES = [
    ['Estimated', 'Arrival_Vessel_PortArea'],
    ['Actual', 'Arrival_Vessel_Berth'],
    ['Estimated', 'Departure_Vessel_Berth'],
    ['Actual', 'Departure_Vessel_Berth'],
    ['Actual', 'CargoOp_Completed'],
    ['Actual', 'Departure_Vessel_PortArea'],
  ] as const;
  const randomPoints = (seed: number): ClusterPoint[] => {
    let x = seed;
    const next = () => {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      return x / 2 ** 32;
    };
    const points: ClusterPoint[] = [];
    let t = day(0);
    for (let i = 0, n = 2 + Math.floor(next() * 60); i < n; i++) {
      t += next() < 0.2 ? next() * 12 * DAY_MS : next() * 1.5 * DAY_MS;
      const [time_type, state] = STATES[Math.floor(next() * STATES.length)];
      points.push({ time_ms: t, time_type, state });
    }
    return points;
  };

  it('is the range of points that share its number in the whole run, under the density and the gap rule', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const points = randomPoints(seed);
      const times = points.map((p) => p.time_ms);
      for (const [ids, cuts] of [
        [densityClusterIds(times), () => new DensityCuts(times)],
        [gapClusterIds(times), () => new GapCuts(times)],
      ] as const) {
        const temp = postProcessClusters(points, ids);
        for (let k = 0; k < points.length; k++) {
          const from = temp.indexOf(temp[k]);
          expect(temporaryPortCallOf(points, k, cuts())).toEqual({ from, to: temp.lastIndexOf(temp[k]) });
        }
      }
    }
  });
});

const partition = (state: VesselPortCalls) =>
  state.port_calls.map((pc) => [pc.id, timestampsOfPortCall(state, pc.id).map((t) => t.id)]);

describe('clustering mode, events in → port calls out', () => {
  it('gives the same port calls under the density rule as under the agent’s kernel density', () => {
    for (const seed of [11, 12, 13, 14]) {
      const s = vesselHistory(seed, { visits: 3, interval: seed % 2 ? [2, 5] : [5, 12] });
      const density = replayVessel(s.imo, s.events, context({}, undefined, 'density'));
      const kde = replayVessel(s.imo, s.events, context({}, undefined, 'kde'));
      expect(partition(density)).toEqual(partition(kde));
    }
  });

  it('opens a port call with the first timestamp and adds the visit’s timestamps to it', () => {
    const s = new VesselStream();
    s.now(at(0));
    const first = s.post('Estimated', 'Arrival_Vessel_PortArea', at(48), { key: 1 });
    const ata = s.post('Actual', 'Arrival_Vessel_Berth', at(49), { key: 1 });
    const etd = s.post('Estimated', 'Departure_Vessel_Berth', at(60), { key: 1 });
    const state = project(s, context());
    expect(state.port_calls).toHaveLength(1);
    expect(state.port_calls[0]).toMatchObject({
      id: first,
      master_id: null,
      status: 'at berth',
      first_eta: at(48),
      current_etd: at(60),
      // A clustered port call's range follows its ETA and ETD.
      master_start: at(48),
      master_end: at(60),
    });
    expect([ata, etd].map((id) => timestampOf(state, id)?.port_call_id)).toEqual([first, first]);
  });

  it('a port call opened by a non-ETA keeps that time as its ETA until an ETA comes', () => {
    const s = new VesselStream();
    const ata = s.post('Actual', 'Arrival_Vessel_Berth', at(49), { key: 1 });
    expect(project(s, context()).port_calls[0]).toMatchObject({ id: ata, first_eta: at(49), current_eta: at(49) });
  });

  it('the next visit, after the departure, gets its own port call', () => {
    const s = new VesselStream();
    s.now(at(0));
    const first = s.post('Estimated', 'Arrival_Vessel_PortArea', at(10), { key: 1 });
    s.post('Actual', 'Arrival_Vessel_Berth', at(11), { key: 1 });
    s.post('Actual', 'Departure_Vessel_Berth', at(30), { key: 1 });
    const next = s.post('Estimated', 'Arrival_Vessel_PortArea', at(30 + 9 * 24), { key: 1 });
    const state = project(s, context());
    expect(state.port_calls.map((pc) => pc.id)).toEqual([first, next]);
    expect(portCallOf(state, first)?.status).toBe('departed');
  });

  it('a late timestamp of a closed port call’s cluster is trashed', () => {
    const s = new VesselStream();
    s.now(at(0));
    const first = s.post('Estimated', 'Arrival_Vessel_PortArea', at(10), { key: 1 });
    s.post('Actual', 'Departure_Vessel_Berth', at(20), { key: 1 });
    s.now(at(30));
    const late = s.post('Actual', 'Departure_Vessel_PortArea', at(21), { key: 1 });
    const state = project(s, context());
    expect(portCallOf(state, first)?.status).toBe('done');
    expect(timestampOf(state, late)).toMatchObject({ port_call_id: null, is_trash: true });
  });

  it('trashed timestamps are no orphans; restored ones are attached at the next run; deleted ones are out', () => {
    const s = new VesselStream();
    s.now(at(0));
    const eta = s.post('Estimated', 'Arrival_Vessel_PortArea', at(10), { key: 1 });
    const ata = s.post('Actual', 'Arrival_Vessel_Berth', at(11), { key: 1 });
    s.push('TimestampPortCallUnset', { timestamp_id: ata });
    s.post('Estimated', 'Departure_Vessel_Berth', at(20), { key: 1 });
    let state = project(s, context());
    expect(timestampOf(state, ata)).toMatchObject({ port_call_id: null, is_trash: true, hold: 'unset' });
    expect(portCallOf(state, eta)?.status).toBe('arriving');
    const from = s.events.length;
    s.push('TimestampRestored', { timestamp_id: ata });
    state = projectMore(state, s.since(from), context());
    expect(timestampOf(state, ata)).toMatchObject({ port_call_id: null, is_trash: false, hold: null });
    s.push('OrphanTimestampsAttachRequested', { is_from_agent: false, ignore_status: false });
    state = projectMore(state, s.since(from), context());
    expect(timestampOf(state, ata)?.port_call_id).toBe(eta);
    expect(portCallOf(state, eta)?.status).toBe('at berth');
    s.push('TimestampDeleted', { timestamp_id: ata });
    s.post('Estimated', 'Departure_Vessel_Berth', at(21), { key: 1 });
    state = projectMore(state, s.since(from), context());
    expect(timestampOf(state, ata)).toMatchObject({ port_call_id: null, is_trash: true, hold: 'deleted' });
    expect(portCallOf(state, eta)?.status).toBe('arriving');
  });

  it('when a cluster holds several port calls, an orphan joins the last of them (“clustering mismatch”)', () => {
    const s = new VesselStream();
    s.now(at(0));
    const first = s.post('Estimated', 'Arrival_Vessel_PortArea', at(10), { key: 1 });
    s.post('Actual', 'Departure_Vessel_Berth', at(20), { key: 1 });
    const second = s.post('Estimated', 'Arrival_Vessel_PortArea', at(20 + 10 * 24), { key: 1 });
    const ata2 = s.post('Actual', 'Arrival_Vessel_Berth', at(21 + 10 * 24), { key: 1 });
    // By hand, the second visit's ETA goes to the first port call: its cluster now holds both.
    s.push('TimestampPortCallSet', { timestamp_id: second, port_call_id: first });
    const orphan = s.post('Estimated', 'Departure_Vessel_Berth', at(30 + 10 * 24), { key: 1 });
    const state = project(s, context());
    expect(timestampOf(state, second)?.port_call_id).toBe(first);
    // In time order the cluster lists the first port call (via the moved ETA) before the second (via the ATA).
    expect(timestampOf(state, ata2)?.port_call_id).toBe(second);
    expect(timestampOf(state, orphan)?.port_call_id).toBe(second);
  });

  it('every rule runs in the fold and the projection is the same for any of them on a clean history', () => {
    const s = new VesselStream();
    s.now(at(0));
    for (let v = 0; v < 3; v++) {
      const arrival = 10 + v * 10 * 24;
      s.post('Estimated', 'Arrival_Vessel_PortArea', at(arrival), { key: 1 });
      s.post('Actual', 'Arrival_Vessel_Berth', at(arrival + 1), { key: 1 });
      s.post('Actual', 'Departure_Vessel_Berth', at(arrival + 30), { key: 1 });
    }
    const rules = (['density', 'gap', 'kde'] as const).map((rule) =>
      partition(replayVessel(s.imo, s.events, context({}, undefined, rule))),
    );
    expect(rules[0]).toHaveLength(3);
    expect(rules[1]).toEqual(rules[0]);
    expect(rules[2]).toEqual(rules[0]);
    expect(clusterPortCalls([], 'density')).toEqual([]);
    expect(HOUR_MS).toBe(3_600_000);
  });
});
