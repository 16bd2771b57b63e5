// The VIS lists (the vis-bridge's queries, run here), composed by vis.ts.

import type { Route } from '@pcas/http-kit';
import {
  listInboundVessels,
  listVisNotifications,
  listVisTextMessages,
  listVisVessels,
  listVisVoyagePlans,
} from '@pcas/vis-bridge/queries';
import type { GatewayDeps } from '../deps.ts';
import { page } from './paging.ts';
import { optionalInt } from './params.ts';
import { optionalVisText, PAGE, searchedList } from './vis-shared.ts';

export function visReadRoutes({ db }: GatewayDeps): Route[] {
  return [
    {
      method: 'GET',
      path: '/vis-vessels',
      permission: 'view_vis_information',
      params: {
        imo: optionalInt(),
        vessel_name: optionalVisText(),
        service_id: optionalVisText(),
        ...PAGE,
      },
      handle: ({ params }) =>
        listVisVessels(db, {
          ...page(params),
          imo: params.imo,
          vessel_name: params.vessel_name,
          service_id: params.service_id,
        }),
    },
    ...(
      [
        ['/vis-text-messages', listVisTextMessages],
        ['/vis-voyage-plans', listVisVoyagePlans],
      ] as const
    ).map(
      ([path, list]): Route => ({
        method: 'GET',
        path,
        permission: 'view_vis_information',
        params: { from_service_id: optionalVisText(), to_service_id: optionalVisText(), ...PAGE },
        handle: ({ params }) =>
          list(db, {
            ...page(params),
            from_service_id: params.from_service_id,
            to_service_id: params.to_service_id,
          }),
      }),
    ),
    {
      method: 'GET',
      path: '/vis-notifications',
      permission: 'view_vis_information',
      params: { from_service_id: optionalVisText(), ...PAGE },
      handle: ({ params }) => listVisNotifications(db, { ...page(params), from_service_id: params.from_service_id }),
    },
    searchedList(db, '/inbound-vessels', 'basic_user_action', listInboundVessels),
  ];
}
