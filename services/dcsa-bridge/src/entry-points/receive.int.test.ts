// The receiving side on real PostgreSQL through cmd.dcsa-bridge, as the gateway sends it, with a stand-in for
// ingest: a DCSA object is one event on its own stream with its row; the same PUT many times at once stores one
// event; a body the standard refuses stores nothing; a mapped time reaches ingest with the partner's key as actor;
// a batch of timestamp requests (putTimestamps) answers each on its own.

import { commandHandler } from '@pcas/commands';
import { loadConfig } from '@pcas/config';
import {
  type Actor,
  DCSA_BRIDGE,
  DcsaCommands,
  type DcsaRequestsCommand,
  INGEST,
  IngestCommands,
  type PostTimestampsCommand,
  type ServiceDeps,
} from '@pcas/contracts';
import { createEventStore } from '@pcas/eventstore';
import { createInProcessBus } from '@pcas/messaging';
import { createLogger } from '@pcas/observability';
import { openDb } from '@pcas/sql';
import { freshPostgres, type PostgresForTest } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PC, portCallServiceBody, S, T, TC, timestampBody } from '../testing/jit-bodies.ts';
import { startDcsaBridge } from './service.ts';

let pg: PostgresForTest;
let deps: ServiceDeps;
let bridge: { stop(): Promise<void> };
const posted: PostTimestampsCommand['items'] = [];

const CARRIER: Actor = { user_id: 3, api_key_id: 41 };
const OTHER: Actor = { user_id: 3, api_key_id: 42 };

const send = (command: string, id: string, body: unknown, actor: Actor = CARRIER) =>
  deps.bus.rpc(DCSA_BRIDGE, command, { actor, input: { id, body } });
const count = async (type: string) =>
  (await deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM eventstore.events WHERE event_type = $1', [type]))
    .rows[0].n;

beforeAll(async () => {
  pg = await freshPostgres('dcsa_receive');
  const db = pg.url ? await openDb({ url: pg.url }) : await openDb({ dataDir: 'memory://' });
  const store = createEventStore(db);
  await store.init();
  const log = createLogger('dcsa-test', process.env.LOG_LEVEL ?? 'warn');
  deps = { config: loadConfig({}), db, store, bus: createInProcessBus({ log }), log };
  await deps.bus.serveRpc(
    INGEST,
    commandHandler({
      [IngestCommands.postTimestamps]: async (payload) => {
        const { items } = payload as PostTimestampsCommand;
        posted.push(...items);
        return items.map(() => ({ ok: true, result: { result: 'OK' } }));
      },
    }),
  );
  bridge = await startDcsaBridge(deps, { delivery: { intervalMs: 60_000 } });
  for (const [name, key] of [
    ['Carrier', 41],
    ['Other', 42],
  ] as const) {
    await deps.bus.rpc(DCSA_BRIDGE, DcsaCommands.registerPartner, {
      actor: { user_id: 1, api_key_id: null },
      input: { name, api_key_id: key, base_url: 'http://127.0.0.1:9', vessel_imos: [] },
    });
  }
});

afterAll(async () => {
  await bridge?.stop();
  await deps?.bus.close();
  await deps?.db.close();
  await pg?.drop();
});

describe('receiving', () => {
  it('stores each object as one event with its row; the same PUT twenty times at once stores it once', async () => {
    const portCall = { portCallID: PC, UNLocationCode: 'NLAMS', vessel: { vesselIMONumber: '9704611', name: 'YM W' } };
    const replies = await Promise.all(Array.from({ length: 20 }, () => send(DcsaCommands.putPortCall, PC, portCall)));
    expect(replies).toEqual(Array.from({ length: 20 }, () => ({ status: 204 })));
    expect(await count('DcsaPortCallReceived')).toBe(1);
    const stream = await deps.store.readStream(`dcsaportcall-${PC}`);
    expect(stream.map((e) => e.type)).toEqual(['DcsaPortCallReceived']);
    expect(stream[0].metadata).toMatchObject({ api_key_id: 41 });
    expect(
      await send(DcsaCommands.putTerminalCall, TC, {
        terminalCallID: TC,
        portCallID: PC,
        carrierServiceName: 'Great Lion',
        carrierServiceCode: 'FE1',
      }),
    ).toEqual({ status: 204 });
    expect(await send(DcsaCommands.putPortCallService, S, portCallServiceBody('BERTH', 'ARRI'))).toEqual({
      status: 204,
    });
  });

  it('posts a mapped time to ingest with the partner’s key, once stored however often it is sent', async () => {
    const ts = timestampBody('EST', '2026-12-01T10:00:00+02:00');
    const replies = await Promise.all(Array.from({ length: 10 }, () => send(DcsaCommands.putTimestamp, T, ts)));
    expect(new Set(replies.map((r) => JSON.stringify(r)))).toEqual(new Set([JSON.stringify({ status: 204 })]));
    expect(await count('DcsaTimestampReceived')).toBe(1);
    expect(posted.length).toBeGreaterThanOrEqual(1);
    expect(posted[0].body).toMatchObject({
      actor: CARRIER,
      input: {
        imo: 9704611,
        time_type: 'Estimated',
        state: 'Arrival_Vessel_Berth',
        time: '2026-12-01T08:00:00+00:00',
        manual: false,
        payload: { source: 'dcsa', dcsa_timestamp_id: T },
      },
    });
    const row = (await deps.db.query('SELECT s211_status, time_type, state FROM dcsa.timestamps')).rows;
    expect(row).toEqual([{ s211_status: 'posted', time_type: 'Estimated', state: 'Arrival_Vessel_Berth' }]);
  });

  it('timestamps sent together are stored once each; two contents of one id at once: both, one after the other', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => `${String(i).padStart(8, '0')}-5927-4856-b9c9-aa12e7c00563`);
    const ts = (id: string, hour: number) => ({
      timestampID: id,
      portCallServiceID: S,
      classifierCode: 'EST',
      dateTime: `2026-12-02T${String(hour).padStart(2, '0')}:00:00Z`,
    });
    const before = await count('DcsaTimestampReceived');
    // Each id twice at once (a redelivery racing its original), and the last id with two different times.
    const replies = await Promise.all([
      ...ids.flatMap((id) => [
        send(DcsaCommands.putTimestamp, id, ts(id, 1)),
        send(DcsaCommands.putTimestamp, id, ts(id, 1)),
      ]),
      send(DcsaCommands.putTimestamp, ids[29], ts(ids[29], 2)),
    ]);
    expect(replies.filter((r) => JSON.stringify(r) !== JSON.stringify({ status: 204 }))).toEqual([]);
    expect(await count('DcsaTimestampReceived')).toBe(before + 31);
    for (const id of ids.slice(0, 29)) {
      expect((await deps.store.readStream(`dcsatimestamp-${id}`)).length).toBe(1);
    }
    // The race's loser decided again on the winner's event: two events, and the row is the last one's, at version 2.
    const raced = await deps.store.readStream(`dcsatimestamp-${ids[29]}`);
    expect(raced.map((e) => e.streamPosition)).toEqual([1, 2]);
    const { rows } = await deps.db.query<{ n: number; version: number; body: unknown }>(
      `SELECT count(*) OVER ()::int AS n, version, body FROM dcsa.timestamps WHERE timestamp_id LIKE '000000%'
        ORDER BY timestamp_id DESC LIMIT 1`,
    );
    expect(rows[0]).toMatchObject({ n: 30, version: 2 });
    expect(rows[0].body).toEqual((raced[1].data as { body: unknown }).body);
  });

  it('a body the standard refuses, or another partner’s object, stores nothing', async () => {
    const before = await count('DcsaPortCallReceived');
    const refused = await send(DcsaCommands.putPortCall, TC, { portCallID: TC, UNLocationCode: 'NLAMS' });
    expect(refused).toMatchObject({ status: 400, errors: [{ property: 'vessel', errorCode: 7003 }] });
    const theirs = await send(DcsaCommands.putPortCallService, S, { portCallServiceID: S }, OTHER);
    expect(theirs).toMatchObject({ status: 400 });
    const ts = { timestampID: TC, portCallServiceID: S, classifierCode: 'REQ', dateTime: '2026-12-01T10:00:00Z' };
    expect(await send(DcsaCommands.putTimestamp, TC, ts, OTHER)).toMatchObject({ status: 404 });
    expect(await send(DcsaCommands.putTimestamp, TC, ts, { user_id: 3, api_key_id: 99 })).toMatchObject({
      status: 403,
    });
    expect(await count('DcsaPortCallReceived')).toBe(before);
    expect(await count('DcsaTimestampReceived')).toBe(32);
  });

  it('a batch of timestamp requests answers each on its own: the invalid one gets the standard’s 400, the others are stored', async () => {
    const id = (n: number) => `${String(n).padStart(8, '0')}-0000-4000-8000-00000000b001`;
    const ts = (n: number) => ({
      timestampID: id(n),
      portCallServiceID: S,
      classifierCode: 'EST',
      dateTime: `2026-12-03T0${n}:00:00Z`,
    });
    const bad = { ...ts(2), classifierCode: 'SOON' };
    const command: DcsaRequestsCommand = {
      items: [ts(1), bad, ts(3)].map((body) => ({ body: { actor: CARRIER, input: { id: body.timestampID, body } } })),
    };
    const before = await count('DcsaTimestampReceived');
    const postedBefore = posted.length;
    const replies = await deps.bus.rpc(DCSA_BRIDGE, DcsaCommands.putTimestamps, command);
    expect(replies).toEqual([
      { ok: true, result: { status: 204 } },
      {
        ok: true,
        result: expect.objectContaining({
          status: 400,
          errors: [expect.objectContaining({ property: 'classifierCode' })],
        }),
      },
      { ok: true, result: { status: 204 } },
    ]);
    expect(await count('DcsaTimestampReceived')).toBe(before + 2);
    expect((await deps.store.readStream(`dcsatimestamp-${id(1)}`)).length).toBe(1);
    expect(await deps.store.readStream(`dcsatimestamp-${id(2)}`)).toEqual([]);
    expect((await deps.store.readStream(`dcsatimestamp-${id(3)}`)).length).toBe(1);
    const sentOn = posted
      .slice(postedBefore)
      .map((p) => (p.body.input.payload as { dcsa_timestamp_id: string }).dcsa_timestamp_id);
    expect(sentOn.sort()).toEqual([id(1), id(3)]);
    // Sent again (a redelivery), the batch stores nothing new and answers the same.
    expect(await deps.bus.rpc(DCSA_BRIDGE, DcsaCommands.putTimestamps, command)).toEqual(replies);
    expect(await count('DcsaTimestampReceived')).toBe(before + 2);
  });
});
