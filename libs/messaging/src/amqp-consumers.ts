// Receiving on the RabbitMQ bus: a consumer's queue (with its dead-letter queue, batches through consumer-loop.ts)
// and this process's broadcast receiver.

import { SpanKind, withSpan } from '@pcas/observability';
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import { ChannelPart, DEFAULTS, durableQueueArguments, quietly } from './amqp-channel.ts';
import type { AmqpBus } from './amqp-connection.ts';
import { ConsumerLoop, type Pending } from './consumer-loop.ts';
import type { BroadcastHandler, BusMessage, ConsumeOptions, Consumer } from './types.ts';

interface AmqpPending extends Pending {
  ackUpTo(): void;
}

/** A consumer's durable queue and its dead-letter queue `<queue>.dlq`. */
export async function assertConsumerQueue(bus: AmqpBus, ch: Channel, queue: string): Promise<void> {
  const dlq = `${queue}.dlq`;
  await ch.assertQueue(dlq, { durable: true, arguments: durableQueueArguments(bus) });
  await ch.bindQueue(dlq, bus.dlx, queue);
  await ch.assertQueue(queue, {
    durable: true,
    arguments: durableQueueArguments(bus, {
      // One active consumer across instances keeps delivery (and so per-vessel) order.
      'x-single-active-consumer': true,
      'x-dead-letter-exchange': bus.dlx,
      'x-dead-letter-routing-key': queue,
    }),
  });
}

export class QueueConsumer extends ChannelPart<Channel> implements Consumer {
  private readonly loop: ConsumerLoop;
  private consumerTag: string | undefined;

  constructor(
    bus: AmqpBus,
    private readonly queue: string,
    handler: (messages: BusMessage[]) => Promise<void>,
    private readonly options: ConsumeOptions,
    /** The queue's bindings are its partitioned consumer's (amqp-partitions.ts), not this one's. */
    private readonly partition = false,
    /** The partition this queue is (amqp-partitions.ts), given to each message it delivers. */
    private readonly partitionIndex?: number,
  ) {
    super(bus, `consumer ${queue}`);
    this.loop = new ConsumerLoop({
      queue,
      maxBatch: options.maxBatch ?? DEFAULTS.maxBatch,
      maxAttempts: options.maxAttempts ?? DEFAULTS.maxAttempts,
      log: bus.log,
      retryBaseMs: bus.retryBaseMs,
      ackBatch: (batch) => (batch[batch.length - 1] as AmqpPending).ackUpTo(),
      ackDelayMs: DEFAULTS.ackDelayMs,
      maxUnacked: Math.floor((options.prefetch ?? DEFAULTS.prefetch) / 2),
      invoke: (messages) =>
        withSpan(
          'amqp.consume',
          {
            kind: SpanKind.CONSUMER,
            parent: messages[0].headers,
            attributes: {
              'messaging.system': 'rabbitmq',
              'messaging.destination.name': queue,
              'messaging.batch.message_count': messages.length,
            },
          },
          () => handler(messages),
        ),
    });
  }

  protected create(model: ChannelModel) {
    return model.createChannel();
  }

  protected async setup(ch: Channel): Promise<void> {
    const { exchange } = this.bus;
    await assertConsumerQueue(this.bus, ch, this.queue);
    if (!this.partition) for (const binding of this.options.bindings) await ch.bindQueue(this.queue, exchange, binding);
    await ch.prefetch(this.options.prefetch ?? DEFAULTS.prefetch);
    const { consumerTag } = await ch.consume(this.queue, (msg) => this.onDelivery(ch, msg), { noAck: false });
    this.consumerTag = consumerTag;
  }

  protected override onLost(): void {
    // Unacked deliveries of the closed channel come again on the next one.
    this.loop.dropDead();
  }

  private onDelivery(ch: Channel, msg: ConsumeMessage | null): void {
    if (!msg) {
      // Cancelled by the broker (queue deleted): reopening declares it again.
      this.bus.log.warn({ queue: this.queue }, 'consumer cancelled by the broker');
      void ch.close().catch(() => {});
      return;
    }
    let message: BusMessage | undefined;
    try {
      message = {
        id: String(msg.properties.messageId ?? ''),
        routingKey: msg.fields.routingKey,
        body: JSON.parse(msg.content.toString('utf8')),
        headers: (msg.properties.headers ?? {}) as Record<string, unknown>,
        redelivered: msg.fields.redelivered,
        ...(this.partitionIndex === undefined ? {} : { partition: this.partitionIndex }),
      };
    } catch {
      message = undefined;
    }
    const pending: AmqpPending = {
      message,
      live: () => this.channel === ch,
      ack: () => quietly(() => ch.ack(msg)),
      ackUpTo: () => quietly(() => ch.ack(msg, true)),
      deadLetter: () => quietly(() => ch.nack(msg, false, false)),
    };
    this.loop.push(pending);
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    await this.detach(this.consumerTag);
    await this.loop.stop();
    // Closing the channel returns whatever was delivered but not handled to the queue.
    await this.closeChannel();
  }
}

/**
 * Broadcasts for this process: a server-named exclusive, auto-delete queue bound to the fanout exchange, so every
 * receiving process gets each broadcast once and the queue goes away with the process (or its connection). No
 * acks: a broadcast is a live signal, and one lost while reconnecting is not worth holding the others back for.
 */
export class BroadcastReceiver extends ChannelPart<Channel> implements Consumer {
  constructor(
    bus: AmqpBus,
    private readonly handler: BroadcastHandler,
  ) {
    super(bus, 'broadcast receiver');
  }

  protected create(model: ChannelModel) {
    return model.createChannel();
  }

  protected async setup(ch: Channel): Promise<void> {
    const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true, durable: false });
    await ch.bindQueue(queue, this.bus.broadcastExchange, '');
    await ch.consume(queue, (msg) => this.onDelivery(ch, msg), { noAck: true });
  }

  private onDelivery(ch: Channel, msg: ConsumeMessage | null): void {
    if (!msg) {
      void ch.close().catch(() => {});
      return;
    }
    try {
      this.handler(msg.fields.routingKey, JSON.parse(msg.content.toString('utf8')));
    } catch (error) {
      this.bus.log.warn({ err: error, key: msg.fields.routingKey }, 'broadcast handler failed');
    }
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    await this.detach();
    // Closing the channel deletes the auto-delete queue.
    await this.closeChannel();
  }
}
