// Other ports and their whitelists (in and out), composed by vis.ts.

import { type SavePortCommand, type SetPortWhitelistCommand, VisBridgeCommands } from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import { listPorts } from '@pcas/vis-bridge/queries';
import type { GatewayDeps } from '../deps.ts';
import { optionalText, PAGE, page, text, visSender } from './vis-shared.ts';

export function visPortRoutes(deps: GatewayDeps): Route[] {
  const { db } = deps;
  const send = visSender(deps);
  return [
    {
      method: 'POST',
      path: '/ports',
      permission: 'manage_port',
      module: 'vis',
      params: { name: text(), service_id: text(), locodes: { type: 'array' } },
      handle: (ctx) =>
        send<SavePortCommand>(VisBridgeCommands.savePort, ctx, {
          name: ctx.params.name,
          service_id: ctx.params.service_id,
          locodes: ctx.params.locodes,
        }),
    },
    {
      method: 'GET',
      path: '/ports',
      permission: 'manage_port',
      module: 'vis',
      params: { ...PAGE, search: optionalText() },
      handle: ({ params }) => listPorts(db, { ...page(params), search: params.search }),
    },
    ...(['in', 'out'] as const).map(
      (direction): Route => ({
        method: 'POST',
        path: `/port-whitelist-${direction}`,
        permission: 'manage_port',
        module: 'vis',
        params: { service_id: text(), whitelist: { type: 'mixed' } },
        handle: (ctx) =>
          send<SetPortWhitelistCommand>(VisBridgeCommands.setPortWhitelist, ctx, {
            service_id: ctx.params.service_id,
            direction,
            whitelist: ctx.params.whitelist,
          }),
      }),
    ),
  ];
}
