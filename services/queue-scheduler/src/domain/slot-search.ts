// The best-slot search (docs/domain.md#queue): where on a nomination's berths a slot request's
// vessel fits first, with the original's rule (inclusive overlap, the 2-minute guard, earliest candidate across
// the berths, ties by priority). A berth's calendar is kept as sorted arrays so a search binary-searches to the
// desired start instead of scanning every reservation. Times are epoch milliseconds; pure.

import { MINUTE_MS, type QueueSettings } from './queue-rules.ts';

/** One reservation on a berth's calendar: a vessel's slot or a port block. */
export interface CalendarEntry {
  id: number;
  start: number;
  end: number;
}

/** A berth's reservations, sorted by start, ready for binary search. Build with {@link berthCalendar}. */
export interface BerthCalendar {
  readonly berthId: number;
  readonly nominatable: boolean;
  readonly ids: Float64Array;
  readonly starts: Float64Array;
  readonly ends: Float64Array;
  /** maxEnds[i] = the latest end among entries 0..i (ends are not sorted when entries overlap). */
  readonly maxEnds: Float64Array;
}

/** The vessel's slot as found: the berth, its reservation at the berth and the RTA window at the sync point. */
export interface SlotOffer {
  berthId: number;
  /** Berth reservation start (the berth start) and end (start + laytime + laytime buffer + RTA window). */
  berthStart: number;
  berthEnd: number;
  rtaWindowStart: number;
  rtaWindowEnd: number;
}

/** What a search needs: the vessel's ETA at the sync point, its laytime, the nomination's window end and berths. */
export interface SlotSearch {
  eta: number;
  laytimeMs: number;
  /** The latest time the slot may reach (the nomination's window end). */
  windowEnd: number;
  /** The nomination's berths in priority order (first = priority 1). */
  berthIds: readonly number[];
}

/** The guard: a found slot starts 1 minute after the previous reservation and ends 1 minute before the next. */
export const GUARD_MS = 2 * MINUTE_MS;

/**
 * The original's inclusive overlap rule: [start, end] and [otherStart, otherEnd] overlap when either end of one
 * lies within the other, ends included, so reservations that merely touch overlap.
 */
export function overlaps(start: number, end: number, otherStart: number, otherEnd: number): boolean {
  return (
    (start >= otherStart && start <= otherEnd) ||
    (end >= otherStart && end <= otherEnd) ||
    (otherStart >= start && otherStart <= end) ||
    (otherEnd >= start && otherEnd <= end)
  );
}

/** A berth's calendar from its reservations in any order. */
export function berthCalendar(
  berthId: number,
  entries: readonly CalendarEntry[],
  options: { nominatable?: boolean } = {},
): BerthCalendar {
  const sorted = [...entries].sort((a, b) => a.start - b.start || a.end - b.end || a.id - b.id);
  const n = sorted.length;
  const ids = new Float64Array(n);
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  const maxEnds = new Float64Array(n);
  let maxEnd = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const e = sorted[i] as CalendarEntry;
    ids[i] = e.id;
    starts[i] = e.start;
    ends[i] = e.end;
    maxEnd = Math.max(maxEnd, e.end);
    maxEnds[i] = maxEnd;
  }
  return { berthId, nominatable: options.nominatable ?? true, ids, starts, ends, maxEnds };
}
/** First index whose value is > x (values ascending). */
function upperBound(values: Float64Array, x: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose value is ≥ x (values ascending). */
function lowerBound(values: Float64Array, x: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Whether [start, end] is free on the berth under the inclusive overlap rule, ignoring the reservation
 * `exceptId` (the one being moved or resized).
 */
export function isFree(calendar: BerthCalendar, start: number, end: number, exceptId?: number): boolean {
  // Entries starting after `end` cannot overlap; of the others only those ending at or after `start` can, and
  // walking back stops where the running latest end falls before `start`.
  for (let i = upperBound(calendar.starts, end) - 1; i >= 0 && (calendar.maxEnds[i] as number) >= start; i--) {
    if (calendar.ids[i] === exceptId) continue;
    if (overlaps(start, end, calendar.starts[i] as number, calendar.ends[i] as number)) return false;
  }
  return true;
}

/** A slot's reservation length at the berth: laytime + laytime buffer + RTA window. */
export function neededLength(laytimeMs: number, settings: QueueSettings): number {
  return laytimeMs + settings.laytimeBufferMs + settings.rtaWindowMs;
}

/** The RTA window at the sync point for a berth start: [berth start − travel, that + RTA window]. */
export function rtaWindowFromBerthStart(berthStart: number, settings: QueueSettings): { start: number; end: number } {
  const start = berthStart - settings.travelToBerthMs;
  return { start, end: start + settings.rtaWindowMs };
}

/** The berth start for an RTA window start: RTA window start + travel. */
export function berthStartFromRta(rtaWindowStart: number, settings: QueueSettings): number {
  return rtaWindowStart + settings.travelToBerthMs;
}

/**
 * The earliest start on one berth (the original's step 2): of the reservations that start or end within
 * [desired, max], in start order, the first gap that holds `length` plus the guard after the previous end; else,
 * after the last of them, if `max` still leaves room. With nothing in the way the answer is `desired` itself.
 * null when the berth has no room before `max`. (The caller re-checks the slot with {@link isFree}.)
 */
export function earliestStartOnBerth(
  calendar: BerthCalendar,
  desired: number,
  length: number,
  max: number,
): number | null {
  const { starts, ends, maxEnds } = calendar;
  let prevEnd = desired - MINUTE_MS;
  // Every entry before the first whose running latest end reaches `desired` ends before it: none is in range.
  for (let i = lowerBound(maxEnds, desired); i < starts.length; i++) {
    const start = starts[i] as number;
    if (start > max) break;
    const end = ends[i] as number;
    const inRange = (start >= desired && start <= max) || (end >= desired && end <= max);
    if (!inRange) continue;
    if (start >= prevEnd + length + GUARD_MS) return prevEnd + MINUTE_MS;
    prevEnd = end;
  }
  return max >= prevEnd + length + GUARD_MS ? prevEnd + MINUTE_MS : null;
}

/**
 * The best slot for a request (the original's steps 1–4): desired berth start S = ETA + travel, length L =
 * laytime + laytime buffer + RTA window; on each nominatable berth of the nomination its earliest start; the
 * earliest of those wins, ties to the berth earlier in the priority list; a candidate that is not free after all
 * (overlap rule) gives way to the next. null = no free slot. Berths without a calendar are skipped.
 */
export function findBestSlot(
  search: SlotSearch,
  calendars: (berthId: number) => BerthCalendar | undefined,
  settings: QueueSettings,
): SlotOffer | null {
  const desired = search.eta + settings.travelToBerthMs;
  const length = neededLength(search.laytimeMs, settings);
  const candidates: { calendar: BerthCalendar; start: number; priority: number }[] = [];
  const seen = new Set<number>();
  search.berthIds.forEach((berthId, priority) => {
    if (seen.has(berthId)) return;
    seen.add(berthId);
    const calendar = calendars(berthId);
    if (calendar === undefined || !calendar.nominatable) return;
    const start = earliestStartOnBerth(calendar, desired, length, search.windowEnd);
    if (start !== null) candidates.push({ calendar, start, priority });
  });
  candidates.sort((a, b) => a.start - b.start || a.priority - b.priority);
  for (const { calendar, start } of candidates) {
    if (!isFree(calendar, start, start + length)) continue;
    const rta = rtaWindowFromBerthStart(start, settings);
    return {
      berthId: calendar.berthId,
      berthStart: start,
      berthEnd: start + length,
      rtaWindowStart: rta.start,
      rtaWindowEnd: rta.end,
    };
  }
  return null;
}

/**
 * The longest laytime a slot may grow to without touching the next reservation on its berth (the original's
 * "maximum free interval"): the next reservation's start − RTA window − laytime buffer − 1 minute − this
 * reservation's start. null when nothing follows (no limit). May be negative when the next one already presses.
 */
export function maxLaytime(calendar: BerthCalendar, reservationId: number, settings: QueueSettings): number | null {
  let own = -1;
  for (let i = 0; i < calendar.ids.length; i++) {
    if (calendar.ids[i] === reservationId) {
      own = i;
      break;
    }
  }
  if (own < 0) throw new Error(`Reservation ${reservationId} is not on berth ${calendar.berthId}`);
  const ownStart = calendar.starts[own] as number;
  const next = upperBound(calendar.starts, ownStart);
  if (next >= calendar.starts.length) return null;
  return (calendar.starts[next] as number) - settings.rtaWindowMs - settings.laytimeBufferMs - MINUTE_MS - ownStart;
}
