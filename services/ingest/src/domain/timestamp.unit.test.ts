import type { PostTimestampCommand } from '@pcas/contracts';
import { describe, expect, it } from 'vitest';
import { thrown } from '../testing/failures.ts';
import { uuidV5 } from './event-id.ts';
import {
  decidePostTimestamp,
  decideTimestamp,
  type PostTimestampContext,
  parsePayload,
  timestampEventId,
  validateTimestamp,
} from './timestamp.ts';

const NOW = new Date('2026-05-11T12:30:40.500Z');

const post = (overrides: Partial<PostTimestampCommand> = {}): PostTimestampCommand => ({
  imo: 9074729,
  vessel_name: 'Ever Given',
  time_type: 'Estimated',
  state: 'Arrival_Vessel_PortArea',
  time: '2026-05-12T08:00:00+03:00',
  payload: { source: 'test' },
  manual: false,
  ...overrides,
});

/** `post()` once validated: the time in UTC. */
const VALIDATED = {
  imo: 9074729,
  vessel_name: 'Ever Given',
  time_type: 'Estimated',
  state: 'Arrival_Vessel_PortArea',
  time: '2026-05-12T05:00:00+00:00',
  payload: { source: 'test' },
};

const agent: PostTimestampContext = { now: NOW, actor: { user_id: 7, api_key_id: 3 }, manual: false, weight: 2 };
const person: PostTimestampContext = { now: NOW, actor: { user_id: 12, api_key_id: null }, manual: true, weight: 999 };

describe('validateTimestamp', () => {
  it('normalises a valid post', () => {
    expect(validateTimestamp(post(), NOW)).toEqual(VALIDATED);
  });

  it('accepts the test IMO 1234567 and a digit-string IMO', () => {
    expect(validateTimestamp(post({ imo: 1234567 }), NOW).imo).toBe(1234567);
    expect(validateTimestamp(post({ imo: '9074729' }), NOW).imo).toBe(9074729);
  });

  it.each([
    [1234568, 'IMO number is not valid (automatic check calculation)'],
    [123456, 'IMO length should 7 digits or IMO should be 0'],
    [12345678, 'IMO length should 7 digits or IMO should be 0'],
    [-1234567, "Wrong parameter type: imo should be int but got '-1234567'"],
    [1.5, "Wrong parameter type: imo should be int but got '1.5'"],
    ['abc', "Wrong parameter type: imo should be int but got 'abc'"],
    [null, "Wrong parameter type: imo should be int but got 'null'"],
  ])('rejects imo %j: %s', (imo, message) => {
    const e = thrown(() => validateTimestamp(post({ imo }), NOW));
    expect(e.message).toBe(message);
    expect(e.status).toBe(400);
  });

  it('requires a vessel name when the IMO is 0', () => {
    expect(thrown(() => validateTimestamp(post({ imo: 0, vessel_name: '' }), NOW)).message).toBe(
      'IMO is 0 and vessel name is empty.',
    );
    expect(validateTimestamp(post({ imo: 0, vessel_name: 'Nameless' }), NOW).imo).toBe(0);
  });

  it('allows an empty vessel name with a real IMO', () => {
    expect(validateTimestamp(post({ vessel_name: '' }), NOW).vessel_name).toBe('');
  });

  it.each(['vessel_name', 'time_type', 'state', 'time'] as const)('requires %s to be a string', (field) => {
    expect(thrown(() => validateTimestamp(post({ [field]: 5 }), NOW)).message).toBe(
      `Wrong parameter type: ${field} should be string but got '5'`,
    );
  });

  it('rejects an unknown time type with the list of valid ones', () => {
    expect(thrown(() => validateTimestamp(post({ time_type: 'Guessed' }), NOW)).message).toBe(
      'Timestamp time type is not valid: Guessed. Should be one of: Planned, Estimated, Actual, Recommended, Required',
    );
    expect(thrown(() => validateTimestamp(post({ time_type: 'actual' }), NOW)).message).toMatch(
      /^Timestamp time type is not valid: actual\./,
    );
    expect(thrown(() => validateTimestamp(post({ time_type: 'LiveEstimated' }), NOW)).status).toBe(400);
  });

  it('rejects an unknown state with the list of all 268', () => {
    const e = thrown(() => validateTimestamp(post({ state: 'Pilotage_Reguested' }), NOW));
    expect(e.message).toMatch(
      /^Timestamp state is not valid: Pilotage_Reguested\. Should be one of: Arrival_Agent_Berth, Departure_Agent_Berth, /,
    );
    expect(e.message).toMatch(/, PortVisit_Cancelled$/);
    expect(e.message.split(': ')[2].split(', ')).toHaveLength(268);
    expect(thrown(() => validateTimestamp(post({ state: 'pilotage_commenced' }), NOW)).status).toBe(400);
  });

  it.each(['Planned', 'Estimated', 'Actual', 'Recommended', 'Required'])('accepts time type %s', (timeType) => {
    expect(validateTimestamp(post({ time_type: timeType, time: '2026-05-11T12:00:00Z' }), NOW).time_type).toBe(
      timeType,
    );
  });

  it('validates the time before the rest, as the original', () => {
    expect(thrown(() => validateTimestamp(post({ time: 'soon', imo: 1234568, state: 'x' }), NOW)).message).toMatch(
      /^Invalid date format: soon\./,
    );
  });

  describe('Actual in the future', () => {
    const at = (minutes: number, seconds = 0) =>
      new Date(Date.UTC(2026, 4, 11, 12, 30 + minutes, 40 + seconds)).toISOString().replace('.000Z', 'Z');

    it('accepts up to 10 minutes ahead (clock skew)', () => {
      expect(validateTimestamp(post({ time_type: 'Actual', time: at(9) }), NOW).time).toBe('2026-05-11T12:39:40+00:00');
      expect(validateTimestamp(post({ time_type: 'Actual', time: at(10) }), NOW).time).toBe(
        '2026-05-11T12:40:40+00:00',
      );
      expect(validateTimestamp(post({ time_type: 'Actual', time: at(-600) }), NOW).time_type).toBe('Actual');
    });

    it('rejects more than 10 minutes ahead with now and time in the message', () => {
      expect(thrown(() => validateTimestamp(post({ time_type: 'Actual', time: at(11) }), NOW)).message).toBe(
        'Time type is actual, but time is in future. Now: 2026-05-11T12:30:40+00:00, Time: 2026-05-11T12:41:40+00:00',
      );
      expect(thrown(() => validateTimestamp(post({ time_type: 'Actual', time: at(10, 1) }), NOW)).status).toBe(400);
    });

    it('compares in UTC whatever the offset', () => {
      expect(() =>
        validateTimestamp(post({ time_type: 'Actual', time: '2026-05-11T15:39:40+03:00' }), NOW),
      ).not.toThrow();
      expect(() => validateTimestamp(post({ time_type: 'Actual', time: '2026-05-11T15:41:40+03:00' }), NOW)).toThrow(
        /in future/,
      );
    });

    it('does not limit other time types', () => {
      expect(validateTimestamp(post({ time_type: 'Estimated', time: at(60 * 24 * 30) }), NOW).time_type).toBe(
        'Estimated',
      );
      expect(validateTimestamp(post({ time_type: 'Planned', time: at(11) }), NOW).time_type).toBe('Planned');
    });
  });
});

describe('parsePayload', () => {
  it('takes an object as is, a JSON string holding an object, and an empty list as {}', () => {
    expect(parsePayload({ a: 1, nested: { b: [1, 2] } })).toEqual({ a: 1, nested: { b: [1, 2] } });
    expect(parsePayload('{"source":"vis","to_port":"FIRAU"}')).toEqual({ source: 'vis', to_port: 'FIRAU' });
    expect(parsePayload({})).toEqual({});
    expect(parsePayload([])).toEqual({});
    expect(parsePayload('[]')).toEqual({});
  });

  it.each([null, undefined, 5, true, '', 'not json', '5', '"text"', 'null', '[1,2]', [1], ['a']])(
    'rejects %j with "Invalid payload"',
    (payload) => {
      const e = thrown(() => parsePayload(payload));
      expect(e.message).toBe('Invalid payload');
      expect(e.status).toBe(400);
    },
  );

  it('is checked as part of a post', () => {
    expect(thrown(() => validateTimestamp(post({ payload: 'x' }), NOW)).message).toBe('Invalid payload');
    expect(validateTimestamp(post({ payload: '{"external_id":"A-1"}' }), NOW).payload).toEqual({ external_id: 'A-1' });
  });

  // The JSON text reaches ingest as one string without a NUL in it; what it encodes is only seen once parsed.
  it.each([
    ['a value', '{"source":"vis","note":"a\\u0000b"}', 'payload contains a NUL character'],
    ['a key', '{"a\\u0000":1}', 'payload contains a NUL character'],
    ['a nested value', '{"list":[{"deep":["\\u0000"]}]}', 'payload contains a NUL character'],
    ['a lone surrogate', '{"note":"\\ud800"}', 'payload contains an invalid character'],
    ['deep nesting', `{"a":${'['.repeat(600)}${']'.repeat(600)}}`, 'payload is nested too deeply'],
  ])('refuses a JSON-string payload holding %s', (_what, payload, message) => {
    const e = thrown(() => validateTimestamp(post({ payload }), NOW));
    expect(e.status).toBe(400);
    expect(e.message).toBe(message);
  });

  it('keeps paired surrogates (emoji) in a JSON-string payload', () => {
    expect(parsePayload('{"note":"\\ud83d\\udea2"}')).toEqual({ note: '🚢' });
  });
});

describe('decidePostTimestamp', () => {
  it('registers a new vessel, then records the timestamp from an API key', () => {
    const decision = decidePostTimestamp(post(), agent);
    expect(decision.imo).toBe(9074729);
    expect(decision.vesselChange).toBe('registered');
    expect(decision.vessel).toEqual({ imo: 9074729, vessel_name: 'Ever Given' });
    expect(decision.events.map((e) => e.type)).toEqual(['VesselRegistered', 'TimestampReceived']);
    expect(decision.events[0].data).toEqual({ imo: 9074729, vessel_name: 'Ever Given' });
    expect(decision.events[1].data).toEqual({
      ...VALIDATED,
      source: 'api_key',
      api_key_id: 3,
      user_id: 7,
      weight: 2,
    });
  });

  it('marks manual posts with the acting user and no API key', () => {
    const decision = decidePostTimestamp(post({ manual: true }), person);
    expect(decision.events.at(-1)!.data).toMatchObject({
      source: 'manual',
      api_key_id: null,
      user_id: 12,
      weight: 999,
    });
  });

  it('emits only the timestamp for a known vessel with the same name', () => {
    const decision = decidePostTimestamp(post(), {
      ...agent,
      knownVessel: { imo: 9074729, vessel_name: 'Ever Given' },
    });
    expect(decision.vesselChange).toBe('none');
    expect(decision.events.map((e) => e.type)).toEqual(['TimestampReceived']);
  });

  it('uses the stored name when the post has none', () => {
    const decision = decidePostTimestamp(post({ vessel_name: '' }), {
      ...agent,
      knownVessel: { imo: 9074729, vessel_name: 'Ever Given' },
    });
    expect(decision.events.map((e) => e.type)).toEqual(['TimestampReceived']);
    expect(decision.events[0].data).toMatchObject({ vessel_name: 'Ever Given' });
  });

  it('renames on a non-empty different name (case counts)', () => {
    const decision = decidePostTimestamp(post({ vessel_name: 'EVER GIVEN' }), {
      ...agent,
      knownVessel: { imo: 9074729, vessel_name: 'Ever Given' },
    });
    expect(decision.vesselChange).toBe('renamed');
    expect(decision.vessel.vessel_name).toBe('EVER GIVEN');
    expect(decision.events[0]).toEqual({
      type: 'VesselRenamed',
      data: { imo: 9074729, vessel_name: 'EVER GIVEN', previous_vessel_name: 'Ever Given' },
    });
    expect(decision.events[1].data).toMatchObject({ vessel_name: 'EVER GIVEN' });
  });

  it('registers an unknown vessel with an empty name when none is given', () => {
    const decision = decidePostTimestamp(post({ vessel_name: '' }), agent);
    expect(decision.events[0]).toEqual({ type: 'VesselRegistered', data: { imo: 9074729, vessel_name: '' } });
  });

  it('IMO 0: takes the IMO and stored name of the vessel found by name, without renaming', () => {
    const decision = decidePostTimestamp(post({ imo: 0, vessel_name: 'ever given' }), {
      ...agent,
      knownVessel: { imo: 9074729, vessel_name: 'Ever Given' },
    });
    expect(decision.imo).toBe(9074729);
    expect(decision.vesselChange).toBe('none');
    expect(decision.events.map((e) => e.type)).toEqual(['TimestampReceived']);
    expect(decision.events[0].data).toMatchObject({ imo: 9074729, vessel_name: 'Ever Given' });
  });

  it('IMO 0: registers a new vessel under the assigned fake IMO', () => {
    const decision = decidePostTimestamp(post({ imo: 0, vessel_name: 'Nameless' }), {
      ...agent,
      assignedImo: 100000003,
    });
    expect(decision.imo).toBe(100000003);
    expect(decision.events[0]).toEqual({ type: 'VesselRegistered', data: { imo: 100000003, vessel_name: 'Nameless' } });
    expect(decision.events[1].data).toMatchObject({ imo: 100000003, vessel_name: 'Nameless' });
  });

  it('IMO 0 without a resolved vessel is a caller bug', () => {
    expect(() => decidePostTimestamp(post({ imo: 0 }), agent)).toThrow(/needs the vessel found by name/);
  });

  it('refuses a known vessel of another IMO', () => {
    expect(() => decidePostTimestamp(post(), { ...agent, knownVessel: { imo: 1234567, vessel_name: 'X' } })).toThrow();
  });

  it('validates before deciding: an invalid post decides nothing', () => {
    expect(() => decidePostTimestamp(post({ state: 'Nope' }), agent)).toThrow(/Timestamp state is not valid: Nope/);
    expect(() => decidePostTimestamp(post({ imo: 0, vessel_name: '' }), { ...agent, assignedImo: 100000001 })).toThrow(
      'IMO is 0 and vessel name is empty.',
    );
  });
});

describe('timestamp event id (duplicate check)', () => {
  const known = { ...agent, knownVessel: { imo: 9074729, vessel_name: 'Ever Given' } };
  const idOf = (p: PostTimestampCommand, ctx: PostTimestampContext = known) =>
    decidePostTimestamp(p, ctx).events.at(-1)!.id;

  it('is a version-5 UUID', () => {
    expect(idOf(post())).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('is stable for the same content: payload key order, the time notation, the poster and the clock do not matter', () => {
    const base = idOf(post({ payload: { a: 1, b: { x: 1, y: [1, { q: 1, p: 2 }] } } }));
    expect(idOf(post({ payload: { b: { y: [1, { p: 2, q: 1 }], x: 1 }, a: 1 } }))).toBe(base);
    expect(idOf(post({ payload: '{"b":{"x":1,"y":[1,{"p":2,"q":1}]},"a":1}' }))).toBe(base);
    expect(
      idOf(post({ payload: { a: 1, b: { x: 1, y: [1, { q: 1, p: 2 }] } }, time: '2026-05-12T05:00:00.000Z' })),
    ).toBe(base);
    expect(
      idOf(post({ payload: { a: 1, b: { x: 1, y: [1, { q: 1, p: 2 }] } }, manual: true }), {
        ...person,
        knownVessel: known.knownVessel,
      }),
    ).toBe(base);
    expect(
      idOf(post({ payload: { a: 1, b: { x: 1, y: [1, { q: 1, p: 2 }] } } }), {
        ...known,
        now: new Date('2026-05-12T00:00:00Z'),
      }),
    ).toBe(base);
  });

  it('changes with any compared field', () => {
    const base = idOf(post());
    const others = [
      idOf(post({ imo: 1234567 }), { ...agent, knownVessel: { imo: 1234567, vessel_name: 'Ever Given' } }),
      idOf(post({ vessel_name: 'Other' })),
      idOf(post({ time_type: 'Planned' })),
      idOf(post({ state: 'Arrival_Vessel_Berth' })),
      idOf(post({ time: '2026-05-12T08:00:01+03:00' })),
      idOf(post({ payload: { source: 'test2' } })),
      idOf(post({ payload: {} })),
      idOf(post({ payload: { source: ['test'] } })),
    ];
    expect(new Set([base, ...others]).size).toBe(others.length + 1);
    // An empty name posted for a known vessel stores the stored name, so it dedupes with the named post.
    expect(idOf(post({ vessel_name: '' }))).toBe(base);
  });

  it('keeps array order significant', () => {
    expect(idOf(post({ payload: { l: [1, 2] } }))).not.toBe(idOf(post({ payload: { l: [2, 1] } })));
  });

  it('is computed from the resolved fields', () => {
    expect(timestampEventId(VALIDATED)).toBe(idOf(post()));
  });
});

describe('uuidV5', () => {
  it('is deterministic and spreads names', () => {
    expect(uuidV5('a')).toBe(uuidV5('a'));
    expect(uuidV5('a')).not.toBe(uuidV5('b'));
  });

  it('keeps the ids stored timestamps have (dedupe of old posts)', () => {
    // Computed before canonicalJson and uuidV5 were written with loops and a copied hash state.
    expect(uuidV5('')).toBe('86b851b3-60c3-596e-8d55-c8c4f46a0d7a');
    expect(uuidV5('Ever Given ⚓')).toBe('86549c36-97ab-56b7-a20e-3e692aeaf4a4');
    expect(
      timestampEventId({
        ...VALIDATED,
        payload: {
          source: 'test',
          external_id: 'A-1',
          nested: { b: [1, null, 'x', { z: 1, a: -0 }], a: true },
          'ä"\n': 1.5e300,
        },
      }),
    ).toBe('8826f3eb-9e0b-5879-bbf3-d76cd6bdb818');
  });
});

describe('decideTimestamp (a post validated already)', () => {
  it('decides what decidePostTimestamp decides', () => {
    const known = { imo: 9074729, vessel_name: 'Ever Given' };
    const contexts: PostTimestampContext[] = [
      agent,
      person,
      { ...agent, knownVessel: known },
      { ...agent, knownVessel: { ...known, vessel_name: 'Old Name' } },
    ];
    const posts = [
      post(),
      post({ vessel_name: '' }),
      post({ payload: '{"b":1,"a":[1,2]}', time: '2026-05-12T08:00:00Z' }),
    ];
    for (const input of posts) {
      for (const context of contexts) {
        expect(decideTimestamp(validateTimestamp(input, context.now), context)).toEqual(
          decidePostTimestamp(input, context),
        );
      }
    }
    const nameless = post({ imo: 0, vessel_name: 'Nameless' });
    for (const context of [
      { ...agent, assignedImo: 100000007 },
      { ...agent, knownVessel: known },
    ]) {
      expect(decideTimestamp(validateTimestamp(nameless, NOW), context)).toEqual(
        decidePostTimestamp(nameless, context),
      );
    }
  });
});
