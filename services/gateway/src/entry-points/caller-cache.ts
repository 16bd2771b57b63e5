// What each gateway process looks up for a request, kept for at most a second (docs/domain.md#sessions): who a
// Bearer session is, who an API key is, whether a module is on. A burst of requests then costs one look-up, not one
// per request. A second bounds how long a change made through another gateway process (logout, a user locked or
// removed, a role's permissions, a key disabled, a module switched off) goes unseen here; changes made through
// this process are seen at once, as they tell the caches (service.ts).

import type { AppendOptions, EventStore, NewEvent, StreamAppend } from '@pcas/eventstore';
import type { SessionStore } from '../adapters/session-store.ts';

export interface CallerCacheOptions {
  /** Longest an entry is used, from the moment its look-up began. */
  maxAgeMs: number;
  /**
   * After a key, an owner or everything is forgotten, how long nothing about it is kept: a look-up begun just
   * before the change was committed may have read the old rows.
   */
  holdMs?: number;
  now?: () => number;
}

/** Entries by key (a session id, an API key, a setting's name), each with the owner whose changes make it stale. */
export interface CallerCache<V> {
  get(key: string): V | undefined;
  /** Keeps what a look-up begun at `startedAt` found (unless something it read was forgotten since). */
  set(key: string, owner: number, value: V, startedAt: number): void;
  forget(key: string): void;
  /** Every entry of the owner (a user: its sessions, or the API keys bound to it). */
  forgetOwner(owner: number): void;
  forgetAll(): void;
  now(): number;
}

/** The owner of entries no single row owns (a module's switch, an unknown API key). */
export const NO_OWNER = 0;

interface Entry<V> {
  value: V;
  owner: number;
  startedAt: number;
}

export function createCallerCache<V>(options: CallerCacheOptions): CallerCache<V> {
  const { maxAgeMs } = options;
  const holdMs = options.holdMs ?? 2 * maxAgeMs;
  const now = options.now ?? (() => performance.now());
  // Two generations, swapped every maxAgeMs, so entries no longer used go without a sweep.
  let current = new Map<string, Entry<V>>();
  let previous = new Map<string, Entry<V>>();
  let generationStart = now();
  // Look-ups begun before these times may hold what has changed since.
  const keyFloor = new Map<string, number>();
  const ownerFloor = new Map<number, number>();
  let allFloor = Number.NEGATIVE_INFINITY;

  const rotate = (at: number) => {
    if (at - generationStart < maxAgeMs) return;
    previous = at - generationStart < 2 * maxAgeMs ? current : new Map();
    current = new Map();
    generationStart = at;
    for (const [key, floor] of keyFloor) if (floor < at) keyFloor.delete(key);
    for (const [owner, floor] of ownerFloor) if (floor < at) ownerFloor.delete(owner);
  };

  const fresh = (key: string, entry: Entry<V>, at: number) =>
    at - entry.startedAt <= maxAgeMs &&
    entry.startedAt > allFloor &&
    entry.startedAt > (keyFloor.get(key) ?? Number.NEGATIVE_INFINITY) &&
    entry.startedAt > (ownerFloor.get(entry.owner) ?? Number.NEGATIVE_INFINITY);

  return {
    get(key) {
      const at = now();
      rotate(at);
      const entry = current.get(key) ?? previous.get(key);
      return entry && fresh(key, entry, at) ? entry.value : undefined;
    },
    set(key, owner, value, startedAt) {
      const at = now();
      rotate(at);
      const entry = { value, owner, startedAt };
      if (fresh(key, entry, at)) current.set(key, entry);
    },
    forget(key) {
      current.delete(key);
      previous.delete(key);
      keyFloor.set(key, now() + holdMs);
    },
    forgetOwner(owner) {
      ownerFloor.set(owner, now() + holdMs);
    },
    forgetAll() {
      current = new Map();
      previous = new Map();
      allFloor = now() + holdMs;
    },
    now,
  };
}

/**
 * `lookUp` answered from the cache while its entry is fresh; what it finds is kept under `ownerOf(value)`. A look-up
 * that throws keeps nothing. `undefined` is never kept (it is the cache's "not there").
 */
export function throughCache<V>(
  cache: CallerCache<V>,
  lookUp: (key: string) => Promise<V>,
  ownerOf: (value: V) => number,
): (key: string) => Promise<V> {
  return async (key) => {
    const known = cache.get(key);
    if (known !== undefined) return known;
    // Taken before the look-up's query goes out (a batched one goes out at this moment or later).
    const startedAt = cache.now();
    const value = await lookUp(key);
    cache.set(key, ownerOf(value), value, startedAt);
    return value;
  };
}

/** The caches of one gateway process. */
export interface GatewayCaches {
  /** Session id → its caller; owner: the user. */
  sessions: CallerCache<unknown>;
  /** API key → its caller or null (unknown or disabled); owner: the key's bound user. */
  apiKeys: CallerCache<unknown>;
  /** A module's setting name (`queue_module`) → whether it is enabled. */
  modules: CallerCache<unknown>;
}

/** The session store, telling the cache of every session ended through it (logout, login, an inactive user). */
export function sessionsTellingCache(sessions: SessionStore, callers: CallerCache<unknown>): SessionStore {
  return {
    create: (userId) => sessions.create(userId),
    get: (id) => sessions.get(id),
    async destroy(id) {
      callers.forget(id);
      await sessions.destroy(id);
    },
    endedAmong: (digests) => sessions.endedAmong(digests),
    health: () => sessions.health(),
  };
}

// The streams whose events change what the caches hold (libs/contracts/src/events-gateway.ts: userStream, apiKeyStream,
// rolePermissionsStream, settingStream): a user's status, role or time zone, a key's state, a role's permissions,
// a setting.
const USER_STREAM = /^user-(\d+)$/;
const API_KEY_STREAM = 'apikey-';
const ROLE_PERMISSIONS_STREAM = 'rolepermissions-';
const SETTING_STREAM = 'setting-';

/** Tells the caches of an append to `streamId` (before it commits: see CallerCacheOptions.holdMs). */
export function forgetOnAppend(caches: GatewayCaches, streamId: string): void {
  const user = USER_STREAM.exec(streamId);
  if (user) {
    caches.sessions.forgetOwner(Number(user[1]));
    caches.apiKeys.forgetOwner(Number(user[1]));
  } else if (streamId.startsWith(API_KEY_STREAM)) {
    // Keys are cached by their secret, and an unknown key (one being created or enabled) has no owner to forget:
    // key changes are rare, so they forget every key.
    caches.apiKeys.forgetAll();
  } else if (streamId.startsWith(ROLE_PERMISSIONS_STREAM)) {
    caches.sessions.forgetAll();
    caches.apiKeys.forgetAll();
  } else if (streamId.startsWith(SETTING_STREAM)) {
    caches.modules.forget(streamId.slice(SETTING_STREAM.length));
  }
}

/** The event store, telling the caches of every append that may change what they hold. */
export function storeTellingCache(store: EventStore, caches: GatewayCaches): EventStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'append') {
        return (streamId: string, ...rest: [NewEvent[], AppendOptions?]) => {
          forgetOnAppend(caches, streamId);
          return target.append(streamId, ...rest);
        };
      }
      if (property === 'appendMany') {
        return (entries: StreamAppend[], options?: Pick<AppendOptions, 'tx'>) => {
          for (const entry of entries) forgetOnAppend(caches, entry.streamId);
          return target.appendMany(entries, options);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
