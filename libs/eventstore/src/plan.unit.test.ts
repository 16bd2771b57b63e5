import { describe, expect, it } from 'vitest';
import {
  appendManyResults,
  appendResult,
  compareCheckpoints,
  expectedVersionParam,
  planAppend,
  planAppendMany,
  retryDelay,
  satisfies,
} from './plan.ts';

describe('compareCheckpoints', () => {
  it('orders by transaction id numerically, then by global position', () => {
    const cp = (transactionId: string, globalPosition: number) => ({ transactionId, globalPosition });
    expect(compareCheckpoints(cp('9', 100), cp('10', 1))).toBeLessThan(0);
    expect(compareCheckpoints(cp('10', 5), cp('10', 4))).toBeGreaterThan(0);
    expect(compareCheckpoints(cp('10', 5), cp('10', 5))).toBe(0);
    // xid8 values beyond 2^53 still compare exactly.
    expect(compareCheckpoints(cp('18446744073709551614', 1), cp('18446744073709551615', 1))).toBeLessThan(0);
    expect(compareCheckpoints(null, cp('1', 1))).toBeLessThan(0);
    expect(compareCheckpoints(cp('1', 1), null)).toBeGreaterThan(0);
    expect(compareCheckpoints(null, null)).toBe(0);
  });
});

describe('expected versions', () => {
  it('encodes them for SQL', () => {
    expect(expectedVersionParam('any')).toBeNull();
    expect(expectedVersionParam('stream_exists')).toBe(-1);
    expect(expectedVersionParam('no_stream')).toBe(0);
    expect(expectedVersionParam(7)).toBe(7);
    expect(() => expectedVersionParam(-3)).toThrow(RangeError);
    expect(() => expectedVersionParam(1.5)).toThrow(RangeError);
  });

  it('checks a current version against them', () => {
    expect(satisfies('any', 0)).toBe(true);
    expect(satisfies('no_stream', 0)).toBe(true);
    expect(satisfies('no_stream', 2)).toBe(false);
    expect(satisfies('stream_exists', 0)).toBe(false);
    expect(satisfies('stream_exists', 1)).toBe(true);
    expect(satisfies(3, 3)).toBe(true);
    expect(satisfies(3, 4)).toBe(false);
  });
});

describe('planAppend', () => {
  const ids = () => {
    let n = 0;
    return () => `00000000-0000-4000-8000-00000000000${++n}`;
  };

  it('generates ids, shares one correlation id per append and defaults causation to it', () => {
    const plan = planAppend(
      [
        { type: 'A', data: 1 },
        { type: 'B', data: 2, metadata: { user_id: 5 } },
      ],
      ids(),
      {},
    );
    expect(plan.ids).toEqual(['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002']);
    expect(plan.events.map((e) => e.metadata)).toEqual([
      { correlation_id: plan.ids[0], causation_id: plan.ids[0] },
      { user_id: 5, correlation_id: plan.ids[0], causation_id: plan.ids[0] },
    ]);
  });

  it('keeps what the caller gave and derives the rest from it', () => {
    const plan = planAppend(
      [
        { type: 'A', data: 1, metadata: { causation_id: 'cmd-1', api_key_id: 3 } },
        { type: 'B', data: 2, metadata: { correlation_id: 'corr-9' } },
      ],
      ids(),
      { traceparent: '00-abc-def-01', tracestate: 'k=v' },
    );
    expect(plan.events[0].metadata).toEqual({
      causation_id: 'cmd-1',
      api_key_id: 3,
      correlation_id: 'cmd-1',
      traceparent: '00-abc-def-01',
      tracestate: 'k=v',
    });
    expect(plan.events[1].metadata).toMatchObject({ correlation_id: 'corr-9', causation_id: 'corr-9' });
  });

  it('never mixes the caller trace context with the current one', () => {
    const plan = planAppend([{ type: 'A', data: 1, metadata: { traceparent: '00-mine-01' } }], ids(), {
      traceparent: '00-current-01',
      tracestate: 'x=y',
    });
    expect(plan.events[0].metadata.traceparent).toBe('00-mine-01');
    expect(plan.events[0].metadata.tracestate).toBeUndefined();
  });

  it('sends a repeated id once and lower-cases ids', () => {
    const plan = planAppend(
      [
        { id: 'AAAAAAAA-0000-4000-8000-000000000000', type: 'A', data: 1 },
        { id: 'aaaaaaaa-0000-4000-8000-000000000000', type: 'A', data: 1 },
      ],
      ids(),
      {},
    );
    expect(plan.events).toHaveLength(1);
    expect(plan.ids).toEqual(['aaaaaaaa-0000-4000-8000-000000000000', 'aaaaaaaa-0000-4000-8000-000000000000']);
  });
});

describe('appendResult', () => {
  it('maps rows back to the given order and marks repeats as duplicates', () => {
    const result = appendResult({ events: [], ids: ['b', 'a', 'b'] }, [
      { event_id: 'a', stream_position: 4, global_position: 40, duplicate: true, stream_version: 5 },
      { event_id: 'b', stream_position: 5, global_position: 41, duplicate: false, stream_version: 5 },
    ]);
    expect(result).toEqual({
      nextExpectedVersion: 5,
      events: [
        { id: 'b', streamPosition: 5, globalPosition: 41, duplicate: false },
        { id: 'a', streamPosition: 4, globalPosition: 40, duplicate: true },
        { id: 'b', streamPosition: 5, globalPosition: 41, duplicate: true },
      ],
    });
  });

  it('fails loudly when a row is missing', () => {
    expect(() => appendResult({ events: [], ids: ['x'] }, [])).toThrow(/no row for event x/);
  });
});

describe('retryDelay', () => {
  it('doubles from the base up to the cap', () => {
    expect([1, 2, 3, 4, 10].map((n) => retryDelay(n, 100, 1_000))).toEqual([100, 200, 400, 800, 1_000]);
  });
});

describe('planAppendMany and appendManyResults', () => {
  const ids = ['a', 'b', 'c', 'd'].map((x) => `00000000-0000-4000-8000-00000000000${x}`);

  it('sends an id once per stream, and reports its repeats as duplicates', () => {
    const plan = planAppendMany(
      [
        { streamId: 's1', events: [{ id: ids[0], type: 'T', data: 1 }] },
        { streamId: 's2', events: [{ id: ids[0], type: 'T', data: 2 }] },
        {
          streamId: 's1',
          events: [
            { id: ids[0], type: 'T', data: 3 },
            { id: ids[1], type: 'T', data: 4 },
          ],
        },
      ],
      () => ids[3],
      {},
    );
    expect(plan.rows.map((r) => [r.streamId, r.event.id])).toEqual([
      ['s1', ids[0]],
      ['s2', ids[0]],
      ['s1', ids[1]],
    ]);
    const results = appendManyResults(plan, [
      {
        event_id: ids[0],
        stream_id: 's1',
        stream_position: 5,
        global_position: 50,
        duplicate: false,
        stream_version: 6,
      },
      {
        event_id: ids[0],
        stream_id: 's2',
        stream_position: 1,
        global_position: 51,
        duplicate: true,
        stream_version: 1,
      },
      {
        event_id: ids[1],
        stream_id: 's1',
        stream_position: 6,
        global_position: 52,
        duplicate: false,
        stream_version: 6,
      },
    ]);
    expect(results).toEqual([
      { nextExpectedVersion: 6, events: [{ id: ids[0], streamPosition: 5, globalPosition: 50, duplicate: false }] },
      { nextExpectedVersion: 1, events: [{ id: ids[0], streamPosition: 1, globalPosition: 51, duplicate: true }] },
      {
        nextExpectedVersion: 6,
        events: [
          { id: ids[0], streamPosition: 5, globalPosition: 50, duplicate: true },
          { id: ids[1], streamPosition: 6, globalPosition: 52, duplicate: false },
        ],
      },
    ]);
  });

  it('fails loudly when the database returns no row for an event', () => {
    const plan = planAppendMany([{ streamId: 's', events: [{ id: ids[0], type: 'T', data: 1 }] }], () => ids[3], {});
    expect(() => appendManyResults(plan, [])).toThrow(/no row/);
  });
});
