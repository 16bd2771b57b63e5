// RPC over the RabbitMQ bus: the client (direct reply-to, one channel) and a service's server (its durable
// `cmd.<service>` queue, requests handled concurrently up to the prefetch).

import { randomUUID } from 'node:crypto';
import { isApiError } from '@pcas/errors';
import { currentTraceCarrier, rpcDuration, SpanKind, secondsSince, withSpan } from '@pcas/observability';
import type { Channel, ChannelModel, ConsumeMessage, Message } from 'amqplib';
import { ChannelPart, cleanHeaders, DEFAULTS, durableQueueArguments, JSON_TYPE } from './amqp-channel.ts';
import type { AmqpBus } from './amqp-connection.ts';
import {
  BusClosedError,
  didNotAnswer,
  errorToReply,
  parseReply,
  parseRequest,
  type RpcReply,
  unwrapReply,
} from './rpc-reply.ts';
import { type Consumer, RPC_ID_HEADER, type RpcHandler, type RpcOptions } from './types.ts';

const REPLY_TO = 'amq.rabbitmq.reply-to';

interface PendingCall {
  service: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  /** The channel the request went out on: its reply can only come back there. */
  sentOn?: Channel;
}

export class RpcClient extends ChannelPart<Channel> {
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

export class RpcServer extends ChannelPart<Channel> implements Consumer {
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
    await ch.assertQueue(queue, { durable: true, arguments: durableQueueArguments(this.bus) });
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
    const started = performance.now();
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
    rpcDuration.observe(
      {
        side: 'server',
        service: this.service,
        command: request?.command ?? 'malformed',
        outcome: reply.ok ? 'ok' : 'error',
      },
      secondsSince(started),
    );
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
    await this.detach(this.consumerTag);
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
