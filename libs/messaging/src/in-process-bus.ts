// The bus of the embedded mode: the same interface and guarantees as the RabbitMQ bus, inside one process.
// `publish` resolves only after every bound queue's consumer has handled the message (or dead-lettered it), so
// a relay that checkpoints after publishing never loses an event when the process dies: nothing acknowledged
// lives only in memory. Messages pass through JSON, so consumers see exactly what they would over the wire.
// Because publish waits for the consumers, a handler must not await a publish that routes back to its own queue.
// Its queues are in in-process-queues.ts, its RPC in in-process-rpc.ts.

import type { Logger } from '@pcas/observability';
import { currentTraceCarrier } from '@pcas/observability';
import { closeQueues, consumeQueue, type LocalQueue, publishToQueues } from './in-process-queues.ts';
import { callLocalRpc, type LocalServers, serveLocalRpc } from './in-process-rpc.ts';
import { BusClosedError, wireCopy } from './rpc-reply.ts';
import type {
  BroadcastHandler,
  Bus,
  BusMessage,
  ConsumeOptions,
  Consumer,
  PublishOptions,
  RpcHandler,
  RpcOptions,
} from './types.ts';

export interface InProcessBus extends Bus {
  /** Messages dead-lettered from a queue (its `<queue>.dlq`), oldest first. */
  deadLetters(queue: string): BusMessage[];
}

export function createInProcessBus(options: { log: Logger; retryBaseMs?: number }): InProcessBus {
  const { log } = options;
  const queues = new Map<string, LocalQueue>();
  const servers: LocalServers = { handlers: new Map(), waiters: new Map() };
  const broadcastReceivers = new Set<BroadcastHandler>();
  let closed = false;

  return {
    // One process: it holds every partition, so a partitioned consumer is its one queue.
    partitions: 1,

    async publish(routingKey: string, body: unknown, opts: PublishOptions): Promise<void> {
      if (closed) throw new BusClosedError();
      const headers = { ...currentTraceCarrier(), ...opts.headers };
      await publishToQueues(queues, routingKey, body, opts, headers);
    },

    async consume(
      name: string,
      handler: (messages: BusMessage[]) => Promise<void>,
      opts: ConsumeOptions,
    ): Promise<Consumer> {
      if (closed) throw new BusClosedError();
      return consumeQueue(queues, name, handler, opts, options);
    },

    async broadcast(key: string, body: unknown): Promise<void> {
      if (closed) throw new BusClosedError();
      for (const receive of broadcastReceivers) {
        try {
          receive(key, wireCopy(body));
        } catch (error) {
          log.warn({ err: error, key }, 'broadcast handler failed');
        }
      }
    },

    async receiveBroadcasts(handler: BroadcastHandler): Promise<Consumer> {
      if (closed) throw new BusClosedError();
      // A handler passed twice still receives each broadcast once per call, as two broker queues would.
      const receive: BroadcastHandler = (key, body) => handler(key, body);
      broadcastReceivers.add(receive);
      return {
        async stop() {
          broadcastReceivers.delete(receive);
        },
      };
    },

    async serveRpc(service: string, handler: RpcHandler): Promise<Consumer> {
      if (closed) throw new BusClosedError();
      return serveLocalRpc(servers, service, handler);
    },

    async rpc<T = unknown>(service: string, command: string, payload: unknown, opts: RpcOptions = {}): Promise<T> {
      if (closed) throw new BusClosedError();
      return callLocalRpc<T>(servers, log, service, command, payload, opts);
    },

    async healthy() {
      return !closed;
    },

    async close() {
      if (closed) return;
      closed = true;
      await closeQueues(queues);
      servers.handlers.clear();
      broadcastReceivers.clear();
    },

    deadLetters(queue: string): BusMessage[] {
      return [...(queues.get(queue)?.dead ?? [])];
    },
  };
}
