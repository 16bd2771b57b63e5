// Gate passages in the logistics service, on real PostgreSQL, through cmd.logistics as the gateway sends them:
// the event and its row written together, times in UTC, and a passage posted again (a retry, a redelivered
// command, many identical posts at once) stored once. Bad input stores nothing. (Over HTTP, with the lists, the
// module switch and the real-time channel: e2e/logistics.e2e.test.ts.)

import { commandHandler } from '@pcas/commands';
import { loadConfig } from '@pcas/config';
import { type Actor, LOGISTICS, LogisticsCommands, type ServiceDeps } from '@pcas/contracts';
import { createEventStore } from '@pcas/eventstore';
import { createInProcessBus } from '@pcas/messaging';
import { createLogger } from '@pcas/observability';
import { type DatabaseForTest, freshDatabase } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSchema } from '../adapters/schema.ts';
import { gatePassage } from '../testing/gate-passages.ts';
import { gatePassageCommands } from './gate-passages.ts';

let database: DatabaseForTest;
let deps: ServiceDeps;

const GATE: Actor = { user_id: 4, api_key_id: 8 };

const record = (input: Record<string, unknown>, actor: Actor = GATE) =>
  deps.bus.rpc(LOGISTICS, LogisticsCommands.recordGatePassage, { actor, input });
const rows = async () =>
  (
    await deps.db.query(
      `SELECT to_char(time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS time, checkpoint, direction,
              external_id::int, front_license_plates, plate_numbers, created_by
         FROM logistics.gate_passages ORDER BY time, event_id`,
    )
  ).rows;
const events = async () =>
  (
    await deps.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM eventstore.events WHERE event_type = 'GatePassageRecorded'",
    )
  ).rows[0].n;

beforeAll(async () => {
  database = await freshDatabase('logistics_gate_passages');
  const { db } = database;
  const store = createEventStore(db);
  await store.init();
  const log = createLogger('logistics-test', process.env.LOG_LEVEL ?? 'warn');
  deps = { config: loadConfig({}), db, store, bus: createInProcessBus({ log }), log };
  await ensureSchema(db);
  await ensureSchema(db); // a second start changes nothing
  await deps.bus.serveRpc(LOGISTICS, commandHandler(gatePassageCommands(deps)));
});

afterAll(async () => {
  await deps?.bus.close();
  await database?.close();
});

describe('recording a gate passage', () => {
  it('appends its event on logistics-<checkpoint> and writes its row, the time in UTC', async () => {
    expect(await record(gatePassage())).toEqual({ result: 'OK' });
    expect(await rows()).toEqual([
      {
        time: '2026-11-25T10:00:00',
        checkpoint: 'Gate 1',
        direction: 'In',
        external_id: 501,
        front_license_plates: [{ number: 'ABC123', nationality: 'FI' }],
        plate_numbers: ['ABC123', 'TRL77'],
        created_by: 4,
      },
    ]);
    const stream = await deps.store.readStream('logistics-Gate 1');
    expect(stream.map((e) => [e.type, (e.data as { time: string }).time])).toEqual([
      ['GatePassageRecorded', '2026-11-25T10:00:00+00:00'],
    ]);
    expect(stream[0].metadata).toMatchObject({ user_id: 4, api_key_id: 8 });
  });

  it('the same passage again (another offset, another key order, another key) is answered OK and stored once', async () => {
    const again = gatePassage({
      time: '2026-11-25T10:00:00.000Z',
      rear_license_plates: [{ nationality: 'FI', number: 'TRL77' }],
    });
    expect(await record(again, { user_id: 5, api_key_id: 9 })).toEqual({ result: 'OK' });
    expect(await record(gatePassage())).toEqual({ result: 'OK' });
    expect(await rows()).toHaveLength(1);
    expect(await events()).toBe(1);
  });

  it('many identical posts at once store one passage; different ones each their own', async () => {
    const at = gatePassage({ time: '2026-11-25T11:00:00Z', direction: 'Out' });
    const replies = await Promise.all(Array.from({ length: 20 }, () => record(at)));
    expect(replies).toEqual(Array.from({ length: 20 }, () => ({ result: 'OK' })));
    expect(await rows()).toHaveLength(2);
    expect(await events()).toBe(2);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        record(gatePassage({ time: '2026-11-25T12:00:00Z', external_id: 2000 + i })),
      ),
    );
    expect(await rows()).toHaveLength(12);
    expect(await events()).toBe(12);
  });

  it('bad input is refused with the original message and stores nothing', async () => {
    const before = JSON.stringify([await rows(), await events()]);
    await expect(record(gatePassage({ direction: 'Sideways' }))).rejects.toMatchObject({
      status: 400,
      message: 'Invalid direction value: Sideways',
    });
    await expect(record(gatePassage({ time: '25.11.2026 10:00' }))).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^Invalid date format: 25\.11\.2026 10:00\. Use format/),
    });
    await expect(record(gatePassage({ containers: [{ id: 'X' }] }))).rejects.toMatchObject({
      status: 400,
      message: 'Missing parameter(s) from containers: identification',
    });
    expect(JSON.stringify([await rows(), await events()])).toBe(before);
  });
});
