// DCSA partners and what goes to them (docs/dcsa.md#partners, #the-web-ui): an administrator registers a partner
// (name, its API key, the base URL and credentials of its JIT endpoints, the vessels it follows), sees each
// partner's outbox and puts refused messages back in it; people see the DCSA timestamps of a vessel and answer a
// partner's requested (or estimated) time with our planned one. Commands go to cmd.dcsa-bridge; lists are its
// queries.

import { ApiError, DCSA_BRIDGE, DcsaCommands, type DcsaPartnerCommand } from '@pcas/contracts';
import { listDcsaTimestamps, listOutbox, listPartners, OUTBOX_STATUSES } from '@pcas/dcsa-bridge/queries';
import { type AuthContext, type ParamSpec, parseLimit, type Route } from '@pcas/http-kit';
import { sendAs } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { array, bool, int, mixed, optional, optionalInt, optionalText, text } from './params.ts';

const PARTNER_PARAMS: Record<string, ParamSpec> = {
  name: text(200),
  api_key_id: int(),
  base_url: text(2000),
  credentials: optionalText(4000),
  vessel_imos: optional(array(), []),
  active: optional(bool(), true),
};

export function dcsaAdminRoutes(deps: GatewayDeps): Route[] {
  const { bus, db } = deps;
  const command = <T>(ctx: { auth: AuthContext }, name: string, input: T) =>
    sendAs(bus, DCSA_BRIDGE, name, ctx.auth, input);

  return [
    {
      method: 'GET',
      path: '/dcsa-partners',
      permission: 'manage_api_key',
      params: {},
      handle: async () => ({ data: await listPartners(db) }),
    },
    {
      method: 'POST',
      path: '/dcsa-partners',
      permission: 'manage_api_key',
      params: PARTNER_PARAMS,
      handle: (ctx) => command<DcsaPartnerCommand>(ctx, DcsaCommands.registerPartner, ctx.params as DcsaPartnerCommand),
    },
    {
      method: 'PUT',
      path: '/dcsa-partners/:id',
      permission: 'manage_api_key',
      params: { id: int(), ...PARTNER_PARAMS },
      handle: (ctx) => command<DcsaPartnerCommand>(ctx, DcsaCommands.changePartner, ctx.params as DcsaPartnerCommand),
    },
    {
      method: 'POST',
      path: '/dcsa-partners/:id/retry',
      permission: 'manage_api_key',
      params: { id: int() },
      handle: (ctx) => command(ctx, DcsaCommands.retryOutbox, { id: ctx.params.id }),
    },
    {
      method: 'GET',
      path: '/dcsa-outbox',
      permission: 'manage_api_key',
      params: {
        partner_id: optionalInt(),
        status: optionalText(20),
        limit: optional(mixed()),
      },
      async handle({ params }) {
        if (params.status !== undefined && !(OUTBOX_STATUSES as readonly string[]).includes(params.status)) {
          throw ApiError.badRequest(`Invalid status: ${params.status} (one of ${OUTBOX_STATUSES.join(', ')})`);
        }
        const limit = parseLimit(params.limit, { fallback: 100, max: 1000 });
        return { data: await listOutbox(db, { partner_id: params.partner_id, status: params.status, limit }) };
      },
    },
    {
      method: 'GET',
      path: '/dcsa-timestamps',
      permission: 'basic_user_action',
      params: { imo: optionalInt(), limit: optional(mixed()) },
      async handle({ params }) {
        const limit = parseLimit(params.limit, { fallback: 100, max: 1000 });
        return { data: await listDcsaTimestamps(db, { imo: params.imo, limit }) };
      },
    },
    {
      method: 'POST',
      path: '/dcsa-timestamps/:id/plan',
      permission: 'add_manual_timestamp',
      params: {
        id: text(100),
        date_time: text(64),
        remark: optionalText(500),
      },
      handle: (ctx) =>
        command(ctx, DcsaCommands.answerRequest, {
          timestamp_id: ctx.params.id,
          date_time: ctx.params.date_time,
          remark: ctx.params.remark,
        }),
    },
  ];
}
