// A user's pinned vessels (docs/domain.md#pinned-vessels): read with the notifier's queries
// (`@pcas/notifier/queries`), changed by the
// notifier (cmd.notifier setPinnedVessels), which checks the list and records it on the user's pins stream.

import { NOTIFIER, PinCommands, type SetPinnedVesselsCommand } from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import { pinnedVessels } from '@pcas/notifier/queries';
import { sendAs } from '../actor.ts';
import type { GatewayDeps } from '../deps.ts';
import { array, optional } from './params.ts';

export function pinnedVesselRoutes(deps: GatewayDeps): Route[] {
  const { db, bus } = deps;
  return [
    {
      method: 'GET',
      path: '/pinned-vessel-ids',
      permission: 'basic_user_action',
      // The pins order the activity timeline (pinned vessels first).
      module: 'activity',
      // The spec's example also sends id; the original ignored it, and so does this.
      params: {},
      async handle({ auth }) {
        return auth.userId === null ? [] : pinnedVessels(db, auth.userId);
      },
    },
    {
      method: 'PUT',
      path: '/pinned-vessel-ids',
      permission: 'basic_user_action',
      module: 'activity',
      // The whole list, replacing the previous one; absent means none, as in the original.
      params: { vessel_ids: optional(array(), []) },
      async handle(ctx) {
        return sendAs<SetPinnedVesselsCommand>(bus, NOTIFIER, PinCommands.setPinnedVessels, ctx.auth, {
          vessel_ids: ctx.params.vessel_ids,
        });
      },
    },
  ];
}
