// Broadcasts (the real-time fan-out): every receiving process gets each broadcast once, on the real broker and in
// process alike; a stopped receiver gets nothing more, and on the broker its queue is gone.

import { createLogger } from '@pcas/observability';
import { rabbitmq, uniqueName } from '@pcas/testing';
import { connect } from 'amqplib';
import { afterAll, describe, expect, it } from 'vitest';
import { createAmqpBus } from './amqp-bus.ts';
import { createInProcessBus } from './in-process-bus.ts';
import type { Bus } from './types.ts';

const log = createLogger('broadcast-test', 'silent');
const server = await rabbitmq();

const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));

async function receivers(bus: Bus, count: number) {
  const received = Array.from({ length: count }, () => [] as [string, unknown][]);
  const consumers = await Promise.all(
    received.map((into) => bus.receiveBroadcasts((key, body) => into.push([key, body]))),
  );
  return { received, consumers };
}

describe.skipIf(!server)('broadcasts on the real broker', () => {
  // Private exchanges per run: nothing else bound to `realtime` sees these.
  const broadcastExchange = uniqueName('realtime-test');
  const exchange = uniqueName('events-test');
  const buses: Bus[] = [];
  const open = async () => {
    const bus = await createAmqpBus({ url: server!.url, log, exchange, broadcastExchange });
    buses.push(bus);
    return bus;
  };

  afterAll(async () => {
    for (const bus of buses) await bus.close();
    const admin = await connect(server!.url);
    const ch = await admin.createChannel();
    for (const name of [broadcastExchange, exchange, `${exchange}.dlx`]) await ch.deleteExchange(name);
    await admin.close();
  });

  it('reaches every process once (two gateways: each gets each message once), none after it stopped', async () => {
    const [sender, gatewayA, gatewayB] = [await open(), await open(), await open()];
    const a = await receivers(gatewayA, 1);
    const b = await receivers(gatewayB, 1);
    for (let i = 0; i < 20; i++) await sender.broadcast('portcalls-changed', { channel: 'portcalls-changed', n: i });
    // A marker behind them on the same ordered path (one publisher, each receiver's queue): once a receiver has
    // it, a duplicate of any of the twenty would have come before it.
    await sender.broadcast('marker', {});
    const expected = [
      ...Array.from({ length: 20 }, (_, n) => ['portcalls-changed', { channel: 'portcalls-changed', n }]),
      ['marker', {}],
    ];
    for (const { received } of [a, b])
      await expect.poll(() => received[0].some(([key]) => key === 'marker'), { timeout: 20_000 }).toBe(true);
    expect(a.received[0]).toEqual(expected);
    expect(b.received[0]).toEqual(expected);

    await b.consumers[0].stop();
    await sender.broadcast('portcalls-changed', { n: 20 });
    await expect.poll(() => a.received[0].length, { timeout: 20_000 }).toBeGreaterThanOrEqual(22);
    // No barrier reaches a stopped receiver: a short wait for what should not come.
    await settle();
    expect(a.received[0]).toHaveLength(22);
    expect(b.received[0]).toHaveLength(21);
  });

  it('a broadcast with no receiver is dropped, and the publisher keeps working', async () => {
    const lonely = await open();
    await lonely.broadcast('nobody', {});
    await lonely.broadcast('nobody', {});
    expect(await lonely.healthy()).toBe(true);
  });
});

describe('broadcasts in process', () => {
  it('reach every receiver once, as JSON copies; none after a receiver stopped', async () => {
    const bus = createInProcessBus({ log });
    const { received, consumers } = await receivers(bus, 2);
    const body = { channel: 'notifications-changed', data: { id: 1, at: new Date(0) } };
    await bus.broadcast('notifications-changed', body);
    const copy = [
      'notifications-changed',
      { channel: 'notifications-changed', data: { id: 1, at: new Date(0).toJSON() } },
    ];
    expect(received).toEqual([[copy], [copy]]);
    await consumers[1].stop();
    await bus.broadcast('x', 1);
    expect(received.map((r) => r.length)).toEqual([2, 1]);
    await bus.close();
  });
});
