// What the fleet benchmarks share: vessel numbers that pass the IMO check, and latency percentiles.

/** A 7-digit IMO number with a valid check digit, from any base (its last six digits). */
export function validImo(base: number): number {
  const digits = String(base).padStart(6, '0').slice(-6).split('').map(Number);
  const sum = digits.reduce((acc, d, i) => acc + d * (7 - i), 0);
  return Number(`${digits.join('')}${sum % 10}`);
}

/** The p-th percentile of ascending samples (nearest rank), null without samples. */
export const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Milliseconds to one decimal, as the JSON lines print them. */
export const round = (x: number | null) => (x === null ? null : Math.round(x * 10) / 10);
