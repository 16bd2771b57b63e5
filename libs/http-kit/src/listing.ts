// The original's list semantics, shared by every list endpoint (docs/domain.md#lists):
// sort strings checked against a whitelist, the {data, pagination} envelope, the search rules and the export
// limit rules. Pure: each function returns SQL text and parameters, never runs a query.

import { ApiError } from '@pcas/errors';

/** One sort token: `field`, `field DESC`, `lower(field)` or `lower(field) DESC`. DESC is upper case only and
 * ASC is not accepted, as in the original; whitespace around and inside the token is tolerated. */
const SORT_TOKEN = /^\s*(?:lower\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)|([A-Za-z_][A-Za-z0-9_]*))(?:\s+(DESC))?\s*$/;

/**
 * Turns the API's `sort` string into a safe SQL ORDER BY list (without the `ORDER BY` keyword).
 * `allowed` is either the sortable field names (used verbatim in SQL) or a map from API field name to the SQL
 * expression it sorts by. An absent or blank `sort` uses `fallback`, which goes through the same rules.
 */
export function parseSort(
  sort: string | undefined | null,
  allowed: readonly string[] | Readonly<Record<string, string>>,
  fallback: string,
): string {
  const text = typeof sort === 'string' && sort.trim() !== '' ? sort : fallback;
  const lookup = (field: string): string | undefined => {
    if (Array.isArray(allowed)) return allowed.includes(field) ? field : undefined;
    const map = allowed as Readonly<Record<string, string>>;
    return Object.hasOwn(map, field) ? map[field] : undefined;
  };
  return text
    .split(',')
    .map((token) => {
      const match = SORT_TOKEN.exec(token);
      const expression = match ? lookup(match[1] ?? match[2]) : undefined;
      if (!match || expression === undefined) throw ApiError.badRequest(`Invalid orderBy: ${token.trim()}`);
      const column = match[1] !== undefined ? `lower(${expression})` : expression;
      return match[3] ? `${column} DESC` : column;
    })
    .join(', ');
}

export interface Pagination {
  start: number;
  limit: number;
  total: number;
}

export interface Paginated<T> {
  data: T[];
  pagination: Pagination;
}

/** The original's list envelope. `total` may come straight from a `count(*)` (a bigint string in pg). */
export function paginated<T>(
  rows: T[],
  page: { start: number; limit: number; total: number | string | bigint },
): Paginated<T> {
  return { data: rows, pagination: { start: page.start, limit: page.limit, total: Number(page.total) } };
}

export interface SqlFragment {
  /** SQL text using `$n` placeholders numbered after the given offset. */
  sql: string;
  params: unknown[];
}

export interface SearchOptions {
  /** Columns matched case-insensitively (ILIKE), OR-ed together. */
  columns: readonly string[];
  /** Column compared for equality when the search is all digits, at least 7 of them (an IMO number). */
  imoColumn?: string;
  /** Whether a leading `^` asks for a prefix match (the vessel-name searches). Default true. */
  caretPrefix?: boolean;
  /** How many `$n` placeholders the surrounding query already uses. Default 0. */
  offset?: number;
}

const INT4_MAX = 2_147_483_647;

/**
 * The original's search rules as a WHERE condition, or null when there is nothing to search for.
 * ≥7 digits with `imoColumn` → exact IMO; `^x` → prefix match; else substring match. LIKE wildcards typed by
 * the user are escaped (the original let `%` and `_` through as wildcards).
 */
export function searchClause(search: string | undefined | null, options: SearchOptions): SqlFragment | null {
  const text = typeof search === 'string' ? search.trim() : '';
  if (text === '') return null;
  const n = (options.offset ?? 0) + 1;
  if (options.imoColumn && /^[0-9]{7,}$/.test(text)) {
    const imo = Number(text);
    // An IMO column is int4: a longer number can match nothing and must not make PostgreSQL raise.
    if (imo > INT4_MAX) return { sql: 'FALSE', params: [] };
    return { sql: `${options.imoColumn} = $${n}`, params: [imo] };
  }
  if (options.columns.length === 0) return null;
  const prefix = (options.caretPrefix ?? true) && text.startsWith('^');
  const escaped = escapeLike(prefix ? text.slice(1) : text);
  const pattern = prefix ? `${escaped}%` : `%${escaped}%`;
  const conditions = options.columns.map((column) => `${column} ILIKE $${n}`);
  const sql = conditions.length === 1 ? conditions[0] : `(${conditions.join(' OR ')})`;
  return { sql, params: [pattern] };
}

/** Escapes LIKE wildcards so they match literally (backslash is PostgreSQL's default LIKE escape). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function toInteger(name: string, value: unknown): number {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && /^[-+]?[0-9]+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) {
    throw ApiError.badRequest(`Wrong parameter type: ${name} should be int but got '${String(value).slice(0, 100)}'`);
  }
  return n;
}

/**
 * The export endpoints' limit rules: absent → `fallback` (100); negative → 400 "Limit cannot be negative.
 * Given limit: N"; above `max` (100) → 400 "Maximum limit is 100 records. Given limit: N".
 */
export function parseLimit(value: unknown, options: { fallback?: number; max?: number } = {}): number {
  const { fallback = 100, max = 100 } = options;
  if (value === undefined || value === null || value === '') return fallback;
  const limit = toInteger('limit', value);
  if (limit < 0) throw ApiError.badRequest(`Limit cannot be negative. Given limit: ${limit}`);
  if (limit > max) throw ApiError.badRequest(`Maximum limit is ${max} records. Given limit: ${limit}`);
  return limit;
}

/** The export endpoints' offset rule: absent → `fallback` (0); negative → 400. */
export function parseOffset(value: unknown, fallback = 0): number {
  if (value === undefined || value === null || value === '') return fallback;
  const offset = toInteger('offset', value);
  if (offset < 0) throw ApiError.badRequest(`Offset cannot be negative. Given offset: ${offset}`);
  return offset;
}
