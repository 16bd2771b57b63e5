// How a vessel write goes to the database: the batch's rows in one statement, parameters numbered on across its
// parts. What the rows hold is checked against PostgreSQL by the int tests (projection, replay equality).

import type { Queryable } from '@pcas/sql';
import { describe, expect, it } from 'vitest';
import { at, context, VesselStream } from '../domain/port-call-test-kit.ts';
import type { VesselTimestamp } from '../domain/port-calls.ts';
import { vesselWrites } from '../domain/read-model.ts';
import { evolveBatch } from '../domain/timestamp-rows.ts';
import { emptyVesselPortCalls, foldVessel } from '../domain/vessel-port-calls.ts';
import { type StoredVessel, VesselCache, type VesselWrite, writeVessels } from './vessel-state.ts';

function recorder() {
  const statements: { text: string; params: unknown[] }[] = [];
  const tx: Queryable = {
    async query(text: string, params?: unknown[]) {
      statements.push({ text, params: params ?? [] });
      return { rows: [], rowCount: 0 };
    },
  };
  return { tx, statements };
}

/** The highest `$n` of a statement. */
const lastParameter = (text: string) => Math.max(...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));

it('writes a batch’s port calls, timestamps and vessel in one statement, its parameters numbered on', async () => {
  const ctx = { ...context(), template: [] };
  const stream = new VesselStream();
  stream.post('Estimated', 'Arrival_Vessel_PortArea', at(10));
  stream.post('Estimated', 'Departure_Vessel_Berth', at(20));
  const before = emptyVesselPortCalls(stream.imo);
  const after = foldVessel(before, stream.events, ctx);
  const entry: VesselWrite = {
    imo: stream.imo,
    after,
    writes: vesselWrites(before, after, ctx),
    rows: new Map(evolveBatch(new Map(), stream.events).map((row) => [row.id, row])),
    revision: 'r1',
    streamPosition: 2,
    replace: false,
  };
  const { tx, statements } = recorder();
  await writeVessels(tx, [entry]);
  expect(statements).toHaveLength(1);
  const [{ text, params }] = statements;
  // Port calls ($1), the timestamp columns ($2 to $19), the vessel ($20), each part a statement of its own.
  expect(text.match(/\bwrite_\d+ AS \(/g)).toEqual(['write_0 AS (', 'write_1 AS (']);
  expect(text).toContain('jsonb_to_recordset($1::jsonb) AS r(shown');
  expect(text).toContain('unnest($2::bigint[], $3::bigint[]');
  expect(text).toContain('jsonb_to_recordset($20::jsonb) AS r(imo bigint');
  expect(lastParameter(text)).toBe(20);
  expect(params).toHaveLength(20);
  expect(JSON.parse(params[0] as string)).toHaveLength(1);
  expect(params[1]).toBe(`{${stream.events.map((e) => e.globalPosition).join(',')}}`);
  expect(JSON.parse(params[19] as string)).toMatchObject([{ imo: stream.imo, revision: 'r1', stream_position: 2 }]);

  // The same write again is the same statement (one text to prepare).
  const again = recorder();
  await writeVessels(again.tx, [entry]);
  expect(again.statements[0].text).toBe(text);
});

it('writes a vessel alone as the plain upsert', async () => {
  const before = emptyVesselPortCalls(1);
  const after = { ...before, visible: false, version: 5 };
  const { tx, statements } = recorder();
  const writes = { port_calls: [], deleted_port_call_ids: [], timestamps: [], changed: [], next_timer_at: null };
  await writeVessels(tx, [
    { imo: 1, after, writes, rows: new Map(), revision: 'r', streamPosition: 1, replace: false },
  ]);
  expect(statements).toHaveLength(1);
  expect(statements[0].text).not.toContain('WITH');
  expect(lastParameter(statements[0].text)).toBe(1);
});

describe('the vessel cache', () => {
  const stored = (imo: number, timestamps: number, revision = 'r'): StoredVessel => {
    const state = emptyVesselPortCalls(imo);
    state.timestamps = Array.from({ length: timestamps }, (_, i) => ({ id: i }) as VesselTimestamp);
    return { state, revision, streamPosition: 1, nextTimerAt: null, exists: true };
  };

  it('gives a state back only under the revision it was kept with', () => {
    const cache = new VesselCache({ vessels: 10, timestamps: 100 });
    cache.set(stored(1, 3, 'r1'));
    expect(cache.get(1, 'r2')).toBeUndefined();
    cache.set(stored(1, 3, 'r1'));
    expect(cache.get(1, 'r1')?.state.timestamps).toHaveLength(3);
  });

  it('lets the least recently used vessels go when the timestamps they hold pass the bound', () => {
    const cache = new VesselCache({ vessels: 10, timestamps: 100 });
    cache.set(stored(1, 40));
    cache.set(stored(2, 40));
    expect(cache.get(1, 'r')).toBeDefined(); // 1 is now the most recently used
    cache.set(stored(3, 40));
    expect(cache.heldTimestamps).toBe(80);
    expect(cache.get(2, 'r')).toBeUndefined();
    expect(cache.get(1, 'r')).toBeDefined();
    expect(cache.get(3, 'r')).toBeDefined();
  });

  it('keeps no state larger than the bound, and forgets the older one it replaces', () => {
    const cache = new VesselCache({ vessels: 10, timestamps: 100 });
    cache.set(stored(1, 50));
    cache.set(stored(1, 101));
    expect(cache.get(1, 'r')).toBeUndefined();
    expect(cache.heldTimestamps).toBe(0);
  });

  it('keeps at most so many vessels', () => {
    const cache = new VesselCache({ vessels: 2, timestamps: 100 });
    for (const imo of [1, 2, 3]) cache.set(stored(imo, 1));
    expect(cache.get(1, 'r')).toBeUndefined();
    expect(cache.heldTimestamps).toBe(2);
  });

  it('lets a state go once it has not been used for the idle time', () => {
    let now = 0;
    const cache = new VesselCache({ idleMs: 60_000 }, () => now);
    cache.set(stored(1, 5));
    cache.set(stored(2, 5));
    now = 50_000;
    expect(cache.get(1, 'r')).toBeDefined(); // used again: idle from 50 s on
    now = 100_000;
    expect(cache.get(2, 'r')).toBeUndefined();
    cache.set(stored(3, 5));
    expect(cache.heldTimestamps).toBe(10);
    now = 170_000;
    cache.set(stored(4, 5)); // 1 and 3 have been idle for over a minute
    expect(cache.heldTimestamps).toBe(5);
    expect(cache.get(4, 'r')).toBeDefined();
  });
});
