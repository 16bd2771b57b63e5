// The notifier's consumer of the VIS list events (queue `notifier-vis`, domain/channels.ts VIS_BINDINGS): each
// only says "refetch" on `vis-changed`, and a port exchanging messages makes several a message (sent,
// received, acknowledged). So, as port-call-changes.ts, a plain batched consumer without an inbox: a batch hands one
// `vis-changed` to the real-time feed, which coalesces it; a redelivered event is one more refetch signal, nothing
// else. (Through the feed's projection each cost an inbox row and a share of a transaction.)

import type { ServiceDeps } from '@pcas/contracts';
import type { Consumer } from '@pcas/messaging';
import { type ChannelMessage, feedItems, VIS_BINDINGS } from '../domain/channels.ts';

export interface VisChangesOptions {
  /** Gets the batch's channel messages (the real-time feed's `send`). */
  send: (messages: readonly ChannelMessage[]) => void;
  /** Queue name (tests run several notifiers on one server). */
  name?: string;
}

export function startVisChanges(deps: ServiceDeps, options: VisChangesOptions): Promise<Consumer> {
  return deps.bus.consume(
    options.name ?? 'notifier-vis',
    async (messages) => {
      // Every VIS event makes the same message; the batch's distinct ones go once.
      const out = new Map<string, ChannelMessage>();
      for (const m of messages) {
        for (const item of feedItems(m.routingKey, null)) if ('data' in item) out.set(item.channel, item);
      }
      if (out.size > 0) options.send([...out.values()]);
    },
    { bindings: [...VIS_BINDINGS], maxBatch: 500, prefetch: 1000 },
  );
}
