// What every part of the RabbitMQ bus (amqp-bus.ts) shares: defaults, small helpers, and the channel that
// follows the connection.

import { ApiError } from '@pcas/errors';
import type { Channel, ChannelModel } from 'amqplib';
import type { AmqpBus } from './amqp-connection.ts';
import { retryDelayMs } from './routing.ts';
import { BusClosedError } from './rpc-reply.ts';

export const DEFAULTS = {
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

export const JSON_TYPE = 'application/json';

/** The arguments every durable queue of the bus is declared with: its type (AMQP_QUEUE_TYPE) and the given ones. */
export function durableQueueArguments(bus: AmqpBus, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return bus.queueType === 'quorum' ? { ...extra, 'x-queue-type': 'quorum' } : extra;
}

/** amqplib cannot encode undefined header values; drop them. */
export function cleanHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(headers)) if (value !== undefined) out[key] = value;
  return out;
}

export const brokerUnavailable = () => new ApiError(503, 'Message broker unavailable');

/** A settle call on a channel that closed meanwhile throws; the broker redelivers such messages anyway. */
export function quietly(fn: () => void): void {
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
export abstract class ChannelPart<C extends Channel> {
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
  abstract stop(): Promise<void>;

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

  /**
   * The first steps of stopping a part the bus added: no reopening, out of the bus, and no more deliveries to
   * its consumer (consumerTag, when it runs one).
   */
  protected async detach(consumerTag?: string): Promise<void> {
    await this.shutdown();
    this.bus.parts.delete(this);
    const ch = this.channel;
    if (ch && consumerTag) await ch.cancel(consumerTag).catch(() => {});
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
