// Berths and their calendars (docs/domain.md#queue): a berth's stream holds the berth and every reservation on it,
// so a reservation is always decided against the whole calendar at one version (the consistency boundary of the
// slot search). Pure: decide functions take the state and the checked input and return events or throw the
// original's 400s; evolve folds the events back into the state.

import {
  ApiError,
  BERTH_RESERVATION_TYPES,
  type BerthData,
  type BerthEvent,
  type BerthInput,
  type BerthReservationData,
  type BerthReservationType,
} from '@pcas/contracts';
import { parseAtom } from '@pcas/values';
import { isoUtc } from './queue-rules.ts';
import { type BerthCalendar, berthCalendar, isFree } from './slot-search.ts';

export interface BerthState {
  berth: BerthData | null;
  /** Reservations on the berth by id. */
  reservations: Map<number, BerthReservationData>;
}

export const emptyBerth = (): BerthState => ({ berth: null, reservations: new Map() });

export function evolveBerth(state: BerthState, event: BerthEvent): BerthState {
  const reservations = new Map(state.reservations);
  switch (event.type) {
    case 'BerthCreated':
    case 'BerthUpdated':
      return { berth: { ...event.data }, reservations };
    case 'BerthDeleted':
      return { berth: null, reservations };
    case 'BerthReservationMade':
      reservations.set(event.data.id, { ...event.data });
      return { ...state, reservations };
    case 'BerthReservationMoved': {
      const r = reservations.get(event.data.id);
      if (r) {
        reservations.set(r.id, {
          ...r,
          reservation_start: event.data.reservation_start,
          reservation_end: event.data.reservation_end,
        });
      }
      return { ...state, reservations };
    }
    case 'BerthReservationRemoved':
      reservations.delete(event.data.id);
      return { ...state, reservations };
  }
}

export const cannotFindBerth = (id: unknown) => ApiError.badRequest(`Cannot find berth instance with given id: ${id}`);

/** `nominatable` is true only for exactly JSON `true` or `1`, as the original. */
export const readNominatable = (value: unknown): boolean => value === true || value === 1;

export function decideCreateBerth(id: number, input: BerthInput): BerthEvent[] {
  return [{ type: 'BerthCreated', data: berthData(id, input) }];
}

export function decideUpdateBerth(state: BerthState, input: BerthInput & { id: number }): BerthEvent[] {
  if (!state.berth) throw cannotFindBerth(input.id);
  const next = berthData(input.id, input);
  const same =
    next.code === state.berth.code && next.name === state.berth.name && next.nominatable === state.berth.nominatable;
  return same ? [] : [{ type: 'BerthUpdated', data: next }];
}

export function decideDeleteBerth(state: BerthState, id: number): BerthEvent[] {
  if (!state.berth) throw cannotFindBerth(id);
  return [{ type: 'BerthDeleted', data: { id } }];
}

function berthData(id: number, input: BerthInput): BerthData {
  return { id, code: input.code, name: input.name, nominatable: readNominatable(input.nominatable) };
}

/**
 * The berth's calendar for the slot search (only a nominatable berth takes vessels). Every decision on a berth
 * reads its whole calendar, mostly as the last one left it: the calendar last built for the berth is kept with the
 * times it was built from and given again when the state holds the same reservations with the same times (one
 * comparison per reservation instead of parsing and sorting them all); else it is built again, parsing only the
 * times that are not those kept.
 */
export function calendarOf(state: BerthState, berthId: number): BerthCalendar {
  const nominatable = state.berth?.nominatable ?? false;
  const known = knownCalendars.get(berthId);
  if (known && known.nominatable === nominatable && sameTimes(known.times, state.reservations)) return known.calendar;
  const times = new Map<number, KnownTimes>();
  const entries = [...state.reservations.values()].map((r) => {
    const was = known?.times.get(r.id);
    // The times themselves (strings), not the reservation: a comparison never sees an object changed since.
    const kept: KnownTimes = {
      start: r.reservation_start,
      end: r.reservation_end,
      startMs:
        was !== undefined && was.start === r.reservation_start
          ? was.startMs
          : (parseAtom(r.reservation_start) as number),
      endMs: was !== undefined && was.end === r.reservation_end ? was.endMs : (parseAtom(r.reservation_end) as number),
    };
    times.set(r.id, kept);
    return { id: r.id, start: kept.startMs, end: kept.endMs };
  });
  const calendar = berthCalendar(berthId, entries, { nominatable });
  if (knownCalendars.size >= CALENDARS_KEPT && !knownCalendars.has(berthId)) knownCalendars.clear();
  knownCalendars.set(berthId, { calendar, nominatable, times });
  return calendar;
}

/** A reservation's times as kept with its berth's calendar: as read and as parsed. */
interface KnownTimes {
  start: string;
  end: string;
  startMs: number;
  endMs: number;
}

/** The calendar last built per berth, with the reservations' times it was built from. */
const knownCalendars = new Map<
  number,
  { calendar: BerthCalendar; nominatable: boolean; times: Map<number, KnownTimes> }
>();
const CALENDARS_KEPT = 1000;

/** Whether the reservations are those the calendar was built from (same ids, same times). */
function sameTimes(known: Map<number, KnownTimes>, reservations: Map<number, BerthReservationData>): boolean {
  if (known.size !== reservations.size) return false;
  for (const r of reservations.values()) {
    const k = known.get(r.id);
    if (k === undefined || k.start !== r.reservation_start || k.end !== r.reservation_end) return false;
  }
  return true;
}

/** A reservation time in the original's strict ISO form; else the 400 naming it. */
function reservationTime(value: unknown, what: 'start' | 'end'): number {
  const ms = parseAtom(value);
  if (ms === undefined) throw ApiError.badRequest(`Given reservation ${what} is not in ISO format: ${String(value)}`);
  return ms;
}

function checkedPeriod(input: { reservation_start: unknown; reservation_end: unknown }) {
  const start = reservationTime(input.reservation_start, 'start');
  const end = reservationTime(input.reservation_end, 'end');
  if (start > end) throw ApiError.badRequest('Reservation start must be before reservation end');
  return { start, end };
}

const notFree = (start: number, end: number) =>
  ApiError.badRequest(`Given time slot is not free: ${isoUtc(start)} - ${isoUtc(end)}`);

export interface NewReservation {
  berth_reservation_type?: unknown;
  reservation_start: unknown;
  reservation_end: unknown;
  slot_reservation_id?: number | null;
}

/**
 * POST /berth-reservations, in the original's order: the berth exists and is nominatable, ISO times, start not
 * after end, a known type, an existing slot request (when given), then the period free on the berth.
 */
export function decideCreateReservation(
  state: BerthState,
  berthId: number,
  id: number,
  input: NewReservation,
  slotRequestExists: boolean,
): BerthEvent[] {
  if (!state.berth) throw ApiError.badRequest(`Given berth ID is invalid: ${berthId}`);
  if (!state.berth.nominatable) throw ApiError.badRequest(`Given berth ID cannot be nominated: ${berthId}`);
  const { start, end } = checkedPeriod(input);
  const type = input.berth_reservation_type;
  if (!(BERTH_RESERVATION_TYPES as readonly unknown[]).includes(type)) {
    throw ApiError.badRequest(`Invalid berth reservation type: ${String(type)}`);
  }
  const slot = input.slot_reservation_id ?? null;
  if (slot !== null && !slotRequestExists) throw ApiError.badRequest(`Invalid slot reservation ID: ${slot}`);
  if (!isFree(calendarOf(state, berthId), start, end)) throw notFree(start, end);
  return [
    {
      type: 'BerthReservationMade',
      data: {
        id,
        berth_id: berthId,
        berth_reservation_type: type as BerthReservationType,
        reservation_start: isoUtc(start),
        reservation_end: isoUtc(end),
        slot_reservation_id: slot,
      },
    },
  ];
}

export const cannotFindReservation = (id: unknown) =>
  ApiError.badRequest(`Cannot find berth reservation instance with given id: ${id}`);

function portBlock(state: BerthState, id: number, verb: 'updated' | 'deleted'): BerthReservationData {
  const r = state.reservations.get(id);
  if (!r) throw cannotFindReservation(id);
  if (r.berth_reservation_type !== 'port_blocked') {
    throw ApiError.badRequest(`Only port block reservations can be ${verb}`);
  }
  return r;
}

/** PUT /berth-reservations: only a port block, to a free period (itself excluded). */
export function decideMoveReservation(
  state: BerthState,
  id: number,
  input: { reservation_start: unknown; reservation_end: unknown },
): BerthEvent[] {
  const r = portBlock(state, id, 'updated');
  const { start, end } = checkedPeriod(input);
  if (!isFree(calendarOf(state, r.berth_id), start, end, id)) throw notFree(start, end);
  const moved = { id, berth_id: r.berth_id, reservation_start: isoUtc(start), reservation_end: isoUtc(end) };
  const same = moved.reservation_start === r.reservation_start && moved.reservation_end === r.reservation_end;
  return same ? [] : [{ type: 'BerthReservationMoved', data: moved }];
}

/** DELETE /berth-reservations: only a port block. */
export function decideRemoveReservation(state: BerthState, id: number): BerthEvent[] {
  const r = portBlock(state, id, 'deleted');
  return [{ type: 'BerthReservationRemoved', data: { id, berth_id: r.berth_id } }];
}
