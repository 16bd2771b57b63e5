// The vessels of ongoing port calls by MMSI, for the AIS positions' checks (domain/positions.ts): the port calls
// are the portcall-projector's, asked of it (PortcallLookups.ongoingImosByMmsi, its one ongoing rule) instead of
// reading its tables. While it cannot answer (not started yet, or down) the batch goes on without them, as it did
// before the projector had made its tables: a position then keeps the identity it was posted with.

import { type OngoingImosByMmsiQuery, PORTCALL_PROJECTOR, PortcallLookups } from '@pcas/contracts';
import type { Bus } from '@pcas/messaging';
import type { Logger } from '@pcas/observability';

/** Far below the agents' request timeout: a projector that does not answer soon must not hold the positions up. */
const LOOKUP_TIMEOUT_MS = 2_000;

export type OngoingByMmsi = (mmsis: readonly number[]) => Promise<ReadonlyMap<number, number>>;

export function ongoingPortCallsLookup(bus: Bus, log: Logger): OngoingByMmsi {
  return async (mmsis) => {
    if (mmsis.length === 0) return new Map();
    const input: OngoingImosByMmsiQuery = { mmsis: [...mmsis] };
    try {
      const pairs = await bus.rpc<[number, number][]>(
        PORTCALL_PROJECTOR,
        PortcallLookups.ongoingImosByMmsi,
        { actor: { user_id: null, api_key_id: null }, input },
        { timeoutMs: LOOKUP_TIMEOUT_MS },
      );
      return new Map(pairs.map(([mmsi, imo]) => [Number(mmsi), Number(imo)]));
    } catch (error) {
      log.warn({ err: error }, 'ongoing port calls not known (portcall-projector did not answer); positions as posted');
      return new Map();
    }
  };
}
