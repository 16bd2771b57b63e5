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

/** Several vessels' snapshots brought up to date in one read. */
export async function catchUpVessels(
  store: EventStore,
  snapshots: readonly (readonly [number, VesselSnapshot])[],
): Promise<Map<number, VesselSnapshot>> {
  const reads = snapshots.map(([imo, s]) => ({ streamId: vesselStream(imo), fromPosition: s.version + 1 }));
  const events = await store.readStreams(reads);
  return new Map(snapshots.map(([imo, snapshot], i) => [imo, evolveVessel(snapshot, events[i])]));
}

/** Which timestamps of the stream exist and which are deleted, with the stream version it was read at. */
export async function loadTrash(store: EventStore, streamId: string): Promise<{ state: TrashState; version: number }> {
  const events = await store.readStream(streamId);
  return { state: evolveTrash(events), version: events.at(-1)?.streamPosition ?? 0 };
}
