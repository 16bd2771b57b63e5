// The real-time channel table, beside the route table (index.ts): what a socket needs to subscribe to each channel
// (docs/architecture.md#real-time). A channel that carries data needs the permission of the GET route serving
// the same data, named here by that route so the two cannot drift; a signal (`[]`, "refetch") needs nothing.

import {
  LOGISTICS_CHANGED,
  NOTIFICATIONS_CHANGED,
  PER_USER_CHANNEL_PREFIXES,
  PORTCALLS_CHANGED,
  QUEUE_PORTCALLS_CHANGED,
  SEA_CHART_MARKERS_CHANGED,
  SEA_CHART_VESSELS_CHANGED,
  VIS_CHANGED,
} from '@pcas/contracts';
import type { Route } from '@pcas/http-kit';
import type { ChannelRule, ChannelRules } from '../../domain/realtime.ts';

type Declared = { signal: true } | { sameAs: string };

const SIGNAL: Declared = { signal: true };

/** Every channel but the per-user ones (`portcalls-changed-<id>`, `notifications-changed-<id>`: their user only). */
export const CHANNELS: Readonly<Record<string, Declared>> = {
  [PORTCALLS_CHANGED]: SIGNAL,
  [QUEUE_PORTCALLS_CHANGED]: SIGNAL,
  [LOGISTICS_CHANGED]: SIGNAL,
  [SEA_CHART_VESSELS_CHANGED]: SIGNAL,
  [SEA_CHART_MARKERS_CHANGED]: SIGNAL,
  [VIS_CHANGED]: SIGNAL,
  // Whole notifications: sender's name and e-mail, message, ship, decisions.
  [NOTIFICATIONS_CHANGED]: { sameAs: 'GET /notifications' },
};

/** The table with each `sameAs` resolved to its route's permission; throws when a named route does not exist. */
export function channelRules(routes: readonly Route[]): ChannelRules {
  const named = new Map<string, ChannelRule>();
  for (const [channel, declared] of Object.entries(CHANNELS)) {
    if ('signal' in declared) {
      named.set(channel, { kind: 'signal' });
      continue;
    }
    const route = routes.find((r) => `${r.method} ${r.path}` === declared.sameAs);
    if (!route) throw new Error(`Channel ${channel} names route ${declared.sameAs}, which does not exist`);
    named.set(channel, { kind: 'permission', permission: route.permission });
  }
  return { named, perUser: PER_USER_CHANNEL_PREFIXES };
}
