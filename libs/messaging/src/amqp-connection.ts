// The RabbitMQ bus's connection (amqp-bus.ts says what it declares and how it recovers): connects with amqplib's
// recovery, declares the exchanges on every (re)connect, reopens every part, and implements the Bus over them.

import { currentTraceCarrier, type Logger, rpcDuration, SpanKind, timed, withSpan } from '@pcas/observability';
import { type ChannelModel, connect, type Options, type RecoveringChannelModel } from 'amqplib';
import type { AmqpBusOptions } from './amqp-bus.ts';
import { cleanHeaders, DEFAULTS, JSON_TYPE } from './amqp-channel.ts';
import { BroadcastReceiver, QueueConsumer } from './amqp-consumers.ts';
import { PartitionedConsumer } from './amqp-partitions.ts';
import { Publisher } from './amqp-publisher.ts';
import { RpcClient, RpcServer } from './amqp-rpc.ts';
import { DEFAULT_PARTITIONS, PARTITION_HEADER, partitionLabel, streamPartition } from './partitions.ts';
import { BusClosedError } from './rpc-reply.ts';
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

/**
 * amqplib hands the socket one frame buffer per publish, ack and RPC reply, each written by its own system call.
 * Corking the socket while amqplib's multiplexer drains the channels sends everything queued in one tick (a
 * relay batch, the replies of a command batch) in one write. Measured on a 2-core VM, where a socket write cost
 * about 100 µs: a quarter of the ingest service's CPU went to these writes. Feature-checked: with another
 * amqplib layout the writes simply stay one per frame.
 */
function coalesceSocketWrites(model: ChannelModel): void {
  const connection = (model as { connection?: { muxer?: unknown; stream?: unknown } }).connection;
  const muxer = connection?.muxer as { _readIncoming?: () => void } | undefined;
  const socket = connection?.stream as { cork?: () => void; uncork?: () => void } | undefined;
  if (typeof muxer?._readIncoming !== 'function' || typeof socket?.cork !== 'function' || !socket.uncork) return;
  const drain = muxer._readIncoming.bind(muxer);
  muxer._readIncoming = () => {
    socket.cork!();
    try {
      drain();
    } finally {
      socket.uncork!();
    }
  };
}

/** What follows the connection: opened on every connect, stopped on close. */
interface Part {
  open(model: ChannelModel): Promise<void>;
  stop(): Promise<void>;
}

export class AmqpBus implements Bus {
  model: ChannelModel | null = null;
  closing = false;
  readonly parts = new Set<Part>();
  readonly exchange: string;
  readonly dlx: string;
  readonly broadcastExchange: string;
  readonly log: Logger;
  readonly retryBaseMs: number | undefined;
  readonly partitions: number;
  readonly rebalanceMs: number;
  readonly queueType: 'classic' | 'quorum';
  private readonly waitMs: number;
  private readonly publisher: Publisher;
  private readonly rpcClient: RpcClient;
  private conn: RecoveringChannelModel | undefined;

  constructor(private readonly options: AmqpBusOptions) {
    this.log = options.log;
    this.exchange = options.exchange ?? DEFAULTS.exchange;
    this.dlx = `${this.exchange}.dlx`;
    this.broadcastExchange = options.broadcastExchange ?? DEFAULTS.broadcastExchange;
    this.retryBaseMs = options.retryBaseMs;
    this.partitions = options.partitions ?? DEFAULT_PARTITIONS;
    this.rebalanceMs = options.rebalanceMs ?? 1_000;
    this.queueType = options.queueType ?? 'classic';
    this.waitMs = (options.reconnect || undefined)?.waitMs ?? DEFAULTS.waitMs;
    this.publisher = new Publisher(this, 'publisher');
    this.rpcClient = new RpcClient(this, 'rpc client');
    this.parts.add(this.publisher);
    this.parts.add(this.rpcClient);
  }

  async start(): Promise<void> {
    const reconnect = this.options.reconnect === false ? undefined : (this.options.reconnect ?? {});
    this.conn = await connect(this.options.url, {
      // Small request/reply frames: without TCP_NODELAY, Nagle plus delayed ACKs add ~40 ms to every RPC.
      noDelay: true,
      recovery: {
        initialDelay: reconnect?.initialDelayMs ?? 200,
        maxDelay: reconnect?.maxDelayMs ?? 5_000,
        maxRetries: reconnect ? Number.POSITIVE_INFINITY : 0,
        initialMaxRetries: reconnect?.initialMaxRetries ?? (reconnect ? 10 : 0),
        waitForConnect: false,
      },
    });
    const conn = this.conn;
    conn.on('connect', (model: ChannelModel) => void this.onConnect(model));
    conn.on('disconnect', (error: Error) => {
      this.model = null;
      if (!this.closing) this.log.warn({ err: error }, 'amqp connection lost; reconnecting');
    });
    conn.on('reconnect-scheduled', (info: { attempt: number; delay: number; error: Error }) =>
      this.log.info(
        { attempt: info.attempt, delayMs: info.delay, reason: info.error.message },
        'amqp reconnect scheduled',
      ),
    );
    conn.on('reconnect-failed', (error: Error) => this.log.error({ err: error }, 'amqp reconnect gave up'));
    conn.on('error', (error: Error) => this.log.warn({ err: error }, 'amqp connection error'));
    conn.on('blocked', (reason: string) => this.log.warn({ reason }, 'amqp connection blocked by the broker'));
    try {
      await conn.waitForConnect();
      await this.publisher.waitReady(this.waitMs);
      await this.rpcClient.waitReady(this.waitMs);
    } catch (error) {
      this.closing = true;
      await conn.close().catch(() => {});
      throw error;
    }
  }

  private async onConnect(model: ChannelModel): Promise<void> {
    this.model = model;
    coalesceSocketWrites(model);
    this.log.info('amqp connected');
    try {
      const ch = await model.createChannel();
      ch.on('error', () => {});
      await ch.assertExchange(this.exchange, 'topic', { durable: true });
      await ch.assertExchange(this.dlx, 'direct', { durable: true });
      // Declared here, not by the receivers: a broadcast to an exchange that does not exist would close the
      // publisher's channel.
      await ch.assertExchange(this.broadcastExchange, 'fanout', { durable: true });
      await ch.close();
    } catch (error) {
      this.log.error({ err: error }, 'amqp topology declaration failed');
    }
    await Promise.all([...this.parts].map((part) => part.open(model)));
  }

  publish(routingKey: string, body: unknown, options: PublishOptions): Promise<void> {
    if (this.closing) return Promise.reject(new BusClosedError());
    const attributes = {
      'messaging.system': 'rabbitmq',
      'messaging.destination.name': this.exchange,
      'messaging.rabbitmq.destination.routing_key': routingKey,
      'messaging.message.id': options.messageId,
    };
    return withSpan('amqp.publish', { kind: SpanKind.PRODUCER, parent: options.headers, attributes }, async () => {
      const content = Buffer.from(JSON.stringify(body));
      const headers = cleanHeaders({ ...options.headers, ...currentTraceCarrier() });
      if (options.partitionKey !== undefined)
        headers[PARTITION_HEADER] = partitionLabel(streamPartition(options.partitionKey, this.partitions));
      const props: Options.Publish = {
        persistent: true,
        messageId: options.messageId,
        contentType: JSON_TYPE,
        timestamp: Math.floor(Date.now() / 1000),
        headers,
      };
      return this.send(this.exchange, routingKey, content, props);
    });
  }

  private async send(exchange: string, key: string, content: Buffer, props: Options.Publish): Promise<void> {
    // Fast path stays synchronous, so a burst of publishes goes out in call order.
    let ch = this.publisher.ready;
    if (!ch) ch = await this.publisher.waitReady(this.waitMs);
    if (this.publisher.drained) {
      await this.publisher.drained;
      if (this.publisher.ready !== ch) throw new Error('Channel closed before the message was sent');
    }
    return this.publisher.send(ch, key, content, props, exchange);
  }

  async consume(
    queue: string,
    handler: (messages: BusMessage[]) => Promise<void>,
    options: ConsumeOptions,
  ): Promise<Consumer> {
    if (this.closing) throw new BusClosedError();
    const consumer = options.partitioned
      ? new PartitionedConsumer(this, queue, handler, options)
      : new QueueConsumer(this, queue, handler, options);
    this.parts.add(consumer);
    if (this.model) await consumer.open(this.model);
    return consumer;
  }

  async broadcast(key: string, body: unknown): Promise<void> {
    if (this.closing) throw new BusClosedError();
    const content = Buffer.from(JSON.stringify(body));
    return this.send(this.broadcastExchange, key, content, { persistent: false, contentType: JSON_TYPE });
  }

  async receiveBroadcasts(handler: BroadcastHandler): Promise<Consumer> {
    if (this.closing) throw new BusClosedError();
    const receiver = new BroadcastReceiver(this, handler);
    this.parts.add(receiver);
    if (this.model) await receiver.open(this.model);
    return receiver;
  }

  async serveRpc(service: string, handler: RpcHandler): Promise<Consumer> {
    if (this.closing) throw new BusClosedError();
    const server = new RpcServer(this, service, handler);
    this.parts.add(server);
    if (this.model) await server.open(this.model);
    return server;
  }

  async rpc<T = unknown>(service: string, command: string, payload: unknown, options: RpcOptions = {}): Promise<T> {
    if (this.closing) throw new BusClosedError();
    return timed(rpcDuration, { side: 'client', service, command }, () =>
      this.rpcClient.call<T>(service, command, payload, options),
    );
  }

  async healthy(): Promise<boolean> {
    return !this.closing && this.model !== null && this.publisher.ready !== null;
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    const others = [...this.parts].filter((p) => p !== this.publisher && p !== this.rpcClient);
    await Promise.all(others.map((part) => part.stop()));
    await this.rpcClient.stop();
    await this.publisher.settle(5_000);
    await this.publisher.stop();
    await this.conn?.close().catch(() => {});
    this.model = null;
  }
}
