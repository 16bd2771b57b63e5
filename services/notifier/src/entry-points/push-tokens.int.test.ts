// Push tokens in the notifier, on real PostgreSQL, through cmd.notifier as the gateway sends them: registering,
// moving a device between users, unregistering, a push service's stale-token report, bad input storing nothing,
// and adopting the rows an earlier version kept in the gateway. (The routes' own checks: the gateway's
// routes/push-tokens.int.test.ts.)

import { commandHandler } from '@pcas/commands';
import { loadConfig } from '@pcas/config';
import { type Actor, NOTIFIER, PushTokenCommands, type ServiceDeps } from '@pcas/contracts';
import { createEventStore } from '@pcas/eventstore';
import { createInProcessBus } from '@pcas/messaging';
import { createLogger } from '@pcas/observability';
import { openDb } from '@pcas/sql';
import { freshPostgres, type PostgresForTest } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSchema } from '../adapters/schema.ts';
import { pushTokenCommands } from './push-tokens.ts';

let pg: PostgresForTest;
let deps: ServiceDeps;

const ALICE: Actor = { user_id: 11, api_key_id: null };
const BOB: Actor = { user_id: 12, api_key_id: null };
/** Who registered the earlier version's device. */
const OLD_OWNER: Actor = { user_id: 5, api_key_id: null };
const PUSH_SERVICE: Actor = { user_id: 3, api_key_id: 7 };

const register = (actor: Actor, input: Record<string, unknown>) =>
  deps.bus.rpc(NOTIFIER, PushTokenCommands.registerPushToken, { actor, input });
const removeStale = (actor: Actor, tokens: unknown) =>
  deps.bus.rpc(NOTIFIER, PushTokenCommands.removeStalePushTokens, { actor, input: { tokens } });
const rows = async () =>
  (
    await deps.db.query(
      'SELECT id, user_id, platform, installation_id, push_token FROM notifier.push_tokens ORDER BY id',
    )
  ).rows;
const stream = (id: number) => deps.store.readStream(`pushtoken-${id}`);
const snapshot = async () =>
  JSON.stringify([await rows(), (await deps.db.query('SELECT count(*)::int AS n FROM eventstore.events')).rows]);

beforeAll(async () => {
  pg = await freshPostgres('notifier_push_tokens');
  const db = pg.url ? await openDb({ url: pg.url }) : await openDb({ dataDir: 'memory://' });
  const store = createEventStore(db);
  await store.init();
  // A database an earlier version wrote: the gateway kept the tokens (rows and sequence).
  await db.query('CREATE SCHEMA gateway');
  await db.query('CREATE SEQUENCE gateway.push_token_ids');
  await db.query(`CREATE TABLE gateway.push_tokens (
     id integer PRIMARY KEY, user_id integer NOT NULL, platform text NOT NULL, installation_id text NOT NULL,
     push_token text NOT NULL, created_at timestamptz NOT NULL DEFAULT now(),
     modified_at timestamptz NOT NULL DEFAULT now(), UNIQUE (platform, installation_id))`);
  await db.query("SELECT setval('gateway.push_token_ids', 40)");
  await db.query(
    "INSERT INTO gateway.push_tokens (id, user_id, platform, installation_id, push_token) VALUES (39, 5, 'ios', 'old-1', 'ExponentPushToken[old]')",
  );
  // ... and wrote the token into the event's data.
  await store.append('pushtoken-39', [
    {
      type: 'PushTokenRegistered',
      data: { id: 39, user_id: 5, platform: 'ios', installation_id: 'old-1', push_token: 'ExponentPushToken[old]' },
    },
  ]);
  const log = createLogger('notifier-push-tokens-test', process.env.LOG_LEVEL ?? 'warn');
  deps = { config: loadConfig({}), db, store, bus: createInProcessBus({ log }), log };
  await ensureSchema(db);
  await ensureSchema(db); // a second start changes nothing
  await deps.bus.serveRpc(NOTIFIER, commandHandler(pushTokenCommands(deps)));
});

afterAll(async () => {
  await deps?.bus.close();
  await deps?.db.close();
  await pg?.drop();
});

describe('an earlier version’s tokens', () => {
  it('are adopted from the gateway once; new ids go on after the old sequence; the old table is gone', async () => {
    expect(await rows()).toEqual([
      { id: 39, user_id: 5, platform: 'ios', installation_id: 'old-1', push_token: 'ExponentPushToken[old]' },
    ]);
    const { rows: legacy } = await deps.db.query(
      "SELECT to_regclass('gateway.push_tokens') AS t, to_regclass('gateway.push_token_ids') AS s",
    );
    expect(legacy).toEqual([{ t: null, s: null }]);
    // The token left the stored event; the rest of it stayed.
    expect((await stream(39)).map((e) => e.data)).toEqual([
      { id: 39, user_id: 5, platform: 'ios', installation_id: 'old-1' },
    ]);
    expect(await register(OLD_OWNER, { installation_id: 'new-0', platform: 'ios', push_token: '' })).toBe(0);
    // Only its own user removes a device: for anyone else an empty token removes nothing (0).
    expect(await register(ALICE, { installation_id: 'old-1', platform: 'ios', push_token: '' })).toBe(0);
    expect(await rows()).toHaveLength(1);
    expect(await register(OLD_OWNER, { installation_id: 'old-1', platform: 'ios', push_token: '' })).toBe(39);
    expect(await rows()).toEqual([]);
  });
});

describe('registerPushToken', () => {
  let id: number;

  it('registers a device to the caller and returns its id', async () => {
    id = (await register(ALICE, {
      installation_id: 'inst-1',
      platform: 'android',
      push_token: 'ExponentPushToken[aaa]',
    })) as number;
    expect(id).toBe(41);
    expect(await rows()).toEqual([
      { id, user_id: 11, platform: 'android', installation_id: 'inst-1', push_token: 'ExponentPushToken[aaa]' },
    ]);
    const events = await stream(id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'PushTokenRegistered',
      data: { id, user_id: 11, previous_user_id: null },
      metadata: { user_id: 11 },
    });
    // The token is a secret: in the row only, in no event (which the relay publishes).
    expect(JSON.stringify(events)).not.toContain('ExponentPushToken');
    // The same registration again changes nothing.
    expect(
      await register(ALICE, { installation_id: 'inst-1', platform: 'android', push_token: 'ExponentPushToken[aaa]' }),
    ).toBe(id);
    expect(await stream(id)).toHaveLength(1);
  });

  it('one device, one user: the device itself (its current token) signing in as another user moves it', async () => {
    // Without the device's current token another user cannot take it: refused, nothing stored.
    await expect(
      register(BOB, { installation_id: 'inst-1', platform: 'android', push_token: 'ExponentPushToken[bbb]' }),
    ).rejects.toThrow('This device is registered to another user');
    expect(await rows()).toMatchObject([{ id, user_id: 11, push_token: 'ExponentPushToken[aaa]' }]);
    expect(await stream(id)).toHaveLength(1);
    expect(
      await register(BOB, { installation_id: 'inst-1', platform: 'android', push_token: 'ExponentPushToken[aaa]' }),
    ).toBe(id);
    expect(await rows()).toMatchObject([{ id, user_id: 12, push_token: 'ExponentPushToken[aaa]' }]);
    expect((await stream(id)).at(-1)).toMatchObject({
      type: 'PushTokenRegistered',
      data: { user_id: 12, previous_user_id: 11 },
    });
    // Another platform with the same installation id is another device.
    const ios = await register(ALICE, {
      installation_id: 'inst-1',
      platform: 'ios',
      push_token: 'ExponentPushToken[ccc]',
    });
    expect(ios).not.toBe(id);
    expect(await rows()).toHaveLength(2);
  });

  it('an empty token unregisters the device', async () => {
    expect(await register(BOB, { installation_id: 'inst-1', platform: 'android', push_token: '' })).toBe(id);
    expect((await rows()).map((r) => r.platform)).toEqual(['ios']);
    expect((await stream(id)).at(-1)).toMatchObject({
      type: 'PushTokenRemoved',
      data: { id, user_id: 12, reason: 'unregistered' },
    });
    expect(await register(BOB, { installation_id: 'inst-1', platform: 'android', push_token: null })).toBe(0);
  });
});

describe('removeStalePushTokens (the push service)', () => {
  it('deletes the devices of stale tokens and records why', async () => {
    await register(ALICE, { installation_id: 'inst-2', platform: 'android', push_token: 'ExponentPushToken[stale]' });
    const staleRow = (await rows()).find((r) => r.push_token === 'ExponentPushToken[stale]')!;
    expect(await removeStale(PUSH_SERVICE, ['ExponentPushToken[stale]', 'ExponentPushToken[unknown]'])).toBeNull();
    expect((await rows()).map((r) => r.push_token)).toEqual(['ExponentPushToken[ccc]']);
    expect((await stream(Number(staleRow.id))).at(-1)).toMatchObject({
      type: 'PushTokenRemoved',
      data: { reason: 'stale', user_id: 11 },
      metadata: { user_id: 3, api_key_id: 7 },
    });
  });
});

describe('bad input changes nothing', () => {
  const ok = { installation_id: 'inst-3', platform: 'ios', push_token: 'ExponentPushToken[ok]' };
  const cases: [string, () => Promise<unknown>, string][] = [
    ['no user', () => register({ user_id: null, api_key_id: 4 }, ok), 'Invalid ID'],
    ['empty identifier', () => register(ALICE, { ...ok, installation_id: '' }), 'Invalid Device Identifier'],
    ['"0" identifier', () => register(ALICE, { ...ok, installation_id: '0' }), 'Invalid Device Identifier'],
    ['object identifier', () => register(ALICE, { ...ok, installation_id: { a: 1 } }), 'Invalid Device Identifier'],
    ['empty platform', () => register(ALICE, { ...ok, platform: '' }), 'Invalid Device Platform'],
    ['number platform', () => register(ALICE, { ...ok, platform: 7.5 }), 'Invalid Device Platform'],
    ['list token', () => register(ALICE, { ...ok, push_token: ['x'] }), 'Invalid push token'],
    [
      'no list',
      () => removeStale(PUSH_SERVICE, { a: 'ExponentPushToken[ccc]' }),
      'Invalid tokens: expected a list of at most 10000 tokens',
    ],
    [
      'a number among tokens',
      () => removeStale(PUSH_SERVICE, ['ExponentPushToken[ccc]', 5]),
      'Invalid tokens: every token must be a string',
    ],
  ];

  it.each(cases)('%s', async (_name, send, error) => {
    const before = await snapshot();
    await expect(send()).rejects.toMatchObject({ status: 400, message: error });
    expect(await snapshot()).toBe(before);
  });
});
