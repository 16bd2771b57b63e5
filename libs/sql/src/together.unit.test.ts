import { describe, expect, it } from 'vitest';
import { together, togetherText } from './together.ts';

describe('statements together in one', () => {
  const lifted = {
    text: 'WITH berth_version AS (UPDATE berths SET version = $3 WHERE id = $2) DELETE FROM t WHERE id = $1',
    values: [7, 2, 9],
  };
  const plain = { text: 'UPDATE s SET a = $2 WHERE id = $1', values: [1, 'x'] };
  const last = { text: 'SELECT $1::int AS a, $2::int AS b', values: [10, 20] };

  it('renumbers the parameters after each other and lifts a statement’s own WITH', () => {
    const { text, values } = together([lifted, plain], last);
    expect(text).toBe(
      'WITH berth_version_0 AS (UPDATE berths SET version = $3 WHERE id = $2),\n' +
        'write_0 AS (DELETE FROM t WHERE id = $1),\n' +
        'write_1 AS (UPDATE s SET a = $5 WHERE id = $4)\n' +
        'SELECT $6::int AS a, $7::int AS b',
    );
    expect(values).toEqual([7, 2, 9, 1, 'x', 10, 20]);
  });

  it('gives the text built afresh on every call, for each combination of texts and value counts', () => {
    const shorter = { text: lifted.text, values: [7, 2] };
    const combinations: Parameters<typeof together>[] = [
      [[lifted, plain], last],
      [[plain, lifted], last],
      [[shorter, plain], last],
      [[plain], last],
      [[], last],
      [[lifted, plain], { text: 'SELECT $1::int', values: [1] }],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [statements, end] of combinations) {
        const { text, values } = together(statements, end);
        expect(text).toBe(togetherText(statements, end));
        expect(values).toEqual([...statements.flatMap((s) => s.values), ...end.values]);
      }
    }
    expect(together([shorter, plain], last).text).toContain('UPDATE s SET a = $4 WHERE id = $3');
  });

  it('reads the same texts given as new strings', () => {
    const copy = (s: string) => ` ${s}`.slice(1);
    const first = together([lifted, plain], last).text;
    const again = together(
      [
        { text: copy(lifted.text), values: [...lifted.values] },
        { text: copy(plain.text), values: [...plain.values] },
      ],
      { text: copy(last.text), values: [...last.values] },
    );
    expect(again.text).toBe(first);
  });
});
