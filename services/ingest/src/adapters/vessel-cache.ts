// The known vessels' snapshots {name, stream version} that make a known vessel's post one append
// (docs/port-calls.md#ingest). Every append made from a snapshot carries its version as the expected version (or
// checks the version it reached), so a stale entry fails or is caught up on, never writes wrong events.

import type { VesselSnapshot } from '../domain/vessel.ts';

/** A bounded least-recently-used map (Map keeps insertion order; a hit is moved to the end). */
export class VesselCache {
  private readonly entries = new Map<number, VesselSnapshot>();
  constructor(private readonly max: number) {}

  get(imo: number): VesselSnapshot | undefined {
    const hit = this.entries.get(imo);
    if (hit) {
      this.entries.delete(imo);
      this.entries.set(imo, hit);
    }
    return hit;
  }

  set(imo: number, snapshot: VesselSnapshot): void {
    this.entries.delete(imo);
    this.entries.set(imo, snapshot);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(imo: number): void {
    this.entries.delete(imo);
  }
}
