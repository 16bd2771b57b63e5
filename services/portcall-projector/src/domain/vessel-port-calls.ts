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
import type { ClusteringRule } from './clustering.ts';
import { attachOrphans, attachOrphansByMaster, parseMasterData } from './orphan-attachment.ts';
import { applyLiveEtaSet, applyRtaSet } from './port-call-rta.ts';
import { closeIfDeparted, departIfStale, forceClose, timerOf } from './port-call-scan.ts';
import type { PortCallSettings } from './port-call-settings.ts';
import { isoMs, isoUtc, shiftMs, toMs } from './port-call-time.ts';
import type { PortCall, VesselPortCalls, VesselTimestamp } from './port-call-types.ts';
import type { Priorities } from './priorities.ts';
import type { VesselEvent } from './timestamp-rows.ts';
import { Work } from './vessel-work.ts';

/** What steers the rules besides the events. */
export interface ProjectionContext {
  settings: PortCallSettings;
  priorities: Priorities;
  /** Clustering mode's grouping rule (clustering.ts); default 'density'. */
  clustering?: ClusteringRule;
}

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

type Apply = (w: Work, event: VesselEvent) => void;

/**
 * What each event does to the port calls, after the clock's tick. PortCallTimersElapsed: the tick is all it does.
 * Vessel registrations and renames change no port call.
 */
const APPLY = new Map<string, Apply>([
  ['TimestampReceived', received],
  ['TimestampDeleted', (w, e) => deleted(w, e.data as TimestampDeleted)],
  ['TimestampRestored', (w, e) => restored(w, e.data as TimestampRestored)],
  ['TimestampPortCallSet', (w, e) => moved(w, e.data as TimestampPortCallSet)],
  ['TimestampPortCallUnset', (w, e) => unset(w, e.data as TimestampPortCallUnset)],
  ['PortCallRangeSet', (w, e) => rangeSet(w, e.data as PortCallRangeSet)],
  ['PortCallForceScanned', (w, e) => w.scanAll([(e.data as PortCallForceScanned).port_call_id], true, true)],
  [
    'PortCallForceClosed',
    (w, e) => {
      const pc = w.portCalls.get((e.data as PortCallForceClosed).port_call_id);
      if (pc) forceClose(pc, w.now);
    },
  ],
  [
    'OrphanTimestampsAttachRequested',
    (w, e) => {
      const data = e.data as OrphanTimestampsAttachRequested;
      attachOrphans(w, { isFromAgent: data.is_from_agent === true, ignoreStatus: data.ignore_status === true });
    },
  ],
  [
    'VesselVisibilitySet',
    (w, e) => {
      w.s.visible = (e.data as VesselVisibilitySet).visible !== false;
    },
  ],
  [
    'VesselTypeSet',
    // Only the ship object's vessel_type_name changes (read-model.ts).
    (w, e) => {
      const type = Number((e.data as VesselTypeSet).vessel_type) || 1;
      // Unknown (1) is kept as absent, so a state never typed and one typed back to Unknown are alike.
      if (type === 1) delete w.s.vessel_type;
      else w.s.vessel_type = type;
    },
  ],
  [
    'PortCallRtaSet',
    (w, e) => {
      const data = e.data as PortCallRtaSet;
      const pc = w.portCalls.get(data.port_call_id);
      if (pc) applyRtaSet(pc, data, e.metadata.user_id ?? null, w.now);
    },
  ],
  [
    'PortCallLiveEtaSet',
    (w, e) => {
      const data = e.data as PortCallLiveEtaSet;
      const pc = w.portCalls.get(data.port_call_id);
      if (pc) applyLiveEtaSet(pc, data, e.metadata.user_id ?? null, w.now);
    },
  ],
]);

function apply(w: Work, event: VesselEvent): void {
  if (event.globalPosition <= w.s.version) return;
  w.position = event.globalPosition;
  // Time only moves forward: a transaction that started earlier may commit (and be ordered) later.
  w.now = Math.max(w.now, event.created.getTime());
  tickAll(w);
  APPLY.get(event.type)?.(w, event);
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
