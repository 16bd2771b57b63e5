import type { TimestampReceived } from '@pcas/contracts';
import { describe, expect, it } from 'vitest';
import {
  evolve,
  evolveBatch,
  MANUAL_WEIGHT,
  rowsToLoad,
  type TimestampRow,
  type VesselEvent,
} from './timestamp-rows.ts';

const t0 = new Date('2024-05-01T10:00:00.000Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

/** What the test vessel's post says (the row keeps it as it is). */
const POSTED = {
  imo: 9074729,
  vessel_name: 'Ship One',
  time_type: 'Estimated',
  state: 'Arrival_Vessel_PortArea',
  time: '2024-05-02T08:00:00+00:00',
  payload: { source: 'test' },
};

const receivedData = (over: Partial<TimestampReceived> = {}): TimestampReceived => ({
  ...POSTED,
  source: 'api_key',
  api_key_id: 7,
  user_id: 3,
  ...over,
});

const received = (globalPosition: number, over: Partial<TimestampReceived> = {}, created = t0): VesselEvent => ({
  type: 'TimestampReceived',
  data: receivedData(over),
  metadata: { user_id: 3, api_key_id: 7 },
  globalPosition,
  created,
});

/** A person's trash event on timestamp `id`. */
const trash =
  (type: 'TimestampDeleted' | 'TimestampRestored') =>
  (globalPosition: number, id: number, userId: number, created: Date): VesselEvent => ({
    type,
    data: { timestamp_id: id },
    metadata: { user_id: userId, api_key_id: null },
    globalPosition,
    created,
  });
const deleted = trash('TimestampDeleted');
const restored = trash('TimestampRestored');

describe('evolve', () => {
  it('creates a row from TimestampReceived, keyed by the global position', () => {
    const row = evolve(undefined, received(42));
    expect(row).toEqual<TimestampRow>({
      id: 42,
      ...POSTED,
      port_call_id: null,
      is_trash: false,
      weight: 0,
      created_by: 3,
      created_at: t0,
      modified_by: 3,
      modified_at: t0,
      version: 42,
    });
  });

  it('weighs manual timestamps 999 and data-source ones 0 (priorities come later)', () => {
    expect(evolve(undefined, received(1, { source: 'manual', api_key_id: null }))?.weight).toBe(MANUAL_WEIGHT);
    expect(evolve(undefined, received(2, { source: 'api_key' }))?.weight).toBe(0);
  });

  it('takes created_by from the event data, falling back to the metadata user', () => {
    expect(evolve(undefined, received(1, { user_id: 11 }))?.created_by).toBe(11);
    expect(evolve(undefined, received(1, { user_id: null }))?.created_by).toBe(3);
  });

  it('trashes and restores with the acting user and time', () => {
    const row = evolve(undefined, received(5))!;
    const gone = evolve(row, deleted(6, 5, 20, at(1)))!;
    expect(gone).toMatchObject({ is_trash: true, modified_by: 20, modified_at: at(1), version: 6, created_by: 3 });
    const back = evolve(gone, restored(9, 5, 21, at(2)))!;
    expect(back).toMatchObject({ is_trash: false, modified_by: 21, modified_at: at(2), version: 9 });
  });

  it('ignores events already folded in (redelivery) and deletes of unknown rows', () => {
    const row = evolve(undefined, received(5))!;
    const gone = evolve(row, deleted(8, 5, 20, at(1)))!;
    expect(evolve(gone, deleted(8, 5, 20, at(1)))).toBe(gone);
    expect(evolve(gone, restored(7, 5, 21, at(2)))).toBe(gone); // older than the row
    expect(evolve(row, received(5))).toBe(row);
    expect(evolve(undefined, deleted(9, 123, 1, at(1)))).toBeUndefined();
  });

  it('ignores vessel registrations and renames', () => {
    const row = evolve(undefined, received(5))!;
    const renamed: VesselEvent = {
      type: 'VesselRenamed',
      data: { imo: 9074729, vessel_name: 'New', previous_vessel_name: 'Ship One' },
      metadata: {},
      globalPosition: 6,
      created: at(1),
    };
    expect(evolve(row, renamed)).toBe(row);
    expect(evolve(undefined, renamed)).toBeUndefined();
  });
});

describe('evolveBatch', () => {
  it('folds a batch: a delete of a row created in the same batch needs no load', () => {
    const events = [received(1), received(2), deleted(3, 1, 9, at(1))];
    expect(rowsToLoad(events)).toEqual([]);
    const rows = evolveBatch(new Map(), events);
    expect(rows.map((r) => [r.id, r.is_trash, r.version])).toEqual([
      [1, true, 3],
      [2, false, 2],
    ]);
  });

  it('asks for rows made by earlier batches and changes only those it touches', () => {
    const existing = evolve(undefined, received(1))!;
    const events = [deleted(10, 1, 9, at(1)), deleted(11, 99, 9, at(1))];
    expect(rowsToLoad(events)).toEqual([1, 99]);
    const rows = evolveBatch(new Map([[1, existing]]), events);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: 1, is_trash: true, version: 10 });
  });

  it('returns nothing when the batch was already applied', () => {
    const first = evolveBatch(new Map(), [received(1), deleted(2, 1, 9, at(1))]);
    const current = new Map(first.map((r) => [r.id, r]));
    expect(evolveBatch(current, [received(1), deleted(2, 1, 9, at(1))])).toEqual([]);
  });
});
