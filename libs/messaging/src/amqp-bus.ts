// The RabbitMQ bus (amqplib 2.x). Topology is declared in code: topic exchange `events`, direct dead-letter
// exchange `events.dlx`, per consumer a durable single-active-consumer queue plus `<queue>.dlq`, per service a
// durable `cmd.<service>` queue, and a fanout exchange `realtime` for broadcasts, where each receiving process
// binds an exclusive queue of its own. amqplib's connection recovery reconnects with backoff; on every (re)connect the
// topology is declared again and every channel (publisher, RPC client, consumers, RPC servers) reopened.
//
// Publishing rule (keeps per-queue order under failures): a publish is sent only on the channel that was up when
// it was requested. If that channel dies before the confirm, the publish is rejected and the caller retries
// (the relay republishes its whole batch, consumers dedupe). A publish requested while no channel is up waits
// (bounded) for the next one.

import { randomUUID } from 'node:crypto';
import { ApiError, isApiError } from '@pcas/errors';
import { currentTraceCarrier, type Logger, SpanKind, withSpan } from '@pcas/observability';
import {
  type Channel,
  type ChannelModel,
  type ConfirmChannel,
  type ConsumeMessage,
  connect,
  type Message,
  type Options,
  type RecoveringChannelModel,
} from 'amqplib';
import { ConsumerLoop, type Pending } from './consumer-loop.ts';
import { retryDelayMs } from './routing.ts';
import {
  BusClosedError,
  didNotAnswer,
  errorToReply,
  parseReply,
  parseRequest,
  type RpcReply,
  unwrapReply,
} from './rpc-reply.ts';
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
}

const DEFAULTS = {
  exchange: 'events',
  broadcastExchange: 'realtime',
  prefetch: 256,
  maxBatch: 100,
  maxAttempts: 5,
  /** A handled batch's ack waits this long for the next ones' (consumer-loop.ts). */
  ackDelayMs: 50,
  rpcPrefetch: 64,
  rpcTimeoutMs: 10_000,
  waitMs: 30_000,
};

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

const REPLY_TO = 'amq.rabbitmq.reply-to';
const JSON_TYPE = 'application/json';

/** amqplib cannot encode undefined header values; drop them. */
function cleanHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(headers)) if (value !== undefined) out[key] = value;
  return out;
}

const brokerUnavailable = () => new ApiError(503, 'Message broker unavailable');

/** A settle call on a channel that closed meanwhile throws; the broker redelivers such messages anyway. */
function quietly(fn: () => void): void {
  try {
    fn();
  } catch {
    // channel closed: nothing to settle any more
  }
}

/**
 * One channel that follows the connection: opened on every connect, reopened with backoff when it alone is
 * closed (e.g. a channel error), `ready` once its setup (declarations, consume) is done.
 */
abstract class ChannelPart<C extends Channel> {
  /** The channel in use (set before setup so deliveries arriving right after consume-ok are accepted). */
  channel: C | null = null;
  /** The channel once set up. */
  ready: C | null = null;
  protected stopped = false;
  private opening = false;
  private failures = 0;
  private openedAt = 0;
  private reopenTimer: NodeJS.Timeout | undefined;
  private readyWaiters = new Set<{ resolve: (ch: C) => void; reject: (e: Error) => void }>();

  constructor(
    protected readonly bus: AmqpBus,
    protected readonly label: string,
  ) {}

  protected abstract create(model: ChannelModel): Promise<C>;
  protected abstract setup(ch: C): Promise<void>;
  protected onLost(_ch: C): void {}

  async open(model: ChannelModel): Promise<void> {
    if (this.stopped || this.opening || this.channel || this.bus.model !== model) return;
    this.opening = true;
    let ch: C | undefined;
    try {
      ch = await this.create(model);
      const opened = ch;
      opened.on('error', (error: Error) => this.bus.log.warn({ err: error, part: this.label }, 'amqp channel error'));
      opened.once('close', () => this.closed(opened, model));
      // Stopped while the channel was being created: stop() could not close it.
      if (this.stopped) {
        await opened.close().catch(() => {});
        return;
      }
      this.channel = opened;
      await this.setup(opened);
      if (this.channel !== opened) return;
      this.ready = opened;
      this.openedAt = Date.now();
      for (const waiter of this.readyWaiters) waiter.resolve(opened);
      this.readyWaiters.clear();
    } catch (error) {
      this.bus.log.warn({ err: error, part: this.label }, 'amqp channel setup failed');
      // Closing fires 'close', which schedules the retry; without a channel schedule it here.
      if (ch) await ch.close().catch(() => {});
      else this.reschedule(model);
    } finally {
      this.opening = false;
    }
  }

  /** The set-up channel, waiting at most `ms` for it while disconnected (then 503). */
  waitReady(ms: number): Promise<C> {
    if (this.ready) return Promise.resolve(this.ready);
    if (this.stopped || this.bus.closing) return Promise.reject(new BusClosedError());
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: (ch: C) => {
          clearTimeout(timer);
          resolve(ch);
        },
        reject: (error: Error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        this.readyWaiters.delete(waiter);
        reject(brokerUnavailable());
      }, ms);
      this.readyWaiters.add(waiter);
    });
  }

  protected async shutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reopenTimer);
    for (const waiter of this.readyWaiters) waiter.reject(new BusClosedError());
    this.readyWaiters.clear();
  }

  protected async closeChannel(): Promise<void> {
    const ch = this.channel;
    if (ch) await ch.close().catch(() => {});
  }

  private closed(ch: C, model: ChannelModel): void {
    if (this.channel === ch) this.channel = null;
    if (this.ready === ch) this.ready = null;
    this.onLost(ch);
    this.reschedule(model);
  }

  private reschedule(model: ChannelModel): void {
    if (this.stopped || this.bus.closing || this.bus.model !== model || this.reopenTimer) return;
    // A channel that stayed up a while was fine; start the backoff again.
    if (Date.now() - this.openedAt > 10_000) this.failures = 0;
    const delay = retryDelayMs(++this.failures, 100, 5_000);
    this.reopenTimer = setTimeout(() => {
      this.reopenTimer = undefined;
      void this.open(model);
    }, delay);
  }
}

class Publisher extends ChannelPart<ConfirmChannel> {
  /** Set while the channel's write buffer is full; later publishes wait for 'drain'. */
  drained: Promise<void> | null = null;
  private unconfirmed = 0;
  private settledWaiters: (() => void)[] = [];

  protected create(model: ChannelModel) {
    return model.createConfirmChannel();
  }

  protected async setup(): Promise<void> {}

  protected override onLost(): void {
    this.drained = null;
  }

  /** Sends on the given channel only; rejects when that channel cannot confirm it (caller retries). */
  send(
    ch: ConfirmChannel,
    routingKey: string,
    content: Buffer,
    props: Options.Publish,
    exchange: string,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = (error: unknown) => {
        this.unconfirmed--;
        if (this.unconfirmed === 0) for (const w of this.settledWaiters.splice(0)) w();
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve();
      };
      this.unconfirmed++;
      try {
        const flushed = ch.publish(exchange, routingKey, content, props, done);
        if (!flushed && !this.drained) {
          this.drained = new Promise<void>((release) => {
            const off = () => {
              ch.off('drain', off);
              ch.off('close', off);
              this.drained = null;
              release();
            };
            ch.on('drain', off);
            ch.on('close', off);
          });
        }
      } catch (error) {
        done(error);
      }
    });
  }

  /** Waits (bounded) until every outstanding publish is confirmed or rejected. */
  async settle(ms: number): Promise<void> {
    if (this.unconfirmed === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.settledWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async stop(): Promise<void> {
    await this.shutdown();
    await this.closeChannel();
  }
}

interface PendingCall {
  service: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  /** The channel the request went out on: its reply can only come back there. */
  sentOn?: Channel;
}

class RpcClient extends ChannelPart<Channel> {
  private calls = new Map<string, PendingCall>();

  protected create(model: ChannelModel) {
    return model.createChannel();
  }

  protected async setup(ch: Channel): Promise<void> {
    // `mandatory`: a request to a service that never declared its queue comes back at once instead of timing out.
    ch.on('return', (msg: Message) => this.settle(msg.properties.correlationId, undefined));
    await ch.consume(REPLY_TO, (msg) => this.onReply(ch, msg), { noAck: true });
  }

  protected override onLost(ch: Channel): void {
    // Direct reply-to is bound to the channel: replies to requests sent on it can never arrive.
    for (const [id, call] of this.calls) if (call.sentOn === ch) this.settle(id, undefined);
  }

  call<T>(service: string, command: string, payload: unknown, options: RpcOptions): Promise<T> {
    const timeoutMs = options.timeoutMs ?? DEFAULTS.rpcTimeoutMs;
    const attributes = { 'messaging.system': 'rabbitmq', 'rpc.service': service, 'rpc.method': command };
    return withSpan(`rpc.client ${service}.${command}`, { kind: SpanKind.CLIENT, attributes }, () => {
      const headers = cleanHeaders({ ...options.headers, ...currentTraceCarrier() });
      const correlationId = randomUUID();
      const startedAt = Date.now();
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => this.settle(correlationId, undefined), timeoutMs);
        const call: PendingCall = { service, resolve: resolve as (v: unknown) => void, reject, timer };
        this.calls.set(correlationId, call);
        const send = (ch: Channel) => {
          if (!this.calls.has(correlationId)) return; // timed out while waiting for the connection
          call.sentOn = ch;
          const remaining = Math.max(1, timeoutMs - (Date.now() - startedAt));
          try {
            ch.publish('', `cmd.${service}`, Buffer.from(JSON.stringify({ command, payload })), {
              correlationId,
              replyTo: REPLY_TO,
              mandatory: true,
              // A request nobody picked up before the caller gave up is dropped, not executed late.
              expiration: String(remaining),
              contentType: JSON_TYPE,
              type: command,
              headers,
            });
          } catch {
            this.settle(correlationId, undefined);
          }
        };
        if (this.ready) send(this.ready);
        else
          this.waitReady(timeoutMs).then(send, (error: Error) => {
            // Waiting for the connection ran out: the service did not answer in time.
            const closed = error instanceof BusClosedError;
            if (this.calls.has(correlationId)) this.settle(correlationId, undefined, closed ? error : undefined);
          });
      });
    });
  }

  /** Finishes a call: with a reply, or (undefined) as "did not answer", or with a given error. */
  private settle(correlationId: unknown, reply: RpcReply | undefined, error?: Error): void {
    if (typeof correlationId !== 'string') return;
    const call = this.calls.get(correlationId);
    if (!call) return;
    this.calls.delete(correlationId);
    clearTimeout(call.timer);
    if (error || !reply) {
      call.reject(error ?? didNotAnswer(call.service));
      return;
    }
    try {
      call.resolve(unwrapReply(reply));
    } catch (apiError) {
      call.reject(apiError as Error);
    }
  }

  private onReply(ch: Channel, msg: ConsumeMessage | null): void {
    if (!msg) {
      void ch.close().catch(() => {});
      return;
    }
    let reply: RpcReply;
    try {
      reply = parseReply(JSON.parse(msg.content.toString('utf8')));
    } catch {
      reply = { ok: false, status: 500, error: 'Internal error' };
    }
    this.settle(msg.properties.correlationId, reply);
  }

  async stop(): Promise<void> {
    await this.shutdown();
    for (const id of [...this.calls.keys()]) this.settle(id, undefined, new BusClosedError());
    await this.closeChannel();
  }
}

interface AmqpPending extends Pending {
  ackUpTo(): void;
}

class QueueConsumer extends ChannelPart<Channel> implements Consumer {
  private readonly loop: ConsumerLoop;
  private consumerTag: string | undefined;

  constructor(
    bus: AmqpBus,
    private readonly queue: string,
    handler: (messages: BusMessage[]) => Promise<void>,
    private readonly options: ConsumeOptions,
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
    const { exchange, dlx } = this.bus;
    const dlq = `${this.queue}.dlq`;
    await ch.assertQueue(dlq, { durable: true });
    await ch.bindQueue(dlq, dlx, this.queue);
    await ch.assertQueue(this.queue, {
      durable: true,
      arguments: {
        // One active consumer across instances keeps delivery (and so per-vessel) order.
        'x-single-active-consumer': true,
        'x-dead-letter-exchange': dlx,
        'x-dead-letter-routing-key': this.queue,
      },
    });
    for (const binding of this.options.bindings) await ch.bindQueue(this.queue, exchange, binding);
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
    await this.shutdown();
    this.bus.parts.delete(this);
    const ch = this.channel;
    if (ch && this.consumerTag) await ch.cancel(this.consumerTag).catch(() => {});
    await this.loop.stop();
    // Closing the channel returns whatever was delivered but not handled to the queue.
    await this.closeChannel();
  }
}

class RpcServer extends ChannelPart<Channel> implements Consumer {
  private consumerTag: string | undefined;
  private inflight = new Set<Promise<void>>();

  constructor(
    bus: AmqpBus,
    private readonly service: string,
    private readonly handler: RpcHandler,
  ) {
    super(bus, `rpc server ${service}`);
  }

  protected create(model: ChannelModel) {
    return model.createChannel();
  }

  protected async setup(ch: Channel): Promise<void> {
    const queue = `cmd.${this.service}`;
    await ch.assertQueue(queue, { durable: true });
    await ch.prefetch(DEFAULTS.rpcPrefetch);
    const { consumerTag } = await ch.consume(queue, (msg) => this.onRequest(ch, msg), { noAck: false });
    this.consumerTag = consumerTag;
  }

  private onRequest(ch: Channel, msg: ConsumeMessage | null): void {
    if (!msg) {
      void ch.close().catch(() => {});
      return;
    }
    // Handled concurrently (competing consumers, prefetch bounds the concurrency).
    const task = this.handle(ch, msg).finally(() => this.inflight.delete(task));
    this.inflight.add(task);
  }

  private async handle(ch: Channel, msg: ConsumeMessage): Promise<void> {
    // `rpc_id`: the request's correlation id, the same on a redelivery, so a handler can decide a command once.
    const headers = { ...msg.properties.headers, [RPC_ID_HEADER]: msg.properties.correlationId } as Record<
      string,
      unknown
    >;
    let request: ReturnType<typeof parseRequest>;
    try {
      request = parseRequest(JSON.parse(msg.content.toString('utf8')));
    } catch {
      request = undefined;
    }
    let reply: RpcReply;
    if (!request) reply = { ok: false, status: 400, error: 'Malformed command' };
    else {
      const { command, payload } = request;
      reply = await withSpan(
        `rpc.server ${this.service}.${command}`,
        {
          kind: SpanKind.SERVER,
          parent: headers,
          attributes: { 'messaging.system': 'rabbitmq', 'rpc.service': this.service, 'rpc.method': command },
        },
        async (): Promise<RpcReply> => {
          try {
            return { ok: true, result: await this.handler(command, payload, headers) };
          } catch (error) {
            if (!isApiError(error))
              this.bus.log.error({ err: error, service: this.service, command }, 'rpc handler failed');
            return errorToReply(error);
          }
        },
      );
    }
    let content: Buffer;
    try {
      content = Buffer.from(JSON.stringify(reply));
    } catch (error) {
      this.bus.log.error({ err: error, service: this.service }, 'rpc result is not serialisable');
      content = Buffer.from(JSON.stringify(errorToReply(error)));
    }
    try {
      if (msg.properties.replyTo) {
        ch.sendToQueue(msg.properties.replyTo, content, {
          correlationId: msg.properties.correlationId,
          contentType: JSON_TYPE,
        });
      }
      ch.ack(msg);
    } catch (error) {
      // Channel gone: the request is redelivered (or expires); handlers are idempotent by key.
      this.bus.log.warn({ err: error, service: this.service }, 'could not reply: channel closed');
    }
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    await this.shutdown();
    this.bus.parts.delete(this);
    const ch = this.channel;
    if (ch && this.consumerTag) await ch.cancel(this.consumerTag).catch(() => {});
    // Bounded: a handler that hangs must not hold the shutdown; its caller has timed out long ago anyway.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inflight]),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, DEFAULTS.rpcTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    await this.closeChannel();
  }
}

/**
 * Broadcasts for this process: a server-named exclusive, auto-delete queue bound to the fanout exchange, so every
 * receiving process gets each broadcast once and the queue goes away with the process (or its connection). No
 * acks: a broadcast is a live signal, and one lost while reconnecting is not worth holding the others back for.
 */
class BroadcastReceiver extends ChannelPart<Channel> implements Consumer {
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
    await this.shutdown();
    this.bus.parts.delete(this);
    // Closing the channel deletes the auto-delete queue.
    await this.closeChannel();
  }
}

/** What follows the connection: opened on every connect, stopped on close. */
interface Part {
  open(model: ChannelModel): Promise<void>;
  stop(): Promise<void>;
}

class AmqpBus implements Bus {
  model: ChannelModel | null = null;
  closing = false;
  readonly parts = new Set<Part>();
  readonly exchange: string;
  readonly dlx: string;
  readonly broadcastExchange: string;
  readonly log: Logger;
  readonly retryBaseMs: number | undefined;
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
      const props: Options.Publish = {
        persistent: true,
        messageId: options.messageId,
        contentType: JSON_TYPE,
        timestamp: Math.floor(Date.now() / 1000),
        headers: cleanHeaders({ ...options.headers, ...currentTraceCarrier() }),
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
    const consumer = new QueueConsumer(this, queue, handler, options);
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
    return this.rpcClient.call<T>(service, command, payload, options);
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

/** Connects (retrying per `reconnect`), declares the topology and resolves once publishing is possible. */
export async function createAmqpBus(options: AmqpBusOptions): Promise<Bus> {
  const bus = new AmqpBus(options);
  await bus.start();
  return bus;
}
