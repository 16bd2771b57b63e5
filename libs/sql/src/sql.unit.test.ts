import { describe, expect, it } from 'vitest';
import { Mutex } from './mutex.ts';
import { int8ArrayOf, parseInt8 } from './parsers.ts';

describe('Mutex', () => {
  it('runs callers one at a time, in arrival order, even when one fails', async () => {
    const mutex = new Mutex();
    const log: string[] = [];
    const task = (name: string, ms: number, fail = false) =>
      mutex.run(async () => {
        log.push(`start ${name}`);
        await new Promise((r) => setTimeout(r, ms));
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([task('a', 20), task('b', 1, true), task('c', 1)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });
});

describe('int8 parsing', () => {
  it('parses safe integers and refuses larger ones', () => {
    expect(parseInt8('-12')).toBe(-12);
    expect(parseInt8('9007199254740991')).toBe(9007199254740991);
    expect(() => parseInt8('9007199254740993')).toThrow(RangeError);
  });

  it('maps nested arrays with nulls', () => {
    expect(int8ArrayOf(['1', null, ['2', '3']])).toEqual([1, null, [2, 3]]);
  });
});
