// Routes of VIS/STM messaging (vis-bridge, cmd.vis-bridge; docs/domain.md#vis-and-other-ports). What the agent
// posts (API key) and what users send are the vis-bridge's to check and store, sent on over RPC; the lists are its
// queries (`@pcas/vis-bridge/queries`), run here. Every route belongs to the VIS module: off, they answer 403 naming
// it.

import {
  type CommandBody,
  type FindVisServicesCommand,
  type SavePortCommand,
  type SendVisRtaCommand,
  type SendVisTextMessageCommand,
  type SendVisTextMessageWithImoCommand,
  type SetPortWhitelistCommand,
  VIS_BRIDGE,
  VisBridgeCommands,
} from '@pcas/contracts';
import { type ParamSpec, parseLimit, parseOffset, type RequestContext, type Route } from '@pcas/http-kit';
import {
  listInboundVessels,
  listPorts,
  listVisNotifications,
  listVisTextMessages,
  listVisVessels,
  listVisVoyagePlans,
} from '@pcas/vis-bridge/queries';
import { loadUserRecord } from '../../adapters/users.ts';
import { actorOf } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';

// As GET /vessels: a missing limit gets a page of 100 (the original's was empty), at most 10 000.
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;
/** A message's payload (an RTZ route can be large). */
const MAX_PAYLOAD = 4 * 1024 * 1024;

const text = (maxLength = 1024): ParamSpec => ({ type: 'string', maxLength });
const optionalText = (maxLength = 1024): ParamSpec => ({ type: 'string', optional: true, maxLength });
const PAGE: Record<string, ParamSpec> = {
  offset: { type: 'int', optional: true },
  limit: { type: 'int', optional: true },
  sort: optionalText(),
};
/**
 * GET /vis-service-poll and /vis-configuration declared no parameters; the interface spec names these from the
 * original's usage example. Accepted (typed) and ignored.
 */
const EXAMPLE_ONLY: Record<string, ParamSpec> = {
  vis_service_id: optionalText(),
  rta: optionalText(64),
  eta_min: optionalText(64),
  eta_max: optionalText(64),
  port_call_id: { type: 'int', optional: true },
};
const page = (params: Record<string, unknown>) => ({
  limit: parseLimit(params.limit, { fallback: DEFAULT_LIMIT, max: MAX_LIMIT }),
  offset: parseOffset(params.offset),
  sort: params.sort as string | undefined,
});

export function visRoutes(deps: GatewayDeps): Route[] {
  const { bus, db } = deps;
  const send = <P>(command: string, ctx: RequestContext, input: P): Promise<unknown> => {
    const body: CommandBody<P> = { actor: actorOf(ctx.auth), input };
    return bus.rpc(VIS_BRIDGE, command, body);
  };
  const agentPost = (path: string, params: Record<string, ParamSpec>, command: string): Route => ({
    method: 'POST',
    path,
    permission: 'timestamp',
    module: 'vis',
    params,
    handle: (ctx) => send(command, ctx, ctx.params),
  });
  const MESSAGE: Record<string, ParamSpec> = {
    time: text(64),
    from_service_id: text(),
    to_service_id: text(),
    message_id: text(),
    message_type: text(64),
    payload: text(MAX_PAYLOAD),
  };

  return [
    // ---- the agent's posts (and what direct mode's peers deliver goes the same way in the service) ----
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

    // ---- reads ----
    {
      method: 'GET',
      path: '/vis-vessels',
      permission: 'view_vis_information',
      module: 'vis',
      params: {
        imo: { type: 'int', optional: true },
        vessel_name: optionalText(),
        service_id: optionalText(),
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
    {
      method: 'GET',
      path: '/vis-text-messages',
      permission: 'view_vis_information',
      module: 'vis',
      params: { from_service_id: optionalText(), to_service_id: optionalText(), ...PAGE },
      handle: ({ params }) =>
        listVisTextMessages(db, {
          ...page(params),
          from_service_id: params.from_service_id,
          to_service_id: params.to_service_id,
        }),
    },
    {
      method: 'GET',
      path: '/vis-voyage-plans',
      permission: 'view_vis_information',
      module: 'vis',
      params: { from_service_id: optionalText(), to_service_id: optionalText(), ...PAGE },
      handle: ({ params }) =>
        listVisVoyagePlans(db, {
          ...page(params),
          from_service_id: params.from_service_id,
          to_service_id: params.to_service_id,
        }),
    },
    {
      method: 'GET',
      path: '/vis-notifications',
      permission: 'view_vis_information',
      module: 'vis',
      params: { from_service_id: optionalText(), ...PAGE },
      handle: ({ params }) => listVisNotifications(db, { ...page(params), from_service_id: params.from_service_id }),
    },
    {
      method: 'GET',
      path: '/inbound-vessels',
      permission: 'basic_user_action',
      module: 'vis',
      params: { ...PAGE, search: optionalText() },
      handle: ({ params }) => listInboundVessels(db, { ...page(params), search: params.search }),
    },

    // ---- the VIS service: find, poll, configuration ----
    {
      method: 'GET',
      path: '/vis-services',
      permission: 'view_vis_information',
      module: 'vis',
      params: { imo: { type: 'int', optional: true }, service_id: optionalText() },
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
      module: 'vis',
      params: EXAMPLE_ONLY,
      handle: (ctx) => send(VisBridgeCommands.poll, ctx, {}),
    },
    {
      method: 'GET',
      path: '/vis-configuration',
      permission: 'view_vis_information',
      module: 'vis',
      params: EXAMPLE_ONLY,
      handle: (ctx) => send(VisBridgeCommands.configuration, ctx, {}),
    },

    // ---- sending ----
    {
      method: 'POST',
      path: '/vis-text-messages',
      permission: 'send_vis_text_message',
      module: 'vis',
      params: {
        vis_service_id: text(),
        author: text(),
        subject: text(),
        body: text(64 * 1024),
        informationObjectReferenceId: optionalText(),
        informationObjectReferenceType: optionalText(64),
        area: optionalText(64 * 1024),
      },
      handle: (ctx) => send<SendVisTextMessageCommand>(VisBridgeCommands.sendTextMessage, ctx, ctx.params as never),
    },
    {
      method: 'POST',
      path: '/vis-text-messages-with-imo',
      permission: 'send_vis_text_message',
      module: 'vis',
      params: { imo: { type: 'int' }, subject: text(), body: text(64 * 1024) },
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
      module: 'vis',
      params: {
        vis_service_id: text(),
        rta: text(64),
        eta_min: text(64),
        eta_max: text(64),
        port_call_id: { type: 'int', optional: true },
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

    // ---- other ports and the whitelists ----
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
