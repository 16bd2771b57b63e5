// Access to `vessel-<imo>` streams through the event store.

import { vesselStream } from '@pcas/contracts';
import type { EventStore } from '@pcas/eventstore';
import type { Queryable } from '@pcas/sql';
import { evolveTrash, type TrashState } from '../domain/trash.ts';
import { emptySnapshot, evolveVessel, type VesselSnapshot } from '../domain/vessel.ts';

/** Brings a snapshot up to date by reading only the events after its version. */
export async function catchUpVessel(
  store: EventStore,
  imo: number,
  snapshot: VesselSnapshot = emptySnapshot(),
  tx?: Queryable,
): Promise<VesselSnapshot> {
  const events = await store.readStream(vesselStream(imo), { fromPosition: snapshot.version + 1, tx });
  return evolveVessel(snapshot, events);
}

/** Which timestamps of the stream exist and which are deleted, with the stream version it was read at. */
export async function loadTrash(store: EventStore, streamId: string): Promise<{ state: TrashState; version: number }> {
  const events = await store.readStream(streamId);
  return { state: evolveTrash(events), version: events.at(-1)?.streamPosition ?? 0 };
}
