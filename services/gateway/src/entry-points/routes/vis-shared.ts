// What every VIS route file shares (vis.ts composes them): the text parameters, paging, and sending a command to
// the vis-bridge as the caller.

import { VIS_BRIDGE } from '@pcas/contracts';
import { type ParamSpec, parseLimit, parseOffset, type RequestContext } from '@pcas/http-kit';
import { sendAs } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';

// As GET /vessels: a missing limit gets a page of 100 (the original's was empty), at most 10 000.
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;

export const text = (maxLength = 1024): ParamSpec => ({ type: 'string', maxLength });
export const optionalText = (maxLength = 1024): ParamSpec => ({ type: 'string', optional: true, maxLength });
export const PAGE: Record<string, ParamSpec> = {
  offset: { type: 'int', optional: true },
  limit: { type: 'int', optional: true },
  sort: optionalText(),
};
export const page = (params: Record<string, unknown>) => ({
  limit: parseLimit(params.limit, { fallback: DEFAULT_LIMIT, max: MAX_LIMIT }),
  offset: parseOffset(params.offset),
  sort: params.sort as string | undefined,
});

/** Sends a command over cmd.vis-bridge on behalf of the caller. */
export const visSender =
  ({ bus }: GatewayDeps) =>
  <P>(command: string, ctx: RequestContext, input: P): Promise<unknown> =>
    sendAs(bus, VIS_BRIDGE, command, ctx.auth, input);
