// Setting a vessel's type (docs/domain.md#vessels): by an operator (PUT /vessel) or a data source that knows it
// (POST /agent/rest/vessel-type). Pure: the caller supplies the vessel as stored now.

import { ApiError, type VesselTypeSet } from '@pcas/contracts';
import { isVesselTypeId } from '@pcas/s211';

export interface VesselTypeState {
  imo: number;
  vessel_type: number;
}

/**
 * The original's checks in its order: the vessel first ("Vessel does not exist"), then the type ("Invalid vessel
 * type"). The type it already has records nothing, so a repeated command changes nothing twice.
 */
export function decideSetVesselType(
  vessel: VesselTypeState | undefined,
  vesselType: unknown,
): { type: 'VesselTypeSet'; data: VesselTypeSet }[] {
  if (!vessel) throw ApiError.badRequest('Vessel does not exist');
  const id = typeof vesselType === 'string' && /^[1-9]\d{0,2}$/.test(vesselType) ? Number(vesselType) : vesselType;
  if (!isVesselTypeId(id)) throw ApiError.badRequest('Invalid vessel type');
  if (id === vessel.vessel_type) return [];
  return [
    { type: 'VesselTypeSet', data: { imo: vessel.imo, vessel_type: id, previous_vessel_type: vessel.vessel_type } },
  ];
}
