// What a call refuses with, for a unit test to assert on: the test fails when the call does not refuse (the
// synchronous counterpart of libs/testing's `rejected`).

import type { ApiError } from '@pcas/contracts';

/** What `fn` throws. */
export function thrown<E = ApiError>(fn: () => unknown): E {
  try {
    fn();
  } catch (error) {
    return error as E;
  }
  throw new Error('expected a throw');
}
