// A vessel as its `vessel-<imo>` stream describes it: the current name, and the stream version it was read at
// (the version lets a cached copy prove it is still current when appending).

import type { VesselRegistered, VesselRenamed } from '@pcas/contracts';

export interface Vessel {
  imo: number;
  vessel_name: string;
}

export interface VesselSnapshot {
  /** undefined while the stream holds no VesselRegistered. */
  vessel: Vessel | undefined;
  /** Stream version (position of the last event read); 0 for a stream that does not exist. */
  version: number;
}

export const emptySnapshot = (): VesselSnapshot => ({ vessel: undefined, version: 0 });

/** Folds stream events (in stream order) into the snapshot; events other than the vessel's own are skipped. */
export function evolveVessel(
  snapshot: VesselSnapshot,
  events: readonly { type: string; data: unknown; streamPosition: number }[],
): VesselSnapshot {
  let { vessel, version } = snapshot;
  for (const event of events) {
    version = event.streamPosition;
    if (event.type === 'VesselRegistered') {
      const data = event.data as VesselRegistered;
      vessel = { imo: data.imo, vessel_name: data.vessel_name };
    } else if (event.type === 'VesselRenamed' && vessel) {
      vessel = { ...vessel, vessel_name: (event.data as VesselRenamed).vessel_name };
    }
  }
  return { vessel, version };
}
