// What the relay (libs/messaging/src/relay.ts) publishes of the log, the same in the fleet and embedded.

import { upcastEvent } from './legacy-secrets.ts';
import { POSITION_STREAM_PREFIX } from './sea-chart.ts';

/**
 * The relay's options every process passes: events as today's contracts describe them (upcastEvent), vessel
 * positions kept off the bus, and how soon a standby takes over. No service consumes a single position from the bus (the real-time feed hears of each
 * batch through its signal on `seachart-changes`), and AIS agents post thousands a second: publishing them cost
 * the relay, the broker and PostgreSQL a large share of the machine while the agents were posting.
 */
export const RELAY_POLICY = {
  upcast: upcastEvent,
  skipStreamPrefixes: [POSITION_STREAM_PREFIX],
  // A standby tries for the lock once a second (a connection each try): a relay whose process died is replaced
  // within about a second of its session ending (docs/architecture.md#scaling-out).
  standbyRetryMs: 1_000,
} as const;
