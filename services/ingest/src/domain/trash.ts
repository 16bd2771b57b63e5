// Deleting and restoring timestamps ("trash"). A timestamp's id is the global position of its
// TimestampReceived event; the vessel stream says which exist and which are deleted.

import { ApiError, type TimestampDeleted, type TimestampRestored } from '@pcas/contracts';

export interface TrashState {
  /** timestamp id → deleted? */
  timestamps: Map<number, boolean>;
}

export type TrashEvent =
  | { type: 'TimestampDeleted'; data: TimestampDeleted }
  | { type: 'TimestampRestored'; data: TimestampRestored };

export function evolveTrash(
  events: readonly { type: string; data: unknown; globalPosition: number }[],
  state: TrashState = { timestamps: new Map() },
): TrashState {
  const timestamps = new Map(state.timestamps);
  for (const event of events) {
    if (event.type === 'TimestampReceived') timestamps.set(event.globalPosition, false);
    else if (event.type === 'TimestampDeleted') {
      const id = (event.data as TimestampDeleted).timestamp_id;
      if (timestamps.has(id)) timestamps.set(id, true);
    } else if (event.type === 'TimestampRestored') {
      const id = (event.data as TimestampRestored).timestamp_id;
      if (timestamps.has(id)) timestamps.set(id, false);
    }
  }
  return { timestamps };
}

const invalidId = (id: unknown) => ApiError.badRequest(`Invalid timestamp id: ${String(id)}`);

/** Deleting an already deleted timestamp changes nothing (and still succeeds). */
export function decideDeleteTimestamp(state: TrashState, id: number): TrashEvent[] {
  const deleted = state.timestamps.get(id);
  if (deleted === undefined) throw invalidId(id);
  return deleted ? [] : [{ type: 'TimestampDeleted', data: { timestamp_id: id } }];
}

/** Restoring a timestamp that is not deleted changes nothing (and still succeeds). */
export function decideRestoreTimestamp(state: TrashState, id: number): TrashEvent[] {
  const deleted = state.timestamps.get(id);
  if (deleted === undefined) throw invalidId(id);
  return deleted ? [{ type: 'TimestampRestored', data: { timestamp_id: id } }] : [];
}
