import { describe, expect, it } from 'vitest';
import { decideDeleteTimestamp, decideRestoreTimestamp, evolveTrash } from './trash.ts';
import { emptySnapshot, evolveVessel } from './vessel.ts';

const received = (globalPosition: number) => ({ type: 'TimestampReceived', data: {}, globalPosition });
const deleted = (id: number, globalPosition: number) => ({
  type: 'TimestampDeleted',
  data: { timestamp_id: id },
  globalPosition,
});
const restored = (id: number, globalPosition: number) => ({
  type: 'TimestampRestored',
  data: { timestamp_id: id },
  globalPosition,
});

describe('trash', () => {
  const stream = [
    { type: 'VesselRegistered', data: { imo: 9074729, vessel_name: 'A' }, globalPosition: 10 },
    received(11),
    received(15),
    deleted(15, 16),
    received(20),
    deleted(20, 21),
    restored(20, 22),
  ];
  const state = evolveTrash(stream);

  it('knows which timestamps exist and which are deleted', () => {
    expect([...state.timestamps]).toEqual([
      [11, false],
      [15, true],
      [20, false],
    ]);
  });

  it('deletes a present timestamp', () => {
    expect(decideDeleteTimestamp(state, 11)).toEqual([{ type: 'TimestampDeleted', data: { timestamp_id: 11 } }]);
    expect(decideDeleteTimestamp(state, 20)).toEqual([{ type: 'TimestampDeleted', data: { timestamp_id: 20 } }]);
  });

  it('restores a deleted timestamp', () => {
    expect(decideRestoreTimestamp(state, 15)).toEqual([{ type: 'TimestampRestored', data: { timestamp_id: 15 } }]);
  });

  it('is idempotent: deleting a deleted one or restoring a present one changes nothing', () => {
    expect(decideDeleteTimestamp(state, 15)).toEqual([]);
    expect(decideRestoreTimestamp(state, 11)).toEqual([]);
    expect(decideRestoreTimestamp(state, 20)).toEqual([]);
  });

  it('rejects ids that are not timestamps of this stream', () => {
    for (const id of [10, 12, 16, 999]) {
      expect(() => decideDeleteTimestamp(state, id)).toThrow(`Invalid timestamp id: ${id}`);
      expect(() => decideRestoreTimestamp(state, id)).toThrow(`Invalid timestamp id: ${id}`);
    }
  });

  it('evolves incrementally and does not mutate the previous state', () => {
    const next = evolveTrash([deleted(11, 30)], state);
    expect(next.timestamps.get(11)).toBe(true);
    expect(state.timestamps.get(11)).toBe(false);
  });

  it('ignores trash events for unknown timestamps', () => {
    expect(evolveTrash([deleted(5, 6)]).timestamps.size).toBe(0);
  });
});

describe('vessel snapshot', () => {
  it('follows registration and renames and tracks the stream version', () => {
    const events = [
      { type: 'VesselRegistered', data: { imo: 9074729, vessel_name: 'A' }, streamPosition: 1 },
      { type: 'TimestampReceived', data: {}, streamPosition: 2 },
      { type: 'VesselRenamed', data: { imo: 9074729, vessel_name: 'B', previous_vessel_name: 'A' }, streamPosition: 3 },
      { type: 'TimestampDeleted', data: { timestamp_id: 2 }, streamPosition: 4 },
    ];
    expect(evolveVessel(emptySnapshot(), events)).toEqual({ vessel: { imo: 9074729, vessel_name: 'B' }, version: 4 });
    const partial = evolveVessel(emptySnapshot(), events.slice(0, 2));
    expect(evolveVessel(partial, events.slice(2))).toEqual({ vessel: { imo: 9074729, vessel_name: 'B' }, version: 4 });
    expect(evolveVessel(emptySnapshot(), [])).toEqual({ vessel: undefined, version: 0 });
  });
});
