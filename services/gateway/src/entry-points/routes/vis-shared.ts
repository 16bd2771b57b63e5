// What every VIS route file shares (vis.ts composes them): the text parameters, the paging parameters (read by
// paging.ts), a searched list, and sending a command to the vis-bridge as the caller.

import { VIS_BRIDGE } from '@pcas/contracts';
import type { ParamSpec, RequestContext, Route } from '@pcas/http-kit';
import type { ListQuery } from '@pcas/vis-bridge/queries';
import { sendAs } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { page } from './paging.ts';
import { optionalInt, optionalText, text } from './params.ts';

/** VIS identifiers, names and subjects: at most 1024 characters unless the route says otherwise. */
const VIS_TEXT_MAX = 1024;
export const visText = (maxLength = VIS_TEXT_MAX): ParamSpec => text(maxLength);
export const optionalVisText = (maxLength = VIS_TEXT_MAX): ParamSpec => optionalText(maxLength);
export const PAGE: Record<string, ParamSpec> = {
  offset: optionalInt(),
  limit: optionalInt(),
  sort: optionalVisText(),
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
  params: { ...PAGE, search: optionalVisText() },
  handle: ({ params }) => list(db, { ...page(params), search: params.search }),
});

/** Sends a command over cmd.vis-bridge on behalf of the caller. */
export const visSender =
  ({ bus }: GatewayDeps) =>
  <P>(command: string, ctx: RequestContext, input: P): Promise<unknown> =>
    sendAs(bus, VIS_BRIDGE, command, ctx.auth, input);
