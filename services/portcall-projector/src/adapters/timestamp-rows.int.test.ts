// The timestamp list rows (portcall.timestamps) as the port-call projection writes them, against real PostgreSQL:
// events from the real event store applied in batches, re-applied (redelivery), deletes and restores of rows from
// earlier batches, and the whole service wired event store → relay → bus.

import { loadConfig } from '@pcas/config';
import { vesselStream } from '@pcas/contracts';
import type { EventStore, NewEvent, RecordedEvent } from '@pcas/eventstore';
import { createInProcessBus, startRelay } from '@pcas/messaging';
import { createLogger } from '@pcas/observability';
import type { Db, Queryable } from '@pcas/sql';
import { waitForValue } from '@pcas/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import { startPortcallProjector } from '../entry-points/service.ts';
import { GAVLE_RULES as rules, useProjectorDatabase } from '../testing/database.ts';
import { readLog } from '../testing/read-models.ts';
import { projectBatch } from './projection.ts';

const log = createLogger('portcall-projector-test', 'silent');
const IMO = 9074729;
// Each test has a vessel of its own: read models are emptied between tests, the log is not (a vessel whose
// state is gone but whose stream goes on is replayed from its start).
const SECOND = 9176186;
const THIRD = 9176185;

/** A stored time (UTC, `+00:00`) this many hours from now, whole hours: visits still to come. */
const hoursFromNow = (h: number) =>
  `${new Date(Math.floor(Date.now() / 3_600_000 + h) * 3_600_000).toISOString().slice(0, 19)}+00:00`;
const plain = (time: string) => time.slice(0, 19);

let db: Db;
let store: EventStore;
// Two instances starting together must not trip over each other's DDL.
useProjectorDatabase('pcas_projector', (database) => ({ db, store } = database), 2);

beforeEach(async () => {
  await db.query('TRUNCATE portcall.timestamps, portcall.timestamp_counts, portcall.port_calls, portcall.vessels');
});

const received = (time: string, over: Record<string, unknown> = {}): NewEvent => ({
  type: 'TimestampReceived',
  data: {
    imo: IMO,
    vessel_name: 'Ever Given',
    time_type: 'Estimated',
    state: 'Arrival_Vessel_PortArea',
    time,
    payload: { source: 'agent', text: 'quote " and backslash \\ and ünïcode' },
    source: 'api_key',
    api_key_id: 3,
    user_id: 7,
    ...over,
  },
  metadata: { user_id: 7, api_key_id: 3 },
});

const trash = (type: 'TimestampDeleted' | 'TimestampRestored', id: number, userId: number): NewEvent => ({
  type,
  data: { timestamp_id: id },
  metadata: { user_id: userId, api_key_id: null },
});

async function appendAndRead(streamId: string, events: NewEvent[]): Promise<RecordedEvent[]> {
  const result = await store.append(streamId, events);
  const wanted = new Set(result.events.map((e) => e.globalPosition));
  const out: RecordedEvent[] = [];
  for (const position of wanted) out.push((await store.readByGlobalPosition(position))!);
  return out.sort((a, b) => a.globalPosition - b.globalPosition);
}

const table = async () =>
  (
    await db.query(
      `SELECT id, imo, vessel_name, time_type, state, to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS time,
              payload, port_call_id, is_trash, weight, created_by, created_at, modified_by, modified_at, version
         FROM portcall.timestamps ORDER BY id`,
    )
  ).rows;

/** Applies a batch; resolves to the number of rows it wrote. */
const apply = async (events: RecordedEvent[]) => {
  const before = await table();
  await db.transaction((tx) => projectBatch(tx, store, rules, events));
  const after = await table();
  const was = new Map(before.map((r) => [r.id, JSON.stringify(r)]));
  return after.filter((r) => was.get(r.id) !== JSON.stringify(r)).length;
};

describe('the timestamp list rows', () => {
  it('projects a batch into rows keyed by global position, and a re-applied batch changes nothing', async () => {
    const stream = vesselStream(IMO);
    const [t1, t2] = [hoursFromNow(48), hoursFromNow(50)];
    const events = await appendAndRead(stream, [
      received(t1),
      received(t2, { source: 'manual', api_key_id: null, user_id: 12 }),
    ]);
    const [first, second] = events;
    const deleted = await appendAndRead(stream, [trash('TimestampDeleted', first.globalPosition, 12)]);
    const batch = [...events, ...deleted];

    expect(await apply(batch)).toBe(2);
    const rows = await table();
    expect(rows).toEqual([
      {
        id: first.globalPosition,
        imo: IMO,
        vessel_name: 'Ever Given',
        time_type: 'Estimated',
        state: 'Arrival_Vessel_PortArea',
        time: plain(t1),
        payload: { source: 'agent', text: 'quote " and backslash \\ and ünïcode' },
        port_call_id: null,
        is_trash: true,
        weight: 0,
        created_by: 7,
        created_at: first.created,
        modified_by: 12,
        modified_at: deleted[0].created,
        version: deleted[0].globalPosition,
      },
      expect.objectContaining({
        id: second.globalPosition,
        time: plain(t2),
        is_trash: false,
        weight: 999,
        created_by: 12,
        modified_by: 12,
        created_at: second.created,
        modified_at: second.created,
      }),
    ]);

    // Redelivery of the whole batch (and of each event alone) leaves the table exactly as it was.
    expect(await apply(batch)).toBe(0);
    for (const event of batch) await apply([event]);
    expect(await table()).toEqual(rows);
  });

  it('loads rows from earlier batches for deletes and restores, and never goes backwards', async () => {
    const stream = vesselStream(SECOND);
    const [ts] = await appendAndRead(stream, [received(hoursFromNow(30), { imo: SECOND })]);
    await apply([ts]);

    const [del] = await appendAndRead(stream, [trash('TimestampDeleted', ts.globalPosition, 20)]);
    await apply([del]);
    expect((await table())[0]).toMatchObject({ is_trash: true, modified_by: 20, version: del.globalPosition });

    const [restore] = await appendAndRead(stream, [trash('TimestampRestored', ts.globalPosition, 21)]);
    await apply([restore]);
    const restored = await table();
    expect(restored[0]).toMatchObject({ is_trash: false, modified_by: 21, version: restore.globalPosition });

    // A late redelivery of the delete must not undo the newer restore.
    expect(await apply([del])).toBe(0);
    expect(await table()).toEqual(restored);
  });

  it('ignores vessel events that are not timestamps, and deletes of unknown rows', async () => {
    const events = await appendAndRead(vesselStream(THIRD), [
      { type: 'VesselRegistered', data: { imo: THIRD, vessel_name: 'Ever Given' } },
      trash('TimestampDeleted', 987654321, 1),
    ]);
    expect(await apply(events)).toBe(0);
    expect(await table()).toEqual([]);
  });

  it('applies a large batch with a handful of statements', async () => {
    const many = Array.from({ length: 500 }, (_, i) =>
      received(new Date(Date.UTC(2026, 6, 1, 0, i)).toISOString().replace('.000Z', '+00:00'), { imo: 9176187 }),
    );
    const result = await store.append(vesselStream(9176187), many);
    const { rows: all } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM eventstore.events');
    const events = await readLog(store, all[0].n);
    const ours = events.filter((e) => result.events.some((r) => r.globalPosition === e.globalPosition));
    let statements = 0;
    await db.transaction(async (tx) => {
      const counting: Queryable = {
        query: <R>(text: string, params?: unknown[]) => {
          statements++;
          return tx.query<R>(text, params);
        },
      };
      await projectBatch(counting, store, rules, ours);
    });
    // Locks, the stored state and priorities, one write per table, the signals: not one per event.
    expect(statements).toBeLessThanOrEqual(12);
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM portcall.timestamps WHERE imo = 9176187',
    );
    expect(rows[0].n).toBe(500);
  });
});

describe('startPortcallProjector', () => {
  it('projects what is appended to the event store: relay → bus → projection', async () => {
    const bus = createInProcessBus({ log });
    const deps = { config: loadConfig({}), db, store, bus, log };
    const projector = await startPortcallProjector(deps);
    const relay = await startRelay({ store, db, bus, log, name: 'relay-projector-test' });
    try {
      const [ts] = await appendAndRead(vesselStream(9321483), [
        received(hoursFromNow(20), { imo: 9321483, vessel_name: 'Wired' }),
      ]);
      const row = await waitForValue(async () => {
        const { rows } = await db.query(
          'SELECT id, vessel_name, is_trash FROM portcall.timestamps WHERE imo = 9321483',
        );
        return rows[0];
      });
      expect(row).toEqual({ id: ts.globalPosition, vessel_name: 'Wired', is_trash: false });

      await store.append(vesselStream(9321483), [trash('TimestampDeleted', ts.globalPosition, 5)]);
      const gone = await waitForValue(async () => {
        const { rows } = await db.query<{ is_trash: boolean }>(
          'SELECT is_trash FROM portcall.timestamps WHERE id = $1 AND is_trash',
          [ts.globalPosition],
        );
        return rows[0];
      });
      expect(gone).toEqual({ is_trash: true });
    } finally {
      await relay.stop();
      await projector.stop();
      await bus.close();
    }
  });
});
