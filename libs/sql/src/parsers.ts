// int8 (bigint) arrives as text; our positions and ids stay far below 2^53, so they are parsed as numbers.

export const INT8_OID = 20;
export const INT8_ARRAY_OID = 1016;

export function parseInt8(value: string): number {
  const n = Number(value);
  // Failing loudly beats silently losing precision on a value we did not expect to be that large.
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${value} is outside the safe integer range`);
  return n;
}

type Nested = string | null | Nested[];
type NestedNumbers = number | null | NestedNumbers[];

/** Maps an already-split (possibly nested) array of int8 texts to numbers. */
export function int8ArrayOf(values: Nested[]): NestedNumbers[] {
  return values.map((v) => (v === null ? null : Array.isArray(v) ? int8ArrayOf(v) : parseInt8(v)));
}
