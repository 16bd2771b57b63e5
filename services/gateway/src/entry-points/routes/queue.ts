// Routes of the just-in-time arrival queue (docs/domain.md#queue): berths, nominations (own and for a consignee),
// berth reservations (port blocks) and slot requests (the port's and the vessel's agent routes). Changes go to the
// queue-scheduler over cmd.queue-scheduler, which checks the values with the original's messages and decides;
// reads come from its read models. Every route belongs to the queue module: off, they answer 403 naming it.

import {
  ApiError,
  type BerthInput,
  type BerthReservationInput,
  type CancelSlotRequestInput,
  type CommandBody,
  type NominationInput,
  QUEUE_SCHEDULER,
  QueueCommands,
  type SlotRequestInput,
} from '@pcas/contracts';
import { type ParamSpec, parseLimit, parseOffset, type Route } from '@pcas/http-kit';
import {
  berthById,
  berthReservationById,
  consigneeUsers,
  dashboardSlotRequests,
  isConsignee,
  type ListQuery,
  listBerthReservations,
  listBerths,
  listNominations,
  listSlotRequests,
  nominatableBerths,
  nominationById,
  slotRequestById,
} from '../../adapters/read-models/queue.ts';
import { rowId } from '../../domain/user-management.ts';
import { actorOf } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';

const LIST_PARAMS: Record<string, ParamSpec> = {
  limit: { type: 'int', optional: true },
  offset: { type: 'int', optional: true },
  sort: { type: 'string', optional: true },
  search: { type: 'string', optional: true },
};
const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 1000;

const listQuery = (params: Record<string, any>): ListQuery => ({
  limit: parseLimit(params.limit, { fallback: DEFAULT_LIMIT, max: MAX_LIMIT }),
  offset: parseOffset(params.offset),
  sort: params.sort,
  search: params.search,
});

const NOMINATION_PARAMS: Record<string, ParamSpec> = {
  company_name: { type: 'string', maxLength: 255 },
  email: { type: 'string', maxLength: 255 },
  imo: { type: 'int' },
  vessel_name: { type: 'string', maxLength: 255 },
  window_start: { type: 'string', maxLength: 64 },
  window_end: { type: 'string', maxLength: 64 },
  berth_ids: { type: 'array' },
};
const NOMINATION_UPDATE_PARAMS: Record<string, ParamSpec> = {
  id: { type: 'int' },
  company_name: { type: 'string', maxLength: 255 },
  email: { type: 'string', maxLength: 255 },
  imo: { type: 'int' },
  vessel_name: { type: 'string', maxLength: 255 },
  window_start: { type: 'string', maxLength: 64, optional: true },
  window_end: { type: 'string', maxLength: 64, optional: true },
  berth_ids: { type: 'array', optional: true },
};

const nominationInput = (params: Record<string, any>): NominationInput => ({
  id: params.id,
  company_name: params.company_name,
  email: params.email,
  imo: params.imo,
  vessel_name: params.vessel_name,
  window_start: params.window_start ?? undefined,
  window_end: params.window_end ?? undefined,
  berth_ids: params.berth_ids === undefined || params.berth_ids === null ? undefined : Object.values(params.berth_ids),
});

export function queueRoutes(deps: GatewayDeps): Route[] {
  const { bus, db } = deps;

  const send = <I>(command: string, auth: Parameters<typeof actorOf>[0], input: I) => {
    const body: CommandBody<I> = { actor: actorOf(auth), input };
    return bus.rpc(QUEUE_SCHEDULER, command, body);
  };
  const route = (r: Omit<Route, 'module'>): Route => ({ ...r, module: 'queue' }) as Route;

  const slotCreate = (agent: boolean): Route =>
    route({
      method: 'POST',
      path: agent ? '/agent/rest/slot-reservations' : '/slot-reservations',
      permission: agent ? 'timestamp' : 'manage_queue_slot_reservation',
      params: {
        email: { type: 'string', maxLength: 255 },
        imo: { type: 'int' },
        vessel_name: { type: 'string', maxLength: 255 },
        // The agent form sends the dimensions as text; the port's page as numbers (the service reads both).
        loa: { type: agent ? 'mixed' : 'float' },
        beam: { type: agent ? 'mixed' : 'float' },
        draft: { type: agent ? 'mixed' : 'float' },
        laytime: { type: 'string', maxLength: 64 },
        eta: { type: 'string', maxLength: 64 },
      },
      handle: ({ params, auth }) =>
        send<SlotRequestInput>(QueueCommands.createSlotRequest, auth, {
          email: params.email,
          imo: params.imo,
          vessel_name: params.vessel_name,
          loa: params.loa,
          beam: params.beam,
          draft: params.draft,
          laytime: params.laytime,
          eta: params.eta,
          agent,
        }),
    });

  const slotUpdate = (agent: boolean): Route =>
    route({
      method: 'PUT',
      path: agent ? '/agent/rest/slot-reservations' : '/slot-reservations',
      permission: agent ? 'timestamp' : 'manage_queue_slot_reservation',
      params: {
        id: { type: 'int' },
        laytime: { type: 'string', maxLength: 64 },
        jit_eta: { type: 'string', maxLength: 64 },
        ...(agent ? {} : { rta_window_start: { type: 'string', maxLength: 64, optional: true } as ParamSpec }),
      },
      handle: ({ params, auth }) =>
        send<SlotRequestInput>(QueueCommands.updateSlotRequest, auth, {
          id: rowId(params.id),
          laytime: params.laytime,
          jit_eta: params.jit_eta,
          rta_window_start: params.rta_window_start ?? undefined,
          agent,
        }),
    });

  const nominationRoutes = (own: boolean): Route[] => {
    const manage = own ? 'manage_own_queue_nomination' : 'manage_all_queue_nomination';
    const view = own ? 'view_own_queue_nomination' : 'view_all_queue_nomination';
    const path = own ? '/own-nominations' : '/nominations';
    const owner = (auth: { userId: number | null }) => (own ? (auth.userId ?? -1) : undefined);
    const routes: Route[] = [
      route({
        method: 'PUT',
        path,
        permission: manage,
        params: NOMINATION_UPDATE_PARAMS,
        handle: ({ params, auth }) =>
          send(QueueCommands.updateNomination, auth, { ...nominationInput(params), id: rowId(params.id), own }),
      }),
      route({
        method: 'DELETE',
        path,
        permission: manage,
        params: { id: { type: 'int' } },
        handle: ({ params, auth }) => send(QueueCommands.deleteNomination, auth, { id: rowId(params.id), own }),
      }),
      route({
        method: 'GET',
        path,
        permission: view,
        params: LIST_PARAMS,
        handle: ({ params, auth }) => listNominations(db, listQuery(params), owner(auth)),
      }),
      route({
        method: 'GET',
        path: own ? '/own-nomination-by-id' : '/nomination-by-id',
        permission: view,
        params: { id: { type: 'int' } },
        handle: ({ params, auth }) => nominationById(db, rowId(params.id), owner(auth)),
      }),
    ];
    if (own) {
      routes.unshift(
        route({
          method: 'POST',
          path,
          permission: manage,
          params: NOMINATION_PARAMS,
          handle: ({ params, auth }) =>
            send(QueueCommands.createNomination, auth, { ...nominationInput(params), owner_user_id: auth.userId }),
        }),
      );
    }
    return routes;
  };

  return [
    // ---- berths ----
    route({
      method: 'POST',
      path: '/berths',
      permission: 'manage_berth',
      params: {
        code: { type: 'string', maxLength: 255 },
        name: { type: 'string', maxLength: 255 },
        nominatable: { type: 'mixed' },
      },
      handle: ({ params, auth }) =>
        send<BerthInput>(QueueCommands.createBerth, auth, {
          code: params.code,
          name: params.name,
          nominatable: params.nominatable,
        }),
    }),
    route({
      method: 'PUT',
      path: '/berths',
      permission: 'manage_berth',
      params: {
        id: { type: 'int' },
        code: { type: 'string', maxLength: 255 },
        name: { type: 'string', maxLength: 255 },
        nominatable: { type: 'mixed' },
      },
      handle: ({ params, auth }) =>
        send<BerthInput>(QueueCommands.updateBerth, auth, {
          id: rowId(params.id),
          code: params.code,
          name: params.name,
          nominatable: params.nominatable,
        }),
    }),
    route({
      method: 'DELETE',
      path: '/berths',
      permission: 'manage_berth',
      params: { id: { type: 'int' } },
      handle: ({ params, auth }) => send(QueueCommands.deleteBerth, auth, { id: rowId(params.id), code: '', name: '' }),
    }),
    route({
      method: 'GET',
      path: '/berths',
      permission: 'view_berth',
      params: LIST_PARAMS,
      handle: ({ params }) => listBerths(db, listQuery(params)),
    }),
    route({
      method: 'GET',
      path: '/berth-by-id',
      permission: 'view_berth',
      params: { id: { type: 'int' } },
      handle: ({ params }) => berthById(db, rowId(params.id)),
    }),
    route({
      method: 'GET',
      path: '/all-nominatable-berths',
      permission: 'view_own_queue_nomination',
      params: {},
      handle: () => nominatableBerths(db),
    }),

    // ---- nominations ----
    ...nominationRoutes(true),
    ...nominationRoutes(false),
    route({
      method: 'POST',
      path: '/nomination-for-consignee',
      permission: 'manage_all_queue_nomination',
      params: { consignee_user_id: { type: 'int' }, ...NOMINATION_PARAMS },
      async handle({ params, auth }) {
        // Who may own a nomination is the gateway's to know (it keeps the users and their roles).
        const user = rowId(params.consignee_user_id);
        if (!(await isConsignee(db, user))) throw ApiError.badRequest(`Invalid user ID: ${params.consignee_user_id}`);
        return send(QueueCommands.createNomination, auth, { ...nominationInput(params), owner_user_id: user });
      },
    }),
    route({
      method: 'GET',
      path: '/consignee-users',
      permission: 'view_all_queue_nomination',
      params: {},
      handle: () => consigneeUsers(db),
    }),

    // ---- berth reservations ----
    route({
      method: 'POST',
      path: '/berth-reservations',
      permission: 'manage_berth_reservation',
      params: {
        berth_id: { type: 'int' },
        berth_reservation_type: { type: 'string', maxLength: 64 },
        reservation_start: { type: 'string', maxLength: 64 },
        reservation_end: { type: 'string', maxLength: 64 },
        slot_reservation_id: { type: 'int', optional: true },
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
      params: {
        id: { type: 'int' },
        reservation_start: { type: 'string', maxLength: 64 },
        reservation_end: { type: 'string', maxLength: 64 },
      },
      handle: ({ params, auth }) =>
        send<BerthReservationInput>(QueueCommands.updateBerthReservation, auth, {
          id: rowId(params.id),
          reservation_start: params.reservation_start,
          reservation_end: params.reservation_end,
        }),
    }),
    route({
      method: 'DELETE',
      path: '/berth-reservations',
      permission: 'manage_berth_reservation',
      params: { id: { type: 'int' } },
      handle: ({ params, auth }) =>
        send(QueueCommands.deleteBerthReservation, auth, {
          id: rowId(params.id),
          reservation_start: '',
          reservation_end: '',
        }),
    }),
    route({
      method: 'GET',
      path: '/berth-reservations',
      permission: 'view_berth_reservation',
      params: { berth_id: { type: 'int' }, ...LIST_PARAMS },
      handle: ({ params }) => listBerthReservations(db, rowId(params.berth_id), listQuery(params)),
    }),
    route({
      method: 'GET',
      path: '/berth-reservation-by-id',
      permission: 'view_berth_reservation',
      params: { id: { type: 'int' } },
      handle: ({ params }) => berthReservationById(db, rowId(params.id)),
    }),

    // ---- slot requests ----
    slotCreate(false),
    slotUpdate(false),
    route({
      method: 'DELETE',
      path: '/slot-reservations',
      permission: 'manage_queue_slot_reservation',
      params: {
        id: { type: 'int' },
        cancel_only: { type: 'bool', optional: true, default: false },
        by_vessel: { type: 'bool', optional: true, default: false },
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
      params: { ...LIST_PARAMS, isDashboard: { type: 'bool', optional: true, default: false } },
      handle: ({ params }) =>
        params.isDashboard === true
          ? dashboardSlotRequests(db, listQuery(params))
          : listSlotRequests(db, listQuery(params)),
    }),
    route({
      method: 'GET',
      path: '/slot-reservation-by-id',
      permission: 'view_queue_slot_reservation',
      params: { id: { type: 'int' } },
      handle: ({ params }) => slotRequestById(db, rowId(params.id)),
    }),
    route({
      method: 'GET',
      path: '/dashboard-slot-reservations',
      permission: 'view_queue_slot_reservation',
      params: LIST_PARAMS,
      handle: ({ params }) => dashboardSlotRequests(db, listQuery(params)),
    }),
    slotCreate(true),
    slotUpdate(true),
    route({
      method: 'GET',
      path: '/agent/rest/slot-reservation-by-id',
      permission: 'timestamp',
      params: { id: { type: 'int' } },
      handle: ({ params }) => slotRequestById(db, rowId(params.id)),
    }),
    route({
      method: 'DELETE',
      path: '/agent/rest/slot-reservations',
      permission: 'timestamp',
      params: { id: { type: 'int' } },
      handle: ({ params, auth }) =>
        send<CancelSlotRequestInput>(QueueCommands.cancelSlotRequest, auth, { id: rowId(params.id), by_vessel: true }),
    }),
  ];
}
