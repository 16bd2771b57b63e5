// Nominations' and berths' decisions on hand-made states: the original's checks in its order, duplicates
// dropped, the own scope, only open ones changed, expiry; berths' nominatable rule and the port blocks' checks.

import type { BerthData, BerthReservationData, NominationInput } from '@pcas/contracts';
import { describe, expect, it } from 'vitest';
import {
  type BerthState,
  decideCreateReservation,
  decideMoveReservation,
  decideRemoveReservation,
  decideUpdateBerth,
  emptyBerth,
  evolveBerth,
  readNominatable,
} from './berths.ts';
import {
  decideCreateNomination,
  decideDeleteNomination,
  decideExpireNomination,
  decideUpdateNomination,
  emptyNomination,
  evolveNomination,
  type NominationContext,
  type NominationState,
} from './nominations.ts';
import { isoUtc } from './queue-rules.ts';

const HOUR = 3_600_000;
const NOW = Date.UTC(2030, 0, 9, 12);
const W0 = Date.UTC(2030, 0, 10);
const berths: Record<number, BerthData> = {
  1: { id: 1, code: 'B1', name: 'North quay', nominatable: true },
  2: { id: 2, code: 'B2', name: 'Oil pier', nominatable: false },
};
const ctx: NominationContext = { now: NOW, timeZone: 'UTC', berths: (id) => berths[id] };
const input = (over: Partial<NominationInput> = {}): NominationInput => ({
  company_name: 'Cargo Oy',
  email: 'c@cargo.example',
  imo: 9074729,
  vessel_name: 'Alpha',
  window_start: isoUtc(W0),
  window_end: isoUtc(W0 + 12 * HOUR),
  berth_ids: [1],
  ...over,
});
const created = (owner = 5): NominationState =>
  decideCreateNomination(7, input({ berth_ids: [1, '1', 1] }), ctx, owner).reduce(evolveNomination, emptyNomination());

describe('nominations', () => {
  it('created open, owned, duplicates in the berth list dropped in order', () => {
    expect(created()).toMatchObject({ status: 'open', nomination: { id: 7, berth_ids: [1], created_by: 5 } });
  });

  it("checks in the original's order with its messages", () => {
    const fails = (over: Partial<NominationInput>) => () => decideCreateNomination(1, input(over), ctx, 5);
    expect(fails({ email: 'x', imo: 1, window_end: undefined })).toThrow('Only one window date given');
    expect(fails({ email: 'x', imo: 1 })).toThrow('Given email address is not valid: x');
    expect(fails({ imo: 1234568 })).toThrow('Given IMO is not valid: 1234568');
    expect(fails({ window_start: isoUtc(W0 + HOUR), window_end: isoUtc(W0) })).toThrow(
      'Window start must be before window end',
    );
    expect(fails({ window_start: isoUtc(NOW - 3 * 24 * HOUR) })).toThrow('Window start must be after current date');
    expect(fails({ window_end: isoUtc(NOW + 40 * 24 * HOUR) })).toThrow(
      'Window end can be maximum one month in advance',
    );
    expect(fails({ berth_ids: [1, 9] })).toThrow('Given berth ID is invalid: 9');
    expect(fails({ berth_ids: [2] })).toThrow('Given berth ID cannot be nominated: 2');
  });

  it('the own routes reach only the caller’s nominations (403); the port’s reach all', () => {
    const state = created(5);
    const change = input({ id: 7, company_name: 'New Oy', own: true }) as NominationInput & { id: number };
    expect(() => decideUpdateNomination(state, change, ctx, 6)).toThrow('No permission for given nomination');
    expect(() => decideDeleteNomination(state, 7, NOW, 6, true)).toThrow('No permission for given nomination');
    expect(decideUpdateNomination(state, change, ctx, 5)[0].data).toMatchObject({ company_name: 'New Oy' });
    expect(decideUpdateNomination(state, { ...change, own: false }, ctx, 6)).toHaveLength(1);
    expect(() => decideUpdateNomination(emptyNomination(), change, ctx, 5)).toThrow(
      'Cannot find nomination instance with given id: 7',
    );
  });

  it('only open ones change; an ended window reads as expired and the job records it once', () => {
    const reserved = evolveNomination(created(), {
      type: 'NominationReserved',
      data: { id: 7, slot_reservation_id: 3 },
    });
    const change = input({ id: 7 }) as NominationInput & { id: number };
    expect(() => decideUpdateNomination(reserved, change, ctx, 5)).toThrow('Only open nominations can be updated');
    expect(() => decideDeleteNomination(reserved, 7, NOW, 5, false)).toThrow('Only open nominations can be deleted');
    const later = W0 + 13 * HOUR;
    expect(() => decideUpdateNomination(created(), change, { ...ctx, now: later }, 5)).toThrow(
      'Only open nominations can be updated',
    );
    expect(decideExpireNomination(created(), NOW)).toEqual([]);
    const expired = decideExpireNomination(created(), later);
    expect(expired).toEqual([{ type: 'NominationExpired', data: { id: 7 } }]);
    expect(decideExpireNomination(evolveNomination(created(), expired[0]), later)).toEqual([]);
  });
});

describe('berths and port blocks', () => {
  const berth: BerthState = evolveBerth(emptyBerth(), { type: 'BerthCreated', data: berths[1] });
  const block = (start: number, end: number, type = 'port_blocked') => ({
    berth_reservation_type: type,
    reservation_start: isoUtc(start),
    reservation_end: isoUtc(end),
  });
  const withBlock = decideCreateReservation(berth, 1, 10, block(W0, W0 + HOUR), false).reduce(evolveBerth, berth);

  it('nominatable only for exactly true or 1; an unchanged berth decides nothing', () => {
    expect([true, 1, 'true', '1', 'yes', false].map(readNominatable)).toEqual([true, true, false, false, false, false]);
    expect(decideUpdateBerth(berth, { id: 1, code: 'B1', name: 'North quay', nominatable: 1 })).toEqual([]);
    expect(() => decideUpdateBerth(emptyBerth(), { id: 3, code: '', name: '', nominatable: 1 })).toThrow(
      'Cannot find berth instance with given id: 3',
    );
  });

  it('a block must fit the calendar (touching counts as overlapping), with a known type and a real slot request', () => {
    expect(() => decideCreateReservation(withBlock, 1, 11, block(W0 + HOUR, W0 + 2 * HOUR), false)).toThrow(
      `Given time slot is not free: ${isoUtc(W0 + HOUR)} - ${isoUtc(W0 + 2 * HOUR)}`,
    );
    expect(() => decideCreateReservation(berth, 1, 11, block(W0, W0 + HOUR, 'closed'), false)).toThrow(
      'Invalid berth reservation type: closed',
    );
    expect(() =>
      decideCreateReservation(berth, 1, 11, { ...block(W0, W0 + HOUR), slot_reservation_id: 4 }, false),
    ).toThrow('Invalid slot reservation ID: 4');
    expect(() => decideCreateReservation(berth, 1, 11, block(W0 + HOUR, W0), false)).toThrow(
      'Reservation start must be before reservation end',
    );
    const closed = evolveBerth(berth, { type: 'BerthUpdated', data: { ...berths[1], nominatable: false } });
    expect(() => decideCreateReservation(closed, 1, 11, block(W0, W0 + HOUR), false)).toThrow(
      'Given berth ID cannot be nominated: 1',
    );
  });

  it("only port blocks are moved or removed; a move may overlap the block's own old period", () => {
    const vessel: BerthReservationData = {
      id: 12,
      berth_id: 1,
      berth_reservation_type: 'vessel_reserved',
      reservation_start: isoUtc(W0 + 5 * HOUR),
      reservation_end: isoUtc(W0 + 6 * HOUR),
      slot_reservation_id: 3,
    };
    const state = evolveBerth(withBlock, { type: 'BerthReservationMade', data: vessel });
    expect(() => decideRemoveReservation(state, 12)).toThrow('Only port block reservations can be deleted');
    expect(() => decideMoveReservation(state, 12, block(W0, W0 + HOUR))).toThrow(
      'Only port block reservations can be updated',
    );
    expect(decideMoveReservation(state, 10, block(W0 + 30 * 60_000, W0 + 2 * HOUR))).toHaveLength(1);
    expect(() => decideMoveReservation(state, 10, block(W0, W0 + 5 * HOUR))).toThrow('Given time slot is not free');
    const removed = decideRemoveReservation(state, 10).reduce(evolveBerth, state);
    expect([...removed.reservations.keys()]).toEqual([12]);
  });
});
