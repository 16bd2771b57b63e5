// The queue's nominations: a consignee's own, all of them, and one made for a consignee; composed by queue.ts.

import { ApiError, type NominationInput, QueueCommands } from '@pcas/contracts';
import type { ParamSpec, Route } from '@pcas/http-kit';
import { consigneeUsers, isConsignee, listNominations, nominationById } from '../../adapters/read-models/queue.ts';
import { rowId } from '../../domain/user-management.ts';
import type { GatewayDeps } from '../deps.ts';
import { array, int, optional, optionalText, text } from './params.ts';
import { deleteByIdRoute, LIST_PARAMS, listQuery, queueSender, route } from './queue-shared.ts';

const NOMINATION_PARAMS: Record<string, ParamSpec> = {
  company_name: text(255),
  email: text(255),
  imo: int(),
  vessel_name: text(255),
  window_start: text(64),
  window_end: text(64),
  berth_ids: array(),
};
const NOMINATION_UPDATE_PARAMS: Record<string, ParamSpec> = {
  id: int(),
  company_name: text(255),
  email: text(255),
  imo: int(),
  vessel_name: text(255),
  window_start: optionalText(64),
  window_end: optionalText(64),
  berth_ids: optional(array()),
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

/** The own (a consignee's, /own-nominations) or all (/nominations) routes. */
function ownOrAllNominationRoutes(deps: GatewayDeps, own: boolean): Route[] {
  const { db } = deps;
  const send = queueSender(deps);
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
    deleteByIdRoute(deps, path, manage, QueueCommands.deleteNomination, { own }),
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
      params: { id: int() },
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
}

export function nominationRoutes(deps: GatewayDeps): Route[] {
  const { db } = deps;
  const send = queueSender(deps);
  return [
    ...ownOrAllNominationRoutes(deps, true),
    ...ownOrAllNominationRoutes(deps, false),
    route({
      method: 'POST',
      path: '/nomination-for-consignee',
      permission: 'manage_all_queue_nomination',
      params: { consignee_user_id: int(), ...NOMINATION_PARAMS },
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
  ];
}
