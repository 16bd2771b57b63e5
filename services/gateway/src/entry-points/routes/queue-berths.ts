// The queue's berths and their reservations (port blocks), composed by queue.ts.

import { type BerthInput, type BerthReservationInput, QueueCommands } from '@pcas/contracts';
import type { ParamSpec, Route } from '@pcas/http-kit';
import {
  berthById,
  berthReservationById,
  listBerthReservations,
  listBerths,
  nominatableBerths,
} from '../../adapters/read-models/queue.ts';
import { rowId } from '../../domain/user-management.ts';
import type { GatewayDeps } from '../deps.ts';
import { int, mixed, optionalInt, text } from './params.ts';
import { byIdRoute, deleteByIdRoute, LIST_PARAMS, listQuery, queueSender, route } from './queue-shared.ts';

const BERTH_PARAMS: Record<string, ParamSpec> = {
  code: text(255),
  name: text(255),
  nominatable: mixed(),
};

const berthInput = (params: Record<string, any>): BerthInput => ({
  code: params.code,
  name: params.name,
  nominatable: params.nominatable,
});

export function berthRoutes(deps: GatewayDeps): Route[] {
  const { db } = deps;
  const send = queueSender(deps);
  return [
    route({
      method: 'POST',
      path: '/berths',
      permission: 'manage_berth',
      params: BERTH_PARAMS,
      handle: ({ params, auth }) => send<BerthInput>(QueueCommands.createBerth, auth, berthInput(params)),
    }),
    route({
      method: 'PUT',
      path: '/berths',
      permission: 'manage_berth',
      params: { id: int(), ...BERTH_PARAMS },
      handle: ({ params, auth }) =>
        send<BerthInput>(QueueCommands.updateBerth, auth, { id: rowId(params.id), ...berthInput(params) }),
    }),
    deleteByIdRoute(deps, '/berths', 'manage_berth', QueueCommands.deleteBerth, { code: '', name: '' }),
    route({
      method: 'GET',
      path: '/berths',
      permission: 'view_berth',
      params: LIST_PARAMS,
      handle: ({ params }) => listBerths(db, listQuery(params)),
    }),
    byIdRoute('/berth-by-id', 'view_berth', (id) => berthById(db, id)),
    route({
      method: 'GET',
      path: '/all-nominatable-berths',
      permission: 'view_own_queue_nomination',
      params: {},
      handle: () => nominatableBerths(db),
    }),
  ];
}

/** A port block's start and end (ISO 8601), in the order the original checks them. */
const RESERVATION_PERIOD: Record<string, ParamSpec> = {
  reservation_start: text(64),
  reservation_end: text(64),
};

export function berthReservationRoutes(deps: GatewayDeps): Route[] {
  const { db } = deps;
  const send = queueSender(deps);
  return [
    route({
      method: 'POST',
      path: '/berth-reservations',
      permission: 'manage_berth_reservation',
      params: {
        berth_id: int(),
        berth_reservation_type: text(64),
        ...RESERVATION_PERIOD,
        slot_reservation_id: optionalInt(),
      },
      handle: ({ params, auth }) =>
        send<BerthReservationInput>(QueueCommands.createBerthReservation, auth, {
          berth_id: rowId(params.berth_id),
          berth_reservation_type: params.berth_reservation_type,
          reservation_start: params.reservation_start,
          reservation_end: params.reservation_end,
          slot_reservation_id: params.slot_reservation_id ?? undefined,
        }),
    }),
    route({
      method: 'PUT',
      path: '/berth-reservations',
      permission: 'manage_berth_reservation',
      params: { id: int(), ...RESERVATION_PERIOD },
      handle: ({ params, auth }) =>
        send<BerthReservationInput>(QueueCommands.updateBerthReservation, auth, {
          id: rowId(params.id),
          reservation_start: params.reservation_start,
          reservation_end: params.reservation_end,
        }),
    }),
    deleteByIdRoute(deps, '/berth-reservations', 'manage_berth_reservation', QueueCommands.deleteBerthReservation, {
      reservation_start: '',
      reservation_end: '',
    }),
    route({
      method: 'GET',
      path: '/berth-reservations',
      permission: 'view_berth_reservation',
      params: { berth_id: int(), ...LIST_PARAMS },
      handle: ({ params }) => listBerthReservations(db, rowId(params.berth_id), listQuery(params)),
    }),
    byIdRoute('/berth-reservation-by-id', 'view_berth_reservation', (id) => berthReservationById(db, id)),
  ];
}
