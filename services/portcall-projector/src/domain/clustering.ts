// Clustering mode (docs/domain.md#clustering-mode): when no master source is configured, a vessel's
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
  return clusterIdsOf(timesMs.length, new GapCuts(timesMs));
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
  return clusterIdsOf(timesMs.length, new DensityCuts(timesMs, cache));
}

/** Where a rule cuts the sorted times into clusters, gap by gap (decided on demand). */
export interface Cuts {
  /** Whether a new cluster starts at index i (the gap between times i - 1 and i), 0 < i < n. */
  before(i: number): boolean;
}

function clusterIdsOf(n: number, cuts: Cuts): number[] {
  if (n === 0) return [];
  const ids = [0];
  let id = 0;
  for (let i = 1; i < n; i++) {
    if (cuts.before(i)) id++;
    ids.push(id);
  }
  return ids;
}

/** The gap rule's cuts (gapClusterIds). */
export class GapCuts implements Cuts {
  private readonly limit: number;
  constructor(private readonly timesMs: readonly number[]) {
    this.limit = timesMs.length === 0 ? 0 : 2 * bandwidthMs(timesMs[0], timesMs[timesMs.length - 1]);
  }
  before(i: number): boolean {
    return this.timesMs[i] - this.timesMs[i - 1] > this.limit;
  }
}

/**
 * The density rule's cuts (densityClusterIds); each gap's decision is the same whichever gaps are asked, so a caller
 * that needs only the clusters around one timestamp asks only those. One run per instance: the cache is prepared
 * (and its stale decisions dropped) when it is made.
 */
export class DensityCuts implements Cuts {
  private readonly h: number;
  private kernel: Kernel | undefined;

  constructor(
    private readonly timesMs: readonly number[],
    private readonly cache?: DensityCache,
  ) {
    const n = timesMs.length;
    this.h = n === 0 ? 0 : bandwidthMs(timesMs[0], timesMs[n - 1]);
    if (n > 0) cache?.prepare(timesMs[0], timesMs[n - 1], this.h);
  }

  before(i: number): boolean {
    const times = this.timesMs;
    const h = this.h;
    const a = times[i - 1];
    const b = times[i];
    if (b - a > 2 * h) {
      // A wide gap needs no sampling when a bound settles it: one bandwidth inside the gap, the kernel of its
      // edge timestamp has slope e^-1/2 (falling after a, rising before b), and each of the n timestamps on the
      // far side (at least gap - h away) can pull the other way by at most d·e^(-d²/2), d = (gap - h)/h.
      const d = (b - a - h) / h;
      const pull = d * Math.exp(-0.5 * d * d);
      const edgeSlope = Math.exp(-0.5);
      if ((times.length - i + 1) * pull < edgeSlope && (i + 1) * pull < edgeSlope) return true;
    }
    if (!(b - a > MIN_GAP * h)) return false;
    let cut = this.cache?.get(a, b);
    if (cut === undefined) {
      // Built on the first gap that needs the slope: most runs settle every gap by the bound or the cache.
      this.kernel ??= new Kernel(times, h);
      cut = this.kernel.hasMinimum(a, b);
      this.cache?.set(a, b, cut);
    }
    return cut;
  }
}

/** The density's slope over sorted times with the two dummy points (the hot loop of a replay: kept allocation-free). */
class Kernel {
  private readonly reach: number;
  private readonly below: number;
  private readonly above: number;
  private readonly samples = new Float64Array(2 * SAMPLE_FRACTIONS_FROM_EDGES.length + 7);

  constructor(
    private readonly times: readonly number[],
    private readonly h: number,
  ) {
    this.reach = REACH * h;
    this.below = times[0] - DUMMY_MS;
    this.above = times[times.length - 1] + DUMMY_MS;
  }

  /**
   * The slope at x from the points within `reach`: the sum in ascending point order, the dummy points first and
   * last, as over one array of them all.
   */
  slope(x: number): number {
    const times = this.times;
    const h = this.h;
    const from = x - this.reach;
    const to = x + this.reach;
    let sum = 0;
    if (this.below >= from && this.below <= to) {
      const z = (x - this.below) / h;
      sum -= z * Math.exp(-0.5 * z * z);
    }
    let lo = 0;
    let hi = times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[mid] < from) lo = mid + 1;
      else hi = mid;
    }
    let i = lo;
    for (; i < times.length && times[i] <= to; i++) {
      const z = (x - times[i]) / h;
      sum -= z * Math.exp(-0.5 * z * z);
    }
    if (i === times.length && this.above >= from && this.above <= to) {
      const z = (x - this.above) / h;
      sum -= z * Math.exp(-0.5 * z * z);
    }
    return sum;
  }

  /** Whether the density has a minimum in the gap (a, b): falling somewhere, then rising. */
  hasMinimum(a: number, b: number): boolean {
    const h = this.h;
    // Falling just after a and rising just before b: the usual gap between two visits.
    const edge = h / 100;
    const startX = a + edge;
    const start = this.slope(startX);
    if (start < 0 && this.slope(b - edge) > 0) return true;
    const samples = this.samples;
    let n = 0;
    for (const f of SAMPLE_FRACTIONS_FROM_EDGES) {
      samples[n++] = a + f * h;
      samples[n++] = b - f * h;
    }
    for (let k = 1; k < 8; k++) samples[n++] = a + ((b - a) * k) / 8;
    // Ascending (insertion sort: a handful of values).
    for (let i = 1; i < n; i++) {
      const x = samples[i];
      let j = i - 1;
      while (j >= 0 && samples[j] > x) {
        samples[j + 1] = samples[j];
        j--;
      }
      samples[j + 1] = x;
    }
    let falling = false;
    for (let i = 0; i < n; i++) {
      const x = samples[i];
      if (x <= a || x >= b) continue;
      // The same point as the first reading gives the same slope.
      const s = x === startX ? start : this.slope(x);
      if (s < 0) falling = true;
      else if (s > 0 && falling) return true;
    }
    return false;
  }
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

const isActualDeparture = (p: ClusterPoint) => p.time_type === 'Actual' && isDeparture(p);

/** What postProcessClusters decides inside one cluster: where it starts new port calls, and how it leaves it. */
interface ClusterScan {
  end: number;
  /** Indices after the cluster's first where a new temporary port call starts (ascending). */
  starts: number[];
  /** Whether an Actual departure is still pending at its end (it starts a port call at the next break). */
  departurePending: boolean;
}

/**
 * The temporary port call of point k, as the index range [from, to] of the points that share it: what
 * postProcessClusters over all points gives, computed from the clusters around k alone (a fold runs this for
 * every new timestamp; the whole history each time made replays quadratic). postProcessClusters' state is reset
 * at every break, so each break's decision reads only the cluster before it (its pending departure) and the one
 * after it (the look-ahead), and the decisions inside a cluster read only that cluster.
 */
export function temporaryPortCallOf(
  points: readonly ClusterPoint[],
  k: number,
  cuts: Cuts,
): { from: number; to: number } {
  const around = new ClustersAround(points, cuts);
  let from = -1;
  for (let s = around.startOf(k), upto = k; from < 0; ) {
    const starts = around.scan(s).starts;
    let inside = -1;
    for (const i of starts) if (i <= upto) inside = i;
    if (inside >= 0) from = inside;
    else if (s === 0 || around.breakStarts(s)) from = s;
    else {
      upto = s - 1;
      s = around.startOf(upto);
    }
  }
  let to = -1;
  for (let s = around.startOf(k), after = k; to < 0; ) {
    const { end, starts } = around.scan(s);
    let next = -1;
    for (const i of starts) {
      if (i > after) {
        next = i;
        break;
      }
    }
    if (next >= 0) to = next - 1;
    else if (end === points.length - 1 || around.breakStarts(end + 1)) to = end;
    else {
      s = end + 1;
      after = s;
    }
  }
  return { from, to };
}

/** postProcessClusters' decisions, cluster by cluster, for the clusters asked about (each gap's cut asked once). */
class ClustersAround {
  private readonly cutAt: Int8Array;
  private readonly scans = new Map<number, ClusterScan>();

  constructor(
    private readonly points: readonly ClusterPoint[],
    private readonly cuts: Cuts,
  ) {
    this.cutAt = new Int8Array(points.length).fill(-1);
  }

  private cut(i: number): boolean {
    if (this.cutAt[i] < 0) this.cutAt[i] = this.cuts.before(i) ? 1 : 0;
    return this.cutAt[i] === 1;
  }

  /** The first point of i's cluster. */
  startOf(i: number): number {
    let s = i;
    while (s > 0 && !this.cut(s)) s--;
    return s;
  }

  /** postProcessClusters' loop over the cluster that starts at s (a break, or point 0). */
  scan(s: number): ClusterScan {
    const known = this.scans.get(s);
    if (known) return known;
    const points = this.points;
    let end = s;
    while (end + 1 < points.length && !this.cut(end + 1)) end++;
    const starts: number[] = [];
    let pending = false;
    let departureMs = 0;
    for (let idx = s; idx <= end; idx++) {
      const p = points[idx];
      if (isActualDeparture(p)) {
        pending = true;
        departureMs = p.time_ms;
      }
      // The break itself (s > 0) is decided by breakStarts; it leaves nothing pending.
      if (idx === s && s > 0) pending = false;
      else if (pending && isArrival(p) && p.time_ms - departureMs > DAY_MS) {
        if (idx > s) starts.push(idx);
        pending = false;
      }
    }
    const out = { end, starts, departurePending: pending };
    this.scans.set(s, out);
    return out;
  }

  /** Whether the break at s (a cluster's first point, s > 0) starts a new temporary port call. */
  breakStarts(s: number): boolean {
    const points = this.points;
    if (isActualDeparture(points[s])) return true;
    // The look-ahead: the cluster and the first point after it.
    const last = Math.min(this.scan(s).end + 1, points.length - 1);
    let arrival = false;
    let departure = false;
    for (let f = s; f <= last; f++) {
      if (isArrival(points[f])) arrival = true;
      if (isDeparture(points[f])) departure = true;
    }
    if (arrival || !departure) return true;
    return this.scan(this.startOf(s - 1)).departurePending;
  }
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
