// GET /vessels (docs/domain.md#vessels).

import { parseLimit, parseOffset, type Route } from '@pcas/http-kit';
import { listVessels } from '../../adapters/read-models/vessels.ts';
import type { GatewayDeps } from '../deps.ts';

// The original turns a missing limit into LIMIT 0, an empty page; a missing limit gets a page of
// 100 here instead. It had no upper bound; this one keeps a single request from reading the whole table.
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;

export function vesselRoutes(deps: GatewayDeps): Route[] {
  const { db } = deps;
  return [
    {
      method: 'GET',
      path: '/vessels',
      permission: 'basic_user_action',
      // The vessels admin pages and the mobile app's pinned-vessel list are part of the activity timeline.
      module: 'activity',
      params: {
        limit: { type: 'int', optional: true },
        offset: { type: 'int', optional: true },
        sort: { type: 'string', optional: true },
        search: { type: 'string', optional: true },
      },
      async handle({ params }) {
        return listVessels(db, {
          limit: parseLimit(params.limit, { fallback: DEFAULT_LIMIT, max: MAX_LIMIT }),
          offset: parseOffset(params.offset),
          sort: params.sort,
          search: params.search,
        });
      },
    },
  ];
}
