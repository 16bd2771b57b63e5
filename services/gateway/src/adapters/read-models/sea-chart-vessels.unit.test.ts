// GET /sea-chart/vessels' reuse of bodies (sea-chart.ts): at most `reuseMs` old, never from before a change made
// through this gateway, waiting callers sharing one query. A stand-in database and clock, no I/O.

import { gunzipSync } from 'node:zlib';
import type { Queryable } from '@pcas/sql';
import { describe, expect, it, vi } from 'vitest';
import { createSeaChartVessels } from './sea-chart.ts';

function standIn() {
  let clock = 0;
  let version = 0;
  const started: number[] = [];
  const pending: (() => void)[] = [];
  const db = {
    async query(text: string) {
      if (text.includes('to_regclass')) return { rows: [{ ok: true }], rowCount: 1 };
      started.push(clock);
      const answer = version;
      await new Promise<void>((resolve) => pending.push(resolve));
      return { rows: [{ feature: `{"v":${answer}}` }], rowCount: 1 };
    },
  } as unknown as Queryable;
  return {
    db,
    started,
    now: () => clock,
    advance: (ms: number) => {
      clock += ms;
    },
    write: () => {
      version++;
    },
    /** Lets every query on its way answer, and gives promises a few turns (not the thread pool). */
    answer: async () => {
      for (const resolve of pending.splice(0)) resolve();
      for (let i = 0; i < 10; i++) await Promise.resolve();
    },
    /** Lets every query on its way answer (a new body's gzip is usually, not surely, made by the end). */
    finish: async () => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
      for (const resolve of pending.splice(0)) resolve();
      // A new body's gzip is made in the thread pool before the body is served.
      await new Promise((r) => setTimeout(r, 30));
    },
  };
}

const text = async (p: Promise<{ json: Buffer }>) => (await p).json.toString();

/** The bodies over a stand-in, the first one already served (made at time 0). */
async function afterFirstBody() {
  const s = standIn();
  const vessels = createSeaChartVessels(s.db, 120, { now: s.now });
  const first = vessels.read();
  await s.finish();
  /** A change made through this gateway: the data changes, and the bodies are told. */
  const changeHere = () => {
    s.write();
    vessels.changed();
  };
  return { s, vessels, first: await first, changeHere };
}

describe('GET /sea-chart/vessels bodies', () => {
  it('shares one query among waiting callers and reuses the body for up to a second', async () => {
    const s = standIn();
    const vessels = createSeaChartVessels(s.db, 120, { now: s.now });
    const first = Promise.all(Array.from({ length: 16 }, () => text(vessels.read())));
    await s.finish();
    expect(await first).toEqual(Array(16).fill('[{"v":0}]'));
    expect(s.started).toEqual([0]);
    // Within half a second: the same body, no query.
    s.write();
    s.advance(400);
    expect(await text(vessels.read())).toBe('[{"v":0}]');
    expect(s.started).toEqual([0]);
    // Older than half a second: still served, and made again in the background.
    s.advance(200);
    expect(await text(vessels.read())).toBe('[{"v":0}]');
    expect(s.started).toEqual([0, 600]);
    await s.finish();
    // Served once its gzip (thread pool) is made, which a loaded machine may not have done within finish().
    await vi.waitFor(async () => expect(await text(vessels.read())).toBe('[{"v":1}]'), { timeout: 5_000 });
    // Over a second old with nothing asked meanwhile: the caller waits for a new query.
    s.write();
    s.advance(1500);
    const late = text(vessels.read());
    await s.finish();
    expect(await late).toBe('[{"v":2}]');
    expect(s.started).toEqual([0, 600, 2100]);
  });

  it('answers with a query started after the last change made through this gateway', async () => {
    const { s, vessels, changeHere } = await afterFirstBody();
    // A query on its way when the change happens does not count: the caller waits for the next one.
    s.advance(600);
    expect(await text(vessels.read())).toBe('[{"v":0}]');
    s.advance(1);
    changeHere();
    const after = text(vessels.read());
    await s.finish();
    await s.finish();
    expect(await after).toBe('[{"v":1}]');
    expect(s.started).toEqual([0, 600, 601]);
  });

  it('starts the next body at a change while the map is being read, and not when nobody reads it', async () => {
    const { s, vessels, changeHere } = await afterFirstBody();
    s.advance(100);
    changeHere();
    expect(s.started).toEqual([0, 100]);
    await s.finish();
    s.advance(10);
    expect(await text(vessels.read())).toBe('[{"v":1}]');
    expect(s.started).toEqual([0, 100]);
    // Nobody has read for over a second: a change starts nothing.
    s.advance(1500);
    vessels.changed();
    expect(s.started).toEqual([0, 100]);
  });

  it('keeps the gzip of a body that did not change', async () => {
    const { s, vessels, first, changeHere } = await afterFirstBody();
    const zipped = await first.gzipped();
    expect(gunzipSync(zipped).toString()).toBe('[{"v":0}]');
    vessels.changed();
    s.advance(1);
    const again = vessels.read();
    await s.finish();
    expect(await (await again).gzipped()).toBe(zipped);
    // A body that changed gets its own.
    changeHere();
    s.advance(1);
    const changed = vessels.read();
    await s.finish();
    expect(gunzipSync(await (await changed).gzipped()).toString()).toBe('[{"v":1}]');
  });

  it('serves a new body once its gzip is made, the body before it meanwhile', async () => {
    const { s, vessels, first: firstBody } = await afterFirstBody();
    s.write();
    s.advance(600);
    // Older than half the reuse time: the current body is served and a new one made in the background.
    expect(await vessels.read()).toBe(firstBody);
    // Its query has answered, its gzip is not made yet: still the body before it.
    await s.answer();
    expect(await vessels.read()).toBe(firstBody);
    await s.finish();
    // Its gzip is made in the thread pool, which a loaded machine may not have done within finish().
    const next = await vi.waitFor(
      async () => {
        const served = await vessels.read();
        expect(served).not.toBe(firstBody);
        return served;
      },
      { timeout: 5_000 },
    );
    expect(gunzipSync(await next.gzipped()).toString()).toBe('[{"v":1}]');
  });

  it('fresh: resolves once a body made after the call is served, readers meanwhile getting the one before', async () => {
    const { s, vessels, first } = await afterFirstBody();
    expect(first.json.toString()).toBe('[{"v":0}]');
    s.advance(100);
    s.write();
    let resolved = false;
    const fresh = vessels.fresh().then(() => {
      resolved = true;
    });
    // A reader does not wait for it: the body before.
    expect((await vessels.read()).json.toString()).toBe('[{"v":0}]');
    expect(resolved).toBe(false);
    expect(s.started).toEqual([0, 100]);
    await s.finish();
    await fresh;
    expect((await vessels.read()).json.toString()).toBe('[{"v":1}]');
    expect(s.started).toEqual([0, 100]);
  });
});
