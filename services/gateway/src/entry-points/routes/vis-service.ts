// The VIS service through the vis-bridge, composed by vis.ts: finding services, polling, the configuration, and
// sending text messages and RTAs.

import {
  type FindVisServicesCommand,
  type SendVisRtaCommand,
  type SendVisTextMessageCommand,
  type SendVisTextMessageWithImoCommand,
  VisBridgeCommands,
} from '@pcas/contracts';
import type { ParamSpec, Route } from '@pcas/http-kit';
import { loadUserRecord } from '../../adapters/users.ts';
import type { GatewayDeps } from '../deps.ts';
import { int, optionalInt } from './params.ts';
import { optionalVisText, visSender, visText } from './vis-shared.ts';

/**
 * GET /vis-service-poll and /vis-configuration declared no parameters; the interface spec names these from the
 * original's usage example. Accepted (typed) and ignored.
 */
const EXAMPLE_ONLY: Record<string, ParamSpec> = {
  vis_service_id: optionalVisText(),
  rta: optionalVisText(64),
  eta_min: optionalVisText(64),
  eta_max: optionalVisText(64),
  port_call_id: optionalInt(),
};

export function visServiceRoutes(deps: GatewayDeps): Route[] {
  const { db } = deps;
  const send = visSender(deps);
  return [
    // ---- find, poll, configuration ----
    {
      method: 'GET',
      path: '/vis-services',
      permission: 'view_vis_information',
      params: { imo: optionalInt(), service_id: optionalVisText() },
      handle: (ctx) =>
        send<FindVisServicesCommand>(VisBridgeCommands.findServices, ctx, {
          imo: ctx.params.imo,
          service_id: ctx.params.service_id,
        }),
    },
    {
      method: 'GET',
      path: '/vis-service-poll',
      permission: 'view_vis_information',
      params: EXAMPLE_ONLY,
      handle: (ctx) => send(VisBridgeCommands.poll, ctx, {}),
    },
    {
      method: 'GET',
      path: '/vis-configuration',
      permission: 'view_vis_information',
      params: EXAMPLE_ONLY,
      handle: (ctx) => send(VisBridgeCommands.configuration, ctx, {}),
    },

    // ---- sending ----
    {
      method: 'POST',
      path: '/vis-text-messages',
      permission: 'send_vis_text_message',
      params: {
        vis_service_id: visText(),
        author: visText(),
        subject: visText(),
        body: visText(64 * 1024),
        informationObjectReferenceId: optionalVisText(),
        informationObjectReferenceType: optionalVisText(64),
        area: optionalVisText(64 * 1024),
      },
      handle: (ctx) => send<SendVisTextMessageCommand>(VisBridgeCommands.sendTextMessage, ctx, ctx.params as never),
    },
    {
      method: 'POST',
      path: '/vis-text-messages-with-imo',
      permission: 'send_vis_text_message',
      params: { imo: int(), subject: visText(), body: visText(64 * 1024) },
      async handle(ctx) {
        // The author is the caller, "<first> <last>", as the original.
        const user = ctx.auth.userId === null ? null : await loadUserRecord(db, ctx.auth.userId);
        const author = user ? `${user.first_name} ${user.last_name}`.trim() : '';
        return send<SendVisTextMessageWithImoCommand>(VisBridgeCommands.sendTextMessageWithImo, ctx, {
          imo: ctx.params.imo,
          subject: ctx.params.subject,
          body: ctx.params.body,
          author,
        });
      },
    },
    {
      method: 'POST',
      path: '/vis-send-rta',
      permission: 'send_vis_rta',
      params: {
        vis_service_id: visText(),
        rta: visText(64),
        eta_min: visText(64),
        eta_max: visText(64),
        port_call_id: optionalInt(),
      },
      handle: (ctx) =>
        send<SendVisRtaCommand>(VisBridgeCommands.sendRta, ctx, {
          vis_service_id: ctx.params.vis_service_id,
          rta: ctx.params.rta,
          eta_min: ctx.params.eta_min,
          eta_max: ctx.params.eta_max,
          port_call_id: ctx.params.port_call_id,
        }),
    },
  ];
}
