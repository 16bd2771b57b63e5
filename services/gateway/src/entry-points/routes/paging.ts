// The paging of the activity lists (port calls, timestamps, vessels, decisions, VIS): the original turned a missing
// limit into LIMIT 0, an empty page, and had no upper bound; here a missing limit gets a page of 100, and a page
// is capped so one request cannot read the whole table.

import { type ParamSpec, parseLimit, parseOffset, type Route } from '@pcas/http-kit';
import { int, optional, optionalText, text } from './params.ts';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;

/** limit, offset and sort of a list route, limit and offset checked by parseLimit/parseOffset. */
export const page = (params: Record<string, unknown>) => ({
  limit: parseLimit(params.limit, { fallback: DEFAULT_LIMIT, max: MAX_LIMIT }),
  offset: parseOffset(params.offset),
  sort: params.sort as string | undefined,
});

/**
 * The parameters and handler of a searched list: limit and offset as `paging` declares them, sort and search
 * optional; `list` gets the page and the search.
 */
export const searchedPage = (
  paging: ParamSpec,
  list: (query: ReturnType<typeof page> & { search?: string }) => Promise<unknown>,
): Pick<Route, 'params' | 'handle'> => ({
  params: { limit: paging, offset: paging, sort: optionalText(), search: optionalText() },
  handle: ({ params }) => list({ ...page(params), search: params.search }),
});

/**
 * The original's declaration of an admin list (API keys, fixed vessels): limit, offset and sort required (clients
 * always send them), search optional.
 */
export const REQUIRED_LIST_PARAMS: Record<string, ParamSpec> = {
  limit: int(),
  offset: int(),
  sort: text(),
  search: optional(text(), ''),
};
