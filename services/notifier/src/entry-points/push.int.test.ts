// Push to phones on real PostgreSQL, against a local HTTP server that speaks Expo's push and receipt API (never the
// internet): the events travel the real path (store → relay → bus → the push consumers → jobs → HTTP). Recipients,
// titles and bodies of both push kinds, parts of 100, a retry after a 500, DeviceNotRegistered devices removed (in a
// ticket and in a receipt), a notification stored while the push server is down, and the VESSEL rules (attached,
// heaviest, pinned). Once with BullMQ on the real Redis (the fleet), once with in-process timers (embedded). What
// other services own reaches the notifier as their events, appended here as they would append them: users,
// translations and vessel names (copied by the notifier), and the projector's TimestampPlaced.

import { commandHandler } from '@pcas/commands';
import { loadConfig } from '@pcas/config';
import {
  type Actor,
  NOTIFIER,
  NotificationCommands,
  PORTCALL_CHANGES_STREAM,
  type PortCallChanged,
  type ServiceDeps,
  type TimestampPlaced,
  type TimestampReceived,
  type UserCreated,
} from '@pcas/contracts';
import { createEventStore } from '@pcas/eventstore';
import { createBullJobs, createInProcessJobs, type DelayedJobs, type DueJob, type JobHandler } from '@pcas/jobs';
import { createInProcessBus, type Relay, startRelay } from '@pcas/messaging';
import { createLogger, type Logger } from '@pcas/observability';
import { openDb } from '@pcas/sql';
import {
  type ExpoMessageReceived,
  type ExpoServerForTest,
  freshPostgres,
  type PostgresForTest,
  redis,
  startExpoServer,
  uniqueName,
  waitFor,
} from '@pcas/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createExpoClient } from '../adapters/expo.ts';
import { pushJobHandler } from '../adapters/push-jobs.ts';
import { registerPushToken } from '../adapters/push-tokens.ts';
import { ensureSchema } from '../adapters/schema.ts';
import { type Copies, startCopies } from './copies.ts';
import { notificationCommands } from './notifications.ts';
import { startPush } from './push.ts';

let expo: ExpoServerForTest;
const delivered = () => expo.delivered();

// ---- the notifier's surroundings ----

/** A user as the gateway creates one, with a time zone and deleted where told. */
async function user(id: number, email: string, options: { time_zone?: string; deleted?: boolean } = {}) {
  const created: UserCreated = {
    id,
    email,
    first_name: '',
    last_name: '',
    role: 'user',
    status: 'active',
    registration_type: 'manual',
    created_by: null,
  };
  const events: { type: string; data: unknown }[] = [{ type: 'UserCreated', data: created }];
  if (options.time_zone)
    events.push({ type: 'UserTimeZoneChanged', data: { id, time_zone: options.time_zone, previous_time_zone: null } });
  if (options.deleted) events.push({ type: 'UserDeleted', data: { id } });
  await deps.store.append(`user-${id}`, events);
}

const PINNED = 9074729;
const UNPINNED = 9300000;
const SENDER: Actor = { user_id: 1, api_key_id: null };

let pg: PostgresForTest;
let deps: ServiceDeps;
let relay: Relay;
let stopPush: () => Promise<void>;
let copies: Copies;
const broadcasts: { key: string; body: any }[] = [];

const device = (userId: number, name: string) =>
  registerPushToken(
    deps.db,
    deps.store,
    userId,
    { platform: 'ios', installation_id: name, push_token: `ExponentPushToken[${name}]` },
    { user_id: userId, api_key_id: null },
  );

const createNotification = (input: Record<string, unknown>) =>
  deps.bus.rpc<{ id: number }>(NOTIFIER, NotificationCommands.createNotification, { actor: SENDER, input });
beforeAll(async () => {
  expo = await startExpoServer();
});

afterAll(async () => {
  await expo?.close();
});

const tokensOf = (messages: ExpoMessageReceived[]) => messages.map((m) => m.to).sort();
const T = (name: string) => `ExponentPushToken[${name}]`;

const redisUrl = (await redis())?.url;

// The fleet's adapter (BullMQ on Redis, a key prefix of its own) and the embedded one (in-process timers).
const adapters: [string, boolean, (handler: JobHandler, log: Logger) => DelayedJobs | Promise<DelayedJobs>][] = [
  [
    'bullmq',
    redisUrl !== undefined,
    (handler, log) =>
      createBullJobs({
        queue: 'push-test',
        redisUrl: redisUrl!,
        prefix: uniqueName('bull-push-test'),
        handler,
        log,
        maxAttempts: 6,
        retryBaseMs: 50,
      }),
  ],
  [
    'in-process',
    true,
    (handler, log) => createInProcessJobs({ queue: 'push-test', handler, log, maxAttempts: 6, retryBaseMs: 50 }),
  ],
];

describe.each(adapters)('pushes through %s jobs', (_adapter, available, createJobs) => {
  beforeAll(async () => {
    if (!available) return;
    pg = await freshPostgres('notifier_push');
    const db = pg.url ? await openDb({ url: pg.url }) : await openDb({ dataDir: 'memory://' });
    const store = createEventStore(db);
    await store.init();
    const log = createLogger('notifier-push-test', process.env.LOG_LEVEL ?? 'silent');
    const bus = createInProcessBus({ log });
    // The receipts endpoint is derived from the push URL (…/send → …/getReceipts).
    const config = loadConfig(
      { EXPO_PUSH_URL: expo.pushUrl, PORT_DEFAULT_TIME_ZONE: 'Europe/Stockholm' },
      { namespace: 'gavle', pushReceiptDelayMs: 100 },
    );
    expect(config.expoReceiptsUrl).toBe(expo.receiptsUrl);
    deps = { config, db, store, bus, log };
    await ensureSchema(db);
    await bus.serveRpc(NOTIFIER, commandHandler(notificationCommands(deps)));
    await bus.receiveBroadcasts((key, body) => broadcasts.push({ key, body }));
    copies = await startCopies(deps, { name: uniqueName('notifier-copies') });
    const push = await startPush(deps, { createJobs: (handler) => createJobs(handler, log) });
    stopPush = push.stop;
    relay = await startRelay({ store, db, bus, log, pollIntervalMs: 20 });

    // Users: 1 sends; 2 (Helsinki) and 3 (no zone) pinned the vessel; 4 pinned nothing; 5 was deleted.
    await user(1, 'sender@port.test');
    await user(2, 'two@port.test', { time_zone: 'Europe/Helsinki' });
    await user(3, 'three@port.test');
    await user(4, 'four@port.test', { time_zone: 'UTC' });
    await user(5, 'five@port.test', { deleted: true });
    await db.query(
      `INSERT INTO notifier.pinned_vessels (user_id, imo, position) VALUES (2, ${PINNED}, 0), (3, ${PINNED}, 0)`,
    );
    await store.append(`vessel-${PINNED}`, [
      { type: 'VesselRegistered', data: { imo: PINNED, vessel_name: 'Ever Given' } },
    ]);
    await store.append('translations-gavle-en', [
      {
        type: 'TranslationsAdded',
        data: {
          namespace: 'gavle',
          language: 'en',
          translations: [{ key: 'Estimated Arrival Vessel PortArea', value: 'ETA port area' }],
        },
      },
    ]);
    // The copies have them all: the deleted user as such, the vessel's name, the text.
    await waitFor(async () => {
      const { rows } = await db.query<{ n: number }>(
        `SELECT (SELECT count(*) FROM notifier.users WHERE status = 'deleted')::int
              + (SELECT count(*) FROM notifier.users)::int + (SELECT count(*) FROM notifier.vessels)::int
              + (SELECT count(*) FROM notifier.translations)::int AS n`,
      );
      return rows[0].n === 8;
    });
    for (const [user, name] of [
      [1, 'one'],
      [2, 'two-a'],
      [2, 'two-b'],
      [3, 'three'],
      [4, 'four'],
      [5, 'five'],
    ] as const) {
      await device(user, name);
    }
  });

  afterAll(async () => {
    await relay?.stop();
    await stopPush?.();
    await copies?.stop();
    await deps?.bus.close();
    await deps?.db.close();
    await pg?.drop();
  });

  beforeEach(() => {
    expo.reset();
    broadcasts.length = 0;
  });

  describe.skipIf(!available)('NOTIFICATION pushes', () => {
    it('a port notification: every device but the sender’s and a deleted user’s, "Port notification", the message, the notification as data', async () => {
      const created = await createNotification({ type: 'port', message: 'Berth 3 closed at noon' });
      await waitFor(() => delivered().length === 4);
      expect(tokensOf(delivered())).toEqual([T('four'), T('three'), T('two-a'), T('two-b')]);
      expect(delivered()[0]).toMatchObject({
        title: 'Port notification',
        body: 'Berth 3 closed at noon',
        sound: 'default',
        channelId: 'notification',
        priority: 'high',
        // The notification as the list serves it: the original mobile app's toast reads data.data.sender.email.
        data: {
          type: 'NOTIFICATION',
          data: {
            id: created.id,
            type: 'port',
            message: 'Berth 3 closed at noon',
            sender: { email: expect.any(String) },
          },
        },
      });
    });

    it('a ship notification: only the devices of those who pinned the ship, titled with its name', async () => {
      await createNotification({ type: 'ship', message: 'Pilot delayed', ship_imo: String(PINNED) });
      await waitFor(() => delivered().length === 3);
      await new Promise((r) => setTimeout(r, 200));
      expect(tokensOf(delivered())).toEqual([T('three'), T('two-a'), T('two-b')]);
      expect(delivered().map((m) => m.title)).toEqual(['Ever Given', 'Ever Given', 'Ever Given']);
    });

    it('is stored while the push server is down, and delivered when it is back (retried with backoff)', async () => {
      expo.down = true;
      const created = await createNotification({ type: 'port', message: 'Storm warning' });
      const { rows } = await deps.db.query('SELECT message FROM notifier.notifications WHERE id = $1', [created.id]);
      expect(rows).toEqual([{ message: 'Storm warning' }]);
      await waitFor(() => expo.pushes.length >= 2);
      expect(delivered()).toEqual([]);
      expo.down = false;
      await waitFor(() => delivered().length === 4);
      expect(expo.pushes.filter((p) => p.status === 500).length).toBeGreaterThanOrEqual(2);
    });

    it('one 500 from Expo: the same request again, sent once', async () => {
      expo.failNext = 1;
      await createNotification({ type: 'port', message: 'Retry me' });
      await waitFor(() => delivered().length === 4);
      expect(expo.pushes.map((p) => p.status)).toEqual([500, 200]);
      expect(expo.pushes[1].messages).toEqual(expo.pushes[0].messages);
    });

    it('more than 100 devices: one request per 100', async () => {
      for (let i = 0; i < 150; i++) await device(100 + i, `many-${i}`);
      try {
        await createNotification({ type: 'port', message: 'Everyone' });
        await waitFor(() => delivered().length === 154);
        expect(expo.pushes.map((p) => p.messages.length).sort((a, b) => a - b)).toEqual([54, 100]);
      } finally {
        await deps.db.query("DELETE FROM notifier.push_tokens WHERE installation_id LIKE 'many-%'");
      }
    });
  });

  describe.skipIf(!available)('a send job run again', () => {
    // The job's handler itself, as a second run meets it: after a crash past Expo's reply, or a stalled job taken
    // up by another process while the first still runs.
    const handler = () =>
      pushJobHandler({
        ...deps,
        expo: createExpoClient({ pushUrl: expo.pushUrl, receiptsUrl: expo.receiptsUrl }),
        jobs: () => createInProcessJobs({ queue: uniqueName('receipts'), handler: async () => {}, log: deps.log }),
        receiptDelayMs: 60_000,
        namespace: 'gavle',
        portTimeZone: null,
      });
    const sendJob = async (name: string): Promise<DueJob> => {
      const { rows } = await deps.db.query<{ id: number }>(
        "SELECT id FROM notifier.push_tokens WHERE installation_id = 'two-a'",
      );
      const push = { key: name, type: 'NOTIFICATION', title: 'Port notification', recipients: [] as unknown[] };
      push.recipients.push({ token_id: rows[0].id, body: name });
      return { id: `push-${name}-0`, attempt: 1, data: { kind: 'send', push, message_id: `1-${name}` } };
    };

    it('sends once: run after run, and two runs at once', async () => {
      const job = await sendJob('again');
      const run = handler();
      await run(job);
      await run({ ...job, attempt: 2 });
      expect(delivered().map((m) => m.body)).toEqual(['again']);

      const both = await sendJob('at-once');
      const outcomes = await Promise.allSettled([handler()(both), handler()(both)]);
      expect(delivered().map((m) => m.body)).toEqual(['again', 'at-once']);
      // The run that found the other's claim fails, so its job is tried again later (and then finds it sent).
      expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
      await handler()({ ...both, attempt: 2 });
      expect(delivered().map((m) => m.body)).toEqual(['again', 'at-once']);
    });

    it('a run that died holding the claim: the next sends once the claim has run out (nothing lost)', async () => {
      const job = await sendJob('crashed');
      await deps.db.query(
        "INSERT INTO notifier.push_sends (job_id, claimed_until) VALUES ($1, now() + interval '1 hour')",
        [job.id],
      );
      await expect(handler()(job)).rejects.toThrow(/being sent by another run/);
      expect(delivered()).toEqual([]);
      await deps.db.query(
        "UPDATE notifier.push_sends SET claimed_until = now() - interval '1 second' WHERE job_id = $1",
        [job.id],
      );
      await handler()({ ...job, attempt: 2 });
      expect(delivered().map((m) => m.body)).toEqual(['crashed']);
    });

    it('Expo refused: the claim goes with the failure, and the retry sends', async () => {
      const job = await sendJob('refused');
      expo.failNext = 1;
      await expect(handler()(job)).rejects.toThrow(/HTTP 500/);
      await handler()({ ...job, attempt: 2 });
      expect(delivered().map((m) => m.body)).toEqual(['refused']);
    });
  });

  describe.skipIf(!available)('devices Expo no longer knows', () => {
    it('are removed after DeviceNotRegistered in a receipt or a ticket: an event on the device’s stream', async () => {
      const receiptGone = await device(4, 'four-old');
      const ticketGone = await device(4, 'four-older');
      expo.goneAtReceipt.add(T('four-old'));
      expo.goneAtSend.add(T('four-older'));
      await createNotification({ type: 'port', message: 'Hello devices' });
      await waitFor(async () => {
        const { rows } = await deps.db.query('SELECT id FROM notifier.push_tokens WHERE id = ANY($1::int[])', [
          [receiptGone, ticketGone],
        ]);
        return rows.length === 0;
      });
      expect(expo.receiptRequests.flat()).toContain(`receipt:${T('four-old')}`);
      for (const id of [receiptGone, ticketGone]) {
        expect((await deps.store.readStream(`pushtoken-${id}`)).at(-1)).toMatchObject({
          type: 'PushTokenRemoved',
          data: { id, user_id: 4, reason: 'stale' },
          metadata: { user_id: null, api_key_id: null },
        });
      }
      // The others stay (the deleted user's too: it got nothing, so Expo said nothing of it).
      const { rows } = await deps.db.query('SELECT count(*)::int AS n FROM notifier.push_tokens');
      expect(rows[0].n).toBe(6);
    });
  });

  describe.skipIf(!available)('VESSEL pushes', () => {
    let portCallId = 7000;

    /**
     * A data source's timestamp, appended as ingest does, then placed by a stand-in for the port-call projection:
     * its port call's PortCallChanged naming it in `placed` (none when it joined no port call or is trashed, as the
     * projector lists none then), or with `legacy` a TimestampPlaced event of its own, as earlier versions appended.
     */
    async function timestamp(
      imo: number,
      overrides: Partial<TimestampReceived> = {},
      placement: { port_call_id?: number | null; heaviest?: boolean; is_trash?: boolean; legacy?: boolean } = {},
    ): Promise<number> {
      const data: TimestampReceived = {
        imo,
        vessel_name: imo === PINNED ? 'Ever Given' : 'Other',
        time_type: 'Estimated',
        state: 'Arrival_Vessel_PortArea',
        time: '2026-11-25T22:30:00+00:00',
        payload: {},
        source: 'api_key',
        api_key_id: 5,
        user_id: 1,
        ...overrides,
      };
      const appended = await deps.store.append(`vessel-${imo}`, [{ type: 'TimestampReceived', data }]);
      const id = appended.events[0].globalPosition;
      const portCall = placement.port_call_id === undefined ? portCallId : placement.port_call_id;
      if (portCall === null || placement.is_trash) return id;
      const placed: TimestampPlaced = {
        imo,
        port_call_id: portCall,
        timestamp_id: id,
        time_type: data.time_type,
        state: data.state,
        time: data.time,
        source: data.source,
        heaviest: placement.heaviest ?? true,
        vessel_name: data.vessel_name,
      };
      const signal: PortCallChanged = { imo, port_call_id: portCall, deleted: false, placed: [placed] };
      await deps.store.append(PORTCALL_CHANGES_STREAM, [
        placement.legacy ? { type: 'TimestampPlaced', data: placed } : { type: 'PortCallChanged', data: signal },
      ]);
      return id;
    }

    it('a pinned vessel’s new data-source timestamp: its pinners’ devices, translated, in each one’s zone; the synthetic notification', async () => {
      const id = await timestamp(PINNED);
      // User 2's synthetic ship notification: in the push to each of its devices and on its own channel.
      const shipNotification = {
        type: 'ship',
        ship_imo: PINNED,
        message: 'ETA port area\r\n2026-11-26 00:30',
        sender: { email: 'system' },
        ship: { imo: PINNED, vessel_name: 'Ever Given' },
      };
      await waitFor(() => delivered().length === 3);
      const byToken = Object.fromEntries(delivered().map((m) => [m.to, m]));
      expect(byToken[T('two-a')]).toMatchObject({
        title: 'Ever Given',
        body: 'ETA port area\r\n2026-11-26 00:30',
        // The synthetic ship notification of the device's user, which the original mobile app shows when tapped.
        data: {
          type: 'VESSEL',
          vessel_id: PINNED,
          data: shipNotification,
        },
      });
      expect(byToken[T('two-b')].body).toBe('ETA port area\r\n2026-11-26 00:30');
      // No zone of their own: the port's (PORT_DEFAULT_TIME_ZONE).
      expect(byToken[T('three')].body).toBe('ETA port area\r\n2026-11-25 23:30');
      await waitFor(() => broadcasts.length === 2);
      expect(broadcasts.map((b) => b.key).sort()).toEqual(['notifications-changed-2', 'notifications-changed-3']);
      expect(broadcasts.find((b) => b.key === 'notifications-changed-2')?.body).toMatchObject({
        channel: 'notifications-changed-2',
        data: shipNotification,
      });
      expect(
        (await deps.db.query('SELECT key FROM notifier.pushes_made WHERE key = $1', [`vessel-${id}`])).rows,
      ).toHaveLength(1);
    });

    it('nothing for an unpinned vessel, a person’s timestamp, one left out of a port call, or one outweighed', async () => {
      portCallId++;
      await timestamp(PINNED, { state: 'Departure_Vessel_Berth', time_type: 'Estimated' });
      await waitFor(() => delivered().length === 3);
      expo.pushes = [];
      const unpinned = await timestamp(UNPINNED);
      await timestamp(PINNED, { source: 'manual', api_key_id: null });
      await timestamp(PINNED, {}, { port_call_id: null });
      await timestamp(PINNED, {}, { port_call_id: portCallId, is_trash: true });
      // Lighter than the one already in this port call for the same time type and state.
      const outweighed = await timestamp(PINNED, { state: 'Departure_Vessel_Berth' }, { heaviest: false });
      // A last one that does push shows the others were looked at and dropped before it.
      portCallId++;
      await timestamp(PINNED, { time: '2026-11-26T06:00:00+00:00' });
      await waitFor(() => delivered().length === 3);
      await new Promise((r) => setTimeout(r, 300));
      expect(delivered().map((m) => m.body.split('\r\n')[1])).toEqual([
        '2026-11-26 08:00',
        '2026-11-26 08:00',
        '2026-11-26 07:00',
      ]);
      const made = await deps.db.query('SELECT key FROM notifier.pushes_made WHERE key = ANY($1::text[])', [
        [`vessel-${outweighed}`, `vessel-${unpinned}`],
      ]);
      expect(made.rows).toEqual([]);
    });

    it('a TimestampPlaced event of an earlier version, still in the log, pushes as the signal does', async () => {
      portCallId++;
      await timestamp(PINNED, { time: '2026-11-26T04:00:00+00:00' }, { legacy: true });
      await waitFor(() => delivered().length === 3);
      expect(delivered().map((m) => m.body.split('\r\n')[1])).toEqual([
        '2026-11-26 06:00',
        '2026-11-26 06:00',
        '2026-11-26 05:00',
      ]);
    });

    it('a timestamp delivered again (a relay re-run from the start) is not pushed twice', async () => {
      portCallId++;
      await timestamp(PINNED, { time: '2026-11-26T05:00:00+00:00' });
      await waitFor(() => delivered().length === 3);
      expo.reset();
      // Every event of the log published again, as by a relay that lost its checkpoint: each pushed timestamp (and
      // notification) of this file comes to the push consumers a second time, and its job runs again. Only the
      // claim of its push (notifier.pushes_made) stops it.
      const name = uniqueName('relay-again');
      const again = await startRelay({ ...deps, name, pollIntervalMs: 20 });
      try {
        const { rows } = await deps.db.query<{ head: number }>(
          'SELECT max(global_position)::int8 AS head FROM eventstore.events',
        );
        await waitFor(async () => ((await deps.store.readCheckpoint(name))?.globalPosition ?? 0) >= rows[0].head);
      } finally {
        await again.stop();
      }
      // Barrier: a new timestamp's push, whose job is due after every job the redelivery made.
      portCallId++;
      await timestamp(PINNED, { time: '2026-11-26T08:00:00+00:00' });
      await waitFor(() => delivered().length >= 3);
      await new Promise((r) => setTimeout(r, 300));
      expect(
        delivered()
          .map((m) => m.body.split('\r\n')[1])
          .sort(),
      ).toEqual(['2026-11-26 09:00', '2026-11-26 10:00', '2026-11-26 10:00']);
    });
  });
});
