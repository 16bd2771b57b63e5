// Concurrent decisions appended together, on real PostgreSQL: decisions on distinct streams share one transaction
// and each gets its row; a decision whose stream moved on since it was decided gets its conflict while the others
// of its batch are stored all the same.

import { createEventStore, type EventStore, WrongExpectedVersionError } from '@pcas/eventstore';
import type { Db } from '@pcas/sql';
import { type DatabaseForTest, freshDatabase } from '@pcas/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DcsaEvent } from '../domain/jit.ts';
import { createDecidedAppends } from './decided-appends.ts';
import { ensureSchema } from './schema.ts';
import { streams } from './store.ts';

let database: DatabaseForTest;
let db: Db;
let store: EventStore;

beforeAll(async () => {
  database = await freshDatabase('dcsa_decided_appends');
  db = database.db;
  store = createEventStore(db);
  await store.init();
  await ensureSchema(db);
});

afterAll(async () => {
  await database?.close();
});

const received = (id: string, dateTime: string): DcsaEvent =>
  ({
    type: 'DcsaTimestampReceived',
    data: {
      timestamp_id: id,
      port_call_service_id: 'service-1',
      port_call_id: 'port-call-1',
      partner_id: 1,
      body: { timestampID: id, classifierCode: 'EST', dateTime },
      s211: { imo: null, status: 'dcsa_only' },
    },
  }) as DcsaEvent;

const decision = (id: string, version = 0, dateTime = '2026-12-01T10:00:00Z') => ({
  streamId: streams.timestamp(id),
  version,
  events: [received(id, dateTime)],
  metadata: {},
});

const rowsOf = async (ids: string[]) =>
  (
    await db.query<{ timestamp_id: string; version: number }>(
      'SELECT timestamp_id, version FROM dcsa.timestamps WHERE timestamp_id = ANY($1::text[]) ORDER BY timestamp_id',
      [ids],
    )
  ).rows;

it('appends concurrent decisions on distinct streams in one transaction, each with its row', async () => {
  const append = createDecidedAppends(db, store, { maxItems: 64 });
  const ids = Array.from({ length: 12 }, (_, i) => `together-${String(i).padStart(2, '0')}`);
  await Promise.all(ids.map((id) => append(decision(id))));

  expect(await rowsOf(ids)).toEqual(ids.map((timestamp_id) => ({ timestamp_id, version: 1 })));
  const transactions = new Set<string>();
  for (const id of ids) {
    const events = await store.readStream(streams.timestamp(id));
    expect(events.map((e) => e.streamPosition)).toEqual([1]);
    transactions.add(events[0].transactionId);
  }
  // The first goes at once, the rest wait for it and leave together.
  expect(transactions.size).toBeLessThan(ids.length);
});

it('gives a decision whose stream moved on its conflict, and stores the others of its batch', async () => {
  const append = createDecidedAppends(db, store, { maxItems: 64 });
  const moved = 'moved-on';
  await append(decision(moved));
  const others = ['beside-1', 'beside-2', 'beside-3'];
  // Two go at once (two batches on their way at most); the rest wait and leave as one batch.
  const outcomes = await Promise.allSettled([
    append(decision('first-alone')),
    append(decision('second-alone')),
    // Decided at version 0 as well, but another time: a different change, which the stream no longer allows.
    append(decision(moved, 0, '2026-12-01T11:00:00Z')),
    ...others.map((id) => append(decision(id))),
  ]);

  expect(outcomes.map((o) => o.status)).toEqual([
    'fulfilled',
    'fulfilled',
    'rejected',
    'fulfilled',
    'fulfilled',
    'fulfilled',
  ]);
  expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(WrongExpectedVersionError);
  expect((await store.readStream(streams.timestamp(moved))).length).toBe(1);
  expect(await rowsOf(others)).toEqual(others.map((timestamp_id) => ({ timestamp_id, version: 1 })));
  // The batch was rolled back and each of it went alone.
  const transactions = new Set<string>();
  for (const id of others) transactions.add((await store.readStream(streams.timestamp(id)))[0].transactionId);
  expect(transactions.size).toBe(others.length);
});

it('stores a decision made twice at once on the same stream once', async () => {
  const append = createDecidedAppends(db, store, { maxItems: 64 });
  await Promise.allSettled([append(decision('lead')), append(decision('twice')), append(decision('twice'))]);
  const events = await store.readStream(streams.timestamp('twice'));
  expect(events).toHaveLength(1);
  expect(await rowsOf(['twice'])).toEqual([{ timestamp_id: 'twice', version: 1 }]);
});
