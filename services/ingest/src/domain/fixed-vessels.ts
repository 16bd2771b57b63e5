// Fixed vessels, the port's own actors on the sea chart: tugs, pilot boats, service craft (docs/domain.md#sea-chart).
// Pure: the original's checks and its business answers (HTTP 200 `{"result":"ERROR","message":…}`), and the event
// each accepted change is. The current fixed vessels with the same IMO or MMSI are read under one lock by the
// caller, so two operators cannot give one IMO or MMSI to two fixed vessels.

import type { FixedVesselData, FixedVesselEvents } from '@pcas/contracts';
import { isVesselTypeId } from '@pcas/s211';
import { postedVesselIdentity } from '@pcas/values';

export type FixedVesselEvent =
  | { type: 'FixedVesselAdded'; data: FixedVesselEvents['FixedVesselAdded'] }
  | { type: 'FixedVesselChanged'; data: FixedVesselEvents['FixedVesselChanged'] }
  | { type: 'FixedVesselRemoved'; data: FixedVesselEvents['FixedVesselRemoved'] };

/** A business refusal: answered with HTTP 200 `{result: 'ERROR', message}`, as the original. */
export class FixedVesselRefused extends Error {}

export const MAX_VESSEL_NAME_LENGTH = 255;

/** What the checks read: the fixed vessels already holding the IMO or MMSI, and whether the IMO is a known vessel. */
export interface FixedVesselContext {
  /** The change's own row (PUT, DELETE); null when there is none. */
  current: FixedVesselData | null;
  /** Other fixed vessels with this IMO / MMSI. */
  imoTakenBy: number | null;
  mmsiTakenBy: number | null;
  imoIsKnownVessel: boolean;
}

export interface FixedVesselInput {
  vesselType: unknown;
  vesselName: unknown;
  imo?: unknown;
  mmsi?: unknown;
}

/** IMO or MMSI as given: null when absent (null, '', 0); else a whole number above 0, or the change is refused. */
export function identityOf(value: unknown): number | null {
  const identity = postedVesselIdentity(value);
  if (identity === 'invalid') throw new FixedVesselRefused('Invalid vessel properties');
  return identity;
}

/** The vessel's new properties, checked in the original's order. */
export function readFixedVessel(input: FixedVesselInput): Omit<FixedVesselData, 'id'> {
  const name = typeof input.vesselName === 'string' ? input.vesselName.trim() : '';
  if (!isVesselTypeId(input.vesselType) || name === '' || name.length > MAX_VESSEL_NAME_LENGTH) {
    throw new FixedVesselRefused('Invalid vessel properties');
  }
  const imo = identityOf(input.imo);
  const mmsi = identityOf(input.mmsi);
  if (imo === null && mmsi === null) throw new FixedVesselRefused('IMO and MMSI missing');
  return { imo, mmsi, vessel_type: input.vesselType, vessel_name: name };
}

function checkIdentities(vessel: Omit<FixedVesselData, 'id'>, context: FixedVesselContext): void {
  if (vessel.imo !== null && !context.imoIsKnownVessel) throw new FixedVesselRefused('Invalid IMO');
  if (vessel.imo !== null && context.imoTakenBy !== null) throw new FixedVesselRefused('IMO belongs to another vessel');
  if (vessel.mmsi !== null && context.mmsiTakenBy !== null) {
    throw new FixedVesselRefused('MMSI belongs to another vessel');
  }
}

/** POST /sea-chart/fixed-vessel: the new vessel under the id the caller drew. */
export function decideAddFixedVessel(
  id: number,
  vessel: Omit<FixedVesselData, 'id'>,
  context: FixedVesselContext,
): FixedVesselEvent[] {
  checkIdentities(vessel, context);
  return [{ type: 'FixedVesselAdded', data: { id, ...vessel } }];
}

/** PUT /sea-chart/fixed-vessel: nothing is recorded when nothing changes. */
export function decideChangeFixedVessel(
  id: number,
  vessel: Omit<FixedVesselData, 'id'>,
  context: FixedVesselContext,
): FixedVesselEvent[] {
  if (!context.current) throw new FixedVesselRefused(`Invalid fixed vessel ID: ${id}`);
  checkIdentities(vessel, context);
  const next = { id, ...vessel };
  const same = (Object.keys(next) as (keyof FixedVesselData)[]).every((k) => next[k] === context.current![k]);
  return same ? [] : [{ type: 'FixedVesselChanged', data: next }];
}

/** DELETE /sea-chart/fixed-vessel. */
export function decideRemoveFixedVessel(id: number, current: FixedVesselData | null): FixedVesselEvent[] {
  if (!current) throw new FixedVesselRefused(`Invalid fixed vessel ID: ${id}`);
  return [{ type: 'FixedVesselRemoved', data: { id } }];
}

/**
 * The `{mmsi: imo}` map in PHP's serialize() format, as the AIS agents read it from Redis (an array with integer
 * keys; a vessel known by MMSI only maps to null).
 */
export function phpSerializeMmsiImoMap(vessels: readonly { mmsi: number | null; imo: number | null }[]): string {
  const entries = vessels
    .filter((v): v is { mmsi: number; imo: number | null } => v.mmsi !== null)
    .sort((a, b) => a.mmsi - b.mmsi)
    .map((v) => `i:${v.mmsi};${v.imo === null ? 'N;' : `i:${v.imo};`}`);
  return `a:${entries.length}:{${entries.join('')}}`;
}
