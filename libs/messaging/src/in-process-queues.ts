// The queues of the in-process bus (in-process-bus.ts): bindings, a single active consumer per queue, messages
// parked while no consumer is active, dead letters, and a publisher released once its message is handled.

import type { Logger } from '@pcas/observability';
import { ConsumerLoop, type Pending } from './consumer-loop.ts';
import { topicMatches } from './routing.ts';
import { wireCopy } from './rpc-reply.ts';
import type { BusMessage, ConsumeOptions, Consumer, PublishOptions } from './types.ts';

interface LocalConsumer {
  loop: ConsumerLoop;
}

export interface LocalQueue {
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

const DEFAULTS = { maxBatch: 100, maxAttempts: 5 };

function delivery(queue: LocalQueue, message: BusMessage, release: () => void): Delivery {
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
}

function activate(queue: LocalQueue): void {
  const active = queue.consumers[0];
  if (!active) return;
  for (const pending of queue.parked.splice(0)) active.loop.push(pending);
}

/** Delivers to every bound queue; resolves once each has handled (or dead-lettered) the message. */
export async function publishToQueues(
  queues: Map<string, LocalQueue>,
  routingKey: string,
  body: unknown,
  opts: PublishOptions,
  headers: Record<string, unknown>,
): Promise<void> {
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
}

export function consumeQueue(
  queues: Map<string, LocalQueue>,
  name: string,
  handler: (messages: BusMessage[]) => Promise<void>,
  opts: ConsumeOptions,
  options: { log: Logger; retryBaseMs?: number },
): Consumer {
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
      log: options.log,
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
}

/** Stops every consumer and releases every publisher still waiting. */
export async function closeQueues(queues: Map<string, LocalQueue>): Promise<void> {
  for (const queue of queues.values()) {
    await Promise.all(queue.consumers.map((c) => c.loop.stop()));
    for (const c of queue.consumers) for (const d of c.loop.takeBuffered() as Delivery[]) d.release();
    for (const d of queue.parked as Delivery[]) d.release();
    queue.consumers = [];
  }
}
