// Nominations (docs/domain.md#queue): a consignee's window for a vessel on a prioritised list of berths. Pure: the
// original's checks, in its order and with its messages, the own scope, and the events of each decision.

import {
  ApiError,
  type BerthData,
  type NominationData,
  type NominationEvent,
  type NominationInput,
  type NominationStatus,
} from '@pcas/contracts';
import { isEmailAddress, isValidImo, parseAtom } from '@pcas/values';
import { checkNominationWindow, isoUtc, isWindowGiven, nominationExpires } from './queue-rules.ts';

export interface NominationState {
  nomination: NominationData | null;
  status: NominationStatus;
  /** The slot request holding it while `reserved`. */
  slot_reservation_id: number | null;
}

export const emptyNomination = (): NominationState => ({ nomination: null, status: 'open', slot_reservation_id: null });

export function evolveNomination(state: NominationState, event: NominationEvent): NominationState {
  switch (event.type) {
    case 'NominationCreated':
      return { nomination: { ...event.data }, status: 'open', slot_reservation_id: null };
    case 'NominationUpdated':
      return { ...state, nomination: { ...event.data } };
    case 'NominationDeleted':
      return emptyNomination();
    case 'NominationReserved':
      return { ...state, status: 'reserved', slot_reservation_id: event.data.slot_reservation_id };
    case 'NominationReopened':
      return { ...state, status: 'open', slot_reservation_id: null };
    case 'NominationExpired':
      return { ...state, status: 'expired' };
  }
}

export const cannotFindNomination = (id: unknown) =>
  ApiError.badRequest(`Cannot find nomination instance with given id: ${id}`);

/** What the checks need to know besides the input: the time, the server's zone and the berths by id. */
export interface NominationContext {
  now: number;
  timeZone: string;
  berths: (id: number) => BerthData | undefined;
}

/** The berth list: each id a known, nominatable berth; duplicates dropped, order (= priority) kept. */
function checkBerthIds(ids: unknown[], context: NominationContext): number[] {
  const out: number[] = [];
  for (const raw of ids) {
    const id = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
    const berth = typeof id === 'number' && Number.isSafeInteger(id) ? context.berths(id) : undefined;
    if (!berth) throw ApiError.badRequest(`Given berth ID is invalid: ${String(raw)}`);
    if (!berth.nominatable) throw ApiError.badRequest(`Given berth ID cannot be nominated: ${String(raw)}`);
    if (!out.includes(berth.id)) out.push(berth.id);
  }
  return out;
}

/**
 * The nomination as checked, in the original's order: the window both or neither, the e-mail, the IMO, the
 * window (ISO, order, not before yesterday, at most a month ahead), then the berths. `current` fills what an
 * update leaves out.
 */
export function readNomination(
  input: NominationInput,
  context: NominationContext,
  current?: NominationData,
): Omit<NominationData, 'id' | 'created_by'> {
  const windowGiven = isWindowGiven(input.window_start, input.window_end);
  if (!current && !windowGiven) throw ApiError.badRequest('Only one window date given');
  if (!isEmailAddress(input.email)) throw ApiError.badRequest(`Given email address is not valid: ${input.email}`);
  if (!isValidImo(input.imo)) throw ApiError.badRequest(`Given IMO is not valid: ${input.imo}`);
  let windowStart = current?.window_start as string;
  let windowEnd = current?.window_end as string;
  if (windowGiven) {
    const w = checkNominationWindow(input.window_start, input.window_end, context.now, context.timeZone);
    windowStart = isoUtc(w.start);
    windowEnd = isoUtc(w.end);
  }
  const berthIds = input.berth_ids !== undefined ? checkBerthIds(input.berth_ids, context) : current?.berth_ids;
  return {
    company_name: input.company_name,
    email: input.email,
    imo: input.imo,
    vessel_name: input.vessel_name,
    window_start: windowStart,
    window_end: windowEnd,
    berth_ids: berthIds ?? [],
  };
}

export function decideCreateNomination(
  id: number,
  input: NominationInput,
  context: NominationContext,
  owner: number | null,
): NominationEvent[] {
  const checked = readNomination(input, context);
  return [{ type: 'NominationCreated', data: { id, ...checked, created_by: owner } }];
}

/** The own-* routes reach only the caller's nominations (403 otherwise); unknown ids are 400. */
function checkScope(state: NominationState, id: number, caller: number | null, own: boolean): NominationData {
  if (!state.nomination) throw cannotFindNomination(id);
  if (own && state.nomination.created_by !== caller) throw ApiError.forbidden('No permission for given nomination');
  return state.nomination;
}

/** A nomination whose window has ended counts as expired even before the expiry job has recorded it. */
export function effectiveStatus(state: NominationState, now: number): NominationStatus {
  const n = state.nomination;
  if (n && nominationExpires(state.status, parseAtom(n.window_end) as number, now)) return 'expired';
  return state.status;
}

export function decideUpdateNomination(
  state: NominationState,
  input: NominationInput & { id: number },
  context: NominationContext,
  caller: number | null,
): NominationEvent[] {
  const current = checkScope(state, input.id, caller, input.own === true);
  if (effectiveStatus(state, context.now) !== 'open') throw ApiError.badRequest('Only open nominations can be updated');
  const checked = readNomination(input, context, current);
  const next: NominationData = { ...current, ...checked };
  return JSON.stringify(next) === JSON.stringify(current) ? [] : [{ type: 'NominationUpdated', data: next }];
}

export function decideDeleteNomination(
  state: NominationState,
  id: number,
  now: number,
  caller: number | null,
  own: boolean,
): NominationEvent[] {
  checkScope(state, id, caller, own);
  if (effectiveStatus(state, now) !== 'open') throw ApiError.badRequest('Only open nominations can be deleted');
  return [{ type: 'NominationDeleted', data: { id } }];
}

/** The expiry job (and nothing else) records an ended window. */
export function decideExpireNomination(state: NominationState, now: number): NominationEvent[] {
  const n = state.nomination;
  if (!n || !nominationExpires(state.status, parseAtom(n.window_end) as number, now)) return [];
  return [{ type: 'NominationExpired', data: { id: n.id } }];
}

/**
 * Whether a slot request of this IMO with this ETA and laytime fits the nomination (the original's step 2):
 * open, same IMO, window start ≤ ETA and window end ≥ ETA + laytime.
 */
export function nominationFits(state: NominationState, imo: number, eta: number, laytimeMs: number, now: number) {
  const n = state.nomination;
  if (!n || n.imo !== imo || effectiveStatus(state, now) !== 'open') return false;
  return (parseAtom(n.window_start) as number) <= eta && (parseAtom(n.window_end) as number) >= eta + laytimeMs;
}
