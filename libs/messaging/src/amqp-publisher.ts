// Publishing with confirms on the RabbitMQ bus (the rule is in amqp-bus.ts): one confirm channel, back-pressure
// through its write buffer, and a bounded wait for outstanding confirms at close.

import type { ChannelModel, ConfirmChannel, Options } from 'amqplib';
import { ChannelPart } from './amqp-channel.ts';

export class Publisher extends ChannelPart<ConfirmChannel> {
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
