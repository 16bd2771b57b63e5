// Routes of the just-in-time arrival queue (docs/domain.md#queue): berths, nominations (own and for a consignee),
// berth reservations (port blocks) and slot requests (the port's and the vessel's agent routes). Changes go to the
// queue-scheduler over cmd.queue-scheduler, which checks the values with the original's messages and decides;
// reads come from its read models. Every route belongs to the queue module: off, they answer 403 naming it.
//
// By concern: queue-berths.ts (berths, berth reservations), queue-nominations.ts, queue-slot-requests.ts; what they
// share (list parameters, the module, sending a command) is queue-shared.ts.

import type { Route } from '@pcas/http-kit';
import type { GatewayDeps } from '../deps.ts';
import { berthReservationRoutes, berthRoutes } from './queue-berths.ts';
import { nominationRoutes } from './queue-nominations.ts';
import { slotRequestRoutes } from './queue-slot-requests.ts';

export function queueRoutes(deps: GatewayDeps): Route[] {
  return [...berthRoutes(deps), ...nominationRoutes(deps), ...berthReservationRoutes(deps), ...slotRequestRoutes(deps)];
}
