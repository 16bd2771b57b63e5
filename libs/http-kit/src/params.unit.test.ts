import { ApiError, MAX_NESTING } from '@pcas/errors';
import { describe, expect, it } from 'vitest';
import { compileParams, createAjv, echo, mergeParams } from './params.ts';
import type { ParamSpec } from './types.ts';

const ajv = createAjv();

function check(params: Record<string, ParamSpec>, raw: Record<string, unknown>) {
  return compileParams(ajv, params)(mergeParams('POST', undefined, raw, undefined));
}

function failure(params: Record<string, ParamSpec>, raw: Record<string, unknown>): ApiError {
  try {
    check(params, raw);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected a validation error');
}

describe('mergeParams', () => {
  it('takes the body for POST/PUT/DELETE and the query for GET, after the path params', () => {
    const path = { id: '5' };
    expect({ ...mergeParams('GET', path, { a: 1 }, { q: 'x' }) }).toEqual({ id: '5', q: 'x' });
    expect({ ...mergeParams('DELETE', path, { a: 1 }, { q: 'x' }) }).toEqual({ id: '5', a: 1 });
    expect({ ...mergeParams('PUT', path, undefined, { q: 'x' }) }).toEqual({ id: '5' });
  });

  it('lets the body override a path param, as PHP array_merge does', () => {
    expect(mergeParams('PUT', { id: '5' }, { id: 6 }, undefined).id).toBe(6);
  });

  it('trims top-level strings only', () => {
    const merged = mergeParams('POST', { p: ' a ' }, { s: '  b\n', list: [' c '], obj: { d: ' e ' } }, undefined);
    expect(merged.p).toBe('a');
    expect(merged.s).toBe('b');
    expect(merged.list).toEqual([' c ']);
    expect(merged.obj).toEqual({ d: ' e ' });
  });

  it('treats a body that is not an object as no parameters', () => {
    expect(Object.keys(mergeParams('DELETE', { id: '1' }, [], undefined))).toEqual(['id']);
    expect(Object.keys(mergeParams('POST', undefined, 'text', undefined))).toEqual([]);
    expect(Object.keys(mergeParams('POST', undefined, null, undefined))).toEqual([]);
  });

  it('skips optional path segments that were not given', () => {
    expect(Object.keys(mergeParams('GET', { limit: undefined }, undefined, {}))).toEqual([]);
  });

  it('keeps __proto__ as plain data', () => {
    const merged = mergeParams('POST', undefined, JSON.parse('{"__proto__": {"polluted": true}}'), undefined);
    expect(Object.hasOwn(merged, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('mergeParams: what storage refuses', () => {
  const refusal = (run: () => unknown): { status: number; message: string } => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      return { status: (error as ApiError).status, message: (error as ApiError).message };
    }
    throw new Error('expected a refusal');
  };
  const nul = (name: string) => ({ status: 400, message: `${name} contains a NUL character` });

  it('refuses U+0000 in any source, at any depth, in values and keys, naming the top-level parameter', () => {
    expect(refusal(() => mergeParams('POST', undefined, { email: 'a\u0000@b.c' }, undefined))).toEqual(nul('email'));
    expect(refusal(() => mergeParams('POST', undefined, { payload: { a: [{ b: 'x\u0000' }] } }, undefined))).toEqual(
      nul('payload'),
    );
    expect(refusal(() => mergeParams('POST', undefined, { payload: { 'k\u0000': 1 } }, undefined))).toEqual(
      nul('payload'),
    );
    expect(refusal(() => mergeParams('GET', undefined, undefined, { search: ['ok', '\u0000'] }))).toEqual(
      nul('search'),
    );
    expect(refusal(() => mergeParams('PUT', { name: 'a\u0000' }, {}, undefined))).toEqual(nul('name'));
    // Undeclared parameters too: authorization sees every parameter, before validation drops the undeclared.
    expect(refusal(() => mergeParams('POST', undefined, { 'x\u0000': 1 }, undefined))).toEqual(nul('x\u0000'));
    // Trimming does not hide it (U+0000 is not white space).
    expect(refusal(() => mergeParams('POST', undefined, { name: '\u0000' }, undefined))).toEqual(nul('name'));
  });

  it('refuses a lone surrogate but keeps paired ones and other unusual characters', () => {
    expect(refusal(() => mergeParams('POST', undefined, { name: 'a\ud800' }, undefined))).toEqual({
      status: 400,
      message: 'name contains an invalid character',
    });
    expect(refusal(() => mergeParams('POST', undefined, { p: { '\udc00': 1 } }, undefined)).message).toBe(
      'p contains an invalid character',
    );
    const kept = { name: 'ship 🚢 \uffff \u0001 é', list: [1, null, true, { a: 'b' }] };
    expect({ ...mergeParams('POST', undefined, kept, undefined) }).toEqual(kept);
  });

  it('refuses arrays and objects nested deeper than MAX_NESTING, accepting that depth', () => {
    const nest = (depth: number): unknown => {
      let value: unknown = 'leaf';
      for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { k: value };
      return value;
    };
    expect(() => mergeParams('POST', undefined, { payload: nest(MAX_NESTING) }, undefined)).not.toThrow();
    expect(refusal(() => mergeParams('POST', undefined, { payload: nest(MAX_NESTING + 1) }, undefined))).toEqual({
      status: 400,
      message: 'payload is nested too deeply',
    });
    // As deep as a 1 MB body of brackets gives, which would overflow the stack of JSON.stringify: a 400, not a crash.
    expect(refusal(() => mergeParams('POST', undefined, { payload: nest(200_000) }, undefined)).message).toBe(
      'payload is nested too deeply',
    );
  });
});

describe('compileParams', () => {
  it('reports the first missing parameter in declaration order', () => {
    const params: Record<string, ParamSpec> = { a: { type: 'string' }, b: { type: 'int' } };
    expect(failure(params, {}).message).toBe('Missing parameter: a');
    expect(failure(params, { a: 'x' }).message).toBe('Missing parameter: b');
    // a type error of an earlier parameter wins over a later missing one
    expect(failure(params, { a: 5 }).message).toBe("Wrong parameter type: a should be string but got '5'");
    expect(failure(params, { a: 5 }).status).toBe(400);
  });

  it('checks int as the original: digits only, converted to a number', () => {
    const params: Record<string, ParamSpec> = { id: { type: 'int' } };
    expect(check(params, { id: '42' })).toEqual({ id: 42 });
    expect(check(params, { id: 42 })).toEqual({ id: 42 });
    expect(check(params, { id: ' 7 ' })).toEqual({ id: 7 });
    expect(failure(params, { id: '-1' }).message).toBe("Wrong parameter type: id should be int but got '-1'");
    expect(failure(params, { id: -1 }).message).toBe("Wrong parameter type: id should be int but got '-1'");
    expect(failure(params, { id: '1.5' }).message).toBe("Wrong parameter type: id should be int but got '1.5'");
    expect(failure(params, { id: 'abc' }).message).toBe("Wrong parameter type: id should be int but got 'abc'");
    expect(failure(params, { id: '' }).message).toBe("Wrong parameter type: id should be int but got ''");
    expect(failure(params, { id: null }).message).toBe("Wrong parameter type: id should be int but got 'null'");
    expect(failure(params, { id: '123456789012345678901' }).message).toMatch(/^Wrong parameter type: id/);
  });

  it('checks string: JSON numbers and arrays rejected', () => {
    const params: Record<string, ParamSpec> = { name: { type: 'string' } };
    expect(check(params, { name: ' x ' })).toEqual({ name: 'x' });
    expect(check(params, { name: '' })).toEqual({ name: '' });
    expect(failure(params, { name: 12 }).message).toBe("Wrong parameter type: name should be string but got '12'");
    expect(failure(params, { name: ['a'] }).message).toBe(
      `Wrong parameter type: name should be string but got '["a"]'`,
    );
  });

  it('checks array: a JSON object or array', () => {
    const params: Record<string, ParamSpec> = { payload: { type: 'array' } };
    expect(check(params, { payload: { a: 1 } })).toEqual({ payload: { a: 1 } });
    expect(check(params, { payload: [1] })).toEqual({ payload: [1] });
    expect(failure(params, { payload: 'x' }).message).toBe("Wrong parameter type: payload should be array but got 'x'");
    expect(failure(params, { payload: null }).message).toMatch(/should be array/);
  });

  it('accepts float and bool (which the original could never accept when required)', () => {
    const params: Record<string, ParamSpec> = { loa: { type: 'float' }, ok: { type: 'bool' } };
    expect(check(params, { loa: 12.5, ok: true })).toEqual({ loa: 12.5, ok: true });
    expect(check(params, { loa: '12.5', ok: 'false' })).toEqual({ loa: 12.5, ok: false });
    expect(check(params, { loa: '-3', ok: '1' })).toEqual({ loa: -3, ok: true });
    expect(check(params, { loa: 7, ok: '0' })).toEqual({ loa: 7, ok: false });
    expect(failure(params, { loa: 'wide', ok: true }).message).toBe(
      "Wrong parameter type: loa should be float but got 'wide'",
    );
    expect(failure(params, { loa: 1, ok: 'yes' }).message).toBe(
      "Wrong parameter type: ok should be bool but got 'yes'",
    );
  });

  it('accepts anything for mixed', () => {
    const params: Record<string, ParamSpec> = { v: { type: 'mixed' } };
    for (const v of [1, 'x', null, [1], { a: 1 }, true]) expect(check(params, { v })).toEqual({ v });
  });

  it('type-checks optional parameters that are present and applies defaults to absent ones', () => {
    const params: Record<string, ParamSpec> = {
      limit: { type: 'int', optional: true, default: 100 },
      search: { type: 'string', optional: true, default: '' },
      tags: { type: 'array', optional: true, default: [] },
      note: { type: 'string', optional: true },
    };
    const out = check(params, {});
    expect(out).toEqual({ limit: 100, search: '', tags: [] });
    expect(Object.hasOwn(out, 'note')).toBe(false);
    expect(failure(params, { limit: 'x' }).message).toBe("Wrong parameter type: limit should be int but got 'x'");
    // null for an optional typed parameter counts as absent
    expect(check(params, { limit: null })).toMatchObject({ limit: 100 });
  });

  it('does not share default objects between calls', () => {
    const validate = compileParams(ajv, { tags: { type: 'array', optional: true, default: [] } });
    const first = validate(mergeParams('POST', undefined, {}, undefined)).tags as unknown[];
    first.push('mutated');
    expect(validate(mergeParams('POST', undefined, {}, undefined)).tags).toEqual([]);
  });

  it('drops unknown parameters', () => {
    expect(check({ a: { type: 'string' } }, { a: 'x', b: 'y', __proto__x: 1 })).toEqual({ a: 'x' });
  });

  it('rejects strings over maxLength (default 4096), also for mixed', () => {
    expect(failure({ s: { type: 'string' } }, { s: 'x'.repeat(4097) }).message).toBe('Parameter too long: s');
    expect(check({ s: { type: 'string' } }, { s: 'x'.repeat(4096) }).s).toHaveLength(4096);
    expect(failure({ s: { type: 'string', maxLength: 3 } }, { s: 'abcd' }).message).toBe('Parameter too long: s');
    expect(failure({ m: { type: 'mixed' } }, { m: 'x'.repeat(5000) }).message).toBe('Parameter too long: m');
  });

  it('bounds the echoed value and never echoes secrets', () => {
    const long = failure({ id: { type: 'int' } }, { id: 'x'.repeat(1000) }).message;
    expect(long.length).toBeLessThan(200);
    expect(long).toContain('...');
    for (const name of ['password', 'new_password', 'token', 'push_token', 'key', 'api_key']) {
      const message = failure({ [name]: { type: 'string' } }, { [name]: 123456 }).message;
      expect(message).toBe(`Wrong parameter type: ${name} should be string but got '<hidden>'`);
    }
    expect(echo('keyboard', 'visible')).toBe('visible');
  });

  it('handles a route without parameters', () => {
    expect(check({}, { anything: 1 })).toEqual({});
  });

  it('refuses a malformed declaration at startup', () => {
    expect(() => compileParams(ajv, { a: { type: 'date' as never } })).toThrow(/Unknown parameter type/);
  });
});
