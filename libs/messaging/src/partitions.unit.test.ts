import { describe, expect, it } from 'vitest';
import {
  fairShare,
  partitionLabel,
  partitionOfLabel,
  partitionQueue,
  planRebalance,
  type RebalanceInput,
  streamPartition,
} from './partitions.ts';

describe('streamPartition', () => {
  it('puts a stream always in the same partition, within the count', () => {
    for (const id of ['vessel-9074729', 'slotrequest-17', 'priorities-timestamps', '']) {
      const p = streamPartition(id, 16);
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(16);
      expect(streamPartition(id, 16)).toBe(p);
    }
    expect(streamPartition('vessel-9074729', 1)).toBe(0);
  });

  it('spreads vessel streams over the partitions', () => {
    const counts = new Array(16).fill(0);
    for (let imo = 9_000_000; imo < 9_001_600; imo++) counts[streamPartition(`vessel-${imo}`, 16)]++;
    // 100 a partition on average; MD5 keeps each within a wide band of it.
    for (const n of counts) expect(n).toBeGreaterThan(60);
    for (const n of counts) expect(n).toBeLessThan(140);
  });
});

describe('partition labels', () => {
  it('names a partition, its queue, and reads a label back', () => {
    expect(partitionLabel(3)).toBe('p03');
    expect(partitionQueue('projection.timestamps', 15)).toBe('projection.timestamps.p15');
    expect(partitionOfLabel('p07')).toBe(7);
    expect(partitionOfLabel('7')).toBeUndefined();
    expect(partitionOfLabel(undefined)).toBeUndefined();
  });
});

describe('planRebalance', () => {
  const base: RebalanceInput = { partitions: 16, members: 1, held: [], free: [], offset: 0 };
  const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

  it('takes every free partition when alone', () => {
    expect(fairShare(16, 1)).toBe(16);
    expect(planRebalance({ ...base, free: range(0, 16) })).toEqual({ release: [], claim: range(0, 16) });
  });

  it('gives back its highest partitions beyond the fair share when another process joins', () => {
    expect(planRebalance({ ...base, members: 2, held: range(0, 16) })).toEqual({ release: range(8, 16), claim: [] });
    expect(planRebalance({ ...base, members: 3, held: range(0, 16) }).release).toEqual(range(6, 16));
  });

  it('claims free ones up to the fair share, starting at its offset and wrapping', () => {
    expect(planRebalance({ ...base, members: 2, free: range(8, 16), offset: 12 })).toEqual({
      release: [],
      claim: [12, 13, 14, 15, 8, 9, 10, 11],
    });
    expect(planRebalance({ ...base, members: 2, held: range(0, 6), free: [9, 10, 11], offset: 0 }).claim).toEqual([
      9, 10,
    ]);
  });

  it('does nothing at its fair share', () => {
    expect(planRebalance({ ...base, members: 2, held: range(0, 8), free: [] })).toEqual({ release: [], claim: [] });
  });

  it('converges: processes that each plan alone end with every partition held once and even shares', () => {
    for (const members of [1, 2, 3, 5]) {
      const holders = Array.from({ length: members }, () => new Set<number>());
      // The first process starts with everything, as after a restart of all but one.
      for (const p of range(0, 16)) holders[0].add(p);
      for (let round = 0; round < 10; round++) {
        for (const [i, own] of holders.entries()) {
          const taken = new Set(holders.flatMap((h) => [...h]));
          const free = range(0, 16).filter((p) => !taken.has(p));
          const plan = planRebalance({ partitions: 16, members, held: [...own], free, offset: i * 5 });
          for (const p of plan.release) own.delete(p);
          for (const p of plan.claim) own.add(p);
        }
      }
      const all = holders.flatMap((h) => [...h]).sort((a, b) => a - b);
      expect(all).toEqual(range(0, 16));
      const sizes = holders.map((h) => h.size);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(Math.ceil(16 / members));
    }
  });
});
