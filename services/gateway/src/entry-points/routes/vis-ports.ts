// Other ports and their whitelists (in and out), composed by vis.ts.

import { type SavePortCommand, type SetPortWhitelistCommand, VisBridgeCommands } from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import { listPorts } from '@pcas/vis-bridge/queries';
import type { GatewayDeps } from '../deps.ts';
import { array, mixed } from './params.ts';
import { searchedList, visSender, visText } from './vis-shared.ts';

export function visPortRoutes(deps: GatewayDeps): Route[] {
  const { db } = deps;
  const send = visSender(deps);
  return [
    {
      method: 'POST',
      path: '/ports',
      permission: 'manage_port',
      params: { name: visText(), service_id: visText(), locodes: array() },
      // Every parameter is required: they are the command as declared.
      handle: (ctx) => send<SavePortCommand>(VisBridgeCommands.savePort, ctx, ctx.params as SavePortCommand),
    },
    searchedList(db, '/ports', 'manage_port', listPorts),
    ...(['in', 'out'] as const).map(
      (direction): Route => ({
        method: 'POST',
        path: `/port-whitelist-${direction}`,
        permission: 'manage_port',
        params: { service_id: visText(), whitelist: mixed() },
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
