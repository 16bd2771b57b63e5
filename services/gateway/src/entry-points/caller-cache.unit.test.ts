import { describe, expect, it } from 'vitest';
import { createCallerCache } from './caller-cache.ts';

function cacheAt(start = 1_000) {
  const clock = { t: start };
  const cache = createCallerCache<string>({ maxAgeMs: 1_000, holdMs: 2_000, now: () => clock.t });
  return { clock, cache };
}

describe('createCallerCache', () => {
  it('keeps an entry for at most maxAgeMs from the start of its look-up', () => {
    const { clock, cache } = cacheAt();
    const started = clock.t;
    clock.t += 100; // the look-up took 100 ms
    cache.set('s1', 7, 'alice', started);
    expect(cache.get('s1')).toBe('alice');
    clock.t = started + 1_000;
    expect(cache.get('s1')).toBe('alice');
    clock.t = started + 1_001;
    expect(cache.get('s1')).toBeUndefined();
    expect(cache.get('other')).toBeUndefined();
  });

  it('survives a generation swap while young, and drops entries nobody asked for', () => {
    const { clock, cache } = cacheAt();
    clock.t += 900;
    cache.set('s1', 7, 'alice', clock.t);
    clock.t += 500; // a new generation began at +1000
    expect(cache.get('s1')).toBe('alice');
    clock.t += 5_000;
    expect(cache.get('s1')).toBeUndefined();
  });

  it('forgets a session at once, and keeps nothing of it that a look-up begun before the hold ends brings', () => {
    const { clock, cache } = cacheAt();
    const before = clock.t;
    cache.set('s1', 7, 'alice', before);
    cache.set('s2', 7, 'alice', before);
    clock.t += 10;
    cache.forgetSession('s1');
    expect(cache.get('s1')).toBeUndefined();
    expect(cache.get('s2')).toBe('alice');
    // A look-up that began before the logout was committed answers after it: not kept.
    cache.set('s1', 7, 'alice', before + 5);
    expect(cache.get('s1')).toBeUndefined();
    clock.t += 1_000;
    cache.set('s1', 7, 'alice', clock.t);
    expect(cache.get('s1')).toBeUndefined();
    clock.t += 1_001;
    cache.set('s1', 7, 'alice', clock.t);
    expect(cache.get('s1')).toBe('alice');
  });

  it('forgets every session of a user, and everything', () => {
    const { clock, cache } = cacheAt();
    cache.set('s1', 7, 'alice', clock.t);
    cache.set('s2', 7, 'alice', clock.t);
    cache.set('s3', 8, 'bob', clock.t);
    clock.t += 1;
    cache.forgetUser(7);
    expect([cache.get('s1'), cache.get('s2'), cache.get('s3')]).toEqual([undefined, undefined, 'bob']);
    cache.set('s1', 7, 'alice', clock.t);
    expect(cache.get('s1')).toBeUndefined();
    cache.forgetAll();
    expect(cache.get('s3')).toBeUndefined();
    cache.set('s3', 8, 'bob', clock.t + 1_999);
    expect(cache.get('s3')).toBeUndefined();
    clock.t += 2_001;
    cache.set('s3', 8, 'bob', clock.t);
    expect(cache.get('s3')).toBe('bob');
  });
});
