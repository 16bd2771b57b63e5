// The bus of the embedded mode: the same interface and guarantees as the RabbitMQ bus, inside one process.
// `publish` resolves only after every bound queue's consumer has handled the message (or dead-lettered it), so
// a relay that checkpoints after publishing never loses an event when the process dies: nothing acknowledged
// lives only in memory. Messages pass through JSON, so consumers see exactly what they would over the wire.
// Because publish waits for the consumers, a handler must not await a publish that routes back to its own queue.

import { randomUUID } from 'node:crypto';
import { isApiError } from '@pcas/errors';
import type { Logger } from '@pcas/observability';
import { currentTraceCarrier } from '@pcas/observability';
import { ConsumerLoop, type Pending } from './consumer-loop.ts';
import { topicMatches } from './routing.ts';
import { BusClosedError, didNotAnswer, errorToReply, type RpcReply, unwrapReply, wireCopy } from './rpc-reply.ts';
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
import { RPC_ID_HEADER } from './types.ts';

export interface InProcessBus extends Bus {
  /** Messages dead-lettered from a queue (its `<queue>.dlq`), oldest first. */
  deadLetters(queue: string): BusMessage[];
}

interface LocalConsumer {
  loop: ConsumerLoop;
}

interface LocalQueue {
  name: string;
  bindings: Set<string>;
  /** First one is active, the others wait (single active consumer, as on the broker). */
  consumers: LocalConsumer[];
  /** Delivered while no consumer was active; handed to the next one. */
  parked: Pending[];
  dead: BusMessage[];
}

interface Delivery extends Pending {
  /** Releases the publisher; later calls do nothing. */
  release(): void;
}

const DEFAULTS = { maxBatch: 100, maxAttempts: 5, timeoutMs: 10_000 };

export function createInProcessBus(options: { log: Logger; retryBaseMs?: number }): InProcessBus {
  const { log } = options;
  const queues = new Map<string, LocalQueue>();
  const servers = new Map<string, RpcHandler[]>();
  const serverWaiters = new Map<string, Set<() => void>>();
  const broadcastReceivers = new Set<BroadcastHandler>();
  let closed = false;

  const delivery = (queue: LocalQueue, message: BusMessage, release: () => void): Delivery => {
    let settled = false;
    let released = false;
    const releaseOnce = () => {
      if (released) return;
      released = true;
      release();
    };
    return {
      message,
      live: () => !settled,
      ack: () => {
        settled = true;
        releaseOnce();
      },
      deadLetter: () => {
        settled = true;
        queue.dead.push(message);
        releaseOnce();
      },
      release: releaseOnce,
    };
  };

  const activate = (queue: LocalQueue) => {
    const active = queue.consumers[0];
    if (!active) return;
    for (const pending of queue.parked.splice(0)) active.loop.push(pending);
  };

  return {
    async publish(routingKey: string, body: unknown, opts: PublishOptions): Promise<void> {
      if (closed) throw new BusClosedError();
      const headers = { ...currentTraceCarrier(), ...opts.headers };
      const waits: Promise<void>[] = [];
      for (const queue of queues.values()) {
        if (![...queue.bindings].some((pattern) => topicMatches(pattern, routingKey))) continue;
        const message: BusMessage = {
          id: opts.messageId,
          routingKey,
          body: wireCopy(body),
          headers: wireCopy(headers),
          redelivered: false,
        };
        let release!: () => void;
        waits.push(new Promise<void>((resolve) => (release = resolve)));
        const d = delivery(queue, message, release);
        const active = queue.consumers[0];
        if (active) active.loop.push(d);
        else {
          // No consumer to wait for: keep it for the next one, but do not hold the publisher forever.
          queue.parked.push(d);
          d.release();
        }
      }
      await Promise.all(waits);
    },

    async consume(
      name: string,
      handler: (messages: BusMessage[]) => Promise<void>,
      opts: ConsumeOptions,
    ): Promise<Consumer> {
      if (closed) throw new BusClosedError();
      let queue = queues.get(name);
      if (!queue) {
        queue = { name, bindings: new Set(), consumers: [], parked: [], dead: [] };
        queues.set(name, queue);
      }
      // Bindings accumulate as on the broker.
      for (const binding of opts.bindings) queue.bindings.add(binding);
      const q = queue;
      const consumer: LocalConsumer = {
        loop: new ConsumerLoop({
          queue: name,
          maxBatch: opts.maxBatch ?? DEFAULTS.maxBatch,
          maxAttempts: opts.maxAttempts ?? DEFAULTS.maxAttempts,
          invoke: handler,
          ackBatch: (batch) => {
            for (const p of batch) p.ack();
          },
          log,
          retryBaseMs: options.retryBaseMs,
        }),
      };
      q.consumers.push(consumer);
      if (q.consumers[0] === consumer) activate(q);
      let stopped = false;
      return {
        async stop() {
          if (stopped) return;
          stopped = true;
          const wasActive = q.consumers[0] === consumer;
          await consumer.loop.stop();
          q.consumers = q.consumers.filter((c) => c !== consumer);
          if (!wasActive) return;
          const rest = consumer.loop.takeBuffered() as Delivery[];
          q.parked.unshift(...rest);
          if (q.consumers.length > 0) activate(q);
          else for (const d of rest) d.release();
        },
      };
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
      servers.set(service, [...(servers.get(service) ?? []), handler]);
      for (const wake of serverWaiters.get(service) ?? []) wake();
      return {
        async stop() {
          servers.set(
            service,
            (servers.get(service) ?? []).filter((h) => h !== handler),
          );
        },
      };
    },

    async rpc<T = unknown>(service: string, command: string, payload: unknown, opts: RpcOptions = {}): Promise<T> {
      if (closed) throw new BusClosedError();
      const timeoutMs = opts.timeoutMs ?? DEFAULTS.timeoutMs;
      const headers = wireCopy({ ...currentTraceCarrier(), ...opts.headers });
      let timer: NodeJS.Timeout | undefined;
      let wake: (() => void) | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(didNotAnswer(service)), timeoutMs);
      });
      const call = async (): Promise<RpcReply> => {
        // A server registered later still answers, as a durable `cmd.<service>` queue would hold the request.
        while (!servers.get(service)?.length) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            const waiters = serverWaiters.get(service) ?? new Set();
            waiters.add(resolve);
            serverWaiters.set(service, waiters);
          });
        }
        const handler = servers.get(service)![0];
        try {
          const served = { ...headers, [RPC_ID_HEADER]: randomUUID() };
          return { ok: true, result: wireCopy(await handler(command, wireCopy(payload), served)) };
        } catch (error) {
          if (!isApiError(error)) log.error({ err: error, service, command }, 'rpc handler failed');
          return errorToReply(error);
        }
      };
      try {
        return unwrapReply<T>(await Promise.race([call(), timeout]));
      } finally {
        clearTimeout(timer);
        if (wake) serverWaiters.get(service)?.delete(wake);
      }
    },

    async healthy() {
      return !closed;
    },

    async close() {
      if (closed) return;
      closed = true;
      for (const queue of queues.values()) {
        await Promise.all(queue.consumers.map((c) => c.loop.stop()));
        for (const c of queue.consumers) for (const d of c.loop.takeBuffered() as Delivery[]) d.release();
        for (const d of queue.parked as Delivery[]) d.release();
        queue.consumers = [];
      }
      servers.clear();
      broadcastReceivers.clear();
    },

    deadLetters(queue: string): BusMessage[] {
      return [...(queues.get(queue)?.dead ?? [])];
    },
  };
}
