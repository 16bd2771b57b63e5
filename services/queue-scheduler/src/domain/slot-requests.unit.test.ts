// Slot requests' decisions on hand-made states: placement (no nomination, no free slot, offered with its RTA
// window, berth and nomination reserved), the vessel's JIT ETA and the port's changes, pushing the next slot and a
// port block forward, cancellation, completion, and the history folded back into the state.

import type { BerthReservationData, NominationData, SlotRequestData, SlotRequestEvent } from '@pcas/contracts';
import { describe, expect, it } from 'vitest';
import type { BerthState } from './berths.ts';
import type { NominationState } from './nominations.ts';
import { isoUtc, queueSettings, DEFAULT_QUEUE_SETTINGS as settings } from './queue-rules.ts';
import {
  checkLaytimeBound,
  decideCancel,
  decideComplete,
  decideUpdate,
  evolveSlotRequest,
  type PlacementContext,
  place,
  readSlotRequest,
  receivedEvent,
} from './slot-requests.ts';

const HOUR = 3_600_000;
const MIN = 60_000;
const W0 = Date.UTC(2030, 0, 10);
const NOW = W0 - 24 * HOUR;
const IMO = 9074729;

const nomination = (over: Partial<NominationData> = {}): NominationState => ({
  nomination: {
    id: 7,
    company_name: 'Cargo Oy',
    email: 'c@cargo.example',
    imo: IMO,
    vessel_name: 'Alpha',
    window_start: isoUtc(W0),
    window_end: isoUtc(W0 + 12 * HOUR),
    berth_ids: [1, 2],
    created_by: 5,
    ...over,
  },
  status: 'open',
  slot_reservation_id: null,
});

const reservation = (id: number, start: number, end: number, over: Partial<BerthReservationData> = {}) => ({
  id,
  berth_id: 1,
  berth_reservation_type: 'vessel_reserved' as const,
  reservation_start: isoUtc(start),
  reservation_end: isoUtc(end),
  slot_reservation_id: null,
  ...over,
});

const berth = (id: number, reservations: BerthReservationData[], nominatable = true): BerthState => ({
  berth: { id, code: `B${id}`, name: `Berth ${id}`, nominatable },
  reservations: new Map(reservations.map((r) => [r.id, r])),
});

const context = (berths: Record<number, BerthState>, nominations = [nomination()]): PlacementContext => ({
  settings,
  now: NOW,
  nominations,
  berths: (id) => berths[id],
  reservationId: 100,
});

const request = readSlotRequest({
  email: 'master@alpha.example',
  imo: IMO,
  vessel_name: 'Alpha',
  loa: '120.5',
  beam: 20,
  draft: '7.5',
  laytime: '02:00',
  eta: isoUtc(W0 + 2 * HOUR),
  agent: true,
});

describe('reading a slot request', () => {
  it('takes the agent laytime as hh:mm and stores it as ISO; the port sends ISO', () => {
    expect(request).toMatchObject({ laytime: 'PT2H', laytimeMs: 2 * HOUR, loa: 120.5, draft: 7.5 });
    const port = readSlotRequest({ ...request, eta: isoUtc(W0), laytime: 'PT1H30M', agent: false });
    expect(port.laytime).toBe('PT1H30M');
    expect(() => readSlotRequest({ ...request, eta: isoUtc(W0), laytime: '02:00', agent: false })).toThrow(
      'Given laytime is not valid: 02:00',
    );
  });

  it('checks in the original order: e-mail, IMO, laytime, ETA', () => {
    const bad = { email: 'x', imo: 1, laytime: 'x', eta: 'x', agent: true };
    expect(() => readSlotRequest(bad)).toThrow('Given email address is not valid: x');
    expect(() => readSlotRequest({ ...bad, email: 'a@b.fi' })).toThrow('Given IMO is not valid: 1');
    expect(() => readSlotRequest({ ...bad, email: 'a@b.fi', imo: IMO })).toThrow('Given laytime is not valid: x');
    expect(() => readSlotRequest({ ...bad, email: 'a@b.fi', imo: IMO, laytime: '1:00' })).toThrow(
      'Given ETA is not in ISO format: x',
    );
  });
});

describe('the longest laytime', () => {
  it('is 72 hours unless set: at most that is taken, a minute more refused in the caller’s own form', () => {
    expect(() => checkLaytimeBound(72 * HOUR, true, settings)).not.toThrow();
    expect(() => checkLaytimeBound(72 * HOUR + MIN, true, settings)).toThrow(
      'Given laytime is longer than maximum laytime: 72:00',
    );
    expect(() => checkLaytimeBound(72 * HOUR + MIN, false, settings)).toThrow(
      'Given laytime is longer than maximum laytime: PT72H',
    );
    const set = queueSettings({ queue_max_laytime_duration: 'PT12H30M' });
    expect(() => checkLaytimeBound(12 * HOUR + 30 * MIN, true, set)).not.toThrow();
    expect(() => checkLaytimeBound(13 * HOUR, true, set)).toThrow(
      'Given laytime is longer than maximum laytime: 12:30',
    );
    // An hour count of any length is read (`\d+:\d\d`), so a huge one reaches the bound and is refused there.
    const huge = readSlotRequest({ ...request, eta: isoUtc(W0), laytime: '99999999999999999999:00', agent: true });
    expect(() => checkLaytimeBound(huge.laytimeMs, true, settings)).toThrow('longer than maximum laytime');
  });
});

describe('placing a slot request', () => {
  const fresh = { ...request, nomination_id: null };

  it('no open nomination of the IMO holding ETA..ETA+laytime: no_nomination', () => {
    expect(place(1, fresh, context({}, [])).placement.status).toBe('no_nomination');
    const short = nomination({ window_end: isoUtc(W0 + 3 * HOUR) }); // ETA+2h+laytime 2h passes it
    expect(place(1, fresh, context({}, [short])).placement.status).toBe('no_nomination');
    const reserved = { ...nomination(), status: 'reserved' as const };
    expect(place(1, fresh, context({}, [reserved])).placement.status).toBe('no_nomination');
  });

  it('offered on the earliest slot of its berths: berth reserved [S, S+L], RTA window [S−travel, +30 min], nomination reserved', () => {
    const S = W0 + 2 * HOUR + 30 * MIN;
    // Berth 1 is busy at S; berth 2 (priority 2) is free then.
    const placed = place(1, fresh, context({ 1: berth(1, [reservation(9, S - HOUR, S + HOUR)]), 2: berth(2, []) }));
    expect(placed.placement).toEqual({
      status: 'offered',
      nomination_id: 7,
      berth_id: 2,
      berth_reservation_id: 100,
      rta_window_start: isoUtc(W0 + 2 * HOUR),
      rta_window_end: isoUtc(W0 + 2 * HOUR + 30 * MIN),
    });
    expect(placed.berthEvent?.data).toEqual({
      id: 100,
      berth_id: 2,
      berth_reservation_type: 'vessel_reserved',
      reservation_start: isoUtc(S),
      reservation_end: isoUtc(S + 3 * HOUR),
      slot_reservation_id: 1,
    });
    expect(placed.nominationEvent?.data).toEqual({ id: 7, slot_reservation_id: 1 });
  });

  it('no gap before the window end on any berth: no_free_slot, the nomination kept for a later try', () => {
    const full = (id: number) => berth(id, [reservation(id * 10, W0, W0 + 12 * HOUR, { berth_id: id })]);
    const placed = place(1, fresh, context({ 1: full(1), 2: full(2) }));
    expect(placed.placement).toMatchObject({ status: 'no_free_slot', nomination_id: 7, berth_id: null });
    expect(placed.berthEvent).toBeUndefined();
    expect(placed.nominationEvent).toBeUndefined();
  });
});

describe('a slot request answered and changed', () => {
  const S = W0 + 2 * HOUR + 30 * MIN;
  const offered: SlotRequestData = {
    ...(receivedEvent(1, request, place(1, { ...request, nomination_id: null }, context({ 1: berth(1, []) })))
      .data as SlotRequestData),
  };
  const own = reservation(100, S, S + 3 * HOUR, { slot_reservation_id: 1 });
  /** The next vessel's slot request 2, accepted on reservation 101 from `start`, its RTA window the 30 min before. */
  const acceptedNext = (start: number, jitEta: number, over: Partial<SlotRequestData> = {}): SlotRequestData => ({
    ...offered,
    id: 2,
    status: 'accepted',
    berth_reservation_id: 101,
    rta_window_start: isoUtc(start - 30 * MIN),
    rta_window_end: isoUtc(start),
    jit_eta: isoUtc(jitEta),
    ...over,
  });

  it('the vessel sends a JIT ETA within the RTA window: accepted, its slot kept', () => {
    const out = decideUpdate(
      offered,
      { laytime: '02:00', jit_eta: isoUtc(W0 + 2 * HOUR + 10 * MIN), agent: true },
      { settings, berth: berth(1, [own]), nomination: nomination(), slotRequests: () => undefined },
    );
    expect(out.slotEvents).toEqual([
      {
        type: 'SlotRequestUpdated',
        data: expect.objectContaining({
          status: 'accepted',
          laytime: 'PT2H',
          jit_eta: isoUtc(W0 + 2 * HOUR + 10 * MIN),
        }),
      },
    ]);
    expect(out.berthEvents).toEqual([]);
  });

  it('a shorter laytime resizes the slot on the calendar as read; a slot an earlier one touches is refused', () => {
    const ctx = (reservations: BerthReservationData[]) => ({
      settings,
      berth: berth(1, reservations),
      nomination: nomination(),
      slotRequests: () => undefined,
    });
    const shorter = { laytime: '01:00', jit_eta: isoUtc(W0 + 2 * HOUR + 10 * MIN), agent: true };
    const out = decideUpdate(offered, shorter, ctx([own, reservation(101, S + 5 * HOUR, S + 6 * HOUR)]));
    expect(out.berthEvents).toEqual([
      {
        type: 'BerthReservationMoved',
        data: { id: 100, berth_id: 1, reservation_start: isoUtc(S), reservation_end: isoUtc(S + 2 * HOUR) },
      },
    ]);
    expect(out.slotEvents[0].data).toMatchObject({ status: 'accepted', laytime: 'PT1H' });
    // The inclusive overlap rule: a reservation ending at the slot's start overlaps it.
    expect(() => decideUpdate(offered, shorter, ctx([reservation(99, S - HOUR, S), own]))).toThrow(
      'Given laytime not possible: 01:00',
    );
  });

  it('a JIT ETA outside the window, or a request not offered/accepted/updated, is refused', () => {
    const ctx = { settings, berth: berth(1, [own]), nomination: nomination(), slotRequests: () => undefined };
    expect(() => decideUpdate(offered, { laytime: '02:00', jit_eta: isoUtc(W0 + 3 * HOUR), agent: true }, ctx)).toThrow(
      `Given JIT ETA is not within RTA window: ${isoUtc(W0 + 2 * HOUR)} - ${isoUtc(W0 + 2 * HOUR + 30 * MIN)}`,
    );
    expect(() =>
      decideUpdate({ ...offered, status: 'no_free_slot' }, { laytime: '1:00', jit_eta: isoUtc(W0), agent: true }, ctx),
    ).toThrow('Invalid current slot reservation status: no_free_slot');
  });

  it('a longer laytime pushes the next vessel slot and a port block forward; the pushed slot is updated', () => {
    const nextStart = S + 3 * HOUR + 10 * MIN;
    const next = reservation(101, nextStart, nextStart + 3 * HOUR, { slot_reservation_id: 2 });
    const block = reservation(102, nextStart + 3 * HOUR + MIN, nextStart + 4 * HOUR, {
      berth_reservation_type: 'port_blocked',
    });
    const other = acceptedNext(nextStart, nextStart - 25 * MIN);
    const out = decideUpdate(
      offered,
      { laytime: '03:00', jit_eta: isoUtc(W0 + 2 * HOUR), agent: true },
      {
        settings,
        berth: berth(1, [own, next, block]),
        nomination: nomination(),
        slotRequests: (id) => (id === 2 ? other : undefined),
      },
    );
    // Max laytime before the next slot: 3h10 − 30 − 30 − 1 = 2h09; 3h asks 51 min more.
    const push = 51 * MIN;
    expect(out.berthEvents.map((e) => e.data)).toEqual([
      {
        id: 102,
        berth_id: 1,
        reservation_start: isoUtc(nextStart + 3 * HOUR + MIN + push),
        reservation_end: isoUtc(nextStart + 4 * HOUR + push),
      },
      {
        id: 101,
        berth_id: 1,
        reservation_start: isoUtc(nextStart + push),
        reservation_end: isoUtc(nextStart + 3 * HOUR + push),
      },
      { id: 100, berth_id: 1, reservation_start: isoUtc(S), reservation_end: isoUtc(S + 4 * HOUR) },
    ]);
    expect(out.shiftedSlotEvents).toEqual([
      {
        type: 'SlotRequestPushedForward',
        data: expect.objectContaining({
          id: 2,
          status: 'updated',
          rta_window_start: isoUtc(nextStart + push - 30 * MIN),
          jit_eta: isoUtc(nextStart + push - 30 * MIN), // its JIT ETA was before the new window
        }),
      },
    ]);
    expect(out.shiftedBlocks.map((b) => b.id)).toEqual([102]);
  });

  it('a laytime longer than the longest one is refused before anything is decided, from the vessel and the port', () => {
    const ctx = { settings, berth: berth(1, [own]), nomination: nomination(), slotRequests: () => undefined };
    const jit = isoUtc(W0 + 2 * HOUR + 10 * MIN);
    expect(() => decideUpdate(offered, { laytime: '72:01', jit_eta: jit, agent: true }, ctx)).toThrow(
      'Given laytime is longer than maximum laytime: 72:00',
    );
    expect(() => decideUpdate(offered, { laytime: 'P4D', jit_eta: jit, agent: false }, ctx)).toThrow(
      'Given laytime is longer than maximum laytime: PT72H',
    );
    // Checked before the JIT ETA: a bad one does not hide it.
    expect(() => decideUpdate(offered, { laytime: '80:00', jit_eta: 'x', agent: true }, ctx)).toThrow(
      'longer than maximum laytime',
    );
  });

  describe('a push forward and the pushed vessel’s nomination window', () => {
    const nextStart = S + 3 * HOUR + 10 * MIN;
    const next = reservation(101, nextStart, nextStart + 3 * HOUR, { slot_reservation_id: 2 });
    const other = acceptedNext(nextStart, nextStart - 20 * MIN, { nomination_id: 8 });
    // 3 h asks 51 min more than the gap (see above): the next slot would end at nextStart + 3h51.
    const pushedEnd = nextStart + 3 * HOUR + 51 * MIN;
    const ctx = (windowEnd: number | undefined) => ({
      settings,
      berth: berth(1, [own, next]),
      nomination: nomination(),
      slotRequests: (id: number) => (id === 2 ? other : undefined),
      nominationWindowEnd: (id: number) => (id === 8 ? windowEnd : undefined),
    });
    const longer = (agent: boolean) => ({
      laytime: agent ? '03:00' : 'PT3H',
      jit_eta: isoUtc(W0 + 2 * HOUR),
      agent,
    });

    it('pushes it while it still ends by its window end', () => {
      const out = decideUpdate(offered, longer(true), ctx(pushedEnd));
      expect(out.shiftedSlotEvents.map((e) => e.data.id)).toEqual([2]);
      expect(out.berthEvents.find((e) => e.data.id === 101)?.data).toMatchObject({
        reservation_end: isoUtc(pushedEnd),
      });
    });

    it('refuses when it would end after its window end: the vessel is not told which, the port is', () => {
      expect(() => decideUpdate(offered, longer(true), ctx(pushedEnd - 1000))).toThrow(
        'Given laytime not possible: 03:00 (it would push another vessel beyond its nomination window; the port can move it by hand)',
      );
      expect(() => decideUpdate(offered, longer(false), ctx(pushedEnd - 1000))).toThrow(
        'Given laytime not possible: PT3H (it would push slot reservation 2 beyond its nomination window; move or cancel it first)',
      );
    });
  });

  it('the port moves the RTA window: inside the nomination and free on the berth, else refused', () => {
    const ctx = {
      settings,
      berth: berth(1, [own, reservation(101, W0 + 8 * HOUR, W0 + 9 * HOUR)]),
      nomination: nomination(),
      slotRequests: () => undefined,
    };
    const at = (h: number) => ({
      laytime: 'PT2H',
      jit_eta: isoUtc(W0 + h * HOUR),
      rta_window_start: isoUtc(W0 + h * HOUR),
      agent: false,
    });
    expect(() => decideUpdate(offered, at(11), ctx)).toThrow(
      `Reserved nomination not valid with given RTA window start: ${isoUtc(W0 + 11 * HOUR)}`,
    );
    expect(() => decideUpdate(offered, at(7), ctx)).toThrow(
      `Berth not free with given RTA window start: ${isoUtc(W0 + 7 * HOUR)}`,
    );
    const out = decideUpdate(offered, at(1), ctx);
    expect(out.slotEvents[0].data).toMatchObject({ status: 'updated', rta_window_start: isoUtc(W0 + HOUR) });
    expect(out.berthEvents[0].data).toMatchObject({ reservation_start: isoUtc(W0 + HOUR + 30 * MIN) });
  });

  it('cancelled: the berth reservation removed, the nomination open again; a cancelled one cannot be again', () => {
    const reserved = { ...nomination(), status: 'reserved' as const, slot_reservation_id: 1 };
    const out = decideCancel(offered, true, berth(1, [own]), reserved);
    expect(out.slotEvent).toEqual({ type: 'SlotRequestCancelled', data: { id: 1, status: 'cancelled_by_vessel' } });
    expect(out.berthEvent).toEqual({ type: 'BerthReservationRemoved', data: { id: 100, berth_id: 1 } });
    expect(out.nominationEvent).toEqual({ type: 'NominationReopened', data: { id: 7, slot_reservation_id: 1 } });
    const cancelled = evolveSlotRequest(offered, out.slotEvent) as SlotRequestData;
    expect(() => decideCancel(cancelled, false, undefined, undefined)).toThrow(
      'Invalid current slot reservation status: cancelled_by_vessel',
    );
  });

  it('completes only after RTA start + laytime + RTA window + travel + buffer', () => {
    const end = W0 + 2 * HOUR + 2 * HOUR + 30 * MIN + 30 * MIN + 30 * MIN;
    expect(decideComplete(offered, settings, end)).toEqual([]);
    expect(decideComplete(offered, settings, end + 1000)).toEqual([{ type: 'SlotRequestCompleted', data: { id: 1 } }]);
  });

  it('its history folds back into its state', () => {
    const history: SlotRequestEvent[] = [
      { type: 'SlotRequestReceived', data: offered },
      {
        type: 'SlotRequestUpdated',
        data: { ...offered, status: 'accepted', laytime: 'PT3H', jit_eta: isoUtc(W0 + 2 * HOUR) },
      },
      { type: 'SlotRequestCancelled', data: { id: 1, status: 'cancelled_by_port' } },
    ];
    const state = history.reduce(evolveSlotRequest, null) as SlotRequestData;
    expect(state).toMatchObject({
      status: 'cancelled_by_port',
      laytime: 'PT3H',
      jit_eta: null,
      rta_window_start: null,
      nomination_id: null,
      berth_id: offered.berth_id, // the original keeps the berth
    });
  });
});
