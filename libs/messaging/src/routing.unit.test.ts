import { ApiError } from '@pcas/errors';
import { describe, expect, it } from 'vitest';
import {
  bindingCategories,
  bindingsToRegex,
  eventRoutingKey,
  retryDelayMs,
  streamCategory,
  topicMatches,
  topicPatternToRegex,
} from './routing.ts';
import { errorToReply, parseReply, unwrapReply } from './rpc-reply.ts';

// [pattern, routing key, matches?] per RabbitMQ topic exchange semantics.
const CASES: [string, string, boolean][] = [
  ['vessel.*', 'vessel.TimestampAdded', true],
  ['vessel.*', 'vessel', false],
  ['vessel.*', 'vessel.a.b', false],
  ['vessel.*', 'portcall.TimestampAdded', false],
  ['vessel.#', 'vessel', true],
  ['vessel.#', 'vessel.a.b.c', true],
  ['vessel.#', 'vessels.a', false],
  ['#', 'anything.at.all', true],
  ['#', 'x', true],
  ['*', 'x', true],
  ['*', 'x.y', false],
  ['*.Created', 'portcall.Created', true],
  ['*.Created', 'portcall.Closed', false],
  ['a.#.b', 'a.b', true],
  ['a.#.b', 'a.x.y.b', true],
  ['a.#.b', 'a.x.y.c', false],
  ['#.b', 'b', true],
  ['#.b', 'a.b', true],
  ['#.#', 'a', true],
  ['a.*.c', 'a..c', true],
  ['a.*.#', 'a', false],
  ['a.*.#', 'a.b', true],
  ['exact.key', 'exact.key', true],
  ['exact.key', 'exact.keys', false],
  // Regex metacharacters in a word are literal.
  ['a+b.c', 'aab.c', false],
  ['a+b.c', 'a+b.c', true],
  ['v(1).*', 'v(1).x', true],
];

describe('topic matching', () => {
  it.each(CASES)('%s ~ %s → %s', (pattern, key, expected) => {
    expect(topicMatches(pattern, key)).toBe(expected);
  });

  it.each(CASES)('the regex form of %s agrees on %s', (pattern, key, expected) => {
    expect(new RegExp(topicPatternToRegex(pattern)).test(`.${key}`)).toBe(expected);
  });

  it('combines several bindings with "any of"', () => {
    const re = new RegExp(bindingsToRegex(['vessel.*', 'portcall.Closed']));
    expect(re.test('.vessel.TimestampAdded')).toBe(true);
    expect(re.test('.portcall.Closed')).toBe(true);
    expect(re.test('.portcall.Opened')).toBe(false);
  });

  it('stays fast on many wildcards', () => {
    expect(topicMatches('#.#.#.#.#.#.#.#.#.#.z', 'a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t')).toBe(false);
  });
});

describe('stream categories and routing keys', () => {
  it('takes the stream id before the first dash', () => {
    expect(streamCategory('vessel-9201827')).toBe('vessel');
    expect(streamCategory('portcall-9201827-3')).toBe('portcall');
    expect(streamCategory('settings')).toBe('settings');
    expect(streamCategory('-x')).toBe('');
  });

  it('routes an event as <category>.<type>', () => {
    expect(eventRoutingKey({ streamId: 'vessel-9201827', type: 'TimestampAdded' })).toBe('vessel.TimestampAdded');
  });

  it('derives the categories a consumer can receive', () => {
    expect(bindingCategories(['vessel.*', 'portcall.#', 'vessel.X'])).toEqual(['portcall', 'vessel']);
    expect(bindingCategories(['vessel.*', '#'])).toEqual(['*']);
    expect(bindingCategories(['*.Created'])).toEqual(['*']);
  });
});

describe('retry delays', () => {
  it('backs off exponentially up to a cap', () => {
    expect([1, 2, 3, 4].map((a) => retryDelayMs(a))).toEqual([50, 100, 200, 400]);
    expect(retryDelayMs(30)).toBe(2_000);
    expect(retryDelayMs(3, 10, 25)).toBe(25);
  });
});

describe('rpc replies', () => {
  it('keeps an ApiError and hides any other error', () => {
    expect(errorToReply(new ApiError(403, 'Invalid access'))).toEqual({
      ok: false,
      status: 403,
      error: 'Invalid access',
    });
    expect(errorToReply(new Error('db password wrong'))).toEqual({ ok: false, status: 500, error: 'Internal error' });
  });

  it('turns an error reply back into the ApiError', () => {
    expect(unwrapReply({ ok: true, result: { id: 1 } })).toEqual({ id: 1 });
    try {
      unwrapReply({ ok: false, status: 400, error: 'Bad imo' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 400, message: 'Bad imo' });
    }
  });

  it('treats a malformed reply as an internal error', () => {
    expect(parseReply({ something: 1 })).toEqual({ ok: false, status: 500, error: 'Internal error' });
    expect(parseReply({ ok: false, status: 440, error: 'Session expired' })).toEqual({
      ok: false,
      status: 440,
      error: 'Session expired',
    });
  });
});
