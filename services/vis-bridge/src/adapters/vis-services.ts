// The VIS services known here (vis.vessels), as the sends look them up: lookups made at the same moment (concurrent
// sends) share one query, and a service found is remembered for a moment (a busy port sends to the same few
// services, and the lookup was a round trip in every send's path). VIS services are never removed; a change
// recorded by this process forgets its entry at once, one recorded by another process is seen within the TTL.

import { createBatcher } from '@pcas/batching';
import type { VisVesselRecorded } from '@pcas/contracts';
import type { Queryable } from '@pcas/sql';
import { visVesselsByServiceIds } from './vis-store.ts';

/** How long a VIS service found stays remembered. */
const KNOWN_SERVICE_TTL_MS = 1_000;

export interface VisServiceDirectory {
  /** The VIS service of an id, read outside a transaction (or remembered). */
  byId(id: string): Promise<VisVesselRecorded | undefined>;
  /** Forgets what is remembered of a service (this process recorded a change to it). */
  forget(id: string): void;
}

export function createVisServiceDirectory(db: Queryable): VisServiceDirectory {
  const lookUp = createBatcher<string, VisVesselRecorded | undefined>(
    async (ids) => {
      const found = await visVesselsByServiceIds(db, [...new Set(ids)]);
      return ids.map((id) => ({ ok: true, value: found.get(id) }));
    },
    { maxItems: 64, maxInFlight: 1 },
  );
  const known = new Map<string, { service: VisVesselRecorded; until: number }>();
  return {
    async byId(id) {
      const cached = known.get(id);
      if (cached && cached.until > Date.now()) return cached.service;
      const service = await lookUp(id);
      if (service) known.set(id, { service, until: Date.now() + KNOWN_SERVICE_TTL_MS });
      else known.delete(id);
      return service;
    },
    forget: (id) => known.delete(id),
  };
}
