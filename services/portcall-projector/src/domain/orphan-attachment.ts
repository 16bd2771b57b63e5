// How orphan timestamps find their port call (docs/domain.md#grouping): in master mode by master ID or by the
// range that covers them, in clustering mode by the cluster they fall in. Both work on a fold's Work.

import { clusterPortCalls, DensityCuts, GapCuts, temporaryPortCallOf } from './clustering.ts';
import {
  byMasterEndDesc,
  isMasterTimestamp,
  JIT_SOURCE,
  masterIdOf,
  opensOrMovesRange,
  rangeCovers,
  resolvePortCall,
  SLOT_MASTER_PREFIX,
} from './master-mode.ts';
import type { PortCall, VesselTimestamp } from './port-call-types.ts';
import type { Work } from './vessel-work.ts';

/** The original attached at most this many orphans per run (master mode). */
const ORPHAN_BATCH = 1000;

/** Attach, unless the port call is done (then the timestamp is trashed instead). */
export function attach(w: Work, t: VesselTimestamp, portCallId: number, ignoreStatus: boolean): boolean {
  const pc = w.portCalls.get(portCallId);
  if (!pc) return false;
  if (!ignoreStatus && pc.status === 'done') {
    t.is_trash = true;
    return false;
  }
  t.port_call_id = portCallId;
  return true;
}

/** A master timestamp opens a port call or moves its range. */
export function parseMasterData(w: Work, t: VesselTimestamp): void {
  const s = w.settings;
  if (!isMasterTimestamp(t, s) || !opensOrMovesRange(t)) return;
  const masterId = masterIdOf(t);
  const jit = t.payload.source === JIT_SOURCE;
  const portCalls = [...w.portCalls.values()];
  // The original looked the master ID up across all vessels; a vessel's stream only knows its own.
  let pc = portCalls.filter((p) => p.master_id === masterId).sort((a, b) => b.seq - a.seq)[0];
  if (!pc) {
    const covering = portCalls.find((p) => rangeCovers(p, t.time_ms, s));
    if (covering) {
      if (jit) covering.master_id = masterId;
      // A clustered port call, or one a slot reservation holds: the timestamp is attached by range later.
      else if (covering.master_id === null || covering.master_id === '') return;
      else if (covering.master_id.startsWith(SLOT_MASTER_PREFIX)) return;
      // Otherwise the new master ID merges into the overlapping port call, which keeps its own ID (kept as the
      // original does: two sources reporting one visit under different IDs give one port call).
      pc = covering;
    }
  }
  if (!pc) pc = w.create(t, masterId);
  if (pc.master_manual) return;
  if (t.state === 'Arrival_Vessel_PortArea' || t.state === 'Arrival_Vessel_Berth') pc.master_start = t.time;
  else if (t.state === 'Departure_Vessel_Berth') pc.master_end = t.time;
}

export interface AttachOptions {
  isFromAgent: boolean;
  ignoreStatus: boolean;
}

/** Master mode: orphans go to the port call of their master ID, else to the one whose range covers them. */
export function attachOrphansByMaster(w: Work, options: AttachOptions): void {
  const s = w.settings;
  // The original's orphans include trashed ones (a timestamp trashed because its port call was done is retried);
  // timestamps deleted or detached by hand are not taken back automatically.
  const orphans = w.s.timestamps.filter((t) => t.port_call_id === null && t.hold === null).slice(0, ORPHAN_BATCH);
  if (orphans.length === 0) return;
  const portCalls = [...w.portCalls.values()];
  const modified = new Set<number>();
  for (const t of orphans) {
    let target: PortCall | undefined;
    if (isMasterTimestamp(t, s)) {
      const masterId = masterIdOf(t);
      target = portCalls.filter((pc) => pc.master_id === masterId).sort(byMasterEndDesc)[0];
    }
    if (!target) {
      const candidates = portCalls.filter((pc) => rangeCovers(pc, t.time_ms, s)).sort(byMasterEndDesc);
      if (candidates.length === 1) target = candidates[0];
      else if (candidates.length > 1) target = resolvePortCall(t, candidates);
    }
    if (target && attach(w, t, target.id, options.ignoreStatus)) modified.add(target.id);
  }
  w.scanAll(modified, false, !options.isFromAgent);
}

/** Clustering mode: orphans join the port call of their cluster, or open one. */
function attachOrphansByClustering(w: Work, options: AttachOptions): void {
  // Deleted timestamps were gone in the original; trashed ones still count as points of the clustering.
  const ordered = w.timeOrdered();
  let deleted = 0;
  let orphanCount = 0;
  let orphanAt = -1;
  for (let i = 0; i < ordered.length; i++) {
    const t = ordered[i];
    if (t.hold === 'deleted') deleted++;
    else if (t.port_call_id === null && !t.is_trash) {
      orphanCount++;
      orphanAt = i - deleted;
    }
  }
  if (orphanCount === 0) return;
  const points = deleted === 0 ? ordered : ordered.filter((t) => t.hold !== 'deleted');
  if (orphanCount === 1 && w.rule !== 'kde') {
    attachOneOrphan(w, points, orphanAt, options);
    return;
  }
  const orphans: number[] = [];
  for (let i = 0; i < points.length; i++) if (points[i].port_call_id === null && !points[i].is_trash) orphans.push(i);
  const clusters = clusterPortCalls(points, w.rule, w.density);
  const inCluster = new Map<number, number[]>();
  for (let i = 0; i < points.length; i++) {
    const pcId = points[i].port_call_id;
    if (pcId === null) continue;
    const list = inCluster.get(clusters[i]);
    if (!list) inCluster.set(clusters[i], [pcId]);
    else if (!list.includes(pcId)) list.push(pcId);
  }
  const modified = new Set<number>();
  for (const i of orphans) {
    const t = points[i];
    let list = inCluster.get(clusters[i]);
    if (!list) {
      list = [w.create(t, null).id];
      inCluster.set(clusters[i], list);
    }
    // Several port calls in one cluster is the original's "clustering mismatch": the last one takes it.
    const target = list[list.length - 1];
    if (attach(w, t, target, false)) modified.add(target);
  }
  w.scanAll(modified, false, !options.isFromAgent);
}

/**
 * The usual case of a fold (one new timestamp, the others placed): the same as the loop above, from the clusters
 * around the orphan alone. Its temporary port call's placed timestamps name the port calls in it, in time order;
 * the last one takes it, or a new one opens.
 */
function attachOneOrphan(w: Work, points: readonly VesselTimestamp[], k: number, options: AttachOptions): void {
  const times = points.map((p) => p.time_ms);
  const cuts = w.rule === 'gap' ? new GapCuts(times) : new DensityCuts(times, w.density);
  const { from, to } = temporaryPortCallOf(points, k, cuts);
  const inCluster: number[] = [];
  for (let i = from; i <= to; i++) {
    const pcId = points[i].port_call_id;
    if (pcId !== null && !inCluster.includes(pcId)) inCluster.push(pcId);
  }
  const t = points[k];
  const target = inCluster.length > 0 ? inCluster[inCluster.length - 1] : w.create(t, null).id;
  if (attach(w, t, target, false)) w.scanAll([target], false, !options.isFromAgent);
}

/** As the original's `timestampsToPortCalls`: the mode decides how orphans attach; modified port calls are scanned. */
export function attachOrphans(w: Work, options: AttachOptions): void {
  if (w.settings.master) attachOrphansByMaster(w, options);
  else attachOrphansByClustering(w, options);
}
