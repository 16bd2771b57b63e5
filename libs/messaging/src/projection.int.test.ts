// The idempotent projection consumer and the lag query on real PostgreSQL, and the embedded mode's whole flow
// (PGlite, in-process bus, relay, projection).

import { createEventStore, type EventStore, type RecordedEvent } from '@pcas/eventstore';
import { createLogger } from '@pcas/observability';
import { type Db, openDb } from '@pcas/sql';
import { freshPostgres, type PostgresForTest, waitFor } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInProcessBus, type InProcessBus } from './in-process-bus.ts';
import { type ProjectionOptions, projectionLag, startProjection } from './projection.ts';
import { eventMessage, startRelay } from './relay.ts';
import { eventRoutingKey } from './routing.ts';
import { countingApply, createProjectedTable, projectedStats } from './testing/flow-fixture.ts';

const log = createLogger('projection-test', 'silent');

describe('projection consumer on PostgreSQL', () => {
  let pg: PostgresForTest;
  let db: Db;
  let store: EventStore;
  let bus: InProcessBus;

  beforeAll(async () => {
    pg = await freshPostgres('pcas_messaging');
    if (!pg.url) throw new Error('this test needs a real PostgreSQL');
    db = await openDb({ url: pg.url });
    store = createEventStore(db);
    await store.init();
    bus = createInProcessBus({ log, retryBaseMs: 1 });
  });

  afterAll(async () => {
    await bus?.close();
    await db?.close();
    await pg?.drop();
  });

  /** A projection on this suite's bus and database. */
  const project = (options: Omit<ProjectionOptions, 'bus' | 'db' | 'log'>) =>
    startProjection({ bus, db, log, ...options });
  const deliver = (event: RecordedEvent) =>
    bus.publish(eventRoutingKey(event), eventMessage(event), { messageId: event.id });

  it('applies each event once, however often it is delivered', async () => {
    await createProjectedTable(db, 'projected_once');
    const batches: string[][] = [];
    const apply = countingApply('projected_once');
    const consumer = await project({
      name: 'once',
      bindings: ['ship.*'],
      apply: async (tx, events) => {
        batches.push(events.map((e) => e.type));
        await apply(tx, events);
      },
    });
    await store.append('ship-1', [
      { type: 'A', data: {} },
      { type: 'B', data: {} },
      { type: 'C', data: {} },
    ]);
    const events = await store.readStream('ship-1');
    for (const e of events) await deliver(e);
    // Redelivery of one, and a batch holding the same event twice.
    await deliver(events[1]);
    await Promise.all([deliver(events[2]), deliver(events[2]), deliver(events[0])]);
    await consumer.stop();

    expect(await projectedStats(db, 'projected_once')).toEqual({ rows: 3, appliedTwice: 0, outOfOrder: 0 });
    expect(batches.flat()).toEqual(['A', 'B', 'C']);
    const { rows } = await db.query<{ categories: string[]; last_global_position: number; last_event_created: Date }>(
      'SELECT categories, last_global_position, last_event_created FROM messaging.consumer_progress WHERE consumer = $1',
      ['once'],
    );
    expect(rows[0].categories).toEqual(['ship']);
    expect(Number(rows[0].last_global_position)).toBe(events[2].globalPosition);
    expect(new Date(rows[0].last_event_created).getTime()).toBe(events[2].created.getTime());
  });

  it('reports lag only for events the consumer is bound to and has not applied', async () => {
    const applied: string[] = [];
    const consumer = await project({
      name: 'lagging',
      bindings: ['boat.Arrived'],
      apply: async (_tx, events) => void applied.push(...events.map((e) => e.id)),
    });
    await store.append('boat-1', [{ type: 'Arrived', data: {} }]);
    const [arrived] = await store.readStream('boat-1');
    await deliver(arrived);
    // Not bound: another type of the category, another category.
    await store.append('boat-1', [{ type: 'Departed', data: {} }]);
    await store.append('other-1', [{ type: 'Arrived', data: {} }]);
    const lagOf = async () => (await projectionLag(db)).find((l) => l.consumer === 'lagging')!.lag_seconds;
    expect(await lagOf()).toBe(0);

    // Bound and not delivered yet: lag is its age.
    await store.append('boat-2', [{ type: 'Arrived', data: {} }]);
    await new Promise((r) => setTimeout(r, 1_100));
    expect(await lagOf()).toBeGreaterThanOrEqual(1);
    const [late] = await store.readStream('boat-2');
    await deliver(late);
    expect(await lagOf()).toBe(0);
    expect(applied).toEqual([arrived.id, late.id]);
    await consumer.stop();
  });

  it('dead-letters a message that is not an event and goes on', async () => {
    const seen: string[] = [];
    const consumer = await project({
      name: 'strict',
      bindings: ['junk.*'],
      maxAttempts: 2,
      apply: async (_tx, events) => void seen.push(...events.map((e) => e.id)),
    });
    await store.append('junk-1', [{ type: 'Fine', data: {} }]);
    const [fine] = await store.readStream('junk-1');
    await Promise.all([bus.publish('junk.Bad', { nonsense: true }, { messageId: 'bad' }), deliver(fine)]);
    await consumer.stop();
    expect(seen).toEqual([fine.id]);
    expect(bus.deadLetters('projection.strict').map((m) => m.id)).toEqual(['bad']);
  });
});

describe('embedded flow: PGlite, in-process bus, relay, projection', () => {
  it('projects every appended event exactly once, and again exactly once after a relay restart', async () => {
    const db = await openDb({ dataDir: 'memory://' });
    const store = createEventStore(db);
    await store.init();
    const bus = createInProcessBus({ log });
    try {
      await createProjectedTable(db, 'projected_embedded');
      const projection = await startProjection({
        bus,
        db,
        name: 'embedded',
        bindings: ['vessel.*'],
        apply: countingApply('projected_embedded'),
        log,
      });
      const relay = await startRelay({ store, db, bus, log, batchSize: 100 });
      for (let i = 0; i < 20; i++) {
        await store.append(
          `vessel-${i % 4}`,
          Array.from({ length: 10 }, () => ({ type: 'TimestampAdded', data: { i } })),
        );
      }
      await waitFor(
        async () => (await projectedStats(db, 'projected_embedded')).rows >= 200,
        30_000,
        'embedded projection',
      );
      await relay.stop();

      // A new relay resumes from the checkpoint; a forgotten checkpoint would republish (and be deduped).
      await db.query(`DELETE FROM eventstore.checkpoints WHERE consumer = 'relay'`);
      const again = await startRelay({ store, db, bus, log, batchSize: 100 });
      await store.append('vessel-9', [{ type: 'TimestampAdded', data: {} }]);
      await waitFor(async () => (await projectedStats(db, 'projected_embedded')).rows >= 201, 30_000, 'after restart');
      await again.stop();
      await projection.stop();
      expect(await projectedStats(db, 'projected_embedded')).toEqual({ rows: 201, appliedTwice: 0, outOfOrder: 0 });
      expect(await projectionLag(db)).toEqual([{ consumer: 'embedded', lag_seconds: 0 }]);
    } finally {
      await bus.close();
      await db.close();
    }
  });
});
