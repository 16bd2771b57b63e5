// What every VIS route file shares (vis.ts composes them): the text parameters, the paging parameters (read by
// paging.ts), a searched list, and sending a command to the vis-bridge as the caller.

import { VIS_BRIDGE } from '@pcas/contracts';
import type { ParamSpec, RequestContext, Route } from '@pcas/http-kit';
import type { ListQuery } from '@pcas/vis-bridge/queries';
import { sendAs } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { page } from './paging.ts';

export const text = (maxLength = 1024): ParamSpec => ({ type: 'string', maxLength });
export const optionalText = (maxLength = 1024): ParamSpec => ({ type: 'string', optional: true, maxLength });
export const PAGE: Record<string, ParamSpec> = {
  offset: { type: 'int', optional: true },
  limit: { type: 'int', optional: true },
  sort: optionalText(),
};

/** GET <path>: a page of the vis-bridge's `list`, searched by `search`. */
export const searchedList = (
  db: GatewayDeps['db'],
  path: string,
  permission: string,
  list: (db: GatewayDeps['db'], query: ListQuery & { search?: string }) => Promise<unknown>,
): Route => ({
  method: 'GET',
  path,
  permission,
  module: 'vis',
  params: { ...PAGE, search: optionalText() },
  handle: ({ params }) => list(db, { ...page(params), search: params.search }),
});

/** Sends a command over cmd.vis-bridge on behalf of the caller. */
export const visSender =
  ({ bus }: GatewayDeps) =>
  <P>(command: string, ctx: RequestContext, input: P): Promise<unknown> =>
    sendAs(bus, VIS_BRIDGE, command, ctx.auth, input);
