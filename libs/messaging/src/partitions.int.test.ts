// Partitioned projections on the real broker and PostgreSQL (docs/architecture.md#scaling-out): two processes share
// the partitions evenly, one that joins takes half, the partitions of one killed with SIGKILL move to the other,
// and through it all every event is applied exactly once and each stream in order. A queue from before the
// projection was partitioned is drained first, then deleted. Lag is kept per partition.

import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@pcas/observability';
import { rabbitmq, waitFor } from '@pcas/testing';
import { connect } from 'amqplib';
import { afterAll, describe, expect, it } from 'vitest';
import { projectionLag, startProjection } from './projection.ts';
import { type Relay, startRelay } from './relay.ts';
import { appendPaced, countingApply, flowServers, projectedStats } from './testing/flow-fixture.ts';
import type { Consumer } from './types.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const broker = await rabbitmq();
const log = createLogger('partitions-test', process.env.LOG_LEVEL ?? 'silent');
const PARTITIONS = 8;
const REBALANCE_MS = 100;

/** A second process of the projection, which a test can SIGKILL; `held()` is what it last said it holds. */
function startChild(flow: ReturnType<typeof flowServers>) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'testing/projection-child.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: flow.url,
      AMQP_URL: broker!.url,
      EXCHANGE: flow.exchange,
      PROJECTION: flow.name,
      TABLE: flow.table,
      PARTITIONS: String(PARTITIONS),
      REBALANCE_MS: String(REBALANCE_MS),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let held: number[] = [];
  let buffered = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('held')) held = line.slice(5).split(',').filter(Boolean).map(Number);
  });
  return { child, held: () => held };
}

const sizes = (...sets: number[][]) => sets.map((s) => s.length);

describe.skipIf(!broker)('partitioned projections', () => {
  const flow = flowServers('parts', {
    brokerUrl: () => broker!.url,
    log,
    bus: { partitions: PARTITIONS, rebalanceMs: REBALANCE_MS },
  });
  let relay: Relay | undefined;
  let projection: Consumer | undefined;
  let child: ChildProcess | undefined;

  afterAll(async () => {
    child?.kill('SIGKILL');
    await projection?.stop();
    await relay?.stop();
  });

  it('spreads the partitions over the processes and moves them on, applying every event once and in order', async () => {
    const { db, store, bus } = flow;
    const start = (partitioned: boolean) =>
      startProjection({
        bus,
        db,
        log,
        name: flow.name,
        bindings: ['vessel.*'],
        apply: countingApply(flow.table),
        partitioned,
      });

    // A projection from before partitions: its queue holds events when the partitioned one starts.
    const before = await start(false);
    relay = await startRelay({ store, db, bus, log, name: `relay_${flow.name}`, batchSize: 50, standbyRetryMs: 200 });
    await appendPaced(store, { total: 200, streams: 20, perAppend: 10, concurrency: 4, pauseMs: 0 });
    await waitFor(async () => (await projectedStats(db, flow.table)).rows > 0, 30_000, 'the old projection at work');
    await before.stop();
    await appendPaced(store, { total: 300, streams: 20, perAppend: 10, concurrency: 4, pauseMs: 0 });

    projection = await start(true);
    await waitFor(() => projection!.heldPartitions!().length === PARTITIONS, 30_000, 'one process holds all');
    await waitFor(async () => (await projectedStats(db, flow.table)).rows >= 500, 30_000, 'the old queue drained');
    const admin = await connect(broker!.url);
    const probe = await admin.createChannel();
    probe.on('error', () => {});
    await expect(probe.checkQueue(`projection.${flow.name}`)).rejects.toThrow(/404|NOT_FOUND/);
    await admin.close().catch(() => {});

    // Writers keep going while a second process joins and is then killed.
    const TOTAL = 4_000;
    const writing = appendPaced(store, { total: TOTAL - 500, streams: 60, perAppend: 10, concurrency: 6, pauseMs: 10 });
    const second = startChild(flow);
    child = second.child;
    await waitFor(
      () => projection!.heldPartitions!().length === PARTITIONS / 2 && second.held().length === PARTITIONS / 2,
      30_000,
      'half each',
    );
    const mine = projection.heldPartitions!();
    expect([...mine, ...second.held()].sort((a, b) => a - b)).toEqual([...Array(PARTITIONS).keys()]);
    expect(sizes(mine, second.held())).toEqual([PARTITIONS / 2, PARTITIONS / 2]);

    await waitFor(async () => (await projectedStats(db, flow.table)).rows >= 1_500, 60_000, 'the second at work');
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    await waitFor(() => projection!.heldPartitions!().length === PARTITIONS, 30_000, 'the survivor holds all');

    await writing;
    await waitFor(async () => (await projectedStats(db, flow.table)).rows >= TOTAL, 60_000, 'every event applied');
    expect(await projectedStats(db, flow.table)).toEqual({ rows: TOTAL, appliedTwice: 0, outOfOrder: 0 });

    // Lag is per partition, and none once all is applied.
    const lags = (await projectionLag(db)).filter((l) => l.consumer.startsWith(flow.name));
    expect(lags.map((l) => l.consumer)).toEqual([...Array(PARTITIONS).keys()].map((p) => `${flow.name}.p0${p}`));
    await waitFor(async () => (await projectionLag(db)).every((l) => l.lag_seconds === 0), 30_000, 'no lag');
  });
});

describe.skipIf(!broker)('events every partition gets (everyPartition)', () => {
  const flow = flowServers('every', {
    brokerUrl: () => broker!.url,
    log,
    bus: { partitions: PARTITIONS, rebalanceMs: REBALANCE_MS },
  });
  let relay: Relay | undefined;
  let consumer: Consumer | undefined;

  afterAll(async () => {
    await consumer?.stop();
    await relay?.stop();
  });

  it('reach every partition in their place: before any event of its own appended after them', async () => {
    const { db, store, bus } = flow;
    const seen = new Map<number, string[]>();
    consumer = await bus.consume(
      `projection.${flow.name}`,
      async (messages) => {
        for (const m of messages) {
          const list = seen.get(m.partition ?? -1) ?? [];
          list.push((m.body as { streamId: string }).streamId);
          seen.set(m.partition ?? -1, list);
        }
      },
      { bindings: ['vessel.*', 'rule.*'], everyPartition: ['rule.*'], partitioned: true },
    );
    await waitFor(() => consumer!.heldPartitions!().length === PARTITIONS, 30_000, 'all partitions held');
    relay = await startRelay({ store, db, bus, log, name: `relay_${flow.name}` });
    await store.append('rule-1', [{ type: 'RuleChanged', data: {} }]);
    for (let v = 0; v < 40; v++) await store.append(`vessel-${v}`, [{ type: 'Seen', data: {} }]);
    const vesselsSeen = () => [...seen.values()].flat().filter((s) => s.startsWith('vessel-')).length;
    await waitFor(() => vesselsSeen() === 40, 30_000, 'every vessel event');
    // 40 streams over 8 partitions: every partition had some, and each got the rule first, once.
    expect([...seen.keys()].sort()).toEqual([...Array(PARTITIONS).keys()]);
    for (const [, streams] of seen) {
      expect(streams[0]).toBe('rule-1');
      expect(streams.filter((s) => s === 'rule-1')).toHaveLength(1);
    }
  });
});
