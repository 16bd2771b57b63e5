// The parameter schemas of the route table, one builder per parameter type, so a declaration reads as
// `{ role: text(64), description: optionalText(1000) }`. The kit's ParamSpec (libs/http-kit) is what they build.

import type { ParamSpec } from '@pcas/http-kit';

/** A string; without maxLength the kit's default bound (4096) applies. */
export const text = (maxLength?: number): ParamSpec =>
  maxLength === undefined ? { type: 'string' } : { type: 'string', maxLength };

/** A non-negative integer, sent as a JSON number or a digit string. */
export const int = (): ParamSpec => ({ type: 'int' });

export const float = (): ParamSpec => ({ type: 'float' });

export const bool = (): ParamSpec => ({ type: 'bool' });

/** A JSON object or array (the original's PHP array). */
export const array = (): ParamSpec => ({ type: 'array' });

/** Any JSON value; a string is bounded by maxLength (the kit's default when absent). */
export const mixed = (maxLength?: number): ParamSpec =>
  maxLength === undefined ? { type: 'mixed' } : { type: 'mixed', maxLength };

/**
 * The parameter may be absent (still type-checked when present); a given fallback becomes its default. The
 * default key is only set when a fallback is given, since the kit tells "no default" by the key's absence.
 */
export const optional = (spec: ParamSpec, ...fallback: [unknown?]): ParamSpec =>
  fallback.length === 0 ? { ...spec, optional: true } : { ...spec, optional: true, default: fallback[0] };

export const optionalText = (maxLength?: number): ParamSpec => optional(text(maxLength));

export const optionalInt = (): ParamSpec => optional(int());
