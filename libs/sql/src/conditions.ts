// List queries' filters by equality: a condition per value given, its value a parameter.

/**
 * `<column> = $n` for each column whose value is given (undefined: not filtered), the value pushed to `params`
 * (which may hold earlier parameters already).
 */
export function equalities(values: Record<string, unknown>, params: unknown[]): string[] {
  const parts: string[] = [];
  for (const [column, value] of Object.entries(values)) {
    if (value === undefined) continue;
    params.push(value);
    parts.push(`${column} = $${params.length}`);
  }
  return parts;
}

/** A WHERE clause of the conditions, or nothing when there are none. */
export const whereAll = (conditions: readonly string[]): string =>
  conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
