// The VIS agent's posts (API key), composed by vis.ts; what direct mode's peers deliver goes the same way in the
// service.

import { VisBridgeCommands } from '@pcas/contracts';
import type { ParamSpec, Route } from '@pcas/http-kit';
import type { GatewayDeps } from '../deps.ts';
import { text, visSender } from './vis-shared.ts';

/** A message's payload (an RTZ route can be large). */
const MAX_PAYLOAD = 4 * 1024 * 1024;

const MESSAGE: Record<string, ParamSpec> = {
  time: text(64),
  from_service_id: text(),
  to_service_id: text(),
  message_id: text(),
  message_type: text(64),
  payload: text(MAX_PAYLOAD),
};

export function visAgentRoutes(deps: GatewayDeps): Route[] {
  const send = visSender(deps);
  const agentPost = (path: string, params: Record<string, ParamSpec>, command: string): Route => ({
    method: 'POST',
    path,
    permission: 'timestamp',
    module: 'vis',
    params,
    handle: (ctx) => send(command, ctx, ctx.params),
  });

  return [
    agentPost(
      '/agent/rest/vis-vessels',
      { imo: { type: 'int' }, vessel_name: text(), service_id: text(), service_url: text(2048) },
      VisBridgeCommands.recordVisVessel,
    ),
    agentPost('/agent/rest/vis-messages', MESSAGE, VisBridgeCommands.receiveTextMessage),
    agentPost(
      '/agent/rest/vis-notifications',
      {
        time: text(64),
        from_service_id: text(),
        message_id: text(),
        message_type: text(64),
        notification_type: text(64),
        subject: text(4096),
        payload: text(MAX_PAYLOAD),
      },
      VisBridgeCommands.receiveNotification,
    ),
    agentPost(
      '/agent/rest/vis-voyage-plans',
      { ...MESSAGE, rtz_state: text(64), rtz_parse_results: text(1024 * 1024) },
      VisBridgeCommands.receiveVoyagePlan,
    ),
    agentPost(
      '/agent/rest/inbound-vessels',
      { time: text(64), imo: { type: 'int' }, vessel_name: text(), from_service_id: text() },
      VisBridgeCommands.recordInboundVessel,
    ),
  ];
}
