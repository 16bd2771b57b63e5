import { describe, expect, it } from 'vitest';
import { forcedRtaShift, laytimeOverflow, pushForward, type StackedReservation } from './push-forward.ts';
import { MINUTE_MS, queueSettings } from './queue-rules.ts';
import { berthCalendar, isFree } from './slot-search.ts';

// Minutes after T0; the defaults: travel 30, RTA window 30, laytime buffer 30 (so a slot is laytime + 60).
const T0 = Date.UTC(2026, 10, 27, 8, 0, 0);
const t = (minutes: number) => T0 + minutes * MINUTE_MS;
const settings = queueSettings();
const slot = (id: number, startMin: number, endMin: number, jitEtaMin?: number | null): StackedReservation => ({
  id,
  start: t(startMin),
  end: t(endMin),
  kind: 'vessel_reserved',
  slotRequestId: 100 + id,
  jitEta: jitEtaMin === undefined || jitEtaMin === null ? null : t(jitEtaMin),
});
const block = (id: number, startMin: number, endMin: number): StackedReservation => ({
  id,
  start: t(startMin),
  end: t(endMin),
  kind: 'port_blocked',
  slotRequestId: null,
});

/** The berth after the grown slot is resized to its new laytime and the plan's moves are applied. */
function applied(berth: StackedReservation[], grownId: number, newLaytimeMin: number, deltaMs: number) {
  const plan = pushForward(berth, grownId, deltaMs, settings);
  const moved = new Map(plan.moves.map((m) => [m.id, m]));
  return berth.map((r) => {
    if (r.id === grownId) return { id: r.id, start: r.start, end: r.start + (newLaytimeMin + 60) * MINUTE_MS };
    const m = moved.get(r.id);
    return m ? { id: r.id, start: m.newStart, end: m.newEnd } : { id: r.id, start: r.start, end: r.end };
  });
}

describe('how much a laytime growth pushes', () => {
  // Slot 1 at the berth from 0 (laytime 120 → ends 180), the next reservation at 400: max laytime 400−61 = 339.
  const cal = berthCalendar(1, [slot(1, 0, 180), block(2, 400, 500)]);

  it('nothing while the new laytime fits the free interval, the excess beyond it', () => {
    expect(laytimeOverflow(cal, 1, 339 * MINUTE_MS, settings)).toBe(0);
    expect(laytimeOverflow(cal, 1, 340 * MINUTE_MS, settings)).toBe(MINUTE_MS);
    expect(laytimeOverflow(cal, 1, 400 * MINUTE_MS, settings)).toBe(61 * MINUTE_MS);
  });

  it('nothing for the last reservation on the berth, however long', () => {
    expect(laytimeOverflow(cal, 2, 10_000 * MINUTE_MS, settings)).toBe(0);
  });
});

describe('pushing forward', () => {
  it('moves the next reservation by Δ so it starts a minute after the grown slot’s new end', () => {
    const berth = [slot(1, 0, 180), slot(2, 240, 420, 200)];
    const cal = berthCalendar(1, berth);
    const delta = laytimeOverflow(cal, 1, 300 * MINUTE_MS, settings);
    expect(delta).toBe((300 - 179) * MINUTE_MS);
    const plan = pushForward(berth, 1, delta, settings);
    expect(plan.moves).toEqual([
      {
        id: 2,
        kind: 'vessel_reserved',
        slotRequestId: 102,
        start: t(240),
        end: t(420),
        newStart: t(361),
        newEnd: t(541),
        shiftMs: delta,
      },
    ]);
    expect(t(361)).toBe(t(0) + (300 + 60) * MINUTE_MS + MINUTE_MS);
  });

  it('lets the gaps absorb Δ: each next one moves by Δ less the gaps before it (less a minute each)', () => {
    // gaps after 2: 20 min (3 absorbs 19), then 50 (4 absorbs 19 + 49 = 68 ≥ 60: stays), Δ = 60.
    const berth = [slot(1, 0, 180), slot(2, 181, 300), block(3, 320, 400), slot(4, 450, 500), slot(5, 501, 600)];
    const plan = pushForward(berth, 1, 60 * MINUTE_MS, settings);
    expect(plan.moves.map((m) => [m.id, m.shiftMs / MINUTE_MS])).toEqual([
      [3, 41],
      [2, 60],
    ]);
    const after = applied(berth, 1, 180, 60 * MINUTE_MS);
    for (const r of after) {
      expect(isFree(berthCalendar(1, after), r.start - MINUTE_MS + 1, r.end + MINUTE_MS - 1, r.id)).toBe(true);
    }
  });

  it('stops where the gaps absorb Δ exactly, and moves all when they never do', () => {
    const berth = [slot(1, 0, 180), slot(2, 181, 300), slot(3, 331, 400)];
    expect(pushForward(berth, 1, 30 * MINUTE_MS, settings).moves.map((m) => m.id)).toEqual([2]);
    expect(pushForward(berth, 1, 31 * MINUTE_MS, settings).moves.map((m) => [m.id, m.shiftMs / MINUTE_MS])).toEqual([
      [3, 1],
      [2, 31],
    ]);
  });

  it('moves the last reservation first, so applying in order never passes one through another', () => {
    const berth = [slot(1, 0, 180), slot(2, 181, 300), slot(3, 301, 400), slot(4, 401, 500)];
    expect(pushForward(berth, 1, 100 * MINUTE_MS, settings).moves.map((m) => m.id)).toEqual([4, 3, 2]);
  });

  it('leaves the reservations before the grown slot alone, and nothing moves for no growth', () => {
    const berth = [slot(0, -300, -100), slot(1, 0, 180), slot(2, 181, 300)];
    expect(pushForward(berth, 1, 10 * MINUTE_MS, settings).moves.map((m) => m.id)).toEqual([2]);
    expect(pushForward(berth, 1, 0, settings)).toEqual({
      moves: [],
      rtaShifts: [],
      shiftedBlocks: [],
      beyondWindow: [],
    });
    expect(() => pushForward(berth, 9, MINUTE_MS, settings)).toThrow();
  });

  it('starts after a given new berth start instead of the grown slot’s own', () => {
    const berth = [slot(1, 0, 180), slot(2, 181, 300), slot(3, 500, 600)];
    expect(pushForward(berth, 1, 60 * MINUTE_MS, settings, t(200)).moves.map((m) => m.id)).toEqual([3]);
    expect(pushForward(berth, 1, 60 * MINUTE_MS, settings, t(181)).moves.map((m) => m.id)).toEqual([3]);
  });

  it('reports moved port blocks for the block-shifted mail and vessel slots for a forced RTA shift', () => {
    const berth = [slot(1, 0, 180), block(2, 181, 300), slot(3, 301, 400, 275), slot(4, 401, 500, 420)];
    const plan = pushForward(berth, 1, 30 * MINUTE_MS, settings);
    expect(plan.shiftedBlocks.map((b) => [b.id, b.newStart, b.newEnd])).toEqual([[2, t(211), t(330)]]);
    expect(plan.rtaShifts).toEqual([
      // JIT ETA 420 is after the new RTA window start 401: it stays.
      {
        slotRequestId: 104,
        reservationId: 4,
        rtaWindowStart: t(401),
        rtaWindowEnd: t(431),
        jitEta: t(420),
        jitEtaMoved: false,
      },
      // JIT ETA 275 moves to the new RTA window start 301.
      {
        slotRequestId: 103,
        reservationId: 3,
        rtaWindowStart: t(301),
        rtaWindowEnd: t(331),
        jitEta: t(301),
        jitEtaMoved: true,
      },
    ]);
  });
});

describe('a push and the nomination windows of the vessels it moves', () => {
  // Slot 2 ends at 300 and moves by 30 to end at 330; slot 3 ends at 400 and moves by 30 to end at 430.
  const berth = (end2: number | null, end3: number | null) => [
    slot(1, 0, 180),
    { ...slot(2, 181, 300), windowEnd: end2 === null ? null : t(end2) },
    block(5, 301, 350),
    { ...slot(3, 351, 400), windowEnd: end3 === null ? null : t(end3) },
  ];
  const beyond = (end2: number | null, end3: number | null) =>
    pushForward(berth(end2, end3), 1, 30 * MINUTE_MS, settings).beyondWindow.map((m) => [m.id, m.newEnd]);

  it('reports none while every moved slot still ends by its window end (the end itself included)', () => {
    expect(beyond(330, 430)).toEqual([]);
    expect(beyond(null, null)).toEqual([]);
  });

  it('reports each moved slot that would end after its window end, last on the berth first', () => {
    expect(beyond(329, 430)).toEqual([[2, t(330)]]);
    expect(beyond(329, 429)).toEqual([
      [3, t(430)],
      [2, t(330)],
    ]);
  });

  it('never reports a port block, and not a slot the push leaves where it is', () => {
    // A window that already ended does not matter to a slot that does not move (the gap before it absorbs the push).
    const far = [slot(1, 0, 180), slot(2, 181, 300), { ...slot(3, 400, 500), windowEnd: t(0) }];
    const plan = pushForward(far, 1, 30 * MINUTE_MS, settings);
    expect(plan.moves.map((m) => m.id)).toEqual([2]);
    expect(plan.beyondWindow).toEqual([]);
    expect(pushForward(berth(330, 430), 1, 30 * MINUTE_MS, settings).shiftedBlocks.map((b) => b.id)).toEqual([5]);
  });
});

describe('a forced RTA shift', () => {
  it('moves a JIT ETA only when it is earlier than the new RTA window start', () => {
    expect(forcedRtaShift(5, 9, t(100), t(80), settings)).toMatchObject({
      rtaWindowStart: t(70),
      jitEta: t(80),
      jitEtaMoved: false,
    });
    expect(forcedRtaShift(5, 9, t(100), t(69), settings)).toMatchObject({
      rtaWindowStart: t(70),
      jitEta: t(70),
      jitEtaMoved: true,
    });
    expect(forcedRtaShift(5, 9, t(100), null, settings)).toMatchObject({
      rtaWindowEnd: t(100),
      jitEta: null,
      jitEtaMoved: false,
    });
  });
});
