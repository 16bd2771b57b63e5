import { describe, expect, it } from 'vitest';
import { MINUTE_MS, type QueueSettings, queueSettings } from './queue-rules.ts';
import {
  type BerthCalendar,
  berthCalendar,
  type CalendarEntry,
  earliestStartOnBerth,
  findBestSlot,
  isFree,
  maxLaytime,
  overlaps,
  rtaWindowFromBerthStart,
} from './slot-search.ts';

// Hand-made calendars in minutes after T0; the defaults: travel 30, RTA window 30, laytime buffer 30.
const T0 = Date.UTC(2026, 10, 27, 8, 0, 0);
const t = (minutes: number) => T0 + minutes * MINUTE_MS;
const settings = queueSettings();
const ETA = t(0);
const S = t(30); // desired berth start = ETA + travel
const LAYTIME = 120 * MINUTE_MS;
const L = (120 + 30 + 30) * MINUTE_MS; // laytime + buffer + RTA window
const entry = (id: number, startMin: number, endMin: number): CalendarEntry => ({
  id,
  start: t(startMin),
  end: t(endMin),
});
const calendars =
  (...list: BerthCalendar[]) =>
  (berthId: number) =>
    list.find((c) => c.berthId === berthId);
const search = (berthIds: number[], windowEnd = t(24 * 60), eta = ETA, laytimeMs = LAYTIME) => ({
  eta,
  laytimeMs,
  windowEnd,
  berthIds,
});

describe('the overlap rule', () => {
  it('is inclusive: reservations that touch at an end overlap', () => {
    expect(overlaps(t(0), t(10), t(10), t(20))).toBe(true);
    expect(overlaps(t(10), t(20), t(0), t(10))).toBe(true);
    expect(overlaps(t(0), t(10), t(10) + 1, t(20))).toBe(false);
    expect(overlaps(t(0), t(30), t(10), t(20))).toBe(true);
    expect(overlaps(t(10), t(20), t(0), t(30))).toBe(true);
    expect(overlaps(t(0), t(0), t(0), t(0))).toBe(true);
  });

  it('isFree applies it on a berth, ignoring the reservation being moved', () => {
    const cal = berthCalendar(1, [entry(1, 0, 60), entry(2, 120, 180), entry(3, 300, 360)]);
    expect(isFree(cal, t(60), t(120))).toBe(false);
    expect(isFree(cal, t(60) + 1, t(120) - 1)).toBe(true);
    expect(isFree(cal, t(190), t(290))).toBe(true);
    expect(isFree(cal, t(-100), t(1000))).toBe(false);
    expect(isFree(cal, t(130), t(170))).toBe(false);
    expect(isFree(cal, t(100), t(200), 2)).toBe(true);
    expect(isFree(cal, t(100), t(300), 2)).toBe(false);
    expect(isFree(berthCalendar(1, []), t(0), t(10))).toBe(true);
  });

  it('isFree finds a long reservation that began well before others ended', () => {
    const cal = berthCalendar(1, [entry(1, 0, 1000), entry(2, 10, 20), entry(3, 30, 40)]);
    expect(isFree(cal, t(500), t(600))).toBe(false);
    expect(isFree(cal, t(500), t(600), 1)).toBe(true);
  });
});

describe('the earliest start on one berth', () => {
  it('is exactly the desired start S when the berth has no reservations', () => {
    expect(earliestStartOnBerth(berthCalendar(1, []), S, L, t(24 * 60))).toBe(S);
  });

  it('needs the window end to leave S + L + 1 minute', () => {
    const cal = berthCalendar(1, []);
    expect(earliestStartOnBerth(cal, S, L, S + L + MINUTE_MS)).toBe(S);
    expect(earliestStartOnBerth(cal, S, L, S + L + MINUTE_MS - 1)).toBeNull();
  });

  it('takes S when the first reservation starts exactly L + 1 minute after it (the guard), else goes after it', () => {
    const at = (S + L + MINUTE_MS - T0) / MINUTE_MS;
    expect(earliestStartOnBerth(berthCalendar(1, [entry(1, at, at + 60)]), S, L, t(24 * 60))).toBe(S);
    const justLess = berthCalendar(1, [{ id: 1, start: S + L + MINUTE_MS - 1, end: t(at + 60) }]);
    expect(earliestStartOnBerth(justLess, S, L, t(24 * 60))).toBe(t(at + 61));
  });

  it('takes a gap between two reservations that is exactly L + 2 minutes, and not one a millisecond shorter', () => {
    const gapStart = 100;
    const nextStart = gapStart + 180 + 2;
    const exact = berthCalendar(1, [entry(1, 20, gapStart), entry(2, nextStart, nextStart + 60)]);
    expect(earliestStartOnBerth(exact, S, L, t(24 * 60))).toBe(t(gapStart + 1));
    const short = berthCalendar(1, [
      entry(1, 20, gapStart),
      { id: 2, start: t(nextStart) - 1, end: t(nextStart + 60) },
    ]);
    expect(earliestStartOnBerth(short, S, L, t(24 * 60))).toBe(t(nextStart + 61));
  });

  it('counts a reservation that began before S and ends after it', () => {
    const cal = berthCalendar(1, [entry(1, -60, 45)]);
    expect(earliestStartOnBerth(cal, S, L, t(24 * 60))).toBe(t(46));
  });

  it('goes after a reservation that ends exactly at S (touching overlaps)', () => {
    expect(earliestStartOnBerth(berthCalendar(1, [entry(1, -60, 30)]), S, L, t(24 * 60))).toBe(t(31));
  });

  it('answers S beside a reservation spanning the whole window, as the original does (the re-check refuses it)', () => {
    expect(earliestStartOnBerth(berthCalendar(1, [entry(1, -60, 3000)]), S, L, t(2000))).toBe(S);
  });

  it('reads a calendar whose entries overlap (ends out of order) by the latest end so far', () => {
    const cal = berthCalendar(1, [entry(1, -100, 500), entry(2, -50, -40), entry(3, 600, 700)]);
    expect(earliestStartOnBerth(cal, S, L, t(24 * 60))).toBe(t(701));
    expect(findBestSlot(search([1]), calendars(cal), settings)?.berthStart).toBe(t(701));
  });

  it('ignores reservations that ended before S or start after the window end', () => {
    const cal = berthCalendar(1, [entry(1, -200, -100), entry(2, -90, 29), entry(3, 2000, 2100)]);
    expect(earliestStartOnBerth(cal, S, L, t(1000))).toBe(S);
  });

  it('gives none when the last reservation leaves too little before the window end', () => {
    const cal = berthCalendar(1, [entry(1, 30, 200), entry(2, 300, 500)]);
    expect(earliestStartOnBerth(cal, S, L, t(500 + 180 + 2))).toBe(t(501));
    expect(earliestStartOnBerth(cal, S, L, t(500 + 180 + 2) - 1)).toBeNull();
  });
});

describe('the best slot across a nomination’s berths', () => {
  it('offers S on an empty berth with the RTA window [ETA, ETA + RTA window]', () => {
    expect(findBestSlot(search([7]), calendars(berthCalendar(7, [])), settings)).toEqual({
      berthId: 7,
      berthStart: S,
      berthEnd: S + L,
      rtaWindowStart: ETA,
      rtaWindowEnd: t(30),
    });
  });

  it('breaks ties by priority: the berth earlier in the list wins, whatever its id', () => {
    const cals = calendars(berthCalendar(1, []), berthCalendar(2, []));
    expect(findBestSlot(search([2, 1]), cals, settings)?.berthId).toBe(2);
    expect(findBestSlot(search([1, 2]), cals, settings)?.berthId).toBe(1);
  });

  it('takes the earliest candidate across berths: a busy first berth loses to a free second one', () => {
    const busy = berthCalendar(1, [entry(1, 0, 300)]);
    const free = berthCalendar(2, [entry(2, 400, 500)]);
    expect(findBestSlot(search([1, 2]), calendars(busy, free), settings)).toMatchObject({
      berthId: 2,
      berthStart: S,
    });
  });

  it('takes a later berth with the earlier candidate even though both berths are partly busy', () => {
    const first = berthCalendar(1, [entry(1, 0, 300)]);
    const second = berthCalendar(2, [entry(2, 0, 100)]);
    expect(findBestSlot(search([1, 2]), calendars(first, second), settings)).toMatchObject({
      berthId: 2,
      berthStart: t(101),
      rtaWindowStart: t(71),
      rtaWindowEnd: t(101),
    });
  });

  it('gives no slot when no berth fits before the nomination window ends', () => {
    const full = berthCalendar(1, [entry(1, 0, 600)]);
    expect(findBestSlot(search([1], t(600 + 182) - 1), calendars(full), settings)).toBeNull();
    expect(findBestSlot(search([1], t(600 + 182)), calendars(full), settings)).toMatchObject({
      berthStart: t(601),
    });
  });

  it('re-checks the candidate: a reservation spanning the whole window sends the search to the next berth', () => {
    const blocked = berthCalendar(1, [entry(1, -60, 3000)]);
    expect(findBestSlot(search([1], t(2000)), calendars(blocked), settings)).toBeNull();
    const other = berthCalendar(2, [entry(2, 0, 200)]);
    expect(findBestSlot(search([1, 2], t(2000)), calendars(blocked, other), settings)).toMatchObject({
      berthId: 2,
      berthStart: t(201),
    });
  });

  it('skips berths that are not nominatable or unknown, and a berth listed twice counts once', () => {
    const closed = berthCalendar(1, [], { nominatable: false });
    const open = berthCalendar(2, [entry(1, 0, 100)]);
    expect(findBestSlot(search([1, 99, 2, 2]), calendars(closed, open), settings)?.berthId).toBe(2);
    expect(findBestSlot(search([1, 99]), calendars(closed, open), settings)).toBeNull();
  });

  it('uses the settings: travel, RTA window and laytime buffer', () => {
    const custom: QueueSettings = { ...settings, travelToBerthMs: 60 * MINUTE_MS, rtaWindowMs: 10 * MINUTE_MS };
    expect(rtaWindowFromBerthStart(t(60), custom)).toEqual({ start: t(0), end: t(10) });
    expect(findBestSlot(search([1]), calendars(berthCalendar(1, [])), custom)).toEqual({
      berthId: 1,
      berthStart: t(60),
      berthEnd: t(60 + 120 + 30 + 10),
      rtaWindowStart: t(0),
      rtaWindowEnd: t(10),
    });
  });

  it('a slot found is free and keeps a minute to its neighbours on a dense random calendar', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let round = 0; round < 200; round++) {
      const list: CalendarEntry[] = [];
      let at = -300;
      for (let i = 0; i < 40; i++) {
        at += 1 + Math.floor(random() * 250);
        const end = at + 1 + Math.floor(random() * 200);
        list.push(entry(i, at, end));
        at = end;
      }
      const cal = berthCalendar(1, list);
      const offer = findBestSlot(search([1], t(8000)), calendars(cal), settings);
      const naive = naiveEarliest(list, S, L, t(8000));
      expect(offer?.berthStart ?? null).toBe(naive);
      if (offer) {
        expect(isFree(cal, offer.berthStart - MINUTE_MS + 1, offer.berthEnd + MINUTE_MS - 1)).toBe(true);
      }
    }
  });
});

/** The original's step 2 written plainly (filter, sort, walk), to check the binary-searched version against. */
function naiveEarliest(list: CalendarEntry[], desired: number, length: number, max: number): number | null {
  const inRange = list
    .filter((r) => (r.start >= desired && r.start <= max) || (r.end >= desired && r.end <= max))
    .sort((a, b) => a.start - b.start);
  let prevEnd = desired - MINUTE_MS;
  for (const r of inRange) {
    if (r.start >= prevEnd + length + 2 * MINUTE_MS) return prevEnd + MINUTE_MS;
    prevEnd = r.end;
  }
  return max >= prevEnd + length + 2 * MINUTE_MS ? prevEnd + MINUTE_MS : null;
}

describe('the maximum laytime after a reservation', () => {
  it('is the next start − RTA window − laytime buffer − 1 minute − own start; none when nothing follows', () => {
    const cal = berthCalendar(1, [entry(1, 0, 180), entry(2, 400, 500), entry(3, -500, -400)]);
    expect(maxLaytime(cal, 1, settings)).toBe((400 - 30 - 30 - 1) * MINUTE_MS);
    expect(maxLaytime(cal, 2, settings)).toBeNull();
    expect(maxLaytime(cal, 3, settings)).toBe((0 - 60 - 1 + 500) * MINUTE_MS);
    expect(() => maxLaytime(cal, 9, settings)).toThrow();
  });
});
