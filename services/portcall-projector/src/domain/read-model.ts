// What the read models hold of a vessel's port-call state, and what a fold changed in them: the rows an adapter
// writes (docs/domain.md#the-activity-timeline). Each port call row carries, besides the PortCall
// itself, the parts of the API responses that need the rules (the ship object, the timeline, whether the activity
// timeline may show it), so the gateway serves them with plain queries.

import { vesselTypeById } from '@pcas/s211';
import { canonicalJson } from '@pcas/values';
import type { PortCallSettings } from './port-call-settings.ts';
import type { TemplateEntry } from './port-call-template.ts';
import { isoMs } from './port-call-time.ts';
import type { PortCall, VesselPortCalls, VesselTimestamp } from './port-call-types.ts';
import { type Priorities, timestampWeight } from './priorities.ts';
import { type Ship, shipOf } from './ship.ts';
import { portCallTimeline, type Timeline } from './timeline.ts';
import { nextTimerAt } from './vessel-port-calls.ts';

/** A port call as its read-model row stores it. */
export interface PortCallReadModel {
  pc: PortCall;
  /**
   * The ship object with what the port call knows: ports are their codes (`*_port` = `*_port_code`), no VIS
   * details (the reader fills those in); the vessel type's name once a type other than "Unknown" is set.
   */
  ship: Ship;
  /** The timeline; every filled slot's `source` is "" (the reader names the creator from `created_by`). */
  timeline: Timeline;
  /**
   * The activity timeline's static conditions: the vessel is visible and the `to_port` is empty or in
   * VISIBLE_UNLOCODES. The time condition (not done, or done with ATD in the last two hours) is the reader's.
   */
  shown: boolean;
}

export interface ReadModelContext {
  settings: Pick<PortCallSettings, 'visibleUnlocodes'>;
  priorities: Priorities;
  template: readonly TemplateEntry[];
}

/** A timestamp's place in the port calls, as its row stores it. */
export interface TimestampPlacement {
  id: number;
  port_call_id: number | null;
  is_trash: boolean;
  hold: VesselTimestamp['hold'];
  source: VesselTimestamp['source'];
  api_key_id: number | null;
  /** The weight under the priorities now: 999 for people, the key's weight for the pair, else 0. */
  weight: number;
}

/** Everything a fold changed, as rows to write. */
export interface VesselWrites {
  port_calls: PortCallReadModel[];
  deleted_port_call_ids: number[];
  timestamps: TimestampPlacement[];
  /** One per port call written or deleted: the change signals. */
  changed: { port_call_id: number; deleted: boolean }[];
  /** When the next clock rule is due (ISO), or null. */
  next_timer_at: string | null;
}

// Canonical JSON (keys sorted), so values that went through jsonb (which reorders keys) compare equal.
const sameValue = (a: unknown, b: unknown): boolean => canonicalJson(a) === canonicalJson(b);

/** Field by field; nested objects (weights, RTA and live-ETA details) by their canonical JSON. */
function samePortCall(a: PortCall, b: PortCall): boolean {
  const keys = Object.keys(a) as (keyof PortCall)[];
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    const x = a[key];
    const y = b[key];
    if (x === y) continue;
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object' || !sameObject(x, y)) return false;
  }
  return true;
}

/** Flat objects of primitives compare directly (the usual case); anything deeper by canonical JSON. */
function sameObject(x: object, y: object): boolean {
  const a = x as Record<string, unknown>;
  const b = y as Record<string, unknown>;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    const v = a[key];
    if (v !== null && typeof v === 'object') return sameValue(a, b);
    if (v !== b[key]) return false;
  }
  return true;
}

export function portCallReadModel(
  pc: PortCall,
  timestamps: readonly VesselTimestamp[],
  visible: boolean,
  ctx: ReadModelContext,
  vesselType = 1,
): PortCallReadModel {
  const toPort = pc.to_port ?? '';
  return {
    pc,
    ship: shipOf(pc, { vesselTypeName: vesselTypeNameOf(vesselType) }),
    timeline: portCallTimeline(pc, timestamps, {
      template: ctx.template,
      priorities: ctx.priorities,
      sourceOf: () => '',
    }),
    shown: visible && (toPort === '' || ctx.settings.visibleUnlocodes.includes(toPort)),
  };
}

/** The ship object's `vessel_type_name`: the type's name, "" while the type is "Unknown Vessel Type" (1). */
export const vesselTypeNameOf = (vesselType: number): string =>
  vesselType === 1 ? '' : (vesselTypeById(vesselType)?.name ?? '');

export function placementOf(t: VesselTimestamp, priorities: Priorities): TimestampPlacement {
  return {
    id: t.id,
    port_call_id: t.port_call_id,
    is_trash: t.is_trash,
    hold: t.hold,
    source: t.source,
    api_key_id: t.api_key_id,
    weight: timestampWeight(priorities, t),
  };
}

/** Groups a vessel's timestamps by port call (ascending id within each, as the state keeps them). */
function byPortCall(state: VesselPortCalls): Map<number, VesselTimestamp[]> {
  const out = new Map<number, VesselTimestamp[]>();
  for (const t of state.timestamps) {
    if (t.port_call_id === null) continue;
    const list = out.get(t.port_call_id);
    if (list) list.push(t);
    else out.set(t.port_call_id, [t]);
  }
  return out;
}

/**
 * The rows to write after a fold from `before` to `after`. A port call is written when it changed or when a
 * timestamp joined or left it (its timeline may have changed); every port call when the vessel's visibility
 * changed. A timestamp is written when it is new or its place changed. With `full`, everything of `after` is
 * written (a rebuild), and the change signals still name only what differs from `before`.
 */
export function vesselWrites(
  before: VesselPortCalls,
  after: VesselPortCalls,
  ctx: ReadModelContext,
  full = false,
  /** With `full`: the stored rows' timeline and `shown`, so a rebuild also signals port calls only those changed. */
  stored?: ReadonlyMap<number, { timeline: unknown; shown: boolean }>,
): VesselWrites {
  const touched = new Set<number>();
  const timestamps: TimestampPlacement[] = [];
  // Both lists ascend by id and a fold never drops a timestamp: one walk pairs them.
  const old = before.timestamps;
  let j = 0;
  for (const t of after.timestamps) {
    while (j < old.length && old[j].id < t.id) j++;
    const was = j < old.length && old[j].id === t.id ? old[j] : undefined;
    const moved = !was || was.port_call_id !== t.port_call_id || was.is_trash !== t.is_trash || was.hold !== t.hold;
    if (moved) {
      if (was?.port_call_id != null) touched.add(was.port_call_id);
      if (t.port_call_id !== null) touched.add(t.port_call_id);
    }
    if (moved || full) timestamps.push(placementOf(t, ctx.priorities));
  }
  const oldPcs = new Map(before.port_calls.map((pc) => [pc.id, pc]));
  const groups = byPortCall(after);
  const port_calls: PortCallReadModel[] = [];
  const changed: VesselWrites['changed'] = [];
  for (const pc of after.port_calls) {
    const was = oldPcs.get(pc.id);
    // Live, a timestamp joining or leaving tells that the timeline changed; a rebuild compares the stored one.
    const differs =
      !was ||
      before.visible !== after.visible ||
      (before.vessel_type ?? 1) !== (after.vessel_type ?? 1) ||
      (!full && touched.has(pc.id)) ||
      !samePortCall(was, pc);
    if (!differs && !full) continue;
    const row = portCallReadModel(pc, groups.get(pc.id) ?? [], after.visible, ctx, after.vessel_type);
    port_calls.push(row);
    const old = stored?.get(pc.id);
    const rowDiffers =
      full && stored !== undefined && (!old || old.shown !== row.shown || !sameValue(old.timeline, row.timeline));
    if (differs || rowDiffers) changed.push({ port_call_id: pc.id, deleted: false });
  }
  const present = new Set(after.port_calls.map((pc) => pc.id));
  const deleted_port_call_ids = before.port_calls.filter((pc) => !present.has(pc.id)).map((pc) => pc.id);
  for (const id of deleted_port_call_ids) changed.push({ port_call_id: id, deleted: true });
  const next = nextTimerAt(after);
  return {
    port_calls,
    deleted_port_call_ids,
    timestamps,
    changed,
    next_timer_at: next === null ? null : isoMs(next.getTime()),
  };
}
