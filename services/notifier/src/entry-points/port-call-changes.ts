// The notifier's consumer of the projector's portcall.PortCallChanged and the queue-scheduler's slot-request events
// (queue `notifier-portcalls`): a port call that became done closes its decisions; the batch then signals
// `portcalls-changed` and `queue-portcalls-changed` (a slot-request event only the latter) through the real-time
// feed. Under ingest load there is about one change per timestamp, and several slot-request events per slot
// request, so the queue is a plain batched consumer without an inbox: a redelivered event is one more refetch
// signal (coalesced anyway) and closes nothing twice (closeDecisionsOfDonePortCalls only closes open decisions),
// and a batch costs one probe of the open-decisions index when it holds a port-call change, unless a decision is
// open.

import { PORTCALL_CHANGED_ROUTING_KEY, type PortCallChanged, type ServiceDeps } from '@pcas/contracts';
import { type Consumer, toRecordedEvent } from '@pcas/messaging';
import { anyOpenDecision } from '../adapters/notifications.ts';
import { type ChannelMessage, feedItems, SLOT_REQUEST_BINDINGS } from '../domain/channels.ts';
import { closeDecisionsOfDonePortCalls } from './notifications.ts';

export interface PortCallChangesOptions {
  /** Gets the batch's channel messages once its decisions are committed (the real-time feed's `send`). */
  send?: (messages: readonly ChannelMessage[]) => void;
  /** Queue name (tests run several notifiers on one server). */
  name?: string;
}

export function startPortCallChanges(deps: ServiceDeps, options: PortCallChangesOptions = {}): Promise<Consumer> {
  const { bus, db, store } = deps;
  const name = options.name ?? 'notifier-portcalls';
  const log = deps.log.child({ consumer: name });
  return bus.consume(
    name,
    async (messages) => {
      const changes = messages
        .filter((m) => m.routingKey === PORTCALL_CHANGED_ROUTING_KEY)
        .map(toRecordedEvent)
        .filter((e) => e.type === 'PortCallChanged')
        .map((e) => ({ id: e.id, data: e.data as PortCallChanged }));
      if (changes.length > 0 && (await anyOpenDecision(db))) {
        const closed = await db.transaction((tx) => closeDecisionsOfDonePortCalls(tx, store, changes));
        if (closed > 0) log.info({ closed }, 'decisions closed: their port call is done');
      }
      // Every event of a kind makes the same refetch-only messages: the batch's distinct ones go once, in order.
      const out = new Map<string, ChannelMessage>();
      for (const m of messages) {
        for (const item of feedItems(m.routingKey, null)) if ('data' in item) out.set(item.channel, item);
      }
      if (out.size > 0) options.send?.([...out.values()]);
    },
    { bindings: [PORTCALL_CHANGED_ROUTING_KEY, ...SLOT_REQUEST_BINDINGS], maxBatch: 500, prefetch: 1000 },
  );
}
