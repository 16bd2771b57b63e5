// The working copy a fold changes (vessel-port-calls.ts): a state's timestamps and port calls as maps, the order
// the clustering reads them in, and the port call ids it hands out. The exported fold functions never change
// their inputs: they copy the state into a Work, apply events, and return its result.

import { type ClusteringRule, DensityCache } from './clustering.ts';
import { newPortCall, type ScanContext, scanPortCall } from './port-call-scan.ts';
import { type CompiledSettings, compileSettings } from './port-call-settings.ts';
import { toMs } from './port-call-time.ts';
import type { PortCall, VesselPortCalls, VesselTimestamp } from './port-call-types.ts';
import type { ProjectionContext } from './vessel-port-calls.ts';

/** A mutable working copy of a state; the exported functions never change their inputs. */
export class Work {
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
