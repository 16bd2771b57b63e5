// The RabbitMQ bus (amqplib 2.x). Topology is declared in code: topic exchange `events`, direct dead-letter
// exchange `events.dlx`, per consumer a durable single-active-consumer queue plus `<queue>.dlq`, per service a
// durable `cmd.<service>` queue, and a fanout exchange `realtime` for broadcasts, where each receiving process
// binds an exclusive queue of its own. amqplib's connection recovery reconnects with backoff; on every (re)connect the
// topology is declared again and every channel (publisher, RPC client, consumers, RPC servers) reopened.
//
// Where it lives: the connection and topology in amqp-connection.ts, the channel that follows it in amqp-channel.ts,
// publishing with confirms in amqp-publisher.ts, RPC (client and server) in amqp-rpc.ts, queue consumers and
// broadcast receivers in amqp-consumers.ts, partitioned consumers in amqp-partitions.ts.
//
// Publishing rule (keeps per-queue order under failures): a publish is sent only on the channel that was up when
// it was requested. If that channel dies before the confirm, the publish is rejected and the caller retries
// (the relay republishes its whole batch, consumers dedupe). A publish requested while no channel is up waits
// (bounded) for the next one.

import type { Logger } from '@pcas/observability';
import { AmqpBus } from './amqp-connection.ts';
import type { Bus } from './types.ts';

export interface ReconnectOptions {
  /** First reconnect delay (default 200 ms), doubled per attempt up to maxDelayMs (default 5 s). */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Connection attempts at start-up before createAmqpBus rejects (default 10). */
  initialMaxRetries?: number;
  /** How long a publish or rpc issued while disconnected waits for the connection (default 30 s). */
  waitMs?: number;
}

export interface AmqpBusOptions {
  url: string;
  log: Logger;
  /** Topic exchange for events (default `events`); its dead-letter exchange is `<exchange>.dlx`. */
  exchange?: string;
  /** Fanout exchange for broadcasts (default `realtime`). */
  broadcastExchange?: string;
  /** Reconnect tuning; `false` turns automatic reconnection off. */
  reconnect?: ReconnectOptions | false;
  /** Base of the backoff between handler attempts (default 50 ms). */
  retryBaseMs?: number;
  /**
   * Partitions of a partitioned consumer (EVENT_PARTITIONS, default 16). Every process of a fleet must use the same
   * count: the publisher stamps each message with its partition under it (docs/architecture.md#scaling-out).
   */
  partitions?: number;
  /** How often a partitioned consumer looks at its share of the partitions (default 1 s). */
  rebalanceMs?: number;
  /** The type of the durable queues it declares (AMQP_QUEUE_TYPE): `classic` (default) or `quorum`. */
  queueType?: 'classic' | 'quorum';
}

/** Connects (retrying per `reconnect`), declares the topology and resolves once publishing is possible. */
export async function createAmqpBus(options: AmqpBusOptions): Promise<Bus> {
  const bus = new AmqpBus(options);
  await bus.start();
  return bus;
}
