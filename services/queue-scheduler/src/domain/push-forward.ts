// Pushing a berth's following reservations forward when a slot's laytime grows (docs/domain.md#queue):
// the reservations after it move later by what the free gaps between them cannot absorb, each keeping a 1-minute
// gap to the one before. Moved vessel slots get a forced RTA shift; moved port blocks are reported so the port's
// operators can be told; a vessel slot moved past its nomination's window end is reported too, and the caller
// refuses the whole push (the port moves such a vessel by hand). Pure: the caller applies the moves (last one
// first, so none passes through another).

import { MINUTE_MS, type QueueSettings } from './queue-rules.ts';
import { type BerthCalendar, maxLaytime, rtaWindowFromBerthStart } from './slot-search.ts';

export type BerthReservationKind = 'vessel_reserved' | 'port_blocked';

/** A reservation on the berth as pushing forward reads it. */
export interface StackedReservation {
  id: number;
  start: number;
  end: number;
  kind: BerthReservationKind;
  /** The slot request a `vessel_reserved` reservation belongs to; null for port blocks. */
  slotRequestId: number | null;
  /** That slot request's JIT ETA, when it has one (a forced RTA shift may move it). */
  jitEta?: number | null;
  /** That slot request's nomination window end, when known: a push may not move the slot's end past it. */
  windowEnd?: number | null;
}

/** A reservation moved later by `shiftMs`. */
export interface ShiftedReservation {
  id: number;
  kind: BerthReservationKind;
  slotRequestId: number | null;
  start: number;
  end: number;
  newStart: number;
  newEnd: number;
  shiftMs: number;
}

/**
 * A vessel slot's forced RTA shift (status `updated`): the new RTA window from the new berth start, and the JIT
 * ETA moved to the new RTA window start if it was earlier (unchanged otherwise; null when it had none).
 */
export interface ForcedRtaShift {
  slotRequestId: number;
  reservationId: number;
  rtaWindowStart: number;
  rtaWindowEnd: number;
  jitEta: number | null;
  jitEtaMoved: boolean;
}

export interface PushForwardPlan {
  /** Every moved reservation, last on the berth first: the order to apply them in. */
  moves: ShiftedReservation[];
  /** The moved vessel slots' new RTA windows, in the same order. */
  rtaShifts: ForcedRtaShift[];
  /** The moved port blocks (each a "berth block shifted" mail to the port's operators), in the same order. */
  shiftedBlocks: ShiftedReservation[];
  /** The moved vessel slots that would end after their nomination's window end, in the same order. */
  beyondWindow: ShiftedReservation[];
}

/**
 * How much a slot's laytime growth must push the berth forward: 0 when the new laytime fits the maximum free
 * interval after it (or nothing follows), else the excess.
 */
export function laytimeOverflow(
  calendar: BerthCalendar,
  reservationId: number,
  newLaytimeMs: number,
  settings: QueueSettings,
): number {
  const max = maxLaytime(calendar, reservationId, settings);
  if (max === null || newLaytimeMs <= max) return 0;
  return newLaytimeMs - max;
}

/** A vessel slot's forced RTA shift for its new berth start. */
export function forcedRtaShift(
  slotRequestId: number,
  reservationId: number,
  newBerthStart: number,
  jitEta: number | null,
  settings: QueueSettings,
): ForcedRtaShift {
  const rta = rtaWindowFromBerthStart(newBerthStart, settings);
  const moved = jitEta !== null && rta.start > jitEta;
  return {
    slotRequestId,
    reservationId,
    rtaWindowStart: rta.start,
    rtaWindowEnd: rta.end,
    jitEta: moved ? rta.start : jitEta,
    jitEtaMoved: moved,
  };
}

/**
 * The moves that make room for `deltaMs` more after reservation `grownId` on its berth. The reservations starting
 * after it (after `fromStart` when given: the grown one's new berth start) are taken in start order: the first
 * moves by Δ; each next one by Δ minus the free gaps before it (each gap less 1 minute, kept free), and the
 * first one whose gaps absorb Δ stays, with all after it.
 */
export function pushForward(
  reservations: readonly StackedReservation[],
  grownId: number,
  deltaMs: number,
  settings: QueueSettings,
  fromStart?: number,
): PushForwardPlan {
  const plan: PushForwardPlan = { moves: [], rtaShifts: [], shiftedBlocks: [], beyondWindow: [] };
  if (!(deltaMs > 0)) return plan;
  const grown = reservations.find((r) => r.id === grownId);
  if (grown === undefined) throw new Error(`Reservation ${grownId} is not on this berth`);
  const after = fromStart ?? grown.start;
  const following = reservations
    .filter((r) => r.id !== grownId && r.start > after)
    .sort((a, b) => a.start - b.start || a.id - b.id);
  const affected: { r: StackedReservation; shift: number }[] = [];
  let absorbed = 0;
  let prevEnd: number | null = null;
  for (const r of following) {
    if (prevEnd !== null) {
      absorbed += r.start - prevEnd - MINUTE_MS;
      if (absorbed >= deltaMs) break;
    }
    prevEnd = r.end;
    affected.push({ r, shift: deltaMs - absorbed });
  }
  for (const { r, shift } of affected.reverse()) {
    const move: ShiftedReservation = {
      id: r.id,
      kind: r.kind,
      slotRequestId: r.slotRequestId,
      start: r.start,
      end: r.end,
      newStart: r.start + shift,
      newEnd: r.end + shift,
      shiftMs: shift,
    };
    plan.moves.push(move);
    if (r.kind === 'port_blocked') plan.shiftedBlocks.push(move);
    else if (r.slotRequestId !== null) {
      plan.rtaShifts.push(forcedRtaShift(r.slotRequestId, r.id, move.newStart, r.jitEta ?? null, settings));
      // The same bound as the port's own move of an RTA window (decideUpdate in slot-requests.ts).
      if (r.windowEnd !== undefined && r.windowEnd !== null && move.newEnd > r.windowEnd) plan.beyondWindow.push(move);
    }
  }
  return plan;
}
