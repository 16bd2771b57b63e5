// The queue's slot requests: the port's routes and the vessel's agent routes (/agent/rest/...); composed by
// queue.ts.

import { type CancelSlotRequestInput, QueueCommands, type SlotRequestInput } from '@pcas/contracts';
import type { ParamSpec, Route } from '@pcas/http-kit';
import { dashboardSlotRequests, listSlotRequests, slotRequestById } from '../../adapters/read-models/queue.ts';
import { rowId } from '../../domain/user-management.ts';
import type { GatewayDeps } from '../deps.ts';
import { bool, int, optional, optionalText, text } from './params.ts';
import { byIdRoute, deleteByIdRoute, LIST_PARAMS, listQuery, queueSender, route } from './queue-shared.ts';

/** Creating and changing a slot request: from the port's page, or from the vessel's agent (an API key). */
function slotRequestChanges(deps: GatewayDeps, agent: boolean): Route[] {
  const send = queueSender(deps);
  const path = agent ? '/agent/rest/slot-reservations' : '/slot-reservations';
  const permission = agent ? 'timestamp' : 'manage_queue_slot_reservation';
  return [
    route({
      method: 'POST',
      path,
      permission,
      params: {
        email: text(255),
        imo: int(),
        vessel_name: text(255),
        // The agent form sends the dimensions as text; the port's page as numbers (the service reads both).
        loa: { type: agent ? 'mixed' : 'float' },
        beam: { type: agent ? 'mixed' : 'float' },
        draft: { type: agent ? 'mixed' : 'float' },
        laytime: text(64),
        eta: text(64),
      },
      handle: ({ params, auth }) =>
        // Every parameter is required: they are the input as declared.
        send<SlotRequestInput>(QueueCommands.createSlotRequest, auth, { ...params, agent }),
    }),
    route({
      method: 'PUT',
      path,
      permission,
      params: {
        id: int(),
        laytime: text(64),
        jit_eta: text(64),
        ...(agent ? {} : { rta_window_start: optionalText(64) as ParamSpec }),
      },
      handle: ({ params, auth }) =>
        send<SlotRequestInput>(QueueCommands.updateSlotRequest, auth, {
          id: rowId(params.id),
          laytime: params.laytime,
          jit_eta: params.jit_eta,
          rta_window_start: params.rta_window_start ?? undefined,
          agent,
        }),
    }),
  ];
}

export function slotRequestRoutes(deps: GatewayDeps): Route[] {
  const { db } = deps;
  const send = queueSender(deps);
  return [
    ...slotRequestChanges(deps, false),
    route({
      method: 'DELETE',
      path: '/slot-reservations',
      permission: 'manage_queue_slot_reservation',
      params: {
        id: int(),
        cancel_only: optional(bool(), false),
        by_vessel: optional(bool(), false),
      },
      handle: ({ params, auth }) =>
        send<CancelSlotRequestInput>(QueueCommands.cancelSlotRequest, auth, {
          id: rowId(params.id),
          by_vessel: params.by_vessel === true,
        }),
    }),
    route({
      method: 'GET',
      path: '/slot-reservations',
      permission: 'view_queue_slot_reservation',
      params: { ...LIST_PARAMS, isDashboard: optional(bool(), false) },
      handle: ({ params }) =>
        params.isDashboard === true
          ? dashboardSlotRequests(db, listQuery(params))
          : listSlotRequests(db, listQuery(params)),
    }),
    byIdRoute('/slot-reservation-by-id', 'view_queue_slot_reservation', (id) => slotRequestById(db, id)),
    route({
      method: 'GET',
      path: '/dashboard-slot-reservations',
      permission: 'view_queue_slot_reservation',
      params: LIST_PARAMS,
      handle: ({ params }) => dashboardSlotRequests(db, listQuery(params)),
    }),
    ...slotRequestChanges(deps, true),
    byIdRoute('/agent/rest/slot-reservation-by-id', 'timestamp', (id) => slotRequestById(db, id)),
    deleteByIdRoute(deps, '/agent/rest/slot-reservations', 'timestamp', QueueCommands.cancelSlotRequest, {
      by_vessel: true,
    }),
  ];
}
