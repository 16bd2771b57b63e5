// The relay crashes mid-stream (SIGKILL of its process: no cleanup, no last checkpoint) and a standby relay
// takes over within 5 s from the saved checkpoint; whatever the dead one had published but not checkpointed comes again and
// the projection's inbox drops it. Every event is applied exactly once, in stream order.

import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@pcas/observability';
import { rabbitmq, waitFor } from '@pcas/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { startProjection } from './projection.ts';
import { type Relay, startRelay } from './relay.ts';
import { appendPaced, countingApply, flowServers, projectedStats } from './testing/flow-fixture.ts';
import type { Consumer } from './types.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const broker = await rabbitmq();
const log = createLogger('relay-restart-test', process.env.LOG_LEVEL ?? 'silent');
const TOTAL = 3_000;

describe.skipIf(!broker)('relay crash and takeover', () => {
  const flow = flowServers('relaykill', { brokerUrl: () => broker!.url, log });
  const { name, table, exchange } = flow;
  const relayName = `relay_${name}`;
  let child: ChildProcess | undefined;
  let standby: Relay | undefined;
  let projection: Consumer | undefined;

  afterAll(async () => {
    child?.kill('SIGKILL');
    await projection?.stop();
    await standby?.stop();
  });

  it('ends with every event exactly once after the active relay is killed', async () => {
    const { db, store, bus } = flow;
    projection = await startProjection({ bus, db, name, bindings: ['vessel.*'], apply: countingApply(table), log });

    child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'testing/relay-child.ts')], {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: flow.url,
        AMQP_URL: broker!.url,
        EXCHANGE: exchange,
        RELAY_NAME: relayName,
        BATCH_SIZE: '50',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let childActive = false;
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('active')) childActive = true;
    });
    await waitFor(() => childActive, 60_000, 'child relay active');

    // Same name, same lock: this one stands by while the child is alive; it tries once a second, as every fleet
    // process does (RELAY_POLICY in libs/contracts).
    standby = await startRelay({ store, db, bus, log, name: relayName, batchSize: 50, standbyRetryMs: 1_000 });

    // Half before the kill, half after it, so the standby has events to take over however fast this machine is.
    const pace = { total: TOTAL / 2, streams: 40, perAppend: 10, concurrency: 8, pauseMs: 15 };
    const firstHalf = appendPaced(store, pace);
    await waitFor(async () => (await projectedStats(db, table)).rows >= 500, 60_000, 'first events projected');
    expect(standby.active).toBe(false);

    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    const atKill = (await projectedStats(db, table)).rows;
    const secondHalf = appendPaced(store, pace);

    // The dead relay's session ends with its process, and with it the lock: the standby takes over within 5 s.
    await waitFor(() => standby!.active, 5_000, 'standby relay takes over');
    await Promise.all([firstHalf, secondHalf]);
    await waitFor(async () => (await projectedStats(db, table)).rows >= TOTAL, 60_000, 'all events projected');
    await new Promise((r) => setTimeout(r, 300));

    expect(atKill).toBeLessThan(TOTAL);
    expect(await projectedStats(db, table)).toEqual({ rows: TOTAL, appliedTwice: 0, outOfOrder: 0 });
    // The checkpoint is saved at the relay's next idle read, which may come after the last event was projected.
    await waitFor(
      async () => (await store.readAll(await store.readCheckpoint(relayName), 10)).events.length === 0,
      30_000,
      'the checkpoint saved at the head',
    );
  });
});
