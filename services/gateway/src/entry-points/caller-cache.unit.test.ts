import { describe, expect, it } from 'vitest';
import { createCallerCache, forgetOnAppend, type GatewayCaches, NO_OWNER, throughCache } from './caller-cache.ts';

function cacheAt<V = string>(start = 1_000) {
  const clock = { t: start };
  const cache = createCallerCache<V>({ maxAgeMs: 1_000, holdMs: 2_000, now: () => clock.t });
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

  it('forgets a key at once, and keeps nothing of it that a look-up begun before the hold ends brings', () => {
    const { clock, cache } = cacheAt();
    const before = clock.t;
    cache.set('s1', 7, 'alice', before);
    cache.set('s2', 7, 'alice', before);
    clock.t += 10;
    cache.forget('s1');
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

  it('forgets every entry of an owner, and everything', () => {
    const { clock, cache } = cacheAt();
    cache.set('s1', 7, 'alice', clock.t);
    cache.set('s2', 7, 'alice', clock.t);
    cache.set('s3', 8, 'bob', clock.t);
    clock.t += 1;
    cache.forgetOwner(7);
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

describe('throughCache', () => {
  it('looks up once while the entry is fresh, keeps null, and keeps nothing from a look-up that throws', async () => {
    const { clock, cache } = cacheAt<string | null>();
    const looked: string[] = [];
    const lookUp = throughCache(
      cache,
      async (key) => {
        looked.push(key);
        clock.t += 5;
        if (key === 'bad') throw new Error('no');
        return key === 'unknown' ? null : `value of ${key}`;
      },
      (value) => (value === null ? NO_OWNER : 7),
    );
    expect(await lookUp('k')).toBe('value of k');
    expect(await lookUp('k')).toBe('value of k');
    expect(await lookUp('unknown')).toBeNull();
    expect(await lookUp('unknown')).toBeNull();
    await expect(lookUp('bad')).rejects.toThrow('no');
    await expect(lookUp('bad')).rejects.toThrow('no');
    expect(looked).toEqual(['k', 'unknown', 'bad', 'bad']);
    cache.forgetOwner(7);
    expect(await lookUp('k')).toBe('value of k');
    expect(await lookUp('unknown')).toBeNull();
    expect(looked).toEqual(['k', 'unknown', 'bad', 'bad', 'k']);
    clock.t += 1_001;
    expect(await lookUp('unknown')).toBeNull();
    expect(looked.at(-1)).toBe('unknown');
  });

  it('does not keep what a look-up begun before a change brings back after it', async () => {
    const { clock, cache } = cacheAt();
    let release = () => {};
    const lookUp = throughCache(
      cache,
      (key) =>
        new Promise<string>((resolve) => {
          release = () => resolve(`old ${key}`);
        }),
      () => NO_OWNER,
    );
    const pending = lookUp('queue_module');
    clock.t += 10;
    cache.forget('queue_module'); // the change, committed while the read was on its way
    release();
    expect(await pending).toBe('old queue_module');
    expect(cache.get('queue_module')).toBeUndefined();
  });
});

describe('forgetOnAppend', () => {
  function caches() {
    const clock = { t: 1_000 };
    const make = () => createCallerCache<string>({ maxAgeMs: 1_000, holdMs: 2_000, now: () => clock.t });
    const all = { sessions: make(), apiKeys: make(), modules: make() } satisfies GatewayCaches;
    all.sessions.set('s7', 7, 'alice', clock.t);
    all.sessions.set('s8', 8, 'bob', clock.t);
    all.apiKeys.set('key7', 7, 'key of 7', clock.t);
    all.apiKeys.set('key9', 9, 'key of 9', clock.t);
    all.apiKeys.set('unknown', NO_OWNER, 'none', clock.t);
    all.modules.set('queue_module', NO_OWNER, 'on', clock.t);
    all.modules.set('map_module', NO_OWNER, 'on', clock.t);
    clock.t += 1;
    const held = () => ({
      sessions: ['s7', 's8'].filter((k) => all.sessions.get(k) !== undefined),
      apiKeys: ['key7', 'key9', 'unknown'].filter((k) => all.apiKeys.get(k) !== undefined),
      modules: ['queue_module', 'map_module'].filter((k) => all.modules.get(k) !== undefined),
    });
    return { all, held };
  }

  it('forgets a user’s sessions and the keys bound to it', () => {
    const { all, held } = caches();
    forgetOnAppend(all, 'user-7');
    expect(held()).toEqual({ sessions: ['s8'], apiKeys: ['key9', 'unknown'], modules: ['queue_module', 'map_module'] });
  });

  it('forgets every key when one changes (a disabled one, or one created or enabled that was unknown)', () => {
    const { all, held } = caches();
    forgetOnAppend(all, 'apikey-3');
    expect(held()).toEqual({ sessions: ['s7', 's8'], apiKeys: [], modules: ['queue_module', 'map_module'] });
  });

  it('forgets every session and key when a role’s permissions change', () => {
    const { all, held } = caches();
    forgetOnAppend(all, 'rolepermissions-user');
    expect(held()).toEqual({ sessions: [], apiKeys: [], modules: ['queue_module', 'map_module'] });
  });

  it('forgets the switch of the module whose setting changes', () => {
    const { all, held } = caches();
    forgetOnAppend(all, 'setting-queue_module');
    expect(held()).toEqual({ sessions: ['s7', 's8'], apiKeys: ['key7', 'key9', 'unknown'], modules: ['map_module'] });
  });

  it('leaves them all for other streams', () => {
    const { all, held } = caches();
    for (const stream of ['translations-common-en', 'users-7', 'portcall-1', 'pushtoken-7'])
      forgetOnAppend(all, stream);
    expect(held()).toEqual({
      sessions: ['s7', 's8'],
      apiKeys: ['key7', 'key9', 'unknown'],
      modules: ['queue_module', 'map_module'],
    });
  });
});
