// The read-only queries other services ask the portcall-projector over its RPC queue (PortcallQueries), so that no
// service reads the projector's tables: the queue-scheduler's RTA web form and live ETA alert read a vessel's port
// calls here (queries/vessel-port-call.ts). Any other name goes on to the commands.

import { decodeCommand, positiveId, type Unchecked } from '@pcas/commands';
import { ApiError, PortcallQueries, type VesselPortCallsQuery } from '@pcas/contracts';
import type { RpcHandler } from '@pcas/messaging';
import type { Queryable } from '@pcas/sql';
import { vesselPortCalls } from '../queries/vessel-port-call.ts';

export function withPortCallQueries(db: Queryable, commands: RpcHandler): RpcHandler {
  return async (command, payload, headers) => {
    if (command !== PortcallQueries.vesselPortCalls) return commands(command, payload, headers);
    const { input } = decodeCommand<Unchecked<VesselPortCallsQuery>>(payload);
    const imo = positiveId(input.imo);
    if (imo === undefined) throw ApiError.badRequest(`Invalid imo: ${String(input.imo)}`);
    return vesselPortCalls(db, imo);
  };
}
