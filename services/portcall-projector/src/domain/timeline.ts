// The activity-timeline object of a port call (docs/domain.md#the-timeline): its
// timestamps (plus the live ETA and the RTA as synthetic ones), filtered by weight, placed into the template's
// slots, the last kept timestamp winning each slot.

import { slotKey, type TemplateEntry } from './port-call-template.ts';
import type { PortCall, VesselTimestamp } from './port-call-types.ts';
import { heavierFlags, type Priorities, timestampWeight } from './priorities.ts';

/** A timestamp as the timeline factory takes it; any further fields are kept in its slot as they are. */
export interface TimelineInput {
  time_type: string;
  state: string;
  time?: string | null;
  created_at?: string | null;
  created_by?: number | null;
  /** An object, or its JSON text (as raw rows carry it). */
  payload?: unknown;
  weight?: number;
  [field: string]: unknown;
}

/** A filled slot (the timestamp plus `source`) or a placeholder `{time_type, state[, payload:{direction}]}`. */
export interface TimelineSlot {
  time_type: string;
  state: string;
  [field: string]: unknown;
}

export interface TimelineEvent {
  id: 1 | 2 | 3;
  location: 'sea' | 'port';
  timestamps: TimelineSlot[];
}

/** `{"id":1,"events":[sea arriving, at berth, sea departing]}`. */
export interface Timeline {
  id: 1;
  events: [TimelineEvent, TimelineEvent, TimelineEvent];
}

/** Names the creator of a timestamp: the API key's name for a data source, "First Last (email)" for a person. */
export type SourceOf = (createdBy: number | null | undefined) => string;

const GROUPS = [
  { group: 'seaArriving', id: 1, location: 'sea' },
  { group: 'atBerth', id: 2, location: 'port' },
  { group: 'seaDeparting', id: 3, location: 'sea' },
] as const;

function decodePayload(payload: unknown): unknown {
  if (typeof payload !== 'string') return payload;
  try {
    return JSON.parse(payload);
  } catch {
    return null;
  }
}

const isEmptyPayload = (p: unknown) =>
  p === null ||
  p === undefined ||
  p === '' ||
  (Array.isArray(p) && p.length === 0) ||
  (typeof p === 'object' && Object.keys(p as object).length === 0);

/** A slot's content: the fields as given, the payload decoded and left out when empty, no `group`. */
function slotOf(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) {
    if (key === 'payload') {
      const decoded = decodePayload(fields.payload);
      if (!isEmptyPayload(decoded)) out.payload = decoded;
    } else if (key !== 'group') out[key] = fields[key];
  }
  return out;
}

/** A template slot as the timeline shows it: its key, and the template line its placeholder copies. */
interface LayoutSlot {
  key: string;
  time_type: string;
  state: string;
  payload: Record<string, string>;
  /** Whether the placeholder shows the payload (a copy of the line's, when not empty). */
  withPayload: boolean;
}

/**
 * A template's slots per group (GROUPS order), de-duplicated by slot key: a repeated key keeps its first place
 * and takes the later line (its group and payload), as the original's keyed array. Worked out once per template
 * (templates are never changed), not once per timeline.
 */
const layouts = new WeakMap<readonly TemplateEntry[], LayoutSlot[][]>();

function layoutOf(template: readonly TemplateEntry[]): LayoutSlot[][] {
  let layout = layouts.get(template);
  if (!layout) {
    const slots = new Map<string, TemplateEntry>();
    for (const entry of template) slots.set(slotKey(entry.time_type, entry.state, entry.payload), entry);
    const all = [...slots].map(([key, entry]) => ({
      key,
      group: entry.group,
      time_type: entry.time_type,
      state: entry.state,
      payload: entry.payload,
      withPayload: !isEmptyPayload({ ...entry.payload }),
    }));
    layout = GROUPS.map(({ group }) =>
      all
        .filter((s) => s.group === group)
        .map(({ key, time_type, state, payload, withPayload }) => ({ key, time_type, state, payload, withPayload })),
    );
    layouts.set(template, layout);
  }
  return layout;
}

/**
 * The factory step (the original's test vectors check it): timestamps indexed by slot key, later ones
 * overwriting earlier ones; every template slot in template order gets its timestamp (plus `source`) or the bare
 * template entry. Timestamps whose key has no slot are not shown; duplicate template lines give one slot.
 */
export function buildTimeline(
  template: readonly TemplateEntry[],
  timestamps: readonly TimelineInput[],
  sourceOf: SourceOf,
): Timeline {
  const byKey = new Map<string, TimelineInput>();
  for (const t of timestamps) byKey.set(slotKey(t.time_type, t.state, decodePayload(t.payload)), t);
  const layout = layoutOf(template);
  const events = GROUPS.map(({ id, location }, g) => ({
    id,
    location,
    timestamps: layout[g].map((s): TimelineSlot => {
      const matched = byKey.get(s.key);
      if (matched) {
        const slot = slotOf(matched);
        slot.source = sourceOf(matched.created_by ?? null);
        return slot as TimelineSlot;
      }
      return s.withPayload
        ? { time_type: s.time_type, state: s.state, payload: { ...s.payload } }
        : { time_type: s.time_type, state: s.state };
    }),
  }));
  return { id: 1, events: events as Timeline['events'] };
}

/** Statuses in which an Actual Departure_Vessel_Berth is shown. */
const SHOWS_ATD = new Set(['departed berth', 'departed', 'done']);

export interface PortCallTimelineOptions {
  template: readonly TemplateEntry[];
  priorities: Priorities;
  sourceOf: SourceOf;
}

/** The newest this many timestamps of a port call make its timeline. */
const TIMELINE_LIMIT = 1000;

/**
 * A port call's timeline: its timestamps in id order reduced to the shown fields, the live ETA and the RTA
 * appended as synthetic timestamps of weight 1, the weight filter in list order (a timestamp counts when its
 * weight is at least the highest so far for its time type and state; direction is not part of that key), the
 * ATD hidden until the port call has departed, then the template's slots.
 */
export function portCallTimeline(
  pc: PortCall,
  timestamps: readonly VesselTimestamp[],
  options: PortCallTimelineOptions,
): Timeline {
  const items: TimelineInput[] = timestamps.slice(-TIMELINE_LIMIT).map((t) => ({
    time_type: t.time_type,
    state: t.state,
    time: t.time,
    created_at: t.created_at,
    created_by: t.created_by,
    payload: t.payload,
    weight: timestampWeight(options.priorities, t),
  }));
  const live = pc.live_eta_details;
  if (live && live.updated_by !== undefined && live.updated_by !== null && live.updated_by !== '') {
    items.push({
      time_type: 'LiveEstimated',
      state: 'Arrival_Vessel_PortArea',
      time: pc.live_eta,
      created_at: (live.updated_at as string | undefined) ?? null,
      created_by: Number(live.updated_by),
      payload: {},
      weight: 1,
    });
  }
  if (pc.rta) {
    items.push({
      time_type: 'Recommended',
      state: 'Arrival_Vessel_PortArea',
      time: pc.rta,
      created_at: pc.rta_details?.updated_at ?? null,
      created_by: pc.rta_details?.updated_by ?? null,
      payload: {},
      weight: 1,
    });
  }
  const keep = heavierFlags(
    items,
    (t) => `${t.time_type}\u0000${t.state}`,
    (t) => t.weight ?? 0,
  );
  const kept = items.filter(
    (t, i) =>
      keep[i] && !(t.time_type === 'Actual' && t.state === 'Departure_Vessel_Berth' && !SHOWS_ATD.has(pc.status)),
  );
  return buildTimeline(options.template, kept, options.sourceOf);
}

/** All slots of a timeline in order (GET /port-call's `timestamps`). */
export const timelineSlots = (timeline: Timeline): TimelineSlot[] => timeline.events.flatMap((e) => e.timestamps);
