// The lookups other services ask ingest over cmd.ingest (IngestLookups in libs/contracts/src/lookups.ts), so that
// none reads ingest's tables. Any other name goes on to `next` (the commands).

import { decodeCommand, type Unchecked } from '@pcas/commands';
import { ApiError, IngestLookups, type VesselImoByNameQuery } from '@pcas/contracts';
import type { RpcHandler } from '@pcas/messaging';
import type { Queryable } from '@pcas/sql';
import { vesselImoByName } from '../queries/vessel-by-name.ts';

export function withIngestLookups(db: Queryable, next: RpcHandler): RpcHandler {
  return async (command, payload, headers) => {
    if (command !== IngestLookups.vesselImoByName) return next(command, payload, headers);
    const { input } = decodeCommand<Unchecked<VesselImoByNameQuery>>(payload);
    if (typeof input.vessel_name !== 'string') throw ApiError.badRequest('Invalid vessel_name');
    return vesselImoByName(db, input.vessel_name);
  };
}
