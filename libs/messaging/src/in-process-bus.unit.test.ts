import { ApiError } from '@pcas/errors';
import { createLogger } from '@pcas/observability';
import { afterEach, describe, expect, it } from 'vitest';
import { createInProcessBus, type InProcessBus } from './in-process-bus.ts';
import type { BusMessage } from './types.ts';

const log = createLogger('test', 'silent');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let bus: InProcessBus;
afterEach(async () => {
  await bus?.close();
});

const newBus = () => {
  bus = createInProcessBus({ log, retryBaseMs: 1 });
  return bus;
};

describe('in-process bus: publish and consume', () => {
  it('routes by topic pattern and hands over what the wire would carry', async () => {
    newBus();
    const vessels: BusMessage[] = [];
    const all: string[] = [];
    await bus.consume('q.vessels', async (ms) => void vessels.push(...ms), { bindings: ['vessel.*'] });
    await bus.consume('q.all', async (ms) => void all.push(...ms.map((m) => m.routingKey)), { bindings: ['#'] });

    const when = new Date('2026-01-02T03:04:05.000Z');
    await bus.publish('vessel.TimestampAdded', { when, n: 1 }, { messageId: 'e1', headers: { traceparent: 'tp-1' } });
    await bus.publish('portcall.Closed', { n: 2 }, { messageId: 'e2' });
    await bus.publish('vessel.deep.key', { n: 3 }, { messageId: 'e3' });

    expect(vessels).toHaveLength(1);
    expect(vessels[0]).toMatchObject({
      id: 'e1',
      routingKey: 'vessel.TimestampAdded',
      body: { when: '2026-01-02T03:04:05.000Z', n: 1 },
      headers: { traceparent: 'tp-1' },
      redelivered: false,
    });
    expect(all).toEqual(['vessel.TimestampAdded', 'portcall.Closed', 'vessel.deep.key']);
  });

  it('resolves publish only after the consumer has handled the message', async () => {
    newBus();
    let handled = false;
    await bus.consume(
      'q.slow',
      async () => {
        await sleep(30);
        handled = true;
      },
      { bindings: ['x.*'] },
    );
    await bus.publish('x.y', {}, { messageId: '1' });
    expect(handled).toBe(true);
  });

  it('keeps order and batches what is waiting (up to maxBatch)', async () => {
    newBus();
    const seen: number[] = [];
    const sizes: number[] = [];
    await bus.consume(
      'q.order',
      async (ms) => {
        sizes.push(ms.length);
        for (const m of ms) seen.push((m.body as { n: number }).n);
        await sleep(1);
      },
      { bindings: ['o.*'], maxBatch: 25 },
    );
    await Promise.all(Array.from({ length: 200 }, (_, n) => bus.publish('o.e', { n }, { messageId: String(n) })));
    expect(seen).toEqual(Array.from({ length: 200 }, (_, n) => n));
    expect(Math.max(...sizes)).toBe(25);
    expect(sizes.length).toBeLessThan(200);
  });

  it('retries a failing message alone, in order, then dead-letters it; the others go through', async () => {
    newBus();
    const processed: number[] = [];
    const attempts = new Map<number, number>();
    await bus.consume(
      'q.poison',
      async (ms) => {
        for (const m of ms) {
          const n = (m.body as { n: number }).n;
          attempts.set(n, (attempts.get(n) ?? 0) + 1);
          if (n === 3) throw new Error('poison');
          // Transient: fails twice, then works.
          if (n === 6 && attempts.get(6)! <= 2) throw new Error('flaky');
        }
        for (const m of ms) processed.push((m.body as { n: number }).n);
      },
      { bindings: ['p.*'], maxAttempts: 4, maxBatch: 10 },
    );
    await Promise.all(Array.from({ length: 10 }, (_, n) => bus.publish('p.e', { n }, { messageId: String(n) })));

    expect(processed).toEqual([0, 1, 2, 4, 5, 6, 7, 8, 9]);
    expect(bus.deadLetters('q.poison').map((m) => m.id)).toEqual(['3']);
    // Batch try + 4 single attempts for the poison message.
    expect(attempts.get(3)).toBe(5);
  });

  it('dead-letters a single failing message after exactly maxAttempts', async () => {
    newBus();
    let calls = 0;
    const redelivered: boolean[] = [];
    await bus.consume(
      'q.single',
      async (ms) => {
        calls++;
        redelivered.push(ms[0].redelivered);
        throw new Error('always');
      },
      { bindings: ['s.*'], maxAttempts: 3 },
    );
    await bus.publish('s.e', {}, { messageId: 'only' });
    expect(calls).toBe(3);
    expect(redelivered).toEqual([false, true, true]);
    expect(bus.deadLetters('q.single')).toHaveLength(1);
  });

  it('buffers for a declared queue without a consumer and hands it to the next one', async () => {
    newBus();
    const first: number[] = [];
    const c1 = await bus.consume(
      'q.buf',
      async (ms) => void first.push(...ms.map((m) => (m.body as { n: number }).n)),
      {
        bindings: ['b.*'],
      },
    );
    await bus.publish('b.e', { n: 1 }, { messageId: '1' });
    await c1.stop();
    // No consumer: publish does not wait, the message waits in the queue.
    await bus.publish('b.e', { n: 2 }, { messageId: '2' });
    await bus.publish('b.e', { n: 3 }, { messageId: '3' });
    const second: number[] = [];
    await bus.consume('q.buf', async (ms) => void second.push(...ms.map((m) => (m.body as { n: number }).n)), {
      bindings: ['b.*'],
    });
    await bus.publish('b.e', { n: 4 }, { messageId: '4' });
    expect(first).toEqual([1]);
    expect(second).toEqual([2, 3, 4]);
  });

  it('has one active consumer per queue; a standby takes over', async () => {
    newBus();
    const got: string[] = [];
    const a = await bus.consume('q.sac', async (ms) => void got.push(...ms.map((m) => `a${m.id}`)), {
      bindings: ['s.*'],
    });
    await bus.consume('q.sac', async (ms) => void got.push(...ms.map((m) => `b${m.id}`)), { bindings: ['s.*'] });
    await bus.publish('s.x', {}, { messageId: '1' });
    await a.stop();
    await bus.publish('s.x', {}, { messageId: '2' });
    expect(got).toEqual(['a1', 'b2']);
  });

  it('drops messages no queue is bound for', async () => {
    newBus();
    await expect(bus.publish('nobody.listens', {}, { messageId: 'x' })).resolves.toBeUndefined();
  });
});

describe('in-process bus: rpc', () => {
  it('returns the result as it would come over the wire', async () => {
    newBus();
    let seenHeaders: Record<string, unknown> = {};
    await bus.serveRpc('ingest', async (command, payload, headers) => {
      seenHeaders = headers;
      return { command, payload, at: new Date('2026-01-01T00:00:00Z') };
    });
    const result = await bus.rpc('ingest', 'postTimestamp', { imo: 1 }, { headers: { 'x-user': 7 } });
    expect(result).toEqual({ command: 'postTimestamp', payload: { imo: 1 }, at: '2026-01-01T00:00:00.000Z' });
    expect(seenHeaders['x-user']).toBe(7);
  });

  it('rethrows an ApiError with its status; other errors become 500 Internal error', async () => {
    newBus();
    await bus.serveRpc('svc', async (command) => {
      if (command === 'forbidden') throw ApiError.forbidden();
      throw new Error('secret detail');
    });
    await expect(bus.rpc('svc', 'forbidden', {})).rejects.toMatchObject({ status: 403, message: 'Invalid access' });
    const error = await bus.rpc('svc', 'boom', {}).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, message: 'Internal error' });
  });

  it('times out with 503 when the service does not answer', async () => {
    newBus();
    await bus.serveRpc('stuck', () => new Promise(() => {}));
    await expect(bus.rpc('stuck', 'x', {}, { timeoutMs: 50 })).rejects.toMatchObject({
      status: 503,
      message: 'Service stuck did not answer',
    });
    await expect(bus.rpc('absent', 'x', {}, { timeoutMs: 50 })).rejects.toMatchObject({ status: 503 });
  });

  it('answers a call made before the server registered', async () => {
    newBus();
    // The timeout only has to outlast the pause below on a loaded machine (well under the test's 10 s).
    const call = bus.rpc<number>('late', 'add', { a: 1, b: 2 }, { timeoutMs: 8_000 });
    await sleep(20);
    await bus.serveRpc('late', async (_c, p) => (p as { a: number; b: number }).a + (p as { a: number; b: number }).b);
    await expect(call).resolves.toBe(3);
  });
});
