// The consumer side both buses share: batch what has been delivered, hand it to the handler, settle it; on a
// failure, go one message at a time in order with bounded attempts, and dead-letter a message that keeps failing.
// Message n+1 is never handed over before n has succeeded or been dead-lettered.

import type { Logger } from '@pcas/observability';
import { retryDelayMs } from './routing.ts';
import type { BusMessage } from './types.ts';

export interface Pending {
  /** undefined when the body could not be decoded: dead-lettered without handing it over. */
  message: BusMessage | undefined;
  /** False once the delivery cannot be settled any more (its channel closed: the broker redelivers it). */
  live(): boolean;
  ack(): void;
  deadLetter(reason: string): void;
}

export interface ConsumerLoopOptions {
  queue: string;
  maxBatch: number;
  maxAttempts: number;
  /** Calls the user's handler (the AMQP bus wraps it in a span). */
  invoke(messages: BusMessage[]): Promise<void>;
  /** Settles a whole successful batch at once (AMQP: one ack with `multiple`, which also settles the ones before). */
  ackBatch(batch: Pending[]): void;
  log: Logger;
  retryBaseMs?: number;
  /**
   * How long a successful batch's ack may wait for the next batch's (default 0: at once). With `ackBatch` settling
   * everything before too, the batches of a window cost one ack: at a few messages a batch, each ack was a socket
   * write costing the consumer about as much as its handler. Only the moment of the ack moves: a crash in the
   * window redelivers batches already handled, which at-least-once handlers take anyway.
   */
  ackDelayMs?: number;
  /** Unacked messages at which a waiting ack goes at once (default maxBatch): below the broker's prefetch. */
  maxUnacked?: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class ConsumerLoop {
  private buffer: Pending[] = [];
  private running = false;
  private stopping = false;
  private scheduled = false;
  private idleWaiters: (() => void)[] = [];
  /** The last successful batch whose ack waits (ackDelayMs), and how many messages it settles with those before. */
  private unacked: Pending[] | null = null;
  private unackedCount = 0;
  private ackTimer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: ConsumerLoopOptions) {}

  push(pending: Pending): void {
    this.buffer.push(pending);
    this.schedule();
  }

  /** Forgets deliveries that can no longer be settled (their channel closed; the broker redelivers them). */
  dropDead(): void {
    this.buffer = this.buffer.filter((p) => p.live());
  }

  /** Hands back what was delivered but not yet started (the in-process bus keeps it for the next consumer). */
  takeBuffered(): Pending[] {
    return this.buffer.splice(0);
  }

  get size(): number {
    return this.buffer.length;
  }

  /** Stops after the batch in progress; resolves when no handler runs any more (and every handled batch is acked). */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.running) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    this.flushAck();
  }

  /** Acks a successful batch now or, with ackDelayMs, together with the ones after it within the window. */
  private ackLater(batch: Pending[]): void {
    const delay = this.opts.ackDelayMs ?? 0;
    this.unacked = batch;
    this.unackedCount += batch.length;
    // A window's worth of a full batch is acked at once, so the broker's prefetch never waits on the timer.
    if (delay <= 0 || this.stopping || this.unackedCount >= (this.opts.maxUnacked ?? this.opts.maxBatch)) {
      this.flushAck();
      return;
    }
    if (!this.ackTimer) {
      this.ackTimer = setTimeout(() => {
        this.ackTimer = null;
        this.flushAck();
      }, delay);
      this.ackTimer.unref?.();
    }
  }

  private flushAck(): void {
    if (this.ackTimer) clearTimeout(this.ackTimer);
    this.ackTimer = null;
    const batch = this.unacked;
    this.unacked = null;
    this.unackedCount = 0;
    // A batch of a closed channel is not settled any more: the broker redelivers it.
    if (batch?.[0].live()) this.opts.ackBatch(batch);
  }

  private schedule(): void {
    if (this.running || this.scheduled || this.stopping) return;
    this.scheduled = true;
    // Deferred so deliveries that arrive in the same burst form one batch.
    setImmediate(() => {
      this.scheduled = false;
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.buffer.length > 0 && !this.stopping) {
        const batch = this.buffer.splice(0, this.opts.maxBatch);
        await this.process(batch);
      }
    } catch (error) {
      // process() handles handler errors; this is a bug guard so the loop never dies silently.
      this.opts.log.error({ err: error, queue: this.opts.queue }, 'consumer loop failed');
    } finally {
      this.running = false;
      for (const resolve of this.idleWaiters.splice(0)) resolve();
      if (this.buffer.length > 0 && !this.stopping) this.schedule();
    }
  }

  private async process(batch: Pending[]): Promise<void> {
    const { log, queue, maxAttempts } = this.opts;
    const decodable = batch.every((p) => p.message !== undefined);
    if (decodable) {
      try {
        await this.opts.invoke(batch.map((p) => p.message!));
        if (batch[0].live()) this.ackLater(batch);
        return;
      } catch (error) {
        if (batch.length > 1) log.warn({ err: error, queue, size: batch.length }, 'batch failed; retrying one by one');
        else log.warn({ err: error, queue, id: batch[0].message?.id }, 'handler failed');
      }
    }
    // The batches before are settled first: the acks and dead-letterings below are one message each.
    this.flushAck();
    // A single message that just failed has used its first attempt already.
    const usedFirst = decodable && batch.length === 1;
    for (let index = 0; index < batch.length; index++) {
      const pending = batch[index];
      if (this.stopping || !pending.live()) {
        // Not settled: back to the front (the in-process bus keeps them; AMQP drops them and gets redeliveries).
        this.buffer.unshift(...batch.slice(index).filter((p) => p.live()));
        return;
      }
      if (!pending.message) {
        log.error({ queue }, 'undecodable message dead-lettered');
        pending.deadLetter('undecodable');
        continue;
      }
      const message = pending.message;
      let attempt = usedFirst ? 1 : 0;
      for (;;) {
        if (attempt >= maxAttempts) {
          log.error(
            { queue, id: message.id, routingKey: message.routingKey, attempts: attempt },
            'message dead-lettered',
          );
          pending.deadLetter(`failed ${attempt} times`);
          break;
        }
        if (attempt > 0) await sleep(retryDelayMs(attempt, this.opts.retryBaseMs));
        if (this.stopping || !pending.live()) {
          this.buffer.unshift(...batch.slice(index).filter((p) => p.live()));
          return;
        }
        attempt++;
        try {
          // Handed over before when the batch was tried or this is a later attempt.
          await this.opts.invoke([{ ...message, redelivered: message.redelivered || decodable || attempt > 1 }]);
          pending.ack();
          break;
        } catch (error) {
          log.warn({ err: error, queue, id: message.id, attempt }, 'handler failed');
        }
      }
    }
  }
}
