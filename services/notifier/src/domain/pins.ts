// A user's pinned vessels (docs/domain.md#pinned-vessels): the IMOs whose port calls the user follows, in the
// order given. PUT /pinned-vessel-ids replaces the whole list; the same list again changes nothing.

import { ApiError, type PinnedVesselsSet } from '@pcas/contracts';
import { isValidImo } from '@pcas/values';

/** More than anyone follows (the activity timeline shows a few hundred port calls); bounds one user's row count. */
export const MAX_PINNED_VESSELS = 500;

/** IMOs of vessels known only by name start here (see docs/domain.md#imo-numbers). */
const MADE_UP_IMO_MIN = 100_000_000;
const MADE_UP_IMO_MAX = MADE_UP_IMO_MIN + 2 ** 31 - 1;

/** An IMO a vessel of the timeline can have: a checked seven-digit IMO or a made-up one. */
export function isPinnableImo(value: unknown): value is number {
  if (typeof value !== 'number' || !Number.isInteger(value)) return false;
  return isValidImo(value) || (value >= MADE_UP_IMO_MIN && value <= MADE_UP_IMO_MAX);
}

/** A value as an error message shows it: JSON, cut short. */
const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

/**
 * The list as sent, checked: a JSON array of distinct IMOs (numbers, as the timeline's `ship.imo`), at most
 * MAX_PINNED_VESSELS. Anything else is a 400 naming the first offending value.
 */
export function checkPinnedVessels(vesselIds: unknown): number[] {
  if (!Array.isArray(vesselIds)) throw ApiError.badRequest('vessel_ids should be a list of IMO numbers');
  if (vesselIds.length > MAX_PINNED_VESSELS) {
    throw ApiError.badRequest(`Too many pinned vessels: at most ${MAX_PINNED_VESSELS}`);
  }
  const seen = new Set<number>();
  for (const value of vesselIds) {
    if (!isPinnableImo(value)) throw ApiError.badRequest(`Invalid IMO: ${shown(value)}`);
    if (seen.has(value)) throw ApiError.badRequest(`Duplicate IMO: ${value}`);
    seen.add(value);
  }
  return [...seen];
}

export interface PinsDecided {
  type: 'PinnedVesselsSet';
  data: PinnedVesselsSet;
}

/** The event setting `imos` as the user's list, or none when it already is (same IMOs in the same order). */
export function decideSetPins(userId: number, current: readonly number[], imos: readonly number[]): PinsDecided[] {
  const same = current.length === imos.length && current.every((imo, i) => imo === imos[i]);
  return same ? [] : [{ type: 'PinnedVesselsSet', data: { user_id: userId, imos: [...imos] } }];
}
