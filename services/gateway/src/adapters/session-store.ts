// Sessions: opaque random ids (never JWTs, as the original) with a sliding expiry. Redis in the fleet, so
// every gateway process sees the same sessions; a table in the embedded mode.

import { createHash, randomBytes } from 'node:crypto';
import { createBatcher } from '@pcas/batching';
import type { Db } from '@pcas/sql';
import type { Redis } from 'ioredis';

export interface SessionInfo {
  userId: number;
  /** Seconds left (after this read slid the expiry). */
  ttl: number;
}

export interface SessionStore {
  /** Starts a session for the user; returns its id. */
  create(userId: number): Promise<string>;
  /** The session, or null when unknown or expired. Reading it slides the expiry. */
  get(id: string): Promise<SessionInfo | null>;
  /** Ends the session, and remembers for a socket token's lifetime that it ended (see endedAmong). */
  destroy(id: string): Promise<void>;
  /**
   * Which of these session digests (sessionDigest) belong to sessions that were ended within a socket token's
   * lifetime: a signed-in socket carries its session's digest, never the session id itself.
   */
  endedAmong(digests: readonly string[]): Promise<Set<string>>;
  /** For /health-check: whether the backing server answers ('not used' when there is none). */
  health(): Promise<'ok' | 'down' | 'not used'>;
}

/** 24 random bytes → 32 base64url characters (the original's PHP ids had 26 characters, 130 bits). */
export const newSessionId = () => randomBytes(24).toString('base64url');

/** What a socket token names its session by (signing-key.ts): the id's SHA-256, so the token holds no session id. */
export const sessionDigest = (id: string) => createHash('sha256').update(id).digest('base64url');

/** How long an ended session is remembered: a socket token's lifetime (signing-key.ts SOCKET_TOKEN_SECONDS). */
export const ENDED_SESSION_SECONDS = 86_400;

// Anything that is not one of our ids is unknown without asking the server.
const SESSION_ID = /^[A-Za-z0-9_-]{26,128}$/;

export interface RedisSessionStoreOptions {
  ttlSeconds: number;
  /** Key prefix, so several deployments (or tests) can share one Redis. */
  prefix?: string;
}

export function createRedisSessionStore(redis: Redis, options: RedisSessionStoreOptions): SessionStore {
  const { ttlSeconds } = options;
  const prefix = options.prefix ?? 'pcas:session:';
  // Every API request reads its session: reads arriving while one pipeline is on its way leave together in the
  // next (one write, one round trip), each still a GETEX of its own, so each slides only its own session.
  const readAndSlide = createBatcher<string, string | null>(
    async (keys) => {
      const pipeline = redis.pipeline();
      for (const key of keys) pipeline.getex(key, 'EX', ttlSeconds);
      const results = (await pipeline.exec()) ?? [];
      return keys.map((_, i) => {
        const [error, value] = results[i] ?? [new Error('no reply from Redis'), null];
        return error ? { ok: false, error } : { ok: true, value: value as string | null };
      });
    },
    { maxInFlight: 1 },
  );
  return {
    async create(userId) {
      const id = newSessionId();
      await redis.set(prefix + id, String(userId), 'EX', ttlSeconds);
      return id;
    },
    async get(id) {
      if (!SESSION_ID.test(id)) return null;
      // GETEX reads and slides in one command (Redis ≥ 6.2).
      const value = await readAndSlide(prefix + id);
      if (value === null) return null;
      const userId = Number(value);
      return Number.isInteger(userId) ? { userId, ttl: ttlSeconds } : null;
    },
    async destroy(id) {
      if (!SESSION_ID.test(id)) return;
      await redis
        .multi()
        .del(prefix + id)
        .set(`${prefix}ended:${sessionDigest(id)}`, '1', 'EX', ENDED_SESSION_SECONDS)
        .exec();
    },
    async endedAmong(digests) {
      if (digests.length === 0) return new Set();
      const values = await redis.mget(digests.map((digest) => `${prefix}ended:${digest}`));
      return new Set(digests.filter((_, i) => values[i] !== null));
    },
    async health() {
      try {
        return (await redis.ping()) === 'PONG' ? 'ok' : 'down';
      } catch {
        return 'down';
      }
    },
  };
}

export interface SqlSessionStoreOptions {
  ttlSeconds: number;
}

/** Sessions in gateway.sessions (created by startGateway), for the embedded mode (no Redis). */
export function createSqlSessionStore(db: Db, options: SqlSessionStoreOptions): SessionStore {
  const { ttlSeconds } = options;
  return {
    async create(userId) {
      const id = newSessionId();
      // Logins are rare, so this is a cheap moment to sweep what has expired.
      await db.query('DELETE FROM gateway.sessions WHERE expires_at < now()');
      await db.query(
        `INSERT INTO gateway.sessions (id, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))`,
        [id, userId, ttlSeconds],
      );
      return id;
    },
    async get(id) {
      if (!SESSION_ID.test(id)) return null;
      const { rows } = await db.query<{ user_id: number }>(
        `UPDATE gateway.sessions SET expires_at = now() + make_interval(secs => $2)
         WHERE id = $1 AND expires_at > now() RETURNING user_id`,
        [id, ttlSeconds],
      );
      return rows.length > 0 ? { userId: Number(rows[0].user_id), ttl: ttlSeconds } : null;
    },
    async destroy(id) {
      await db.transaction(async (tx) => {
        await tx.query('DELETE FROM gateway.sessions WHERE id = $1', [id]);
        await tx.query('DELETE FROM gateway.ended_sessions WHERE expires_at < now()');
        await tx.query(
          `INSERT INTO gateway.ended_sessions (digest, expires_at) VALUES ($1, now() + make_interval(secs => $2))
           ON CONFLICT (digest) DO NOTHING`,
          [sessionDigest(id), ENDED_SESSION_SECONDS],
        );
      });
    },
    async endedAmong(digests) {
      if (digests.length === 0) return new Set();
      const { rows } = await db.query<{ digest: string }>(
        'SELECT digest FROM gateway.ended_sessions WHERE digest = ANY($1::text[]) AND expires_at > now()',
        [digests],
      );
      return new Set(rows.map((row) => row.digest));
    },
    async health() {
      return 'not used';
    },
  };
}
