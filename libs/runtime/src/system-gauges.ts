// The gauges of the system as a whole, read at each scrape (docs/operations.md#metrics-and-probes): how far the
// relay is behind the log and how far each projection is behind (the outboxes' owners count their own rows). They are the same
// whichever process reads them, so only the process whose relay is active reports them: each series exists once
// in the fleet, and moves to the new relay process when the old one dies.

import type { EventStore } from '@pcas/eventstore';
import { projectionLag, type Relay } from '@pcas/messaging';
import { collectGauge } from '@pcas/observability';
import type { Queryable } from '@pcas/sql';

/** Events counted behind the relay's checkpoint at most; more reads as this many ("at least"). */
export const RELAY_LAG_EVENTS_CAP = 1000;

export interface SystemGaugeOptions {
  db: Queryable;
  store: EventStore;
  relay: Relay;
  /** The relay's checkpoint name (default `relay`) and the streams it passes over (RELAY_POLICY). */
  relayName?: string;
  skipStreamPrefixes?: readonly string[];
}

/** Registers the system's gauges; returns their removal. */
export function registerSystemGauges(options: SystemGaugeOptions): () => void {
  const { db, store, relay } = options;
  const reporting = () => relay.active;
  const relayName = options.relayName ?? 'relay';

  const relayLag = async () => {
    const checkpoint = await store.readCheckpoint(relayName);
    const { events } = await store.readAll(checkpoint, RELAY_LAG_EVENTS_CAP, {
      skipStreamPrefixes: options.skipStreamPrefixes,
    });
    const oldest = events[0];
    return { events: events.length, seconds: oldest ? Math.max(0, (Date.now() - oldest.created.getTime()) / 1000) : 0 };
  };
  // One read serves both relay gauges of a scrape.
  let pending: Promise<{ events: number; seconds: number }> | undefined;
  const sharedRelayLag = () => {
    pending ??= relayLag().finally(() => {
      setImmediate(() => {
        pending = undefined;
      });
    });
    return pending;
  };

  const removals = [
    collectGauge(
      'relay_lag_events',
      `Events in the log after the relay's saved checkpoint (published ones since the last save included; at most ${RELAY_LAG_EVENTS_CAP})`,
      ['relay'],
      async (set) => {
        if (reporting()) set({ relay: relayName }, (await sharedRelayLag()).events);
      },
    ),
    collectGauge(
      'relay_lag_seconds',
      "Age of the oldest event after the relay's saved checkpoint; 0 when it has published everything",
      ['relay'],
      async (set) => {
        if (reporting()) set({ relay: relayName }, (await sharedRelayLag()).seconds);
      },
    ),
    collectGauge(
      'projection_lag_seconds',
      'Per projection (bus consumer) and partition: age of the oldest event it should have and has not applied; 0 when up to date',
      ['projection', 'partition'],
      async (set) => {
        if (!reporting()) return;
        for (const { consumer, lag_seconds } of await projectionLag(db)) {
          // A partition's progress is `<projection>.pNN` (libs/messaging/src/partitions.ts); an unpartitioned one `''`.
          const [, projection = consumer, partition = ''] = /^(.*)\.(p\d+)$/.exec(consumer) ?? [];
          set({ projection, partition }, lag_seconds);
        }
      },
    ),
  ];
  return () => {
    for (const remove of removals) remove();
  };
}
