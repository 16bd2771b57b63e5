// The notifier's one consumer of the projector's portcall.PortCallChanged (queue `notifier-portcalls`): it closes
// the decisions of a port call that became done, then signals `portcalls-changed` and `queue-portcalls-changed`
// through the real-time feed. Under ingest load there is about one change per timestamp, so the queue is a plain
// batched consumer without an inbox: a redelivered signal is one more refetch signal (coalesced anyway) and closes
// nothing twice (closeDecisionsOfDonePortCalls only closes open decisions), and a batch costs one probe of the
// open-decisions index unless a decision is open.

import { PORTCALL_CHANGED_ROUTING_KEY, type PortCallChanged, type ServiceDeps } from '@pcas/contracts';
import { type Consumer, toRecordedEvent } from '@pcas/messaging';
import { anyOpenDecision } from '../adapters/notifications.ts';
import { type ChannelMessage, feedItems } from '../domain/channels.ts';
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
  // Every change makes the same refetch-only messages: one set per batch says it all.
  const signals = feedItems(PORTCALL_CHANGED_ROUTING_KEY, {}).filter((item): item is ChannelMessage => 'data' in item);
  return bus.consume(
    name,
    async (messages) => {
      const changes = messages
        .map(toRecordedEvent)
        .filter((e) => e.type === 'PortCallChanged')
        .map((e) => ({ id: e.id, data: e.data as PortCallChanged }));
      if (changes.length === 0) return;
      if (await anyOpenDecision(db)) {
        const closed = await db.transaction((tx) => closeDecisionsOfDonePortCalls(tx, store, changes));
        if (closed > 0) log.info({ closed }, 'decisions closed: their port call is done');
      }
      options.send?.(signals);
    },
    { bindings: [PORTCALL_CHANGED_ROUTING_KEY], maxBatch: 500, prefetch: 1000 },
  );
}
