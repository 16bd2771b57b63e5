// Both session stores against real servers: Redis (fleet) and PostgreSQL (the table the embedded mode uses).

import { type Db, openDb } from '@pcas/sql';
import { freshPostgres, type PostgresForTest, redis as redisForTest, uniqueName } from '@pcas/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureGatewaySchema } from './schema.ts';
import { createRedisSessionStore, createSqlSessionStore, type SessionStore, sessionDigest } from './session-store.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The behaviour both implementations share. `ttl` is short so expiry can be observed. */
function contract(name: string, make: (ttlSeconds: number) => SessionStore) {
  describe(name, () => {
    it('creates opaque ids of at least 26 characters, unique per call', async () => {
      const store = make(60);
      const a = await store.create(1);
      const b = await store.create(1);
      expect(a).toMatch(/^[A-Za-z0-9_-]{26,}$/);
      expect(a).not.toBe(b);
    });

    it('returns the user and the ttl; unknown ids are null', async () => {
      const store = make(60);
      const id = await store.create(42);
      expect(await store.get(id)).toEqual({ userId: 42, ttl: 60 });
      expect(await store.get(`${id.slice(0, -1)}${id.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
      expect(await store.get('null')).toBeNull();
      expect(await store.get('')).toBeNull();
    });

    it('answers reads made together each with its own session', async () => {
      const store = make(60);
      const ids = await Promise.all([11, 12, 13, 14].map((user) => store.create(user)));
      const unknown = `${ids[0].slice(0, -1)}${ids[0].endsWith('A') ? 'B' : 'A'}`;
      const read = await Promise.all([...ids, unknown, ids[2], ...[...ids].reverse()].map((id) => store.get(id)));
      expect(read.map((session) => session?.userId ?? null)).toEqual([11, 12, 13, 14, null, 13, 14, 13, 12, 11]);
    });

    it('destroy ends the session', async () => {
      const store = make(60);
      const id = await store.create(5);
      await store.destroy(id);
      expect(await store.get(id)).toBeNull();
      await store.destroy(id); // twice is harmless
    });

    it('remembers an ended session by its digest, for its socket tokens', async () => {
      const store = make(60);
      const [ended, live] = [await store.create(5), await store.create(5)];
      expect(await store.endedAmong([sessionDigest(ended), sessionDigest(live)])).toEqual(new Set());
      await store.destroy(ended);
      expect(await store.endedAmong([sessionDigest(ended), sessionDigest(live)])).toEqual(
        new Set([sessionDigest(ended)]),
      );
      expect(await store.endedAmong([])).toEqual(new Set());
    });

    it('expires after the ttl, and each read slides the expiry', async () => {
      // Reads a second apart against a 4 s ttl: a loaded machine may stretch a gap by up to 3 s.
      const store = make(4);
      const idle = await store.create(7);
      const active = await store.create(8);
      // Read `active` every second, past its first expiry: its expiry keeps moving; `idle` is never read.
      for (let i = 0; i < 5; i++) {
        await sleep(1_000);
        expect(await store.get(active)).toEqual({ userId: 8, ttl: 4 });
      }
      expect(await store.get(idle)).toBeNull();
      await sleep(4_200);
      expect(await store.get(active)).toBeNull();
    });
  });
}

// Without a reachable Redis (and not under CI, where infra requires it) the Redis cases are skipped.
const redisServer = await redisForTest();
let client: Redis | undefined;
const prefix = `${uniqueName('test-sessions')}:`;
let pg: PostgresForTest;
let db: Db;

beforeAll(async () => {
  if (redisServer) client = new Redis(redisServer.url);
  pg = await freshPostgres('gateway_sessions');
  db = pg.url ? await openDb({ url: pg.url }) : await openDb({ dataDir: 'memory://' });
  await ensureGatewaySchema(db);
});

afterAll(async () => {
  if (client) {
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(...keys);
    await client.quit();
  }
  await db?.close();
  await pg?.drop();
});

describe.skipIf(!redisServer)('redis', () => {
  contract('redis session store', (ttlSeconds) => createRedisSessionStore(client!, { ttlSeconds, prefix }));

  it('keys carry the prefix and a TTL; health is ok', async () => {
    if (!client) throw new Error('no Redis');
    const store = createRedisSessionStore(client, { ttlSeconds: 100, prefix });
    const id = await store.create(3);
    expect(await client.get(`${prefix}${id}`)).toBe('3');
    const ttl = await client.ttl(`${prefix}${id}`);
    expect(ttl).toBeGreaterThan(90);
    expect(ttl).toBeLessThanOrEqual(100);
    expect(await store.health()).toBe('ok');
  });
});

describe('sql', () => {
  contract('sql session store', (ttlSeconds) => createSqlSessionStore(db, { ttlSeconds }));

  it('sessions live in gateway.sessions and expired rows are swept on create', async () => {
    const store = createSqlSessionStore(db, { ttlSeconds: 100 });
    const id = await store.create(9);
    const row = await db.query<{ user_id: number }>('SELECT user_id FROM gateway.sessions WHERE id = $1', [id]);
    expect(row.rows[0].user_id).toBe(9);
    await db.query(
      `INSERT INTO gateway.sessions (id, user_id, expires_at) VALUES ('stale-${'x'.repeat(30)}', 1, now() - interval '1 s')`,
    );
    await store.create(9);
    const stale = await db.query(`SELECT 1 FROM gateway.sessions WHERE id LIKE 'stale-%'`);
    expect(stale.rowCount).toBe(0);
    expect(await store.health()).toBe('not used');
  });
});
