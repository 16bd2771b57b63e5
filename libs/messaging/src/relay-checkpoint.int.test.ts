// The relay's checkpoint while events flow: saved now and then rather than after every round, and saved as soon
// as the relay is idle, so what a restart republishes stays small and nothing is skipped.

import { createLogger } from '@pcas/observability';
import { rabbitmq, waitFor } from '@pcas/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { startProjection } from './projection.ts';
import { type RelayOptions, startRelay } from './relay.ts';
import { countingApply, flowServers, projectedStats } from './testing/flow-fixture.ts';

const broker = await rabbitmq();
const log = createLogger('relay-checkpoint-test', 'silent');

describe.skipIf(!broker)('relay checkpoint', () => {
  const flow = flowServers('relaycp', { brokerUrl: () => broker!.url, log });
  const { name, table } = flow;
  /** A consumer on the flow's bus recording the stream id of every message it gets. */
  const streamIdsSeen = async (queue: string, bindings: string[]) => {
    const seen: string[] = [];
    const consumer = await flow.bus.consume(
      queue,
      async (messages) => {
        for (const m of messages) seen.push(String((m.body as { streamId: string }).streamId));
      },
      { bindings },
    );
    return { seen, consumer };
  };
  /** A relay over the flow's store (unless a test gives its own), database and bus. */
  const startFlowRelay = (options: Partial<RelayOptions>) =>
    startRelay({ store: flow.store, db: flow.db, bus: flow.bus, log, ...options });
  /** Until the relay's checkpoint is at `position` (an idle relay saves it at once). */
  const checkpointAt = (relayName: string, position: number) =>
    waitFor(
      async () => (await flow.store.readCheckpoint(relayName))?.globalPosition === position,
      20_000,
      'checkpoint at the head',
    );

  beforeAll(async () => {
    // Every write of a checkpoint row, counted.
    const { db } = flow;
    await db.query('CREATE TABLE checkpoint_writes (consumer text, global_position bigint)');
    await db.query(`CREATE FUNCTION count_checkpoint_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO checkpoint_writes VALUES (NEW.consumer, NEW.global_position); RETURN NEW; END $$`);
    await db.query(`CREATE TRIGGER count_writes AFTER INSERT OR UPDATE ON eventstore.checkpoints
      FOR EACH ROW EXECUTE FUNCTION count_checkpoint_write()`);
  });

  it('saves it once the rounds of a burst are published, not after each round', async () => {
    const { db, store, bus } = flow;
    const projection = await startProjection({
      bus,
      db,
      name,
      bindings: ['vessel.*'],
      apply: countingApply(table),
      log,
    });
    const relayName = `relay_${name}`;
    // Ten rounds of 20 events; the interval is longer than the whole burst.
    await store.appendMany(
      Array.from({ length: 10 }, (_, s) => ({
        streamId: `vessel-${9_100_000 + s}`,
        events: Array.from({ length: 20 }, (_, n) => ({ type: 'TimestampAdded', data: { n } })),
      })),
    );
    const relay = await startFlowRelay({
      name: relayName,
      batchSize: 20,
      checkpointIntervalMs: 60_000,
    });
    try {
      await waitFor(async () => (await projectedStats(db, table)).rows === 200, 20_000, 'all 200 projected');
      const head = (await store.readAll(null, 1_000)).events.at(-1)!.globalPosition;
      // Idle after the burst: saved at once, at the last event.
      await checkpointAt(relayName, head);
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM checkpoint_writes WHERE consumer = $1',
        [relayName],
      );
      expect(rows[0].n).toBe(1);
      expect((await projectedStats(db, table)).appliedTwice).toBe(0);
    } finally {
      await relay.stop();
      await projection.stop();
    }
  });

  it('passes over the streams it is told to skip, and its checkpoint moves past them', async () => {
    const { store } = flow;
    const { seen, consumer } = await streamIdsSeen(`${name}_skip`, ['position.*', 'vessel.*']);
    const relayName = `relay_skip_${name}`;
    const appended = await store.appendMany([
      { streamId: 'vessel-9200001', events: [{ type: 'TimestampAdded', data: { n: 1 } }] },
      ...Array.from({ length: 30 }, (_, s) => ({
        streamId: `position-mmsi-${230_000_000 + s}`,
        events: [{ type: 'VesselPositionRecorded', data: { s } }],
      })),
      { streamId: 'vessel-9200002', events: [{ type: 'TimestampAdded', data: { n: 2 } }] },
    ]);
    // The last event appended (read from the append's answer: a transaction open elsewhere on the server can hold
    // a read of the log back for a moment).
    const head = appended.at(-1)!.events[0];
    const relay = await startFlowRelay({
      name: relayName,
      batchSize: 10,
      skipStreamPrefixes: ['position-'],
    });
    try {
      await waitFor(async () => seen.includes('vessel-9200002'), 20_000, 'the second vessel event published');
      // Idle: the checkpoint is saved at the last event, past every position.
      await checkpointAt(relayName, head.globalPosition);
      expect(seen.filter((s) => s.startsWith('position-'))).toEqual([]);
      expect(seen.filter((s) => s === 'vessel-9200001' || s === 'vessel-9200002')).toEqual([
        'vessel-9200001',
        'vessel-9200002',
      ]);
    } finally {
      await relay.stop();
      await consumer.stop();
    }
  });

  it('reads the log once for a commit that it has read all of, not again at once', async () => {
    const { db, store } = flow;
    const { seen, consumer } = await streamIdsSeen(`${name}_once`, ['vessel.*']);
    // What each read of the log found: the stream ids of its events.
    const reads: string[][] = [];
    const counted: typeof store = {
      ...store,
      readAll: async (...args) => {
        const page = await store.readAll(...args);
        reads.push(page.events.map((e) => e.streamId));
        return page;
      },
    };
    const wakeChannel = (store as { wakeChannel?: string }).wakeChannel ?? 'eventstore_events';
    // Appends and waits until a read found the event; tells whether it had to nudge. No poll in the test's time, so
    // a read comes only from a NOTIFY; a read held back by a transaction running elsewhere in the cluster is retried
    // by a nudge, sent only after a second so that it does not race the append's own NOTIFY.
    const appendAndRead = async (streamId: string): Promise<boolean> => {
      await store.appendMany([{ streamId, events: [{ type: 'TimestampAdded', data: {} }] }]);
      const started = Date.now();
      let nudgedAt = started;
      let nudged = false;
      while (!reads.some((r) => r.includes(streamId))) {
        if (Date.now() - started > 30_000) throw new Error(`${streamId} never read`);
        if (Date.now() - nudgedAt >= 1_000) {
          await db.query('SELECT pg_notify($1, $2)', [wakeChannel, '']);
          nudgedAt = Date.now();
          nudged = true;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await waitFor(async () => seen.includes(streamId), 20_000, `${streamId} published`);
      return nudged;
    };
    // Until no read has come for a while: a nudge can arrive after the read it was meant to cause.
    const readsSettled = async () => {
      for (let count = -1; count !== reads.length; ) {
        count = reads.length;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    };
    const relay = await startFlowRelay({
      store: counted,
      name: `relay_once_${name}`,
      pollIntervalMs: 60_000,
    });
    try {
      await appendAndRead('vessel-9300001');
      // A round that needed a nudge proves nothing (the nudge's own read can come after the one that found the
      // event), so the claim is checked on the first round that did not (long transactions of other test files
      // may hold a few rounds' reads back).
      let stream = '';
      for (let round = 2; ; round++) {
        expect(round, 'every round needed a nudge').toBeLessThan(40);
        await readsSettled();
        stream = `vessel-93000${String(round).padStart(2, '0')}`;
        if (!(await appendAndRead(stream))) break;
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The read that found the event was the last: before, a second read followed at once and found nothing.
      expect(reads.at(-1)).toEqual([stream]);
    } finally {
      await relay.stop();
      await consumer.stop();
    }
  }, 300_000);
});
