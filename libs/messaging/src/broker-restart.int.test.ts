// The whole event flow survives a broker crash with thousands of messages queued. Events appended to the event
// store (real PostgreSQL) flow through the relay into the projection's durable queue while the projection is held
// (its queue declared, nobody consuming). With thousands queued and the relay still publishing, the broker's
// Erlang VM is killed (SIGKILL: no clean shutdown) and started again on the same data; then the projection is
// released. Every event is applied exactly once, in stream order: the queued messages were persistent on a
// durable queue and survived, the relay republished what was never confirmed. The broker is a private node
// (@pcas/testing's startPrivateRabbitNode), so the shared one, which other test files use meanwhile, is never
// touched. Skipped (not failed) when RabbitMQ is not installed, unless CI=true.

import { createLogger } from '@pcas/observability';
import { type PrivateRabbitNode, rabbitServerScript, startPrivateRabbitNode, waitFor } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectionLag, startProjection } from './projection.ts';
import { type Relay, startRelay } from './relay.ts';
import { appendPaced, countingApply, flowServers, projectedStats, queueDepth } from './testing/flow-fixture.ts';
import type { Consumer } from './types.ts';

const SCRIPT = rabbitServerScript();
const log = createLogger('broker-restart-test', process.env.LOG_LEVEL ?? 'silent');
/** Published and confirmed before the crash. */
const QUEUED = 4_000;
/** Appended while the broker is down: the relay can only publish them after the restart. */
const LATE = 200;
const TOTAL = 6_000;

describe.skipIf(!SCRIPT)('broker killed with thousands of messages queued', () => {
  let node: PrivateRabbitNode | undefined;
  const broker = () => {
    if (!node) throw new Error('the private RabbitMQ node starts in beforeAll');
    return node;
  };
  // Out here, so the node is stopped and its directory removed even when the flow's own tear-down fails.
  beforeAll(async () => {
    node = await startPrivateRabbitNode(SCRIPT!);
  });
  afterAll(async () => {
    await node?.stop();
  });

  describe('flow', () => {
    const flow = flowServers('brokerkill', {
      brokerUrl: () => broker().url,
      log,
      bus: { reconnect: { initialDelayMs: 200, maxDelayMs: 1_000, waitMs: 60_000 } },
    });
    const { name, table } = flow;
    const queue = `projection.${name}`;
    const relayName = `relay_${name}`;
    let relay: Relay | undefined;
    let projection: Consumer | undefined;

    afterAll(async () => {
      await projection?.stop();
      await relay?.stop();
    });

    it(`applies all ${TOTAL} events exactly once, in stream order, across a SIGKILL of the broker`, async () => {
      const { db, store, bus } = flow;
      const projectionOptions = { bus, db, name, bindings: ['vessel.*'], apply: countingApply(table), log };
      const depth = () => queueDepth(broker().url, queue);
      /** Events the relay has confirmed and saved: it never publishes these again. */
      const savedByRelay = async () => {
        const checkpoint = await store.readCheckpoint(relayName);
        if (!checkpoint) return 0;
        const { rows } = await db.query<{ n: string }>(
          'SELECT count(*) AS n FROM eventstore.events WHERE (transaction_id, global_position) <= ($1::xid8, $2)',
          [checkpoint.transactionId, checkpoint.globalPosition],
        );
        return Number(rows[0].n);
      };

      // Held: the projection declares its durable queue and bindings, then stops consuming.
      await (await startProjection(projectionOptions)).stop();
      relay = await startRelay({ store, db, bus, log, name: relayName, batchSize: 200 });

      await appendPaced(store, { total: QUEUED, streams: 50, perAppend: 10, concurrency: 10, pauseMs: 0 });
      await waitFor(async () => (await depth()) >= QUEUED, 60_000, `${QUEUED} messages queued`);
      // More on their way while the VM dies: some publishes are sent and not yet confirmed.
      const rest = appendPaced(store, {
        total: TOTAL - QUEUED - LATE,
        streams: 50,
        perAppend: 10,
        concurrency: 10,
        pauseMs: 20,
      });
      // The relay's saved checkpoint (not the queue's depth, which runs ahead of it) past the first of the rest: it
      // is publishing again, and all it saved is in the broker.
      await waitFor(async () => (await savedByRelay()) >= QUEUED + 200, 60_000, 'the relay publishing again');

      await broker().kill();
      await waitFor(async () => !(await bus.healthy()), 30_000, 'the bus noticing the crash');
      // These reach the projection only if the broker kept them: the relay will not publish them again.
      const onlyInBroker = await savedByRelay();
      expect(onlyInBroker).toBeGreaterThanOrEqual(QUEUED + 200);
      await rest;
      // Appended with the broker down, so the relay surely has some to publish after the restart, however fast
      // it was before the crash.
      await appendPaced(store, { total: LATE, streams: 50, perAppend: 10, concurrency: 10, pauseMs: 0 });
      expect(await savedByRelay()).toBeLessThanOrEqual(TOTAL - LATE);

      await broker().start();
      await waitFor(async () => (await savedByRelay()) === TOTAL, 60_000, 'the relay caught up');
      await waitFor(() => bus.healthy(), 30_000, 'the bus reconnected');
      // Survivors plus republished ones (some twice: sent before the crash, their confirm lost with it).
      expect(await depth()).toBeGreaterThanOrEqual(TOTAL);

      projection = await startProjection(projectionOptions);
      await waitFor(async () => (await projectedStats(db, table)).rows >= TOTAL, 60_000, 'all events projected');
      await waitFor(async () => (await depth()) === 0, 30_000, 'the queue drained');
      // Let the last batches settle: duplicates must change nothing.
      await new Promise((r) => setTimeout(r, 500));

      expect(await projectedStats(db, table)).toEqual({ rows: TOTAL, appliedTwice: 0, outOfOrder: 0 });
      const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM messaging.inbox WHERE consumer = $1', [
        name,
      ]);
      expect(Number(rows[0].n)).toBe(TOTAL);
      expect(await projectionLag(db)).toEqual([{ consumer: name, lag_seconds: 0 }]);
    });
  });
});
