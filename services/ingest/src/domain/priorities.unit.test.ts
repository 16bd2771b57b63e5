import { templatePairs } from '@pcas/s211';
import { describe, expect, it } from 'vitest';
import { thrown } from '../testing/failures.ts';
import {
  admitTimestamp,
  apiKeyIdOf,
  byWeightDesc,
  decidePayloadKeyWeights,
  decideTimestampWeights,
  evolveWeights,
  MANUAL_TIMESTAMP_WEIGHT,
  needsKeyWeight,
  pairKey,
  sameWeights,
  validatePayloadKeyWeights,
  validateTimestampWeights,
  weightsFromOrder,
} from './priorities.ts';

const GAVLE = templatePairs('gavle')!;
const agent = { user_id: 7, api_key_id: 3 };
const person = { user_id: 12, api_key_id: null };

describe('admission', () => {
  it('a manual timestamp of a person always gets in, weighing 999', () => {
    expect(needsKeyWeight({ manual: true, actor: person })).toBe(false);
    expect(admitTimestamp({ manual: true, actor: person }, undefined)).toBe(MANUAL_TIMESTAMP_WEIGHT);
    expect(MANUAL_TIMESTAMP_WEIGHT).toBe(999);
  });

  it('an API key gets in with its weight for the pair', () => {
    expect(needsKeyWeight({ manual: false, actor: agent })).toBe(true);
    expect(admitTimestamp({ manual: false, actor: agent }, 2)).toBe(2);
  });

  it('an API key without a weight for the pair is refused with 403', () => {
    const e = thrown(() => admitTimestamp({ manual: false, actor: agent }, undefined));
    expect([e.status, e.message]).toEqual([403, 'No permission to post given timestamp data']);
  });

  it('an API key needs a weight even on the manual route, and a data-source post without a key has none', () => {
    expect(needsKeyWeight({ manual: true, actor: agent })).toBe(true);
    expect(thrown(() => admitTimestamp({ manual: true, actor: agent }, undefined)).status).toBe(403);
    expect(thrown(() => admitTimestamp({ manual: false, actor: person }, undefined)).status).toBe(403);
  });
});

describe('weights from an ordered list', () => {
  it('gives N − index: first is highest', () => {
    expect(weightsFromOrder([5, 9])).toEqual([
      { api_key_id: 5, weight: 2 },
      { api_key_id: 9, weight: 1 },
    ]);
    expect(weightsFromOrder([4, 1, 8]).map((w) => w.weight)).toEqual([3, 2, 1]);
    expect(weightsFromOrder([])).toEqual([]);
  });

  it('compares weights whatever their order, and sorts them highest first', () => {
    const a = weightsFromOrder([5, 9]);
    expect(sameWeights(a, [...a].reverse())).toBe(true);
    expect(sameWeights(a, weightsFromOrder([9, 5]))).toBe(false);
    expect(sameWeights(a, weightsFromOrder([5]))).toBe(false);
    expect(sameWeights([], [])).toBe(true);
    expect(byWeightDesc([...a].reverse())).toEqual(a);
  });
});

describe('validateTimestampWeights', () => {
  const input = (overrides: Record<string, unknown> = {}) => ({
    time_type: 'Estimated',
    state: 'Departure_Vessel_Berth',
    api_key_ids: [3, '5'],
    ...overrides,
  });

  it('accepts a template pair and distinct ids (numbers or digit strings, list or PHP-array object)', () => {
    expect(validateTimestampWeights(input(), GAVLE)).toEqual({
      time_type: 'Estimated',
      state: 'Departure_Vessel_Berth',
      api_key_ids: [3, 5],
    });
    expect(validateTimestampWeights(input({ api_key_ids: { 0: 7, 1: 2 } }), GAVLE).api_key_ids).toEqual([7, 2]);
    expect(validateTimestampWeights(input({ api_key_ids: [] }), GAVLE).api_key_ids).toEqual([]);
  });

  it.each([
    [{ api_key_ids: [3, 3] }, 'Duplicate API key ID values not allowed'],
    [{ api_key_ids: [3, '3'] }, 'Duplicate API key ID values not allowed'],
    // Duplicates are found before the pair is checked, the pair before the ids.
    [{ time_type: 'Nope', api_key_ids: [1, 1] }, 'Duplicate API key ID values not allowed'],
    [{ time_type: 'Required' }, 'Invalid timestamp time type: Required'],
    [{ time_type: 'LiveEstimated', state: 'Arrival_Vessel_PortArea' }, 'Invalid timestamp time type: LiveEstimated'],
    [{ time_type: 'estimated' }, 'Invalid timestamp time type: estimated'],
    [{ state: 'Arrival_Vessel_LOC' }, 'Invalid timestamp state: Arrival_Vessel_LOC'],
    [{ state: 'Moon', api_key_ids: ['x'] }, 'Invalid timestamp state: Moon'],
    [{ api_key_ids: [3, 'x'] }, 'Invalid api key ID: x'],
    [{ api_key_ids: [0] }, 'Invalid api key ID: 0'],
    [{ api_key_ids: [-2] }, 'Invalid api key ID: -2'],
    [{ api_key_ids: [1.5] }, 'Invalid api key ID: 1.5'],
    [{ api_key_ids: [null] }, 'Invalid api key ID: null'],
    [{ api_key_ids: [{ id: 1 }] }, 'Invalid api key ID: {"id":1}'],
    [{ api_key_ids: 'x' }, "Wrong parameter type: api_key_ids should be array but got 'x'"],
    [{ time_type: 5 }, "Wrong parameter type: timestamp_time_type should be string but got '5'"],
  ])('refuses %j: %s', (overrides, message) => {
    const e = thrown(() => validateTimestampWeights(input(overrides), GAVLE));
    expect([e.status, e.message]).toEqual([400, message]);
  });

  it('checks the time type and the state each on its own, as the original: a pair the template lacks is accepted', () => {
    expect(GAVLE.some((p) => p.time_type === 'Estimated' && p.state === 'Arrival_Vessel_Berth')).toBe(false);
    expect(validateTimestampWeights(input({ time_type: 'Estimated', state: 'Arrival_Vessel_Berth' }), GAVLE)).toEqual({
      time_type: 'Estimated',
      state: 'Arrival_Vessel_Berth',
      api_key_ids: expect.any(Array),
    });
  });

  it('knows only the pairs of the given template', () => {
    const rauma = templatePairs('rauma')!;
    expect(
      thrown(() => validateTimestampWeights(input({ state: 'Arrival_Vessel_TrafficArea', time_type: 'Actual' }), rauma))
        .message,
    ).toBe('Invalid timestamp state: Arrival_Vessel_TrafficArea');
    expect(
      validateTimestampWeights(input({ state: 'Arrival_Vessel_TrafficArea', time_type: 'Actual' }), GAVLE),
    ).toBeTruthy();
  });
});

describe('validatePayloadKeyWeights', () => {
  it('accepts any payload key, with the same id rules', () => {
    expect(validatePayloadKeyWeights({ payload_key: 'berth_name', api_key_ids: [2, 1] })).toEqual({
      payload_key: 'berth_name',
      api_key_ids: [2, 1],
    });
    expect(validatePayloadKeyWeights({ payload_key: 'anything at all', api_key_ids: [] }).api_key_ids).toEqual([]);
    expect(thrown(() => validatePayloadKeyWeights({ payload_key: 'x', api_key_ids: [2, 2] })).message).toBe(
      'Duplicate API key ID values not allowed',
    );
    expect(thrown(() => validatePayloadKeyWeights({ payload_key: 'x', api_key_ids: ['a'] })).message).toBe(
      'Invalid api key ID: a',
    );
    expect(thrown(() => validatePayloadKeyWeights({ payload_key: null, api_key_ids: [] })).status).toBe(400);
  });

  it('apiKeyIdOf takes positive integers and digit strings only', () => {
    expect(apiKeyIdOf(12)).toBe(12);
    expect(apiKeyIdOf('12')).toBe(12);
    expect(() => apiKeyIdOf('12a')).toThrow('Invalid api key ID: 12a');
    expect(() => apiKeyIdOf(true)).toThrow('Invalid api key ID: true');
    expect(() => apiKeyIdOf(2_147_483_648)).toThrow('Invalid api key ID: 2147483648');
    expect(apiKeyIdOf('2147483647')).toBe(2_147_483_647);
  });
});

describe('deciding changes against the stream', () => {
  const eta = { time_type: 'Estimated', state: 'Arrival_Vessel_PortArea' };

  it('sets, replaces and removes a pair’s weights; the state follows the events', () => {
    let events: { type: string; data: unknown }[] = [];
    const apply = (decided: { type: string; data: unknown }[]) => {
      events = [...events, ...decided];
      return evolveWeights(events);
    };
    let state = evolveWeights(events);

    const first = decideTimestampWeights(state, { ...eta, api_key_ids: [2, 1] });
    expect(first).toEqual([
      {
        type: 'TimestampApiKeyWeightsSet',
        data: {
          ...eta,
          weights: [
            { api_key_id: 2, weight: 2 },
            { api_key_id: 1, weight: 1 },
          ],
        },
      },
    ]);
    state = apply(first);
    expect(state.get(pairKey(eta.time_type, eta.state))).toEqual(first[0].data.weights);

    // Unchanged: nothing to append.
    expect(decideTimestampWeights(state, { ...eta, api_key_ids: [2, 1] })).toEqual([]);

    // Replaced, not merged.
    const replaced = decideTimestampWeights(state, { ...eta, api_key_ids: [1] });
    expect(replaced[0].data).toEqual({ ...eta, weights: [{ api_key_id: 1, weight: 1 }] });
    state = apply(replaced);

    // Another pair is independent.
    const etd = decideTimestampWeights(state, {
      time_type: 'Estimated',
      state: 'Departure_Vessel_Berth',
      api_key_ids: [1],
    });
    expect(etd).toHaveLength(1);
    state = apply(etd);

    // An empty list removes the pair; removing again changes nothing.
    const removed = decideTimestampWeights(state, { ...eta, api_key_ids: [] });
    expect(removed).toEqual([{ type: 'TimestampApiKeyWeightsSet', data: { ...eta, weights: [] } }]);
    state = apply(removed);
    expect(state.has(pairKey(eta.time_type, eta.state))).toBe(false);
    expect(state.size).toBe(1);
    expect(decideTimestampWeights(state, { ...eta, api_key_ids: [] })).toEqual([]);
  });

  it('payload keys follow the same rules', () => {
    const set = decidePayloadKeyWeights(new Map(), { payload_key: 'berth_name', api_key_ids: [2, 1] });
    expect(set).toEqual([
      {
        type: 'PayloadKeyApiKeyWeightsSet',
        data: {
          payload_key: 'berth_name',
          weights: [
            { api_key_id: 2, weight: 2 },
            { api_key_id: 1, weight: 1 },
          ],
        },
      },
    ]);
    const state = evolveWeights(set);
    expect(decidePayloadKeyWeights(state, { payload_key: 'berth_name', api_key_ids: [2, 1] })).toEqual([]);
    expect(decidePayloadKeyWeights(state, { payload_key: 'berth_name', api_key_ids: [1, 2] })).toHaveLength(1);
    expect(decidePayloadKeyWeights(new Map(), { payload_key: 'berth_name', api_key_ids: [] })).toEqual([]);
    expect(evolveWeights([...set, { type: 'Other', data: {} }]).size).toBe(1);
  });
});
