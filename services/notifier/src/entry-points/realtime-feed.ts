// The real-time feed (docs/architecture.md#real-time): consumes the events the channels follow, turns each into its
// channel messages (domain/channels.ts) and broadcasts them to every gateway process, which forwards them to its
// sockets; portcall.PortCallChanged, the slot-request events and the VIS list events come instead through consumers
// of their own (port-call-changes.ts, vis-changes.ts), which hand their signals to `send`. Coalescing happens here, before the broadcast, because each queue has one
// active consumer: one window per channel for the whole fleet, so the "at most one per 250 ms" holds for every
// socket whichever gateway it is on, and a burst costs the broker and the gateways one message per window instead
// of one per change.

import { PORTCALL_CHANGED_ROUTING_KEY, type RunningService, type ServiceDeps } from '@pcas/contracts';
import { eventRoutingKey, startProjection } from '@pcas/messaging';
import type { Queryable } from '@pcas/sql';
import {
  type ChannelMessage,
  COALESCE_WINDOW_MS,
  COALESCED_CHANNELS,
  FEED_BINDINGS,
  feedItems,
  SLOT_REQUEST_BINDINGS,
  VIS_BINDINGS,
} from '../domain/channels.ts';
import { createCoalescer } from '../domain/coalesce.ts';

/** Events the notifier consumes on queues of their own (port-call-changes.ts, vis-changes.ts). */
const OWN_QUEUE: ReadonlySet<string> = new Set([
  PORTCALL_CHANGED_ROUTING_KEY,
  ...SLOT_REQUEST_BINDINGS,
  ...VIS_BINDINGS,
]);

export interface RealtimeFeedOptions {
  /** The coalescing window of the refetch-only channels (default 250 ms). */
  windowMs?: number;
  /** A notification as GET /notifications serves it, or null when it is gone. */
  readNotification: (db: Queryable, id: number) => Promise<unknown | null>;
}

export interface RealtimeFeed extends RunningService {
  /** Sends messages made elsewhere; call it only once what they announce is committed. */
  send(messages: readonly ChannelMessage[]): void;
}

export async function startRealtimeFeed(deps: ServiceDeps, options: RealtimeFeedOptions): Promise<RealtimeFeed> {
  const { bus, db, log } = deps;
  const broadcast = (message: ChannelMessage) => {
    bus.broadcast(message.channel, message).catch((error) =>
      // A live signal: the next change sends the next one, and every client also polls.
      log.warn({ err: error, channel: message.channel }, 'real-time message not sent'),
    );
  };
  const coalescer = createCoalescer(broadcast, options.windowMs ?? 250);
  // Channels with a longer window of their own (the sea chart's): a coalescer each.
  const longer = new Map(
    Object.entries(COALESCE_WINDOW_MS).map(([channel, ms]) => [channel, createCoalescer(broadcast, ms)]),
  );
  const send = (messages: readonly ChannelMessage[]) => {
    for (const message of messages) {
      if (COALESCED_CHANNELS.has(message.channel)) (longer.get(message.channel) ?? coalescer).push(message);
      else broadcast(message);
    }
  };
  // The messages of the batch being applied: sent only once its transaction committed.
  let pending: ChannelMessage[] = [];

  const consumer = await startProjection({
    bus,
    db,
    log,
    name: 'notifier-realtime',
    // Low volume, and a duplicate notification message would show twice in a UI: idempotent, hence the projection.
    bindings: FEED_BINDINGS.filter((key) => !OWN_QUEUE.has(key)),
    async apply(tx, events) {
      const messages: ChannelMessage[] = [];
      for (const event of events) {
        const key = eventRoutingKey(event);
        // A queue declared before VIS and slot-request events had their own keeps their bindings (RabbitMQ keeps a
        // binding until it is removed): those deliveries are notifier-vis's and notifier-portcalls' to signal.
        if (OWN_QUEUE.has(key)) continue;
        for (const item of feedItems(key, event.data)) {
          if ('data' in item) messages.push(item);
          else {
            const notification = await options.readNotification(tx, item.notificationId);
            if (notification) messages.push({ channel: item.channel, data: notification });
          }
        }
      }
      // A batch that rolled back and is tried again starts over.
      pending = messages;
    },
    async afterCommit() {
      const messages = pending;
      pending = [];
      send(messages);
    },
  });

  return {
    send,
    async stop() {
      await consumer.stop();
      coalescer.flush();
      for (const c of longer.values()) c.flush();
    },
  };
}
