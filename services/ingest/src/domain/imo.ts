// IMO numbers as the original checks them (docs/domain.md#imo-numbers): seven digits whose last
// digit is the last digit of the weighted sum of the first six (weights 7..2).

import { ApiError } from '@pcas/contracts';

/** Vessels posted with IMO 0 get 100000000 + their vessels row id, so they never clash with a real IMO. */
export const FAKE_IMO_BASE = 100_000_000;

export const fakeImo = (vesselRowId: number): number => FAKE_IMO_BASE + vesselRowId;

/** Throws ApiError 400 with the original's message when `imo` is not a valid 7-digit IMO. */
export function assertValidImo(imo: number): void {
  if (!Number.isInteger(imo) || imo < 1_000_000 || imo > 9_999_999) {
    throw ApiError.badRequest('IMO length should 7 digits or IMO should be 0');
  }
  const digits = String(imo);
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(digits[i]) * (7 - i);
  if (sum % 10 !== Number(digits[6])) {
    throw ApiError.badRequest('IMO number is not valid (automatic check calculation)');
  }
}

export function isValidImo(imo: number): boolean {
  try {
    assertValidImo(imo);
    return true;
  } catch {
    return false;
  }
}
