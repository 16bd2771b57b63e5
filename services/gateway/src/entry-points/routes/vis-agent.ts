// The VIS agent's posts (API key), composed by vis.ts; what direct mode's peers deliver goes the same way in the
// service.

import { VisBridgeCommands } from '@pcas/contracts';
import type { ParamSpec, Route } from '@pcas/http-kit';
import type { GatewayDeps } from '../deps.ts';
import { int } from './params.ts';
import { visSender, visText } from './vis-shared.ts';

/** A message's payload (an RTZ route can be large). */
const MAX_PAYLOAD = 4 * 1024 * 1024;

const MESSAGE: Record<string, ParamSpec> = {
  time: visText(64),
  from_service_id: visText(),
  to_service_id: visText(),
  message_id: visText(),
  message_type: visText(64),
  payload: visText(MAX_PAYLOAD),
};

export function visAgentRoutes(deps: GatewayDeps): Route[] {
  const send = visSender(deps);
  const agentPost = (path: string, params: Record<string, ParamSpec>, command: string): Route => ({
    method: 'POST',
    path,
    permission: 'timestamp',
    params,
    handle: (ctx) => send(command, ctx, ctx.params),
  });

  return [
    agentPost(
      '/agent/rest/vis-vessels',
      { imo: int(), vessel_name: visText(), service_id: visText(), service_url: visText(2048) },
      VisBridgeCommands.recordVisVessel,
    ),
    agentPost('/agent/rest/vis-messages', MESSAGE, VisBridgeCommands.receiveTextMessage),
    agentPost(
      '/agent/rest/vis-notifications',
      {
        time: visText(64),
        from_service_id: visText(),
        message_id: visText(),
        message_type: visText(64),
        notification_type: visText(64),
        subject: visText(4096),
        payload: visText(MAX_PAYLOAD),
      },
      VisBridgeCommands.receiveNotification,
    ),
    agentPost(
      '/agent/rest/vis-voyage-plans',
      { ...MESSAGE, rtz_state: visText(64), rtz_parse_results: visText(1024 * 1024) },
      VisBridgeCommands.receiveVoyagePlan,
    ),
    agentPost(
      '/agent/rest/inbound-vessels',
      { time: visText(64), imo: int(), vessel_name: visText(), from_service_id: visText() },
      VisBridgeCommands.recordInboundVessel,
    ),
  ];
}
