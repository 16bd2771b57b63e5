// Which real-time channel messages an event makes (docs/architecture.md#real-time): the channels the original web
// UI and mobile app subscribe to by name, with the data the original sent on each. Pure: the feed
// (entry-points/realtime-feed.ts) reads what a message needs from the read models and broadcasts it to every
// gateway process, which hands it to the sockets subscribed to that channel.

/** A message for one channel: `data` as the sockets receive it. */
export interface ChannelMessage {
  channel: string;
  data: unknown;
}

/**
 * A message whose data is a notification as `GET /notifications` serves it (sender, ship, decision, children),
 * read from the read model when the message goes out.
 */
export interface NotificationMessage {
  channel: string;
  notificationId: number;
}

export type FeedItem = ChannelMessage | NotificationMessage;

export const PORTCALLS_CHANGED = 'portcalls-changed';
export const QUEUE_PORTCALLS_CHANGED = 'queue-portcalls-changed';
export const NOTIFICATIONS_CHANGED = 'notifications-changed';
export const LOGISTICS_CHANGED = 'logistics-changed';

/** `portcalls-changed-<userId>`: that user's pinned vessels changed (the UI refetches its port calls). */
export const userPortCallsChanged = (userId: number) => `${PORTCALLS_CHANGED}-${userId}`;
/** `notifications-changed-<userId>`: a notification for that user only (the VESSEL push's synthetic one). */
export const userNotificationsChanged = (userId: number) => `${NOTIFICATIONS_CHANGED}-${userId}`;

/**
 * Channels whose message only says "refetch" (`[]`, as the original sent): a burst of changes may be sent as one
 * message per window (see coalesce.ts) without losing anything a client reads.
 */
export const COALESCED_CHANNELS: ReadonlySet<string> = new Set([
  PORTCALLS_CHANGED,
  QUEUE_PORTCALLS_CHANGED,
  LOGISTICS_CHANGED,
]);

/** The routing keys of the events the mapping handles: what the feed's queue binds. */
export const FEED_BINDINGS = [
  'portcall.PortCallChanged',
  'pins.PinnedVesselsSet',
  'notification.NotificationCreated',
  'notification.NotificationDeleted',
  'decision.DecisionClosed',
  'decision.DecisionDeleted',
  'logistics.GatePassageRecorded',
  // The sea chart (`sea-chart-vessels-changed`, `sea-chart-markers-changed`) adds its routing keys here and its
  // cases below when its events exist.
];

/**
 * The channel messages of one event (its routing key `<category>.<type>` and data), in the order they go out; none
 * for an event no channel follows.
 */
export function feedItems(routingKey: string, data: unknown): FeedItem[] {
  switch (routingKey) {
    case 'portcall.PortCallChanged':
      // Any port call saved or deleted: the activity view and the JIT dashboard refetch.
      return [
        { channel: PORTCALLS_CHANGED, data: [] },
        { channel: QUEUE_PORTCALLS_CHANGED, data: [] },
      ];
    case 'pins.PinnedVesselsSet': {
      const { user_id } = data as { user_id: number };
      return [{ channel: userPortCallsChanged(user_id), data: [] }];
    }
    case 'notification.NotificationCreated': {
      // A new notification, or the reply a decision item's answer makes (its own NotificationCreated): the UI shows
      // a toast from the object and refetches the list.
      const { id } = data as { id: number };
      return [{ channel: NOTIFICATIONS_CHANGED, notificationId: id }];
    }
    case 'notification.NotificationDeleted':
    case 'decision.DecisionClosed':
    case 'decision.DecisionDeleted':
      // Something left or changed in the list: refetch only. `null`, as the original web UI reads falsy data as
      // "refetch, no toast" (an object without a sender would break its handler).
      return [{ channel: NOTIFICATIONS_CHANGED, data: null }];
    case 'logistics.GatePassageRecorded':
      // A truck passed a gate: the logistics view refetches `logistics-timestamps/100`.
      return [{ channel: LOGISTICS_CHANGED, data: [] }];
    default:
      return [];
  }
}
