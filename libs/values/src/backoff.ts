// How long an outbox waits before trying a partner again (the VIS and DCSA deliveries): longer after each failure
// in a row, doubling from `baseMs` up to `maxMs`, with a random part so that many senders coming back together do
// not all knock at the same moment. Pure: the random source is passed in.

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

/**
 * The wait before the next attempt after `failures` failures in a row (1 = the first failure): between half and
 * all of min(maxMs, baseMs·2^(failures−1)).
 */
export function retryDelayMs(failures: number, policy: BackoffPolicy, random = Math.random): number {
  const n = Math.max(1, Math.floor(failures));
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.min(n - 1, 30));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
