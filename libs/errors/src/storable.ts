// Input that must be refused with 400 before it reaches storage or an event: PostgreSQL refuses U+0000 in text
// and jsonb, and jsonb refuses a lone UTF-16 surrogate (`"\ud800"` in JSON), so either would surface as a 500
// that a data source retries forever; nesting without bound would overflow the stack of whatever serialises it.

import { ApiError } from './index.ts';

/** Deepest nesting of arrays and objects accepted: PHP's json_decode default, which the original relied on. */
export const MAX_NESTING = 512;

// A cheap test first; the exact one only for the rare text holding a surrogate, which is usually paired and
// harmless (an emoji).
const SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Throws ApiError 400 naming `name` (the top-level parameter) when `name` itself, or a string or object key
 * anywhere in `value`, holds U+0000 or a lone surrogate, or when arrays and objects nest deeper than
 * MAX_NESTING. Walks the value once without copying or serialising it.
 */
export function assertStorable(name: string, value: unknown): void {
  checkText(name, name);
  scan(name, value, 0);
}

function scan(name: string, value: unknown, depth: number): void {
  if (typeof value === 'string') {
    checkText(name, value);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (depth >= MAX_NESTING) throw ApiError.badRequest(`${name} is nested too deeply`);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) scan(name, value[i], depth + 1);
    return;
  }
  for (const key of Object.keys(value)) {
    checkText(name, key);
    scan(name, (value as Record<string, unknown>)[key], depth + 1);
  }
}

function checkText(name: string, text: string): void {
  if (text.includes('\u0000')) throw ApiError.badRequest(`${name} contains a NUL character`);
  if (SURROGATE.test(text) && LONE_SURROGATE.test(text)) {
    throw ApiError.badRequest(`${name} contains an invalid character`);
  }
}
