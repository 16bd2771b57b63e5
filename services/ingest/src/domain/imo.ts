// IMO numbers as the original checks them (docs/domain.md#imo-numbers); the check itself is @pcas/values' imoProblem.

import { ApiError } from '@pcas/contracts';
import { imoProblem } from '@pcas/values';

/** Vessels posted with IMO 0 get 100000000 + their vessels row id, so they never clash with a real IMO. */
export const FAKE_IMO_BASE = 100_000_000;

export const fakeImo = (vesselRowId: number): number => FAKE_IMO_BASE + vesselRowId;

/** Throws ApiError 400 with the original's message when `imo` is not a valid 7-digit IMO. */
export function assertValidImo(imo: number): void {
  const problem = imoProblem(imo);
  if (problem === 'length') throw ApiError.badRequest('IMO length should 7 digits or IMO should be 0');
  if (problem === 'check-digit') throw ApiError.badRequest('IMO number is not valid (automatic check calculation)');
}
