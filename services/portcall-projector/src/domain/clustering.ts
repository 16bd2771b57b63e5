// Clustering mode (shared/reference/original-app.md §5.5, §5.12): when no master source is configured, a vessel's
// timestamps are grouped by time. The original asked an external agent, which
//   1. put dummy points 30 days before the first and after the last timestamp,
//   2. ran a Gaussian kernel density estimate over time (bandwidth h = span / 50, the span including the dummy
//      points) and cut clusters at the density minima of a 5000-point grid,
//   3. post-processed in time order into temporary port calls using departures and arrivals.
// Here step 3 is reproduced as written, and step 2 has three implementations (ClusteringRule):
//   * 'kde': the agent's rule itself, a 5000-point grid (O(5000·n) per run): the reference the tests compare
//     with; far too slow to run on every timestamp of a replay.
//   * 'density' (the default): the same kernel density, its minima searched only where they can be. A cut needs a
//     minimum inside a gap between consecutive timestamps; a wide gap is settled by a bound, and in every other
//     gap wider than h the density's slope is read near both ends (and, when that does not settle it, at samples
//     across the gap) from the timestamps within 4h. Decisions are kept from one timestamp to the next while the
//     span and the nearby timestamps stay the same. On the realistic vessel histories of
//     clustering.unit.test.ts, replayed timestamp by timestamp, it gives the same port calls as 'kde'; per run,
//     it cuts where 'kde' does for about 98% of the point sets (the rest are minima in gaps narrower than h or
//     within a grid step of a timestamp, where the agent's own cut was at the mercy of rounding).
//   * 'gap': a cut wherever consecutive timestamps are more than 2h apart (two kernels stop forming one mode once
//     2h apart). Three times faster than 'density', but differs from 'kde' on one history in three.

import { DAY_MS } from './port-call-time.ts';

export type ClusteringRule = 'density' | 'gap' | 'kde';

/** What the clustering reads of a timestamp. */
export interface ClusterPoint {
  time_ms: number;
  time_type: string;
  state: string;
}

const DUMMY_MS = 30 * DAY_MS;
const BANDWIDTH_FACTOR = 50;

/** The agent's bandwidth in milliseconds for timestamps spanning [first, last]. */
export const bandwidthMs = (firstMs: number, lastMs: number): number =>
  (lastMs - firstMs + 2 * DUMMY_MS) / BANDWIDTH_FACTOR;

/** Cluster numbers for times sorted ascending: a new cluster after every gap of more than twice the bandwidth. */
export function gapClusterIds(timesMs: readonly number[]): number[] {
  if (timesMs.length === 0) return [];
  const limit = 2 * bandwidthMs(timesMs[0], timesMs[timesMs.length - 1]);
  const ids = [0];
  let id = 0;
  for (let i = 1; i < timesMs.length; i++) {
    if (timesMs[i] - timesMs[i - 1] > limit) id++;
    ids.push(id);
  }
  return ids;
}

const SAMPLE_FRACTIONS_FROM_EDGES = [1 / 100, 1 / 30, 1 / 10, 1 / 3];
/**
 * Gaps narrower than one bandwidth are not searched for a minimum: between visits the gaps are wider, and a
 * minimum in a narrow gap needs dense groups close on both sides (on the histories tested, such minima changed
 * no port call).
 */
const MIN_GAP = 1;
/** Kernels further away than this many bandwidths change a slope by less than e^-8 of a near one. */
const REACH = 4;

/**
 * Remembers, between runs over a growing set of timestamps, which gaps hold a density minimum. A decision depends
 * only on the bandwidth and the timestamps within REACH·h of its gap, so it is kept while those stay the same:
 * the results are exactly those of a run without the cache.
 */
export class DensityCache {
  private h = Number.NaN;
  private first = Number.NaN;
  private last = Number.NaN;
  /** Gap start → the gap's end, whether it holds a minimum, and the times that decision read. */
  private readonly decisions = new Map<number, { end: number; cut: boolean; from: number; to: number }>();
  private readonly touched: number[] = [];

  /** A timestamp at this time was added, removed or restored. */
  touch(timeMs: number): void {
    this.touched.push(timeMs);
  }

  /** Drops what the changes since the last run may have changed (everything when the span moved). */
  prepare(first: number, last: number, h: number): void {
    if (first !== this.first || last !== this.last) {
      this.decisions.clear();
      this.first = first;
      this.last = last;
      this.h = h;
    } else if (this.touched.length > 0) {
      for (const [start, d] of this.decisions) {
        if (this.touched.some((x) => x >= d.from && x <= d.to)) this.decisions.delete(start);
      }
    }
    this.touched.length = 0;
  }

  get(a: number, b: number): boolean | undefined {
    const d = this.decisions.get(a);
    return d !== undefined && d.end === b ? d.cut : undefined;
  }

  set(a: number, b: number, cut: boolean): void {
    this.decisions.set(a, { end: b, cut, from: a - REACH * this.h, to: b + REACH * this.h });
  }
}

/**
 * The density rule evaluated only where a minimum can be: in every gap of more than h between consecutive
 * timestamps, the slope of the density (from the timestamps within 4h) is read just after the gap's start and
 * just before its end, and when that does not settle it, across the gap; a change from falling to rising is a
 * minimum, so a cut. O(gaps · window) instead of O(5000 · n).
 */
export function densityClusterIds(timesMs: readonly number[], cache?: DensityCache): number[] {
  if (timesMs.length === 0) return [];
  const first = timesMs[0];
  const last = timesMs[timesMs.length - 1];
  const h = bandwidthMs(first, last);
  cache?.prepare(first, last, h);
  const reach = REACH * h;
  const points = [first - DUMMY_MS, ...timesMs, last + DUMMY_MS];
  const slope = (x: number): number => {
    let lo = 0;
    let hi = points.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (points[mid] < x - reach) lo = mid + 1;
      else hi = mid;
    }
    let sum = 0;
    for (let i = lo; i < points.length && points[i] <= x + reach; i++) {
      const z = (x - points[i]) / h;
      sum -= z * Math.exp(-0.5 * z * z);
    }
    return sum;
  };
  const samples: number[] = [];
  const hasMinimum = (a: number, b: number): boolean => {
    // Falling just after a and rising just before b: the usual gap between two visits.
    const edge = h / 100;
    const start = slope(a + edge);
    if (start < 0 && slope(b - edge) > 0) return true;
    samples.length = 0;
    for (const f of SAMPLE_FRACTIONS_FROM_EDGES) samples.push(a + f * h, b - f * h);
    for (let k = 1; k < 8; k++) samples.push(a + ((b - a) * k) / 8);
    samples.sort((x, y) => x - y);
    let falling = false;
    for (const x of samples) {
      if (x <= a || x >= b) continue;
      const s = slope(x);
      if (s < 0) falling = true;
      else if (s > 0 && falling) return true;
    }
    return false;
  };
  const ids = [0];
  let id = 0;
  for (let i = 1; i < timesMs.length; i++) {
    const a = timesMs[i - 1];
    const b = timesMs[i];
    if (b - a > 2 * h) {
      // A wide gap needs no sampling when a bound settles it: one bandwidth inside the gap, the kernel of its
      // edge timestamp has slope e^-1/2 (falling after a, rising before b), and each of the n timestamps on the
      // far side (at least gap - h away) can pull the other way by at most d·e^(-d²/2), d = (gap - h)/h.
      const d = (b - a - h) / h;
      const pull = d * Math.exp(-0.5 * d * d);
      const edgeSlope = Math.exp(-0.5);
      if ((timesMs.length - i + 1) * pull < edgeSlope && (i + 1) * pull < edgeSlope) {
        id++;
        ids.push(id);
        continue;
      }
    }
    if (b - a > MIN_GAP * h) {
      let cut = cache?.get(a, b);
      if (cut === undefined) {
        cut = hasMinimum(a, b);
        cache?.set(a, b, cut);
      }
      if (cut) id++;
    }
    ids.push(id);
  }
  return ids;
}

/**
 * The agent's kernel density rule for times sorted ascending. Cluster numbers are the grid indices of the
 * minima, as the agent returned them (only their equality matters).
 */
export function kdeClusterIds(timesMs: readonly number[]): number[] {
  if (timesMs.length === 0) return [];
  const origin = timesMs[0] - DUMMY_MS;
  // Days since the first dummy point, dummies included.
  const t = [
    0,
    ...timesMs.map((ms) => (ms - origin) / DAY_MS),
    (timesMs[timesMs.length - 1] + DUMMY_MS - origin) / DAY_MS,
  ];
  const max = t[t.length - 1];
  const h = max / BANDWIDTH_FACTOR;
  const step = h / 100;
  const size = Math.ceil(max / step);
  // Log density up to a constant, computed as log-sum-exp so that far tails do not underflow.
  const density = new Float64Array(size);
  const terms = new Float64Array(t.length);
  for (let k = 0; k < size; k++) {
    const x = k * step;
    let top = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < t.length; i++) {
      const z = (x - t[i]) / h;
      terms[i] = -0.5 * z * z;
      if (terms[i] > top) top = terms[i];
    }
    let sum = 0;
    for (let i = 0; i < t.length; i++) sum += Math.exp(terms[i] - top);
    density[k] = top + Math.log(sum);
  }
  // Minima of the density = peaks of its negation, plateaus reported at their middle (scipy's find_peaks).
  const minima: number[] = [];
  let k = 1;
  while (k < size - 1) {
    if (density[k - 1] > density[k]) {
      let ahead = k + 1;
      while (ahead < size - 1 && density[ahead] === density[k]) ahead++;
      if (density[ahead] > density[k]) {
        minima.push((k + ahead - 1) >> 1);
        k = ahead;
      }
    }
    k++;
  }
  const ids: number[] = new Array(t.length);
  let next = 0;
  let last = 0;
  for (const m of minima) {
    const cut = m * step;
    while (next < t.length && t[next] < cut) ids[next++] = m;
    last = m;
  }
  while (next < t.length) ids[next++] = last + 1;
  return ids.slice(1, -1);
}

const isArrival = (p: ClusterPoint) => p.state.includes('Arrival_Vessel_');
const isDeparture = (p: ClusterPoint) => p.state.includes('Departure_Vessel_');

/**
 * The agent's post-processing, on points sorted by time with their cluster numbers: a new temporary port call
 * starts at a cluster break after an Actual departure, or at a break whose next cluster has an arrival or no
 * departure (the look-ahead includes the first point after that cluster, as the agent's loop did); within a
 * cluster, an arrival more than a day after the last Actual departure starts one too. An Actual departure that
 * opens a cluster counts for the break before it and is then forgotten, as in the agent.
 */
export function postProcessClusters(points: readonly ClusterPoint[], clusterIds: readonly number[]): number[] {
  const out: number[] = new Array(points.length);
  if (points.length === 0) return out;
  let cluster = clusterIds[0];
  let temp = 0;
  let actualDeparture = false;
  let departureMs = 0;
  for (let idx = 0; idx < points.length; idx++) {
    const p = points[idx];
    if (p.time_type === 'Actual' && isDeparture(p)) {
      actualDeparture = true;
      departureMs = p.time_ms;
    }
    if (cluster !== clusterIds[idx]) {
      cluster = clusterIds[idx];
      if (actualDeparture) {
        temp++;
        actualDeparture = false;
      } else {
        let arrival = false;
        let departure = false;
        for (let f = idx; f < points.length; f++) {
          if (isArrival(points[f])) arrival = true;
          if (isDeparture(points[f])) departure = true;
          if (cluster !== clusterIds[f] || f + 1 === points.length) {
            if (arrival || !departure) {
              temp++;
              actualDeparture = false;
            }
            break;
          }
        }
      }
    } else if (actualDeparture && isArrival(p) && p.time_ms - departureMs > DAY_MS) {
      temp++;
      actualDeparture = false;
    }
    out[idx] = temp;
  }
  return out;
}

/** Temporary port-call numbers for points sorted by time (ascending, ties in a fixed order). */
export function clusterPortCalls(
  points: readonly ClusterPoint[],
  rule: ClusteringRule = 'density',
  cache?: DensityCache,
): number[] {
  const times = points.map((p) => p.time_ms);
  const ids =
    rule === 'kde' ? kdeClusterIds(times) : rule === 'gap' ? gapClusterIds(times) : densityClusterIds(times, cache);
  return postProcessClusters(points, ids);
}
