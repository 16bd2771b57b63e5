// Which real-time channel messages an event makes (docs/architecture.md#real-time): the channels the original web
// UI and mobile app subscribe to by name, with the data the original sent on each. Pure: the feed
// (entry-points/realtime-feed.ts) reads what a message needs from the read models and broadcasts it to every
// gateway process, which hands it to the sockets subscribed to that channel.

import {
  LOGISTICS_CHANGED,
  NOTIFICATIONS_CHANGED,
  PORTCALLS_CHANGED,
  QUEUE_PORTCALLS_CHANGED,
  SEA_CHART_MARKERS_CHANGED,
  SEA_CHART_VESSELS_CHANGED,
  userPortCallsChanged,
  VIS_CHANGED,
  type VisEvents,
  visInboundStream,
  visMessageStream,
  visPortStream,
  visVesselStream,
} from '@pcas/contracts';

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

/**
 * Channels whose message only says "refetch" (`[]`, as the original sent): a burst of changes may be sent as one
 * message per window (see coalesce.ts) without losing anything a client reads.
 */
export const COALESCED_CHANNELS: ReadonlySet<string> = new Set([
  PORTCALLS_CHANGED,
  QUEUE_PORTCALLS_CHANGED,
  LOGISTICS_CHANGED,
  SEA_CHART_VESSELS_CHANGED,
  SEA_CHART_MARKERS_CHANGED,
  VIS_CHANGED,
]);

/**
 * Channels coalesced over a longer window than the default: AIS agents post positions every few seconds for
 * thousands of vessels, and each message makes every open map refetch them all (at most one per second).
 */
export const COALESCE_WINDOW_MS: Readonly<Record<string, number>> = {
  [SEA_CHART_VESSELS_CHANGED]: 1000,
  [SEA_CHART_MARKERS_CHANGED]: 1000,
};

/** Every decision on a slot request (queue-scheduler): the JIT dashboard lists them. */
const SLOT_REQUEST_ROUTING_KEYS = [
  'slotrequest.SlotRequestReceived',
  'slotrequest.SlotRequestResolved',
  'slotrequest.SlotRequestUpdated',
  'slotrequest.SlotRequestPushedForward',
  'slotrequest.SlotRequestCancelled',
  'slotrequest.SlotRequestCompleted',
];

/** `visvessel-<service id>` → `visvessel`: the routing key's first word, from the contract's own stream names. */
const categoryOf = (streamId: string): string => streamId.slice(0, streamId.indexOf('-'));

/**
 * The vis-bridge's events that change what the STM/VIS views list (libs/contracts/src/vis.ts): VIS vessels, text
 * messages, voyage plans (an RTA sent is listed with them in direct mode), notifications and acknowledgements,
 * other ports and their whitelists, inbound vessels. A port call's `visportcall-*` events change no list. A sent
 * message or RTA is listed only in direct mode (the agent posts it back in agent mode, another event): there its
 * signal is one refetch too many, coalesced with the rest.
 */
const VIS_LIST_EVENTS: ReadonlyArray<readonly [string, readonly (keyof VisEvents)[]]> = [
  [categoryOf(visVesselStream('_')), ['VisVesselRecorded']],
  [
    categoryOf(visMessageStream('_')),
    [
      'VisTextMessageReceived',
      'VisTextMessageSent',
      'VisVoyagePlanReceived',
      'VisRtaSent',
      'VisNotificationReceived',
      'VisMessageAcknowledged',
    ],
  ],
  [categoryOf(visPortStream('_')), ['VisPortRecorded', 'VisPortWhitelistSet']],
  [categoryOf(visInboundStream(0)), ['InboundVesselRecorded']],
];
const VIS_ROUTING_KEYS = VIS_LIST_EVENTS.flatMap(([category, types]) => types.map((type) => `${category}.${type}`));
/**
 * The VIS events of FEED_BINDINGS: each makes only `vis-changed` (a refetch), several per message a port sends or
 * receives, so they have a queue of their own without an inbox (entry-points/vis-changes.ts).
 */
export const VIS_BINDINGS: readonly string[] = VIS_ROUTING_KEYS;

/**
 * The slot-request events of FEED_BINDINGS: each makes only `queue-portcalls-changed` (a refetch), several per slot
 * request, so they share the port-call changes' queue without an inbox (entry-points/port-call-changes.ts).
 */
export const SLOT_REQUEST_BINDINGS: readonly string[] = SLOT_REQUEST_ROUTING_KEYS;

/** The routing keys of the events the mapping handles: what the feed's queue binds. */
export const FEED_BINDINGS = [
  'portcall.PortCallChanged',
  'pins.PinnedVesselsSet',
  'notification.NotificationCreated',
  'notification.NotificationDeleted',
  'decision.DecisionClosed',
  'decision.DecisionDeleted',
  'logistics.GatePassageRecorded',
  ...SLOT_REQUEST_ROUTING_KEYS,
  // The sea chart: one signal per batch of positions (not the positions themselves, thousands a second), and the
  // fixed vessels' changes.
  'seachart.VesselPositionsRecorded',
  'fixedvessel.FixedVesselAdded',
  'fixedvessel.FixedVesselChanged',
  'fixedvessel.FixedVesselRemoved',
  ...VIS_ROUTING_KEYS,
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
    case 'seachart.VesselPositionsRecorded':
      // Positions updated: the map refetches its vessels, and its markers (as the original, whose marker ids
      // changed with every batch; ours are stable, so the refetch finds the same).
      return [
        { channel: SEA_CHART_VESSELS_CHANGED, data: [] },
        { channel: SEA_CHART_MARKERS_CHANGED, data: [] },
      ];
    case 'fixedvessel.FixedVesselAdded':
    case 'fixedvessel.FixedVesselChanged':
    case 'fixedvessel.FixedVesselRemoved':
      return [{ channel: SEA_CHART_VESSELS_CHANGED, data: [] }];
    default:
      // A slot request changed: the JIT dashboard refetches `dashboard-slot-reservations`.
      if (SLOT_REQUEST_ROUTING_KEYS.includes(routingKey)) return [{ channel: QUEUE_PORTCALLS_CHANGED, data: [] }];
      // A VIS list changed: the STM/VIS views refetch their page.
      if (VIS_ROUTING_KEYS.includes(routingKey)) return [{ channel: VIS_CHANGED, data: [] }];
      return [];
  }
}
