// Slot requests (docs/domain.md#queue): a vessel's ETA and laytime, placed on the best free slot of an open
// nomination of its IMO (offered, with an RTA window), then answered with a JIT ETA (accepted) or changed by the
// port (updated), cancelled or completed. Pure: each decision returns the events of every stream it touches
// (the slot request, the berth's calendar, the nomination); the caller appends them with the versions it read.

import {
  ApiError,
  type BerthEvent,
  type BerthReservationData,
  type NominationEvent,
  type SlotRequestData,
  type SlotRequestEvent,
  type SlotRequestInput,
  type SlotRequestPlacement,
  type SlotRequestStatus,
} from '@pcas/contracts';
import { isEmailAddress, isoDurationMs, isValidImo, parseAtom } from '@pcas/values';
import { type BerthState, calendarOf } from './berths.ts';
import { type NominationState, nominationFits } from './nominations.ts';
import { laytimeOverflow, pushForward } from './push-forward.ts';
import {
  isoUtc,
  laytimeFromHhMm,
  msToHhMm,
  msToIsoDuration,
  type QueueSettings,
  slotRequestCompletes,
} from './queue-rules.ts';
import { type BerthCalendar, berthStartFromRta, findBestSlot, isFree, neededLength } from './slot-search.ts';

export type SlotRequestState = SlotRequestData | null;

export function evolveSlotRequest(state: SlotRequestState, event: SlotRequestEvent): SlotRequestState {
  switch (event.type) {
    case 'SlotRequestReceived':
      return { ...event.data };
    case 'SlotRequestResolved':
    case 'SlotRequestUpdated':
    case 'SlotRequestPushedForward':
      return state && { ...state, ...event.data };
    case 'SlotRequestCancelled':
      // The original keeps berth_id (a quirk) and clears the rest of the placement.
      return (
        state && {
          ...state,
          status: event.data.status,
          nomination_id: null,
          berth_reservation_id: null,
          rta_window_start: null,
          rta_window_end: null,
          jit_eta: null,
        }
      );
    case 'SlotRequestCompleted':
      return state && { ...state, status: 'completed' };
  }
}

export const cannotFindSlotRequest = (id: unknown) =>
  ApiError.badRequest(`Cannot find slot reservation instance with given id: ${id}`);

/** A laytime as the route takes it (`hh:mm` from a vessel, ISO 8601 from the port), stored as ISO 8601. */
function readLaytime(value: unknown, agent: boolean): { laytime: string; laytimeMs: number } {
  const iso = agent ? laytimeFromHhMm(value) : typeof value === 'string' ? value : undefined;
  const ms = iso === undefined ? undefined : isoDurationMs(iso);
  if (iso === undefined || ms === undefined) throw ApiError.badRequest(`Given laytime is not valid: ${String(value)}`);
  return { laytime: msToIsoDuration(ms), laytimeMs: ms };
}

/**
 * The longest laytime (`queue_max_laytime_duration`) in the form the caller writes laytimes: `hh:mm` from a vessel,
 * ISO 8601 from the port. Not the original's rule: without it a laytime had no bound, and every hour of it may push
 * the berth's following reservations forward (push-forward.ts).
 */
export function checkLaytimeBound(laytimeMs: number, agent: boolean, settings: QueueSettings): void {
  if (laytimeMs <= settings.maxLaytimeMs) return;
  const max = agent ? msToHhMm(settings.maxLaytimeMs) : msToIsoDuration(settings.maxLaytimeMs);
  throw ApiError.badRequest(`Given laytime is longer than maximum laytime: ${max}`);
}

function readTime(value: unknown, what: string): number {
  const ms = parseAtom(value);
  if (ms === undefined) throw ApiError.badRequest(`Given ${what} is not in ISO format: ${String(value)}`);
  return ms;
}

/** A vessel's dimension: a number, or (agent routes) its decimal text. */
function readDimension(value: unknown, name: string): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) {
    throw ApiError.badRequest(`Given ${name} is not valid: ${String(value)}`);
  }
  return n;
}

/** A new slot request's vessel and laytime as its event records them, with the laytime and ETA in milliseconds. */
export interface NewSlotRequest
  extends Pick<SlotRequestData, 'email' | 'imo' | 'vessel_name' | 'loa' | 'beam' | 'draft' | 'laytime'> {
  laytimeMs: number;
  eta: number;
}

/** The original's checks of a new slot request, in its order: e-mail, IMO, laytime, ETA (then the dimensions). */
export function readSlotRequest(input: SlotRequestInput): NewSlotRequest {
  if (!isEmailAddress(input.email)) throw ApiError.badRequest(`Given email address is not valid: ${input.email}`);
  if (!isValidImo(input.imo)) throw ApiError.badRequest(`Given IMO is not valid: ${input.imo}`);
  const { laytime, laytimeMs } = readLaytime(input.laytime, input.agent);
  const eta = readTime(input.eta, 'ETA');
  return {
    email: input.email as string,
    imo: input.imo,
    vessel_name: String(input.vessel_name ?? ''),
    loa: readDimension(input.loa, 'loa'),
    beam: readDimension(input.beam, 'beam'),
    draft: readDimension(input.draft, 'draft'),
    laytime,
    laytimeMs,
    eta,
  };
}

/** Everything a placement may touch, read at one version each. */
export interface PlacementContext {
  settings: QueueSettings;
  now: number;
  /** Open nominations of the IMO, by id ascending (the original takes the first that fits). */
  nominations: readonly NominationState[];
  berths: (berthId: number) => BerthState | undefined;
  /** The id a new berth reservation gets. */
  reservationId: number;
}

export interface Placement {
  placement: Omit<SlotRequestPlacement, 'id'>;
  berthEvent?: BerthEvent & { type: 'BerthReservationMade' };
  nominationEvent?: NominationEvent & { type: 'NominationReserved' };
}

/**
 * Steps 2–4 of a slot request: the first open nomination of the IMO that holds ETA..ETA + laytime (none →
 * no_nomination), else the best slot on its berths up to its window end (none → no_free_slot, the nomination
 * kept for a later try), else offered: the berth reserved and the nomination reserved. A request that already
 * has a nomination (no_free_slot) tries that one only.
 */
export function place(
  slotRequestId: number,
  request: { imo: number; eta: number; laytimeMs: number; nomination_id: number | null },
  context: PlacementContext,
): Placement {
  const { settings, now } = context;
  const nomination = context.nominations.find(
    (n) =>
      (request.nomination_id === null || n.nomination?.id === request.nomination_id) &&
      nominationFits(n, request.imo, request.eta, request.laytimeMs, now),
  )?.nomination;
  const none = {
    nomination_id: null,
    berth_id: null,
    berth_reservation_id: null,
    rta_window_start: null,
    rta_window_end: null,
  };
  if (!nomination) {
    const status = request.nomination_id === null ? 'no_nomination' : 'no_free_slot';
    return { placement: { ...none, status, nomination_id: request.nomination_id } };
  }
  const offer = findBestSlot(
    {
      eta: request.eta,
      laytimeMs: request.laytimeMs,
      windowEnd: parseAtom(nomination.window_end) as number,
      berthIds: nomination.berth_ids,
    },
    (berthId) => {
      const berth = context.berths(berthId);
      return berth?.berth ? calendarOf(berth, berthId) : undefined;
    },
    settings,
  );
  if (!offer) return { placement: { ...none, status: 'no_free_slot', nomination_id: nomination.id } };
  return {
    placement: {
      status: 'offered',
      nomination_id: nomination.id,
      berth_id: offer.berthId,
      berth_reservation_id: context.reservationId,
      rta_window_start: isoUtc(offer.rtaWindowStart),
      rta_window_end: isoUtc(offer.rtaWindowEnd),
    },
    berthEvent: {
      type: 'BerthReservationMade',
      data: {
        id: context.reservationId,
        berth_id: offer.berthId,
        berth_reservation_type: 'vessel_reserved',
        reservation_start: isoUtc(offer.berthStart),
        reservation_end: isoUtc(offer.berthEnd),
        slot_reservation_id: slotRequestId,
      },
    },
    nominationEvent: { type: 'NominationReserved', data: { id: nomination.id, slot_reservation_id: slotRequestId } },
  };
}

/** The new slot request's event, placed. */
export function receivedEvent(id: number, request: NewSlotRequest, placed: Placement): SlotRequestEvent {
  return {
    type: 'SlotRequestReceived',
    data: {
      id,
      email: request.email,
      imo: request.imo,
      vessel_name: request.vessel_name,
      loa: request.loa,
      beam: request.beam,
      draft: request.draft,
      laytime: request.laytime,
      eta: isoUtc(request.eta),
      jit_eta: null,
      ...placed.placement,
    },
  };
}

const PENDING: readonly SlotRequestStatus[] = ['no_nomination', 'no_free_slot'];

/** Resolve: a pending request placed again; nothing when its status would not change. */
export function decideResolve(state: SlotRequestData, context: PlacementContext): Placement | null {
  if (!PENDING.includes(state.status)) return null;
  const placed = place(
    state.id,
    {
      imo: state.imo,
      eta: parseAtom(state.eta) as number,
      laytimeMs: isoDurationMs(state.laytime) as number,
      nomination_id: state.status === 'no_free_slot' ? state.nomination_id : null,
    },
    context,
  );
  return placed.placement.status === state.status && placed.placement.nomination_id === state.nomination_id
    ? null
    : placed;
}

const CHANGEABLE: readonly SlotRequestStatus[] = ['offered', 'accepted', 'updated'];

export interface SlotUpdateInput {
  laytime: unknown;
  jit_eta: unknown;
  rta_window_start?: unknown;
  agent: boolean;
}

export interface SlotUpdateContext {
  settings: QueueSettings;
  berth: BerthState;
  nomination: NominationState | undefined;
  /** The slot requests whose reservations a push forward moves (their JIT ETAs move with them). */
  slotRequests: (id: number) => SlotRequestData | undefined;
  /** A nomination's window end (epoch ms) by id, for those slot requests: a push may not move them past it. */
  nominationWindowEnd?: (nominationId: number) => number | undefined;
}

export interface SlotUpdate {
  slotEvents: SlotRequestEvent[];
  /** Moves of the berth's reservations, in the order to apply them (the last on the berth first). */
  berthEvents: BerthEvent[];
  /** Other slot requests' forced RTA shifts (a push forward), one event each. */
  shiftedSlotEvents: SlotRequestEvent[];
  /** Port blocks a push forward moved (the "berth block shifted" e-mail). */
  shiftedBlocks: BerthReservationData[];
}

/**
 * PUT slot-reservations: the status must allow it; the laytime must be at most the longest one; the JIT ETA must lie
 * within the RTA window (the new one when the port gives a start); a new RTA start must keep the slot inside the
 * nomination's window and free on the berth (then `updated`); otherwise a longer laytime pushes the following
 * reservations forward before the slot is resized (`accepted` from the vessel, `updated` when the port named an RTA
 * start), unless that would move a vessel past its nomination's window end: the port decides those by hand.
 */
export function decideUpdate(state: SlotRequestData, input: SlotUpdateInput, context: SlotUpdateContext): SlotUpdate {
  const { settings, berth } = context;
  if (!CHANGEABLE.includes(state.status)) {
    throw ApiError.badRequest(`Invalid current slot reservation status: ${state.status}`);
  }
  const { laytime, laytimeMs } = readLaytime(input.laytime, input.agent);
  checkLaytimeBound(laytimeMs, input.agent, settings);
  const jitEta = readTime(input.jit_eta, 'JIT ETA');
  const portRta =
    input.rta_window_start === undefined || input.rta_window_start === null ? undefined : input.rta_window_start;
  const currentRta = parseAtom(state.rta_window_start) as number;
  const rtaStart = portRta === undefined ? currentRta : readTime(portRta, 'RTA window start');
  const rtaEnd = rtaStart + settings.rtaWindowMs;
  if (jitEta < rtaStart || jitEta > rtaEnd) {
    throw ApiError.badRequest(`Given JIT ETA is not within RTA window: ${isoUtc(rtaStart)} - ${isoUtc(rtaEnd)}`);
  }
  const reservation =
    state.berth_reservation_id === null ? undefined : berth.reservations.get(state.berth_reservation_id);
  if (!reservation || state.berth_id === null) {
    throw ApiError.badRequest(`Invalid current slot reservation status: ${state.status}`);
  }
  const calendar = calendarOf(berth, state.berth_id);
  const out: SlotUpdate = { slotEvents: [], berthEvents: [], shiftedSlotEvents: [], shiftedBlocks: [] };
  const placement = (status: SlotRequestStatus): SlotRequestPlacement => ({
    id: state.id,
    status,
    nomination_id: state.nomination_id,
    berth_id: state.berth_id,
    berth_reservation_id: state.berth_reservation_id,
    rta_window_start: isoUtc(rtaStart),
    rta_window_end: isoUtc(rtaEnd),
  });
  const move = (start: number, end: number): BerthEvent => ({
    type: 'BerthReservationMoved',
    data: {
      id: reservation.id,
      berth_id: reservation.berth_id,
      reservation_start: isoUtc(start),
      reservation_end: isoUtc(end),
    },
  });

  if (portRta !== undefined && rtaStart !== currentRta) {
    const start = berthStartFromRta(rtaStart, settings);
    const end = start + neededLength(laytimeMs, settings);
    const n = context.nomination?.nomination;
    if (!n || start < (parseAtom(n.window_start) as number) || end > (parseAtom(n.window_end) as number)) {
      throw ApiError.badRequest(`Reserved nomination not valid with given RTA window start: ${String(portRta)}`);
    }
    if (!isFree(calendar, start, end, reservation.id)) {
      throw ApiError.badRequest(`Berth not free with given RTA window start: ${String(portRta)}`);
    }
    out.berthEvents.push(move(start, end));
    out.slotEvents.push({
      type: 'SlotRequestUpdated',
      data: { ...placement('updated'), laytime, jit_eta: isoUtc(jitEta) },
    });
    return out;
  }

  const start = parseAtom(reservation.reservation_start) as number;
  const end = start + neededLength(laytimeMs, settings);
  const overflow = laytimeOverflow(calendar, reservation.id, laytimeMs, settings);
  if (overflow > 0) {
    const stacked = [...berth.reservations.values()].map((r) => {
      const other = r.slot_reservation_id === null ? undefined : context.slotRequests(r.slot_reservation_id);
      const nominationId = other?.nomination_id ?? null;
      return {
        id: r.id,
        start: parseAtom(r.reservation_start) as number,
        end: parseAtom(r.reservation_end) as number,
        kind: r.berth_reservation_type,
        slotRequestId: r.slot_reservation_id,
        jitEta: parseAtom(other?.jit_eta) ?? null,
        windowEnd: nominationId === null ? null : (context.nominationWindowEnd?.(nominationId) ?? null),
      };
    });
    const plan = pushForward(stacked, reservation.id, overflow, settings);
    const beyond = plan.beyondWindow[plan.beyondWindow.length - 1];
    if (beyond) {
      // A vessel is not told which other vessel; the port is, to move or cancel that one by hand first.
      const why = input.agent
        ? 'it would push another vessel beyond its nomination window; the port can move it by hand'
        : `it would push slot reservation ${beyond.slotRequestId} beyond its nomination window; move or cancel it first`;
      throw ApiError.badRequest(`Given laytime not possible: ${String(input.laytime)} (${why})`);
    }
    for (const m of plan.moves) {
      out.berthEvents.push({
        type: 'BerthReservationMoved',
        data: {
          id: m.id,
          berth_id: reservation.berth_id,
          reservation_start: isoUtc(m.newStart),
          reservation_end: isoUtc(m.newEnd),
        },
      });
    }
    for (const shift of plan.rtaShifts) {
      const other = context.slotRequests(shift.slotRequestId);
      if (!other) continue;
      out.shiftedSlotEvents.push({
        type: 'SlotRequestPushedForward',
        data: {
          id: other.id,
          status: 'updated',
          nomination_id: other.nomination_id,
          berth_id: other.berth_id,
          berth_reservation_id: other.berth_reservation_id,
          rta_window_start: isoUtc(shift.rtaWindowStart),
          rta_window_end: isoUtc(shift.rtaWindowEnd),
          jit_eta: shift.jitEta === null ? null : isoUtc(shift.jitEta),
        },
      });
    }
    for (const b of plan.shiftedBlocks) {
      const r = berth.reservations.get(b.id);
      if (r) out.shiftedBlocks.push({ ...r, reservation_start: isoUtc(b.newStart), reservation_end: isoUtc(b.newEnd) });
    }
  }
  // The slot's own resize is checked against the calendar as the moves leave it (with no moves, the calendar
  // read: the common case, a JIT ETA within the laytime, builds no second calendar).
  if (!isFree(calendarAfter(berth, calendar, out.berthEvents, reservation.berth_id), start, end, reservation.id)) {
    throw ApiError.badRequest(`Given laytime not possible: ${String(input.laytime)}`);
  }
  if (end !== (parseAtom(reservation.reservation_end) as number)) out.berthEvents.push(move(start, end));
  const status: SlotRequestStatus = portRta !== undefined ? 'updated' : 'accepted';
  out.slotEvents.push({ type: 'SlotRequestUpdated', data: { ...placement(status), laytime, jit_eta: isoUtc(jitEta) } });
  return out;
}

/** The berth's calendar with `moves` applied; `calendar` itself (the berth's, unmoved) when there are none. */
function calendarAfter(
  berth: BerthState,
  calendar: BerthCalendar,
  moves: readonly BerthEvent[],
  berthId: number,
): BerthCalendar {
  if (moves.length === 0) return calendar;
  const moved = new Map(
    moves.map((e) => [(e.data as { id: number }).id, e.data as { reservation_start: string; reservation_end: string }]),
  );
  const after = {
    ...berth,
    reservations: new Map(
      [...berth.reservations].map(([id, r]) => [id, moved.has(id) ? { ...r, ...(moved.get(id) as object) } : r]),
    ),
  };
  return calendarOf(after, berthId);
}

export interface Cancellation {
  slotEvent: SlotRequestEvent;
  berthEvent?: BerthEvent;
  nominationEvent?: NominationEvent;
}

const FINISHED: readonly SlotRequestStatus[] = ['cancelled_by_vessel', 'cancelled_by_port', 'completed'];

/** Cancel: the berth reservation goes, the nomination opens again. A finished request cannot be cancelled. */
export function decideCancel(
  state: SlotRequestData,
  byVessel: boolean,
  berth: BerthState | undefined,
  nomination: NominationState | undefined,
): Cancellation {
  if (FINISHED.includes(state.status)) {
    throw ApiError.badRequest(`Invalid current slot reservation status: ${state.status}`);
  }
  const out: Cancellation = {
    slotEvent: {
      type: 'SlotRequestCancelled',
      data: { id: state.id, status: byVessel ? 'cancelled_by_vessel' : 'cancelled_by_port' },
    },
  };
  const reservation =
    state.berth_reservation_id === null ? undefined : berth?.reservations.get(state.berth_reservation_id);
  if (reservation)
    out.berthEvent = { type: 'BerthReservationRemoved', data: { id: reservation.id, berth_id: reservation.berth_id } };
  if (nomination?.nomination && nomination.status === 'reserved' && nomination.slot_reservation_id === state.id) {
    out.nominationEvent = {
      type: 'NominationReopened',
      data: { id: nomination.nomination.id, slot_reservation_id: state.id },
    };
  }
  return out;
}

/** When the completion job may record a request completed (epoch ms); null when it never completes by itself. */
export function completionDue(state: SlotRequestData, settings: QueueSettings): number | null {
  if (FINISHED.includes(state.status)) return null;
  const from = parseAtom(state.rta_window_start) ?? (parseAtom(state.eta) as number);
  const laytimeMs = isoDurationMs(state.laytime) ?? 0;
  return from + laytimeMs + settings.rtaWindowMs + settings.travelToBerthMs + settings.laytimeBufferMs + 1000;
}

export function decideComplete(state: SlotRequestData, settings: QueueSettings, now: number): SlotRequestEvent[] {
  const completes = slotRequestCompletes(
    {
      status: state.status,
      eta: parseAtom(state.eta) as number,
      rtaWindowStart: parseAtom(state.rta_window_start) ?? null,
      laytimeMs: isoDurationMs(state.laytime) ?? 0,
    },
    settings,
    now,
  );
  return completes ? [{ type: 'SlotRequestCompleted', data: { id: state.id } }] : [];
}
