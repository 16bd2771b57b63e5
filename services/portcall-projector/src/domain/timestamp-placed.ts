// The projector's news for the VESSEL push (docs/domain.md#push-notifications): which new timestamps a fold placed on
// a port call, and whether each is the heaviest there for its time type and state. Pure: the adapter appends them
// as TimestampPlaced in the transaction of the read-model change.

import type { TimestampPlaced } from '@pcas/contracts';
import type { VesselPortCalls } from './port-call-types.ts';
import { type Priorities, timestampWeight } from './priorities.ts';

/**
 * The placements of the timestamps `newIds` (timestamps this fold received) in `after`: those on a port call and not
 * trashed. `heaviest`: no other live timestamp of the same port call, time type and state weighs more (the
 * original pushed only then).
 */
export function placedTimestamps(
  after: VesselPortCalls,
  newIds: ReadonlySet<number>,
  priorities: Priorities,
): TimestampPlaced[] {
  if (newIds.size === 0) return [];
  const out: TimestampPlaced[] = [];
  for (const t of after.timestamps) {
    if (!newIds.has(t.id) || t.port_call_id === null || t.is_trash) continue;
    const weight = timestampWeight(priorities, t);
    const heavier = after.timestamps.some(
      (o) =>
        o.port_call_id === t.port_call_id &&
        o.time_type === t.time_type &&
        o.state === t.state &&
        !o.is_trash &&
        timestampWeight(priorities, o) > weight,
    );
    out.push({
      imo: after.imo,
      port_call_id: t.port_call_id,
      timestamp_id: t.id,
      time_type: t.time_type,
      state: t.state,
      time: t.time,
      source: t.source,
      heaviest: !heavier,
      vessel_name: t.vessel_name,
    });
  }
  return out;
}
