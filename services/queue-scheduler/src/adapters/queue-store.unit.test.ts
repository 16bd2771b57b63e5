import { describe, expect, it } from 'vitest';
import { slotsById, together, togetherText } from './queue-store.ts';

describe('statements together in one', () => {
  const lifted = {
    text: 'WITH berth_version AS (UPDATE queue.berths SET version = $3 WHERE id = $2) DELETE FROM t WHERE id = $1',
    values: [7, 2, 9],
  };
  const plain = { text: 'UPDATE s SET a = $2 WHERE id = $1', values: [1, 'x'] };
  const last = { text: 'SELECT $1::int AS a, $2::int AS b', values: [10, 20] };

  it('renumbers the parameters after each other and lifts a statement’s own WITH', () => {
    const { text, values } = together([lifted, plain], last);
    expect(text).toBe(
      'WITH berth_version_0 AS (UPDATE queue.berths SET version = $3 WHERE id = $2),\n' +
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

describe('the berth’s other vessels read for a change', () => {
  const row = (id: number, laytime_s: number) => ({
    id,
    email: 'v@example.com',
    imo: 9074729,
    vessel_name: `V${id}`,
    loa: 100,
    beam: 20,
    draft: 5,
    laytime_s,
    eta: '2030-01-10T00:00:00+00:00',
    status: 'accepted' as const,
    nomination_id: 7,
    berth_id: 1,
    berth_reservation_id: 100 + id,
    rta_window_start: '2030-01-10T00:00:00+00:00',
    rta_window_end: '2030-01-10T00:30:00+00:00',
    jit_eta: null,
    version: 3,
  });

  it('are the rows as states by id, the same state each time asked, none for an id not read', () => {
    const others = slotsById([row(2, 5400), row(3, 7200)]);
    const { laytime_s: _, version: __, ...rest } = row(3, 7200);
    expect(others.get(3)).toEqual({ state: { ...rest, laytime: 'PT2H' }, version: 3 });
    expect(others.get(3)).toBe(others.get(3));
    expect(others.get(2)?.state.laytime).toBe('PT1H30M');
    expect(others.get(4)).toBeUndefined();
  });
});
