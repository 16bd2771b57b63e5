// The whole event flow survives a RabbitMQ restart: 5,000 events appended to the event store (real PostgreSQL)
// flow through the relay and the broker into a projection; while they flow the broker application is stopped
// and started again (`rabbitmqctl stop_app` / `start_app`). Every event ends up applied exactly once, in stream
// order. Skipped (not failed) when rabbitmqctl is missing, unless CI=true.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { createLogger } from '@pcas/observability';
import { rabbitmq } from '@pcas/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { projectionLag, startProjection } from './projection.ts';
import { type Relay, startRelay } from './relay.ts';
import { appendPaced, countingApply, flowServers, projectedStats, waitFor } from './testing/flow-fixture.ts';
import type { Consumer } from './types.ts';

const run = promisify(execFile);
const RABBITMQCTL = ['/usr/sbin/rabbitmqctl', '/usr/lib/rabbitmq/bin/rabbitmqctl'].find((p) => existsSync(p));
if (!RABBITMQCTL && process.env.CI === 'true') throw new Error('CI=true but rabbitmqctl is missing');
const broker = RABBITMQCTL ? await rabbitmq() : undefined;

const log = createLogger('broker-restart-test', process.env.LOG_LEVEL ?? 'silent');
const TOTAL = 5_000;

describe.skipIf(!broker)('broker restart while events flow', () => {
  const flow = flowServers('restart', {
    brokerUrl: () => broker!.url,
    log,
    bus: { reconnect: { initialDelayMs: 200, maxDelayMs: 1_000, waitMs: 60_000 } },
  });
  const { name, table } = flow;
  let relay: Relay | undefined;
  let projection: Consumer | undefined;

  afterAll(async () => {
    await projection?.stop();
    await relay?.stop();
    // The broker may still be coming back if the test failed half-way.
    await run(RABBITMQCTL!, ['start_app']).catch(() => {});
  });

  it('applies all 5,000 events exactly once, in stream order', async () => {
    const { db, store, bus } = flow;
    projection = await startProjection({ bus, db, name, bindings: ['vessel.*'], apply: countingApply(table), log });
    relay = await startRelay({ store, db, bus, log, name: `relay_${name}`, batchSize: 200 });

    // The first half flows while the broker stops; the second half is appended while it is down, so events are
    // in flight across the restart however fast this machine is.
    const pace = { total: TOTAL / 2, streams: 50, perAppend: 10, concurrency: 10, pauseMs: 10 };
    const firstHalf = appendPaced(store, pace);
    await waitFor(async () => (await projectedStats(db, table)).rows >= 500, 60_000, 'first events projected');

    await run(RABBITMQCTL!, ['stop_app']);
    const atStop = (await projectedStats(db, table)).rows;
    const secondHalf = appendPaced(store, pace);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await bus.healthy()).toBe(false);
    await run(RABBITMQCTL!, ['start_app']);

    await Promise.all([firstHalf, secondHalf]);
    await waitFor(async () => (await projectedStats(db, table)).rows >= TOTAL, 120_000, 'all events projected');
    // Let late redeliveries arrive: they must change nothing.
    await new Promise((r) => setTimeout(r, 500));

    const stats = await projectedStats(db, table);
    expect(atStop).toBeLessThan(TOTAL);
    expect(stats).toEqual({ rows: TOTAL, appliedTwice: 0, outOfOrder: 0 });
    const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM messaging.inbox WHERE consumer = $1', [
      name,
    ]);
    expect(Number(rows[0].n)).toBe(TOTAL);
    expect(await bus.healthy()).toBe(true);
    expect(await projectionLag(db)).toEqual([{ consumer: name, lag_seconds: 0 }]);
  });
});
