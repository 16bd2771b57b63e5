// A vessel's port calls as a fold over its stream (`vessel-<imo>`): docs/domain.md#grouping to #corrections. The
// original ran these rules as side effects of each request; here every input is an event (timestamps,
// deletes and restores, manual corrections, timer ticks), "now" is the event's time, and settings and priorities
// are parameters. The same events under the same settings and priorities give the same port calls, so a replay
// (rebuild) reproduces the live state, and a rebuild under new priorities re-derives it.
//
// Port call ids are the id of the timestamp that opened the port call (a global position: unique across vessels
// and stable across replays). Where the original's rules read "by id", the creation order `seq` is used.

import type {
  OrphanTimestampsAttachRequested,
  PortCallForceClosed,
  PortCallForceScanned,
  PortCallLiveEtaSet,
  PortCallRangeSet,
  PortCallRtaSet,
  TimestampDeleted,
  TimestampPortCallSet,
  TimestampPortCallUnset,
  TimestampReceived,
  TimestampRestored,
  VesselTypeSet,
  VesselVisibilitySet,
} from '@pcas/contracts';
import {
  type ClusteringRule,
  clusterPortCalls,
  DensityCache,
  DensityCuts,
  GapCuts,
  temporaryPortCallOf,
} from './clustering.ts';
import {
  byMasterEndDesc,
  isMasterTimestamp,
  JIT_SOURCE,
  masterIdOf,
  opensOrMovesRange,
  resolvePortCall,
  SLOT_MASTER_PREFIX,
} from './master-mode.ts';
import { applyLiveEtaSet, applyRtaSet } from './port-call-rta.ts';
import {
  closeIfDeparted,
  departIfStale,
  forceClose,
  newPortCall,
  type ScanContext,
  scanPortCall,
  timerOf,
} from './port-call-scan.ts';
import { type CompiledSettings, compileSettings, type PortCallSettings } from './port-call-settings.ts';
import { isoMs, isoUtc, shiftMs, toMs } from './port-call-time.ts';
import type { PortCall, VesselPortCalls, VesselTimestamp } from './port-call-types.ts';
import type { Priorities } from './priorities.ts';
import type { VesselEvent } from './timestamp-rows.ts';

/** What steers the rules besides the events. */
export interface ProjectionContext {
  settings: PortCallSettings;
  priorities: Priorities;
  /** Clustering mode's grouping rule (clustering.ts); default 'density'. */
  clustering?: ClusteringRule;
}

/** The original attached at most this many orphans per run (master mode). */
const ORPHAN_BATCH = 1000;

export function emptyVesselPortCalls(imo: number): VesselPortCalls {
  return {
    imo,
    visible: true,
    version: 0,
    clock: null,
    timestamps: [],
    port_calls: [],
    next_seq: 1,
    retired_port_call_ids: [],
  };
}

/** A mutable working copy of a state; the exported functions never change their inputs. */
class Work {
  readonly s: VesselPortCalls;
  readonly timestamps = new Map<number, VesselTimestamp>();
  readonly portCalls = new Map<number, PortCall>();
  readonly retired: Set<number>;
  readonly settings: CompiledSettings;
  readonly rule: ClusteringRule;
  now: number;
  /** Global position of the event being applied. */
  position = 0;
  private byTime: VesselTimestamp[] | null = null;
  /** Clustering decisions kept from one event to the next of the same fold (never part of the state). */
  readonly density = new DensityCache();

  constructor(
    state: VesselPortCalls,
    readonly ctx: ProjectionContext,
  ) {
    this.s = { ...state, timestamps: state.timestamps.map((t) => ({ ...t })), port_calls: [] };
    for (const t of this.s.timestamps) this.timestamps.set(t.id, t);
    for (const pc of state.port_calls) {
      this.portCalls.set(pc.id, { ...pc, payload_key_weights: { ...pc.payload_key_weights } });
    }
    this.retired = new Set(state.retired_port_call_ids);
    this.settings = compileSettings(ctx.settings);
    this.rule = ctx.clustering ?? 'density';
    this.now = state.clock === null ? 0 : toMs(state.clock);
  }

  result(): VesselPortCalls {
    return {
      ...this.s,
      port_calls: [...this.portCalls.values()].sort((a, b) => a.seq - b.seq),
      retired_port_call_ids: [...this.retired].sort((a, b) => a - b),
    };
  }

  get scan(): ScanContext {
    return { settings: this.settings, priorities: this.ctx.priorities, now: this.now };
  }

  addTimestamp(t: VesselTimestamp): void {
    const list = this.s.timestamps;
    if (list.length === 0 || list[list.length - 1].id < t.id) list.push(t);
    else
      list.splice(
        lowerBound(list, t.id, (x) => x.id),
        0,
        t,
      );
    this.timestamps.set(t.id, t);
    if (this.byTime) this.byTime.splice(upperBoundByTime(this.byTime, t), 0, t);
    this.density.touch(t.time_ms);
  }

  /** Timestamps in time order (ties by id): the order the clustering agent read them in. */
  timeOrdered(): VesselTimestamp[] {
    if (!this.byTime) this.byTime = [...this.s.timestamps].sort(byTimeThenId);
    return this.byTime;
  }

  attachedTo(portCallId: number): VesselTimestamp[] {
    return this.s.timestamps.filter((t) => t.port_call_id === portCallId);
  }

  /** A new port call, opened by a timestamp; its id is that timestamp's id unless that id is taken. */
  create(opener: VesselTimestamp, masterId: string | null): PortCall {
    const pc = newPortCall(this.allocateId(opener.id), this.s.imo, this.s.next_seq++, opener.time, masterId);
    this.portCalls.set(pc.id, pc);
    return pc;
  }

  private allocateId(preferred: number): number {
    const free = (id: number) => !this.portCalls.has(id) && !this.retired.has(id);
    if (free(preferred)) return preferred;
    // The opener already opened one (it left it and came back): take another position of this stream.
    if (this.position > 0 && free(this.position)) return this.position;
    for (let i = this.s.timestamps.length - 1; i >= 0; i--) {
      if (free(this.s.timestamps[i].id)) return this.s.timestamps[i].id;
    }
    return preferred;
  }

  remove(portCallId: number): void {
    this.portCalls.delete(portCallId);
    this.retired.add(portCallId);
  }

  /** Scans port calls in order; empty ones are deleted. */
  scanAll(ids: Iterable<number>, force: boolean, suppressExternal: boolean): void {
    for (const id of ids) {
      const pc = this.portCalls.get(id);
      if (!pc) continue;
      const scanned = scanPortCall(pc, this.attachedTo(id), this.scan, { force, suppressExternal });
      if (scanned) this.portCalls.set(id, scanned);
      else this.remove(id);
    }
  }
}

const byTimeThenId = (a: VesselTimestamp, b: VesselTimestamp) => a.time_ms - b.time_ms || a.id - b.id;

function lowerBound<T>(list: readonly T[], id: number, idOf: (x: T) => number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (idOf(list[mid]) < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function upperBoundByTime(list: readonly VesselTimestamp[], t: VesselTimestamp): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (byTimeThenId(list[mid], t) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Attach, unless the port call is done (then the timestamp is trashed instead). */
function attach(w: Work, t: VesselTimestamp, portCallId: number, ignoreStatus: boolean): boolean {
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
function parseMasterData(w: Work, t: VesselTimestamp): void {
  const s = w.settings;
  if (!isMasterTimestamp(t, s) || !opensOrMovesRange(t)) return;
  const masterId = masterIdOf(t);
  const jit = t.payload.source === JIT_SOURCE;
  const portCalls = [...w.portCalls.values()];
  // The original looked the master ID up across all vessels; a vessel's stream only knows its own.
  let pc = portCalls.filter((p) => p.master_id === masterId).sort((a, b) => b.seq - a.seq)[0];
  if (!pc) {
    const plusStart = shiftMs(t.time_ms, s.startBuffer, 1);
    const minusEnd = shiftMs(t.time_ms, s.endBuffer, -1);
    const covering = portCalls.find((p) => covers(p, plusStart, minusEnd));
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

/** `master_start <= time + start buffer AND master_end >= time - end buffer`, both bounds set. */
function covers(pc: PortCall, plusStart: number, minusEnd: number): boolean {
  return (
    pc.master_start !== null &&
    pc.master_end !== null &&
    toMs(pc.master_start) <= plusStart &&
    toMs(pc.master_end) >= minusEnd
  );
}

interface AttachOptions {
  isFromAgent: boolean;
  ignoreStatus: boolean;
}

/** Master mode: orphans go to the port call of their master ID, else to the one whose range covers them. */
function attachOrphansByMaster(w: Work, options: AttachOptions): void {
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
      const plusStart = shiftMs(t.time_ms, s.startBuffer, 1);
      const minusEnd = shiftMs(t.time_ms, s.endBuffer, -1);
      const candidates = portCalls.filter((pc) => covers(pc, plusStart, minusEnd)).sort(byMasterEndDesc);
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
function attachOrphans(w: Work, options: AttachOptions): void {
  if (w.settings.master) attachOrphansByMaster(w, options);
  else attachOrphansByClustering(w, options);
}

/** The clock rules for every port call: force-depart after 30 days, then close 180 minutes after departure. */
function tickAll(w: Work): void {
  for (const pc of w.portCalls.values()) {
    if (pc.status === 'done') continue;
    departIfStale(pc, w.now);
    closeIfDeparted(pc, w.now);
  }
}

function received(w: Work, event: VesselEvent): void {
  const d = event.data as TimestampReceived;
  if (w.timestamps.has(event.globalPosition)) return;
  // Stored in the one form a read model gives back (whole seconds, `+00:00`), so a state loaded from the read
  // models folds on exactly as the one in memory.
  const ms = toMs(d.time);
  const time = Number.isNaN(ms) ? d.time : isoUtc(ms);
  const t: VesselTimestamp = {
    id: event.globalPosition,
    imo: d.imo,
    vessel_name: d.vessel_name,
    time_type: d.time_type,
    state: d.state,
    time,
    time_ms: toMs(time),
    payload: d.payload ?? {},
    source: d.source,
    api_key_id: d.api_key_id ?? null,
    // API-key posts carry the key's bound user, so created_by is a user id either way (as the timestamp list).
    created_by: d.user_id ?? event.metadata.user_id ?? null,
    created_at: isoUtc(event.created.getTime()),
    port_call_id: null,
    is_trash: false,
    hold: null,
  };
  w.addTimestamp(t);
  // Manual and data-source posts ran the same code in the original (AgentService::timestamp).
  parseMasterData(w, t);
  attachOrphans(w, { isFromAgent: true, ignoreStatus: false });
}

/** DELETE /timestamps: the timestamp leaves its port call, which is force-scanned (deleted when empty). */
function deleted(w: Work, data: TimestampDeleted): void {
  const t = w.timestamps.get(data.timestamp_id);
  if (!t) return;
  const old = t.port_call_id;
  t.port_call_id = null;
  t.is_trash = true;
  if (t.hold !== 'deleted') w.density.touch(t.time_ms);
  t.hold = 'deleted';
  if (old !== null) w.scanAll([old], true, true);
}

/** POST /restore-timestamp: untrash only; it stays an orphan until orphans are next attached. */
function restored(w: Work, data: TimestampRestored): void {
  const t = w.timestamps.get(data.timestamp_id);
  if (!t) return;
  if (t.hold === 'deleted') w.density.touch(t.time_ms);
  t.is_trash = false;
  t.hold = null;
}

/** POST /update-port-call-id: move, untrash, force-scan the new port call and then the old one. */
function moved(w: Work, data: TimestampPortCallSet): void {
  const t = w.timestamps.get(data.timestamp_id);
  if (!t || !w.portCalls.has(data.port_call_id)) return;
  const old = t.port_call_id;
  if (t.hold === 'deleted') w.density.touch(t.time_ms);
  t.port_call_id = data.port_call_id;
  t.is_trash = false;
  t.hold = null;
  w.scanAll(old === null ? [data.port_call_id] : [data.port_call_id, old], true, true);
}

/** POST /unset-port-call-id: detach, trash, force-scan the old port call. */
function unset(w: Work, data: TimestampPortCallUnset): void {
  const t = w.timestamps.get(data.timestamp_id);
  if (!t) return;
  const old = t.port_call_id;
  if (t.hold === 'deleted') w.density.touch(t.time_ms);
  t.port_call_id = null;
  t.is_trash = true;
  t.hold = 'unset';
  if (old !== null) w.scanAll([old], true, true);
}

/**
 * POST /port-call-range: the manual range; the port call's timestamps and every timestamp of the vessel in the
 * range (plus buffers) are detached, orphans are attached again whatever the port calls' status, and every port
 * call that lost timestamps is force-scanned.
 */
function rangeSet(w: Work, data: PortCallRangeSet): void {
  const pc = w.portCalls.get(data.port_call_id);
  if (!pc) return;
  pc.master_start = data.start;
  pc.master_end = data.end;
  pc.master_manual = true;
  const modified = new Set<number>([pc.id]);
  const from = shiftMs(toMs(data.start), w.settings.startBuffer, -1);
  const to = shiftMs(toMs(data.end), w.settings.endBuffer, 1);
  for (const t of w.s.timestamps) {
    if (t.port_call_id === pc.id) t.port_call_id = null;
    else if (t.port_call_id !== null && t.time_ms >= from && t.time_ms <= to) {
      modified.add(t.port_call_id);
      t.port_call_id = null;
    }
  }
  // Master-mode attachment whatever the mode, as the original: the manual range itself decides, so in clustering
  // mode too the timestamps in it join this port call rather than new clusters.
  attachOrphansByMaster(w, { isFromAgent: false, ignoreStatus: true });
  w.scanAll(modified, true, true);
}

function apply(w: Work, event: VesselEvent): void {
  if (event.globalPosition <= w.s.version) return;
  w.position = event.globalPosition;
  // Time only moves forward: a transaction that started earlier may commit (and be ordered) later.
  w.now = Math.max(w.now, event.created.getTime());
  tickAll(w);
  switch (event.type) {
    case 'TimestampReceived':
      received(w, event);
      break;
    case 'TimestampDeleted':
      deleted(w, event.data as TimestampDeleted);
      break;
    case 'TimestampRestored':
      restored(w, event.data as TimestampRestored);
      break;
    case 'TimestampPortCallSet':
      moved(w, event.data as TimestampPortCallSet);
      break;
    case 'TimestampPortCallUnset':
      unset(w, event.data as TimestampPortCallUnset);
      break;
    case 'PortCallRangeSet':
      rangeSet(w, event.data as PortCallRangeSet);
      break;
    case 'PortCallForceScanned':
      w.scanAll([(event.data as PortCallForceScanned).port_call_id], true, true);
      break;
    case 'PortCallForceClosed': {
      const pc = w.portCalls.get((event.data as PortCallForceClosed).port_call_id);
      if (pc) forceClose(pc, w.now);
      break;
    }
    case 'OrphanTimestampsAttachRequested': {
      const data = event.data as OrphanTimestampsAttachRequested;
      attachOrphans(w, { isFromAgent: data.is_from_agent === true, ignoreStatus: data.ignore_status === true });
      break;
    }
    case 'VesselVisibilitySet':
      w.s.visible = (event.data as VesselVisibilitySet).visible !== false;
      break;
    case 'VesselTypeSet':
      // Only the ship object's vessel_type_name changes (read-model.ts).
      {
        const type = Number((event.data as VesselTypeSet).vessel_type) || 1;
        // Unknown (1) is kept as absent, so a state never typed and one typed back to Unknown are alike.
        if (type === 1) delete w.s.vessel_type;
        else w.s.vessel_type = type;
      }
      break;
    case 'PortCallRtaSet': {
      const data = event.data as PortCallRtaSet;
      const pc = w.portCalls.get(data.port_call_id);
      if (pc) applyRtaSet(pc, data, event.metadata.user_id ?? null, w.now);
      break;
    }
    case 'PortCallLiveEtaSet': {
      const data = event.data as PortCallLiveEtaSet;
      const pc = w.portCalls.get(data.port_call_id);
      if (pc) applyLiveEtaSet(pc, data, event.metadata.user_id ?? null, w.now);
      break;
    }
    // PortCallTimersElapsed: the tick above is all it does. Vessel registrations and renames change no port call.
  }
  w.s.version = event.globalPosition;
  w.s.clock = isoMs(w.now);
}

/** One step of the fold. Events at or before the state's version are already in it and change nothing. */
export function evolve(state: VesselPortCalls, event: VesselEvent, ctx: ProjectionContext): VesselPortCalls {
  if (event.globalPosition <= state.version) return state;
  const w = new Work(state, ctx);
  apply(w, event);
  return w.result();
}

/** Folds events in stream order (one working copy for the whole batch). */
export function foldVessel(
  state: VesselPortCalls,
  events: readonly VesselEvent[],
  ctx: ProjectionContext,
): VesselPortCalls {
  if (events.every((e) => e.globalPosition <= state.version)) return state;
  const w = new Work(state, ctx);
  for (const event of events) apply(w, event);
  return w.result();
}

/** A vessel's port calls from its whole stream: what a rebuild computes. */
export function replayVessel(imo: number, events: readonly VesselEvent[], ctx: ProjectionContext): VesselPortCalls {
  return foldVessel(emptyVesselPortCalls(imo), events, ctx);
}

export interface DueTimer {
  port_call_id: number;
  at: Date;
  /** `depart`: 30 days after its last known time; `close`: 180 minutes after departure. */
  kind: 'depart' | 'close';
}

/**
 * The clock rules still to come, earliest first: when to append PortCallTimersElapsed (or call `tick`). With
 * `now`, only those due by then.
 */
export function dueTimers(state: VesselPortCalls, now?: Date): DueTimer[] {
  const timers: DueTimer[] = [];
  for (const pc of state.port_calls) {
    const timer = timerOf(pc);
    if (timer && (now === undefined || timer.at <= now.getTime())) {
      timers.push({ port_call_id: pc.id, at: new Date(timer.at), kind: timer.kind });
    }
  }
  return timers.sort((a, b) => a.at.getTime() - b.at.getTime() || a.port_call_id - b.port_call_id);
}

/** The earliest due timer, or null when no port call waits on the clock. */
export function nextTimerAt(state: VesselPortCalls): Date | null {
  return dueTimers(state)[0]?.at ?? null;
}

/**
 * Applies the clock rules at `now` without an event. Prefer appending PortCallTimersElapsed: the event puts the
 * tick at a fixed point of the stream, so a replay applies it exactly where the live projection did.
 */
export function tick(state: VesselPortCalls, now: Date, ctx: ProjectionContext): VesselPortCalls {
  const w = new Work(state, ctx);
  w.now = Math.max(w.now, now.getTime());
  tickAll(w);
  const out = w.result();
  return { ...out, clock: state.clock };
}

export const portCallOf = (state: VesselPortCalls, id: number): PortCall | undefined =>
  state.port_calls.find((pc) => pc.id === id);

export const timestampOf = (state: VesselPortCalls, id: number): VesselTimestamp | undefined =>
  state.timestamps.find((t) => t.id === id);

/** A port call's timestamps in id order (what its scan and timeline read). */
export const timestampsOfPortCall = (state: VesselPortCalls, id: number): VesselTimestamp[] =>
  state.timestamps.filter((t) => t.port_call_id === id);

/** Timestamps of the vessel without a port call (GET /non-port-call-timestamps). */
export const orphanTimestamps = (state: VesselPortCalls): VesselTimestamp[] =>
  state.timestamps.filter((t) => t.port_call_id === null);

/** What a fold changed, for an adapter that writes read models and publishes `portcall.changed`. */
export interface VesselChanges {
  /** Created or changed port calls. */
  port_calls: PortCall[];
  deleted_port_call_ids: number[];
  /** Timestamps whose port call or trash flag changed (or that are new). */
  timestamps: { id: number; port_call_id: number | null; is_trash: boolean }[];
  visibility_changed: boolean;
}

function samePortCall(a: PortCall, b: PortCall): boolean {
  for (const key of Object.keys(a) as (keyof PortCall)[]) {
    const x = a[key];
    const y = b[key];
    if (x === y) continue;
    if (typeof x === 'object' && x !== null && typeof y === 'object' && y !== null) {
      if (JSON.stringify(x) !== JSON.stringify(y)) return false;
    } else return false;
  }
  return Object.keys(a).length === Object.keys(b).length;
}

export function diffVessel(before: VesselPortCalls, after: VesselPortCalls): VesselChanges {
  const old = new Map(before.port_calls.map((pc) => [pc.id, pc]));
  const now = new Set(after.port_calls.map((pc) => pc.id));
  const oldTs = new Map(before.timestamps.map((t) => [t.id, t]));
  return {
    port_calls: after.port_calls.filter((pc) => {
      const was = old.get(pc.id);
      return !was || !samePortCall(was, pc);
    }),
    deleted_port_call_ids: before.port_calls.filter((pc) => !now.has(pc.id)).map((pc) => pc.id),
    timestamps: after.timestamps
      .filter((t) => {
        const was = oldTs.get(t.id);
        return !was || was.port_call_id !== t.port_call_id || was.is_trash !== t.is_trash;
      })
      .map((t) => ({ id: t.id, port_call_id: t.port_call_id, is_trash: t.is_trash })),
    visibility_changed: before.visible !== after.visible,
  };
}
