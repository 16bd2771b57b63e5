// Parameter handling as the original does it (docs/domain.md#parameters): merge path params with
// the JSON body (POST/PUT/DELETE) or the query string (GET), trim top-level strings, then check every declared
// parameter in declaration order with the original's messages. Pure: no I/O, no express.

import { ApiError, assertStorable } from '@pcas/errors';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { ParamSpec, ParamType } from './types.ts';

export const DEFAULT_MAX_LENGTH = 4096;
/** Longest value echoed back in an error message; the rest is cut so a huge input is not mirrored. */
const ECHO_LIMIT = 100;
/** Parameters whose values never appear in an error message. */
const SECRET_NAME = /password|token|secret|(^|_)key$/i;

const TYPES: ReadonlySet<ParamType> = new Set(['int', 'string', 'array', 'float', 'bool', 'mixed']);

type Raw = Record<string, unknown>;

/**
 * Merges the parameter sources in the original's order (later sources win, as PHP's array_merge) into an object
 * without a prototype, so keys such as `__proto__` are plain data. Non-object bodies (`[]`, `"x"`, `5`) carry no
 * parameters. Top-level strings are trimmed; nested values are left as sent.
 *
 * Every parameter of every source, declared or not (authorization sees them all), is checked here once for what
 * storage refuses (U+0000, a lone surrogate, unbounded nesting: assertStorable), so no route checks it itself.
 */
export function mergeParams(method: string, pathParams: Raw | undefined, body: unknown, query: unknown): Raw {
  const out: Raw = Object.create(null);
  assign(out, pathParams);
  if (method === 'GET' || method === 'HEAD') assign(out, query);
  else if (method === 'POST' || method === 'PUT' || method === 'DELETE') assign(out, body);
  return out;
}

function assign(target: Raw, source: unknown): void {
  if (source === null || typeof source !== 'object' || Array.isArray(source)) return;
  for (const key of Object.keys(source)) {
    const value = (source as Raw)[key];
    if (value === undefined) continue; // an optional path segment that was not given
    assertStorable(key, value);
    target[key] = typeof value === 'string' ? value.trim() : value;
  }
}

interface CompiledParam {
  name: string;
  spec: ParamSpec;
  maxLength: number;
  hasDefault: boolean;
}

/** Returns the declared parameters only, converted (int/float → number, bool → boolean), defaults applied. */
export type ParamValidator = (raw: Raw) => Record<string, unknown>;

/** One Ajv instance per app; each route compiles its own validator from it at startup. */
export function createAjv(): Ajv {
  // allowUnionTypes: `array` is "object or array" (a PHP array).
  return new Ajv({ allErrors: false, strict: true, allowUnionTypes: true });
}

/** A JSON schema accepting exactly what the type accepts (before conversion). */
function schemaFor(spec: ParamSpec, maxLength: number): Record<string, unknown> {
  let schema: Record<string, unknown>;
  switch (spec.type) {
    case 'int':
      // JSON numbers or digit strings; negative and fractional values are rejected as the original does.
      schema = {
        anyOf: [
          { type: 'integer', minimum: 0 },
          { type: 'string', pattern: '^[0-9]+$' },
        ],
      };
      break;
    case 'float':
      schema = {
        anyOf: [
          { type: 'number' },
          { type: 'string', pattern: '^[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?$' },
        ],
      };
      break;
    case 'bool':
      schema = { enum: [true, false, 'true', 'false', '1', '0', 1, 0] };
      break;
    case 'string':
      schema = { type: 'string', maxLength };
      break;
    case 'array':
      schema = { type: ['object', 'array'] };
      break;
    case 'mixed':
      // Anything, but a string is still bounded.
      schema = { anyOf: [{ type: 'string', maxLength }, { not: { type: 'string' } }] };
      break;
    default:
      throw new Error(`Unknown parameter type: ${String(spec.type)}`);
  }
  // An optional typed parameter sent as null counts as absent (the default applies) rather than a type error.
  if (spec.optional && spec.type !== 'mixed') schema = { anyOf: [{ type: 'null' }, schema] };
  return schema;
}

/** Compiles the validator of one route's parameter declaration. Throws on a malformed declaration. */
export function compileParams(ajv: Ajv, params: Record<string, ParamSpec>): ParamValidator {
  const list: CompiledParam[] = Object.entries(params).map(([name, spec]) => {
    if (!TYPES.has(spec.type)) throw new Error(`Unknown parameter type for ${name}: ${String(spec.type)}`);
    return {
      name,
      spec,
      maxLength: spec.maxLength ?? DEFAULT_MAX_LENGTH,
      hasDefault: Object.hasOwn(spec, 'default'),
    };
  });
  // One allOf entry per parameter, in declaration order, so the first failure is the one the original reports.
  const allOf = list.map((p) => ({
    ...(p.spec.optional ? {} : { required: [p.name] }),
    properties: { [p.name]: schemaFor(p.spec, p.maxLength) },
  }));
  // JSON Schema forbids an empty allOf (a route without parameters).
  const schema = allOf.length > 0 ? { type: 'object', allOf } : { type: 'object' };
  const validate = ajv.compile(schema);

  return (raw) => {
    if (!validate(raw)) throw errorFor(list, validate, raw);
    const out: Record<string, unknown> = {};
    for (const p of list) {
      const value = Object.hasOwn(raw, p.name) ? raw[p.name] : undefined;
      if (value === undefined || (value === null && p.spec.optional && p.spec.type !== 'mixed')) {
        if (p.hasDefault) out[p.name] = copyDefault(p.spec.default);
        continue;
      }
      out[p.name] = convert(p, value);
    }
    return out;
  };
}

function errorFor(list: CompiledParam[], validate: ValidateFunction, raw: Raw): ApiError {
  const errors = validate.errors ?? [];
  const first = errors[0] as ErrorObject | undefined;
  const index = first ? Number(/^#\/allOf\/(\d+)\//.exec(first.schemaPath)?.[1]) : Number.NaN;
  const param = list[index];
  if (!param) return ApiError.badRequest('Invalid parameters');
  if (first?.keyword === 'required') return ApiError.badRequest(`Missing parameter: ${param.name}`);
  if (errors.some((e) => e.keyword === 'maxLength')) return ApiError.badRequest(`Parameter too long: ${param.name}`);
  return wrongType(param, raw[param.name]);
}

function wrongType(param: CompiledParam, value: unknown): ApiError {
  return ApiError.badRequest(
    `Wrong parameter type: ${param.name} should be ${param.spec.type} but got '${echo(param.name, value)}'`,
  );
}

/** The value as shown in an error message: bounded, and never for secret-looking names. */
export function echo(name: string, value: unknown): string {
  if (SECRET_NAME.test(name)) return '<hidden>';
  let text: string;
  if (typeof value === 'string') text = value;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > ECHO_LIMIT ? `${text.slice(0, ECHO_LIMIT)}...` : text;
}

function convert(p: CompiledParam, value: unknown): unknown {
  switch (p.spec.type) {
    case 'int': {
      const n = typeof value === 'number' ? value : Number(value);
      // Digit strings beyond 2^53 would silently lose precision.
      if (!Number.isSafeInteger(n)) throw wrongType(p, value);
      return n;
    }
    case 'float': {
      const n = typeof value === 'number' ? value : Number(value);
      if (!Number.isFinite(n)) throw wrongType(p, value);
      return n;
    }
    case 'bool':
      return value === true || value === 'true' || value === '1' || value === 1;
    default:
      return value;
  }
}

/** Defaults such as `[]` must not be shared between requests, as a handler may mutate them. */
function copyDefault(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? structuredClone(value) : value;
}
