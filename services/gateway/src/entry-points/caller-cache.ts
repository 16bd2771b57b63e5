// Who a Bearer session is, kept for at most a second by each gateway process (docs/domain.md#sessions): a burst of
// requests on one session then costs one Redis read and one user query, not one per request. A second bounds how
// long a change made through another gateway process (logout, a user locked or removed, a role's permissions)
// goes unseen here; changes made through this process are seen at once, as they tell the cache (service.ts).

import type { AppendOptions, EventStore, NewEvent, StreamAppend } from '@pcas/eventstore';
import type { SessionStore } from '../adapters/session-store.ts';

export interface CallerCacheOptions {
  /** Longest an entry is used, from the moment its look-up began. */
  maxAgeMs: number;
  /**
   * After a session, user or everything is forgotten, how long nothing about it is kept: a look-up begun just
   * before the change was committed may have read the old rows.
   */
  holdMs?: number;
  now?: () => number;
}

export interface CallerCache<V> {
  get(sessionId: string): V | undefined;
  /** Keeps what a look-up begun at `startedAt` found (unless something it read was forgotten since). */
  set(sessionId: string, userId: number, value: V, startedAt: number): void;
  forgetSession(sessionId: string): void;
  forgetUser(userId: number): void;
  forgetAll(): void;
  now(): number;
}

interface Entry<V> {
  value: V;
  userId: number;
  startedAt: number;
}

export function createCallerCache<V>(options: CallerCacheOptions): CallerCache<V> {
  const { maxAgeMs } = options;
  const holdMs = options.holdMs ?? 2 * maxAgeMs;
  const now = options.now ?? (() => performance.now());
  // Two generations, swapped every maxAgeMs, so entries of sessions no longer used go without a sweep.
  let current = new Map<string, Entry<V>>();
  let previous = new Map<string, Entry<V>>();
  let generationStart = now();
  // Look-ups begun before these times may hold what has changed since.
  const sessionFloor = new Map<string, number>();
  const userFloor = new Map<number, number>();
  let allFloor = Number.NEGATIVE_INFINITY;

  const rotate = (at: number) => {
    if (at - generationStart < maxAgeMs) return;
    previous = at - generationStart < 2 * maxAgeMs ? current : new Map();
    current = new Map();
    generationStart = at;
    for (const [key, floor] of sessionFloor) if (floor < at) sessionFloor.delete(key);
    for (const [key, floor] of userFloor) if (floor < at) userFloor.delete(key);
  };

  const fresh = (sessionId: string, entry: Entry<V>, at: number) =>
    at - entry.startedAt <= maxAgeMs &&
    entry.startedAt > allFloor &&
    entry.startedAt > (sessionFloor.get(sessionId) ?? Number.NEGATIVE_INFINITY) &&
    entry.startedAt > (userFloor.get(entry.userId) ?? Number.NEGATIVE_INFINITY);

  return {
    get(sessionId) {
      const at = now();
      rotate(at);
      const entry = current.get(sessionId) ?? previous.get(sessionId);
      return entry && fresh(sessionId, entry, at) ? entry.value : undefined;
    },
    set(sessionId, userId, value, startedAt) {
      const at = now();
      rotate(at);
      const entry = { value, userId, startedAt };
      if (fresh(sessionId, entry, at)) current.set(sessionId, entry);
    },
    forgetSession(sessionId) {
      current.delete(sessionId);
      previous.delete(sessionId);
      sessionFloor.set(sessionId, now() + holdMs);
    },
    forgetUser(userId) {
      userFloor.set(userId, now() + holdMs);
    },
    forgetAll() {
      current = new Map();
      previous = new Map();
      allFloor = now() + holdMs;
    },
    now,
  };
}

/** The session store, telling the cache of every session ended through it (logout, login, an inactive user). */
export function sessionsTellingCache(sessions: SessionStore, callers: CallerCache<unknown>): SessionStore {
  return {
    create: (userId) => sessions.create(userId),
    get: (id) => sessions.get(id),
    async destroy(id) {
      callers.forgetSession(id);
      await sessions.destroy(id);
    },
    health: () => sessions.health(),
  };
}

// The streams whose events change who a session is (libs/contracts/src/events.ts: userStream and
// rolePermissionsStream): a user's status, role or time zone, a role's permissions.
const USER_STREAM = /^user-(\d+)$/;
const ROLE_PERMISSIONS_STREAM = 'rolepermissions-';

/** The event store, telling the cache of every append that may change a session's caller. */
export function storeTellingCache(store: EventStore, callers: CallerCache<unknown>): EventStore {
  const appending = (streamId: string) => {
    const user = USER_STREAM.exec(streamId);
    if (user) callers.forgetUser(Number(user[1]));
    else if (streamId.startsWith(ROLE_PERMISSIONS_STREAM)) callers.forgetAll();
  };
  return new Proxy(store, {
    get(target, property) {
      if (property === 'append') {
        return (streamId: string, ...rest: [NewEvent[], AppendOptions?]) => {
          appending(streamId);
          return target.append(streamId, ...rest);
        };
      }
      if (property === 'appendMany') {
        return (entries: StreamAppend[], options?: Pick<AppendOptions, 'tx'>) => {
          for (const entry of entries) appending(entry.streamId);
          return target.appendMany(entries, options);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
