// The consumer loop's deferred acks: batches handled within the window are acked once (the last batch, which
// settles those before), a failing batch first settles the ones before it, and stopping acks what waits.

import { createLogger } from '@pcas/observability';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConsumerLoop, type Pending } from './consumer-loop.ts';
import type { BusMessage } from './types.ts';

const log = createLogger('consumer-loop-test', 'silent');
// Fake timers (setImmediate and setTimeout): real ones would let a loaded machine stretch the steps between pushes
// past the ack window, or merge two pushes into one batch.
const elapse = (ms: number) => vi.advanceTimersByTimeAsync(ms);

function setup(options: { ackDelayMs?: number; fail?: (id: string) => boolean; maxUnacked?: number }) {
  const settled: string[] = [];
  const handled: string[] = [];
  const loop = new ConsumerLoop({
    queue: 'q',
    maxBatch: 10,
    maxAttempts: 1,
    log,
    retryBaseMs: 1,
    ackDelayMs: options.ackDelayMs,
    maxUnacked: options.maxUnacked,
    invoke: async (messages) => {
      if (messages.some((m) => options.fail?.(m.id))) throw new Error('fails');
      handled.push(...messages.map((m) => m.id));
    },
    ackBatch: (batch) => settled.push(`ack up to ${batch[batch.length - 1].message?.id}`),
  });
  const push = (id: string) => {
    const message: BusMessage = { id, routingKey: 'k', body: {}, headers: {}, redelivered: false };
    const pending: Pending = {
      message,
      live: () => true,
      ack: () => settled.push(`ack ${id}`),
      deadLetter: () => settled.push(`dead ${id}`),
    };
    loop.push(pending);
  };
  return { loop, push, settled, handled };
}

describe('ConsumerLoop acks', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('without a delay, each batch is acked at once', async () => {
    const { push, settled } = setup({});
    push('a');
    await elapse(5);
    push('b');
    await elapse(5);
    expect(settled).toEqual(['ack up to a', 'ack up to b']);
  });

  it('with a delay, the batches of a window are acked once, by the last', async () => {
    const { push, settled, handled } = setup({ ackDelayMs: 40 });
    push('a');
    await elapse(5);
    push('b');
    await elapse(5);
    expect(handled).toEqual(['a', 'b']);
    expect(settled).toEqual([]);
    await elapse(60);
    expect(settled).toEqual(['ack up to b']);
  });

  it('acks at once when the unacked messages reach maxUnacked', async () => {
    const { push, settled } = setup({ ackDelayMs: 10_000, maxUnacked: 2 });
    push('a');
    await elapse(5);
    push('b');
    await elapse(5);
    push('c');
    await elapse(5);
    expect(settled).toEqual(['ack up to b']);
  });

  it('a failing batch settles the waiting ack before its own messages; stopping acks what waits', async () => {
    const { loop, push, settled } = setup({ ackDelayMs: 10_000, fail: (id) => id === 'x' });
    push('a');
    await elapse(5);
    push('x');
    await elapse(20);
    push('b');
    await elapse(5);
    expect(settled).toEqual(['ack up to a', 'dead x']);
    await loop.stop();
    expect(settled).toEqual(['ack up to a', 'dead x', 'ack up to b']);
  });
});
