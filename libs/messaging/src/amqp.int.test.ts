// The RabbitMQ bus against the real broker: confirms, batches in order, poison messages to the DLQ, RPC.

import net from 'node:net';
import { ApiError } from '@pcas/errors';
import { createLogger } from '@pcas/observability';
import { rabbitmq, uniqueName, waitFor } from '@pcas/testing';
import { type ChannelModel, connect } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAmqpBus } from './amqp-bus.ts';
import { type Bus, type BusMessage, RPC_ID_HEADER } from './types.ts';

const log = createLogger('amqp-test', 'silent');
const server = await rabbitmq();

/** A TCP proxy in front of the broker whose link can be cut and restored: a network failure for one client only. */
async function cuttableProxy(target: string) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  let up = true;
  const proxy = net.createServer((client) => {
    if (!up) return client.destroy();
    const upstream = net.connect(Number(port || 5672), hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.host = `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
  return {
    url: url.toString(),
    cut() {
      up = false;
      for (const s of sockets) s.destroy();
    },
    restore() {
      up = true;
    },
    close: () => new Promise<void>((resolve) => proxy.close(() => resolve())),
  };
}

describe.skipIf(!server)('amqp bus (real broker)', () => {
  // A private exchange per run, so nothing else bound to `events` sees these messages.
  const exchange = uniqueName('events-test');
  const queues: string[] = [];
  let bus: Bus;
  let admin: ChannelModel;

  beforeAll(async () => {
    bus = await createAmqpBus({ url: server!.url, log, exchange, retryBaseMs: 5 });
    admin = await connect(server!.url);
  });

  afterAll(async () => {
    await bus?.close();
    if (!admin) return;
    const ch = await admin.createChannel();
    for (const q of queues) await ch.deleteQueue(q);
    await ch.deleteExchange(exchange);
    await ch.deleteExchange(`${exchange}.dlx`);
    await admin.close();
  });

  it('publishes with confirms; the consumer gets everything in order, in batches', async () => {
    const queue = uniqueName('test.order');
    queues.push(queue, `${queue}.dlq`);
    const got: BusMessage[] = [];
    const sizes: number[] = [];
    const consumer = await bus.consume(
      queue,
      async (messages) => {
        sizes.push(messages.length);
        got.push(...messages);
      },
      { bindings: ['vessel.*'], maxBatch: 50 },
    );
    const total = 1_000;
    // Many publishes in flight at once; each resolves on its own confirm.
    await Promise.all(
      Array.from({ length: total }, (_, n) =>
        bus.publish(
          n % 10 === 0 ? 'portcall.Other' : 'vessel.TimestampAdded',
          { n },
          { messageId: `m${n}`, headers: { traceparent: 'tp' } },
        ),
      ),
    );
    const expected = Array.from({ length: total }, (_, n) => n).filter((n) => n % 10 !== 0);
    await waitFor(() => got.length >= expected.length);
    await consumer.stop();
    expect(got.map((m) => (m.body as { n: number }).n)).toEqual(expected);
    expect(got[0]).toMatchObject({ id: 'm1', routingKey: 'vessel.TimestampAdded', redelivered: false });
    expect(got[0].headers.traceparent).toBe('tp');
    expect(Math.max(...sizes)).toBeLessThanOrEqual(50);
    expect(sizes.length).toBeLessThan(expected.length);
  });

  it('sends a burst of publishes to the socket in a few writes, not one per message', async () => {
    // The bus's own socket (amqplib internals, as the coalescing itself uses them).
    const socket = (bus as unknown as { model: { connection: { stream: net.Socket } } }).model.connection.stream;
    const internals = socket as unknown as { _writeGeneric: (...args: unknown[]) => unknown };
    const write = internals._writeGeneric;
    let writes = 0;
    internals._writeGeneric = function (this: unknown, ...args: unknown[]) {
      writes++;
      return write.apply(this, args);
    };
    try {
      await Promise.all(
        Array.from({ length: 200 }, (_, n) =>
          bus.publish('nobody.Listens', { n }, { messageId: `burst${n}`, headers: {} }),
        ),
      );
    } finally {
      internals._writeGeneric = write;
    }
    expect(writes).toBeGreaterThan(0);
    expect(writes).toBeLessThan(20);
  });

  it('dead-letters a poison message after bounded retries while the others are processed in order', async () => {
    const queue = uniqueName('test.poison');
    queues.push(queue, `${queue}.dlq`);
    const processed: number[] = [];
    let poisonAttempts = 0;
    const consumer = await bus.consume(
      queue,
      async (messages) => {
        for (const m of messages) if (m.id === 'p5') poisonAttempts++;
        if (messages.some((m) => m.id === 'p5')) throw new Error('cannot handle p5');
        processed.push(...messages.map((m) => (m.body as { n: number }).n));
      },
      { bindings: ['poison.*'], maxAttempts: 3 },
    );
    await Promise.all(Array.from({ length: 20 }, (_, n) => bus.publish('poison.E', { n }, { messageId: `p${n}` })));
    await waitFor(() => processed.length >= 19);
    await consumer.stop();
    expect(processed).toEqual(Array.from({ length: 20 }, (_, n) => n).filter((n) => n !== 5));
    // 3 attempts alone, plus possibly the batch it arrived in.
    expect(poisonAttempts).toBeGreaterThanOrEqual(3);
    expect(poisonAttempts).toBeLessThanOrEqual(4);

    const ch = await admin.createChannel();
    const deadIds: string[] = [];
    await waitFor(async () => {
      const dead = await ch.get(`${queue}.dlq`, { noAck: true });
      if (dead) deadIds.push(String(dead.properties.messageId));
      return deadIds.length > 0;
    });
    expect(deadIds).toEqual(['p5']);
    expect(await ch.get(`${queue}.dlq`, { noAck: true })).toBe(false);
    const { messageCount } = await ch.checkQueue(queue);
    expect(messageCount).toBe(0);
    await ch.close();
  });

  it('redelivers what a stopped consumer had not handled to the next one', async () => {
    const queue = uniqueName('test.handover');
    queues.push(queue, `${queue}.dlq`);
    const first: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const c1 = await bus.consume(
      queue,
      async (messages) => {
        first.push(...messages.map((m) => (m.body as { n: number }).n));
        await gate;
      },
      { bindings: ['handover.*'], maxBatch: 5 },
    );
    await Promise.all(Array.from({ length: 30 }, (_, n) => bus.publish('handover.E', { n }, { messageId: `h${n}` })));
    await waitFor(() => first.length > 0);
    // stop() waits for the batch in progress, then returns the rest to the queue.
    const stopping = c1.stop();
    release();
    await stopping;
    const second: number[] = [];
    const c2 = await bus.consume(
      queue,
      async (messages) => void second.push(...messages.map((m) => (m.body as { n: number }).n)),
      {
        bindings: ['handover.*'],
      },
    );
    await waitFor(() => first.length + second.length >= 30);
    await c2.stop();
    expect([...first, ...second]).toEqual(Array.from({ length: 30 }, (_, n) => n));
  });

  it('does rpc round trips: result, ApiError, internal error, timeout, unknown service', async () => {
    const service = uniqueName('svc');
    queues.push(`cmd.${service}`);
    let seenHeaders: Record<string, unknown> = {};
    const rpcIds = new Set<unknown>();
    const server = await bus.serveRpc(service, async (command, payload, headers) => {
      seenHeaders = headers;
      rpcIds.add(headers[RPC_ID_HEADER]);
      if (command === 'echo') return { echoed: payload };
      if (command === 'forbidden') throw new ApiError(403, 'Invalid access');
      if (command === 'stuck') return new Promise((r) => setTimeout(r, 1_000));
      throw new Error('database exploded');
    });

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => bus.rpc(service, 'echo', { i }, { headers: { 'x-user': 9 } })),
    );
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => ({ echoed: { i } })));
    expect(seenHeaders['x-user']).toBe(9);
    // Each request has an id of its own (the request's correlation id, kept by the broker on a redelivery).
    expect(rpcIds.size).toBe(20);
    expect([...rpcIds].every((id) => typeof id === 'string' && id.length > 0)).toBe(true);

    await expect(bus.rpc(service, 'forbidden', {})).rejects.toMatchObject({ status: 403, message: 'Invalid access' });
    const internal = await bus.rpc(service, 'explode', {}).catch((e) => e);
    expect(internal).toBeInstanceOf(ApiError);
    expect(internal).toMatchObject({ status: 500, message: 'Internal error' });
    await expect(bus.rpc(service, 'stuck', {}, { timeoutMs: 300 })).rejects.toMatchObject({
      status: 503,
      message: `Service ${service} did not answer`,
    });

    // No queue for the service: the broker returns the request, so the caller hears 503 long before its timeout.
    const absent = uniqueName('absent');
    const outcome = await Promise.race([
      bus.rpc(absent, 'x', {}, { timeoutMs: 60_000 }).catch((e) => e),
      // Only catches a hang (a loaded machine may be slow): well below the rpc's own 60 s.
      new Promise((r) => setTimeout(() => r('still waiting'), 30_000)),
    ]);
    expect(outcome).toMatchObject({ status: 503, message: `Service ${absent} did not answer` });
    await server.stop();
  });

  it('reconnects after a connection loss: waiting publishes go out, consumers and rpc servers resume', async () => {
    const proxy = await cuttableProxy(server!.url);
    const flaky = await createAmqpBus({
      url: proxy.url,
      log,
      exchange,
      reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
    });
    const queue = uniqueName('test.reconnect');
    const service = uniqueName('svc-reconnect');
    queues.push(queue, `${queue}.dlq`, `cmd.${service}`);
    const got: number[] = [];
    const seen = new Set<number>();
    let duplicatesNotFlagged = 0;
    const consumer = await flaky.consume(
      queue,
      async (ms) => {
        for (const m of ms) {
          const n = (m.body as { n: number }).n;
          // Handled but not yet acked when the link broke: delivered again, flagged as such.
          if (seen.has(n)) {
            if (!m.redelivered) duplicatesNotFlagged++;
            continue;
          }
          seen.add(n);
          got.push(n);
        }
      },
      { bindings: ['reconnect.*'] },
    );
    const rpcServer = await flaky.serveRpc(service, async (_c, p) => p);
    try {
      await Promise.all(
        Array.from({ length: 10 }, (_, n) => flaky.publish('reconnect.E', { n }, { messageId: `r${n}` })),
      );
      await waitFor(() => got.length >= 10);

      proxy.cut();
      await waitFor(async () => !(await flaky.healthy()));
      // Issued while disconnected: they wait for the connection instead of failing.
      const later = Promise.all(
        Array.from({ length: 10 }, (_, i) => flaky.publish('reconnect.E', { n: 10 + i }, { messageId: `r${10 + i}` })),
      );
      const answer = flaky.rpc(service, 'echo', { back: true }, { timeoutMs: 20_000 });
      await new Promise((r) => setTimeout(r, 300));
      proxy.restore();

      await later;
      await expect(answer).resolves.toEqual({ back: true });
      await waitFor(() => got.length >= 20);
      expect(got).toEqual(Array.from({ length: 20 }, (_, n) => n));
      expect(duplicatesNotFlagged).toBe(0);
      expect(await flaky.healthy()).toBe(true);
    } finally {
      await consumer.stop();
      await rpcServer.stop();
      await flaky.close();
      await proxy.close();
    }
  });

  it('re-declares and resumes a consumer whose queue was deleted under it', async () => {
    const queue = uniqueName('test.redeclare');
    queues.push(queue, `${queue}.dlq`);
    const got: string[] = [];
    const consumer = await bus.consume(queue, async (ms) => void got.push(...ms.map((m) => m.id)), {
      bindings: ['redeclare.*'],
    });
    await bus.publish('redeclare.E', {}, { messageId: 'before' });
    await waitFor(() => got.length === 1);
    const ch = await admin.createChannel();
    await ch.deleteQueue(queue);
    await ch.close();
    // The consumer declares the queue (and its binding) again; publish until it is bound.
    await waitFor(async () => {
      await bus.publish('redeclare.E', {}, { messageId: 'after' });
      return got.includes('after');
    });
    await consumer.stop();
    expect(got[0]).toBe('before');
  });

  it('reports health and fails fast on an unreachable broker', async () => {
    expect(await bus.healthy()).toBe(true);
    const other = await createAmqpBus({ url: server!.url, log, exchange });
    await other.close();
    expect(await other.healthy()).toBe(false);
    await expect(
      createAmqpBus({
        url: 'amqp://guest:guest@127.0.0.1:1',
        log,
        reconnect: { initialMaxRetries: 1, initialDelayMs: 10 },
      }),
    ).rejects.toThrow();
  });
});
