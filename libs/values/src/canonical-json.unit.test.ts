import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.ts';

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined members as JSON does', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null }, u: undefined })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson('x"y')).toBe('"x\\"y"');
  });

  it('orders keys, so jsonb round trips compare equal and equal values sign alike', () => {
    expect(canonicalJson({ b: 1, a: [{ d: null, c: 'x' }], u: undefined })).toBe('{"a":[{"c":"x","d":null}],"b":1}');
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson(JSON.parse('{"b":2,"a":1}')));
  });

  it('writes what sorting keys, JSON.stringify of each part and joining write', () => {
    // The straightforward form it replaces, as the reference.
    const reference = (value: unknown): string => {
      if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : reference(v))).join(',')}]`;
      if (value !== null && typeof value === 'object') {
        const entries = Object.keys(value)
          .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${reference((value as Record<string, unknown>)[k])}`);
        return `{${entries.join(',')}}`;
      }
      return JSON.stringify(value) ?? 'null';
    };
    // biome-ignore lint/suspicious/noSparseArray: a hole, kept as JSON.stringify of the mapped parts keeps it
    const holes = [1, , 3];
    const values: unknown[] = [
      null,
      undefined,
      true,
      false,
      0,
      -0,
      1.5e300,
      -12.25,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '',
      'plain',
      'quote " backslash \\ newline \n tab \t nul \u0000 del \u007f',
      'ä ⚓ 😀 pair',
      'lone \ud800 high, lone \udfff low',
      '\u2028\u2029',
      [],
      {},
      holes,
      [undefined, null, () => 1],
      { b: undefined, a: () => 1, c: Symbol('s') },
      { '10': 1, '2': 2, b: 3, A: 4, é: 5, '"k"': 6, '\u0001': 7, '': 8 },
      { __proto__: null, z: [{ y: { x: [1, 'a', { w: true }] } }] },
      JSON.parse('{"__proto__": {"a": 1}, "toJSON": "not a function"}'),
      { nested: { deep: [[[{ b: 1, a: [2, { d: 4, c: 3 }] }]]] } },
    ];
    for (const value of values) expect(canonicalJson(value)).toBe(reference(value));
  });
});
