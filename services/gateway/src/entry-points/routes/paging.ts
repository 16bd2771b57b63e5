// The paging of the activity lists (port calls, timestamps, vessels, decisions, VIS): the original turned a missing
// limit into LIMIT 0, an empty page, and had no upper bound; here a missing limit gets a page of 100, and a page
// is capped so one request cannot read the whole table.

import { type ParamSpec, parseLimit, parseOffset } from '@pcas/http-kit';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;

/** limit, offset and sort of a list route, limit and offset checked by parseLimit/parseOffset. */
export const page = (params: Record<string, unknown>) => ({
  limit: parseLimit(params.limit, { fallback: DEFAULT_LIMIT, max: MAX_LIMIT }),
  offset: parseOffset(params.offset),
  sort: params.sort as string | undefined,
});

/**
 * The original's declaration of an admin list (API keys, fixed vessels): limit, offset and sort required (clients
 * always send them), search optional.
 */
export const REQUIRED_LIST_PARAMS: Record<string, ParamSpec> = {
  limit: { type: 'int' },
  offset: { type: 'int' },
  sort: { type: 'string' },
  search: { type: 'string', optional: true, default: '' },
};
