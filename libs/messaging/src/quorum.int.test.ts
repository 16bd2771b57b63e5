// AMQP_QUEUE_TYPE=quorum against the real broker: the bus declares its durable queues (a consumer's, its dead-letter
// queue, a partitioned consumer's partition queues) as quorum queues, and delivery keeps its promises on them: in
// order, a poison message dead-lettered after bounded attempts, each partition's messages in order.

import { createLogger } from '@pcas/observability';
import { rabbitmq, uniqueName, waitFor } from '@pcas/testing';
import { type Channel, type ChannelModel, connect } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAmqpBus } from './amqp-bus.ts';
import { partitionQueue } from './partitions.ts';
import type { Bus, BusMessage } from './types.ts';

const log = createLogger('quorum-test', 'silent');
const server = await rabbitmq();

/** The broker's answer to declaring `queue` again as `type` with its other arguments: a quorum queue refuses classic. */
async function declaredAs(admin: ChannelModel, queue: string, type: 'classic' | 'quorum', args: object) {
  const ch: Channel = await admin.createChannel();
  ch.on('error', () => {});
  try {
    await ch.assertQueue(queue, { durable: true, arguments: { ...args, 'x-queue-type': type } });
    await ch.close();
    return 'same';
  } catch (error) {
    return /inequivalent arg 'x-queue-type'/.test(String(error)) ? 'different type' : String(error);
  }
}

describe.skipIf(!server)('quorum queues (AMQP_QUEUE_TYPE=quorum, real broker)', () => {
  const exchange = uniqueName('events-quorum');
  const queues: string[] = [];
  let bus: Bus;
  let admin: ChannelModel;

  /** `queue` is a quorum queue with a single active consumer, dead-lettering to the exchange's DLX under its name. */
  const expectQuorumConsumerQueue = async (queue: string) => {
    const args = {
      'x-single-active-consumer': true,
      'x-dead-letter-exchange': `${exchange}.dlx`,
      'x-dead-letter-routing-key': queue,
    };
    expect(await declaredAs(admin, queue, 'quorum', args)).toBe('same');
    expect(await declaredAs(admin, queue, 'classic', args)).toBe('different type');
  };

  beforeAll(async () => {
    bus = await createAmqpBus({
      url: server!.url,
      log,
      exchange,
      retryBaseMs: 5,
      queueType: 'quorum',
      partitions: 4,
      rebalanceMs: 100,
    });
    admin = await connect(server!.url);
  });

  afterAll(async () => {
    await bus?.close();
    if (!admin) return;
    const ch = await admin.createChannel();
    for (const q of queues) await ch.deleteQueue(q).catch(() => {});
    await ch.deleteExchange(exchange).catch(() => {});
    await ch.deleteExchange(`${exchange}.dlx`).catch(() => {});
    await admin.close();
  });

  it('declares a consumer queue and its dead-letter queue as quorum queues, delivers in order, dead-letters poison', async () => {
    const queue = uniqueName('test.quorum');
    queues.push(queue, `${queue}.dlq`);
    const got: number[] = [];
    const consumer = await bus.consume(
      queue,
      async (messages: BusMessage[]) => {
        if (messages.some((m) => m.id === 'q7')) throw new Error('cannot handle q7');
        got.push(...messages.map((m) => (m.body as { n: number }).n));
      },
      { bindings: ['quorum.*'], maxAttempts: 2 },
    );
    await Promise.all(
      Array.from({ length: 100 }, (_, n) => bus.publish('quorum.Test', { n }, { messageId: `q${n}`, headers: {} })),
    );
    const expected = Array.from({ length: 100 }, (_, n) => n).filter((n) => n !== 7);
    await waitFor(() => got.length >= expected.length);
    await consumer.stop();
    expect(got).toEqual(expected);

    const ch = await admin.createChannel();
    await waitFor(async () => (await ch.checkQueue(`${queue}.dlq`)).messageCount === 1);
    const dead = await ch.get(`${queue}.dlq`, { noAck: true });
    expect(dead && dead.properties.messageId).toBe('q7');
    await ch.close();

    await expectQuorumConsumerQueue(queue);
    expect(await declaredAs(admin, `${queue}.dlq`, 'classic', {})).toBe('different type');
  });

  it('spreads a partitioned consumer over quorum partition queues, each stream in order', async () => {
    const queue = uniqueName('test.quorum-partitions');
    for (let p = 0; p < 4; p++) queues.push(partitionQueue(queue, p), `${partitionQueue(queue, p)}.dlq`);
    queues.push(`${queue}.members`);
    const byStream = new Map<string, number[]>();
    const consumer = await bus.consume(
      queue,
      async (messages) => {
        for (const m of messages) {
          const { stream, n } = m.body as { stream: string; n: number };
          byStream.set(stream, [...(byStream.get(stream) ?? []), n]);
        }
      },
      { bindings: ['qpart.*'], partitioned: true },
    );
    await waitFor(() => (consumer.heldPartitions?.() ?? []).length === 4);
    const streams = Array.from({ length: 12 }, (_, i) => `vessel-${9000000 + i}`);
    for (let n = 0; n < 20; n++) {
      await Promise.all(
        streams.map((stream) =>
          bus.publish('qpart.Test', { stream, n }, { messageId: `${stream}-${n}`, headers: {}, partitionKey: stream }),
        ),
      );
    }
    await waitFor(() => streams.every((s) => (byStream.get(s)?.length ?? 0) >= 20));
    await consumer.stop();
    for (const s of streams) expect(byStream.get(s)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    const p0 = partitionQueue(queue, 0);
    await expectQuorumConsumerQueue(p0);
  });
});
