// The real-time channels by name: the notifier publishes on them (services/notifier/src/domain/channels.ts) and
// the gateway's sockets subscribe to them under the rules of services/gateway/src/entry-points/routes/channels.ts.
// The names are the original's, which its web UI and mobile app subscribe to (docs/architecture.md#real-time).

export const PORTCALLS_CHANGED = 'portcalls-changed';
export const QUEUE_PORTCALLS_CHANGED = 'queue-portcalls-changed';
export const NOTIFICATIONS_CHANGED = 'notifications-changed';
export const LOGISTICS_CHANGED = 'logistics-changed';
export { SEA_CHART_VESSELS_CHANNEL as SEA_CHART_VESSELS_CHANGED } from './sea-chart.ts';
export const SEA_CHART_MARKERS_CHANGED = 'sea-chart-markers-changed';
/** Ours (the original had no VIS channel): anything the STM/VIS views list changed. */
export const VIS_CHANGED = 'vis-changed';

/** `portcalls-changed-<userId>`: that user's pinned vessels changed (the UI refetches its port calls). */
export const userPortCallsChanged = (userId: number) => `${PORTCALLS_CHANGED}-${userId}`;
/** `notifications-changed-<userId>`: a notification for that user only (the VESSEL push's synthetic one). */
export const userNotificationsChanged = (userId: number) => `${NOTIFICATIONS_CHANGED}-${userId}`;
/** The prefixes of the per-user channels, each followed by a user id. */
export const PER_USER_CHANNEL_PREFIXES: readonly string[] = [`${PORTCALLS_CHANGED}-`, `${NOTIFICATIONS_CHANGED}-`];
