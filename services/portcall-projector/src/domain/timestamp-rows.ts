// The timestamp list row (GET /timestamps, GET /export/timestamps) as a pure fold over vessel-stream events.
// A row is keyed by the global position of its TimestampReceived event, so every replay gives the same ids.

import type { TimestampReceived, VesselEvents } from '@pcas/contracts';
import type { RecordedEvent } from '@pcas/eventstore';
import type { ReceivedTimestamp } from './port-call-types.ts';

/** The original gives people's timestamps the top weight (TimestampRepository::MAX_TIMESTAMP_WEIGHT). */
export const MANUAL_WEIGHT = 999;

export interface TimestampRow extends ReceivedTimestamp {
  id: number;
  port_call_id: number | null;
  is_trash: boolean;
  weight: number;
  created_by: number | null;
  created_at: Date;
  modified_by: number | null;
  modified_at: Date;
  /** Global position of the last event folded into the row: writes never go backwards (redelivery, replays). */
  version: number;
}

/** The part of a recorded event the fold reads. */
export type VesselEvent = Pick<RecordedEvent, 'type' | 'data' | 'metadata' | 'globalPosition' | 'created'>;

const is = <K extends keyof VesselEvents>(
  event: VesselEvent,
  type: K,
): event is VesselEvent & { data: VesselEvents[K] } => event.type === type;

/** Which row an event is about, or undefined for events the list ignores (vessel registrations, renames). */
export function rowIdOf(event: VesselEvent): number | undefined {
  if (is(event, 'TimestampReceived')) return event.globalPosition;
  if (is(event, 'TimestampDeleted') || is(event, 'TimestampRestored')) return event.data.timestamp_id;
  return undefined;
}

const actorOf = (event: VesselEvent): number | null => event.metadata.user_id ?? null;

function received(event: VesselEvent & { data: TimestampReceived }): TimestampRow {
  const data = event.data;
  // API-key posts carry the key's bound user, so created_by is a user id either way (as in the original).
  const createdBy = data.user_id ?? actorOf(event);
  return {
    id: event.globalPosition,
    imo: data.imo,
    vessel_name: data.vessel_name,
    time_type: data.time_type,
    state: data.state,
    time: data.time,
    payload: data.payload ?? {},
    port_call_id: null,
    is_trash: false,
    weight: data.source === 'manual' ? MANUAL_WEIGHT : 0,
    created_by: createdBy,
    created_at: event.created,
    // The original stamps modified_* on insert too (OrmRepository::save).
    modified_by: createdBy,
    modified_at: event.created,
    version: event.globalPosition,
  };
}

function trashed(row: TimestampRow, event: VesselEvent, isTrash: boolean): TimestampRow {
  return {
    ...row,
    is_trash: isTrash,
    modified_by: actorOf(event),
    modified_at: event.created,
    version: event.globalPosition,
  };
}

/**
 * One step of the fold. Events at or before the row's version are already in it (redelivery, re-applied batch)
 * and change nothing; a delete or restore of an unknown row has nothing to change either.
 */
export function evolve(row: TimestampRow | undefined, event: VesselEvent): TimestampRow | undefined {
  if (row && event.globalPosition <= row.version) return row;
  if (is(event, 'TimestampReceived')) return row ?? received(event);
  if (!row) return row;
  if (is(event, 'TimestampDeleted')) return trashed(row, event, true);
  if (is(event, 'TimestampRestored')) return trashed(row, event, false);
  return row;
}

/** Rows a batch changes but does not create itself: the caller loads these before folding. */
export function rowsToLoad(events: VesselEvent[]): number[] {
  const created = new Set<number>();
  const needed = new Set<number>();
  for (const event of events) {
    const id = rowIdOf(event);
    if (id === undefined) continue;
    if (event.type === 'TimestampReceived') created.add(id);
    else if (!created.has(id)) needed.add(id);
  }
  return [...needed];
}

/** Folds a batch over the rows it touches; returns only the rows that changed, in id order. */
export function evolveBatch(current: ReadonlyMap<number, TimestampRow>, events: VesselEvent[]): TimestampRow[] {
  const rows = new Map(current);
  const changed = new Set<number>();
  for (const event of events) {
    const id = rowIdOf(event);
    if (id === undefined) continue;
    const before = rows.get(id);
    const after = evolve(before, event);
    if (after && after !== before) {
      rows.set(id, after);
      changed.add(id);
    }
  }
  return [...changed].sort((a, b) => a - b).map((id) => rows.get(id)!);
}
