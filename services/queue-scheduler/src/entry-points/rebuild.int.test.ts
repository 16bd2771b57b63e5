// The queue's rows are a cache of its streams (docs/queue.md#why-the-rows-are-a-cache-of-the-streams): two queues on
// their own databases take the same recorded commands; one has its rows dropped and rebuilt from its streams in
// between, and then both take the same further commands. The rebuilt rows equal the rows the commands wrote, and
// the further commands decide alike in both: the same events, the same replies, the same rows.

import { commandHandler } from '@pcas/commands';
import { type Actor, INGEST, IngestCommands, QUEUE_SCHEDULER, QueueCommands } from '@pcas/contracts';
import { imoWithCheckDigit as imo } from '@pcas/values';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildQueueRows } from '../adapters/rebuild.ts';
import { isoUtc } from '../domain/queue-rules.ts';
import { type QueueTestDeps, queueTestDeps } from '../testing/deps.ts';
import { createQueueCommands } from './commands.ts';

const HOUR = 3_600_000;
const MIN = 60_000;
// Tomorrow 00:00 UTC, and a clock fixed before it: both queues decide at the same time.
const W0 = Math.ceil(Date.now() / (24 * HOUR)) * 24 * HOUR + 24 * HOUR;
const NOW = W0 - 12 * HOUR;
const PORT: Actor = { user_id: 1, api_key_id: null };

interface Queue extends QueueTestDeps {
  send(command: string, input: Record<string, unknown>): Promise<unknown>;
}

async function startQueue(name: string): Promise<Queue> {
  const { deps, close } = await queueTestDeps(name);
  let id = 0;
  // Ingest stands in: it stores every generated timestamp it is sent.
  await deps.bus.serveRpc(INGEST, async (command, payload) => {
    if (command !== IngestCommands.postTimestamps) return { result: 'OK' };
    const { items } = payload as { items: unknown[] };
    return items.map(() => ({ ok: true, result: { result: 'OK', id: ++id } }));
  });
  const commands = createQueueCommands({ ...deps, now: () => NOW });
  await deps.bus.serveRpc(QUEUE_SCHEDULER, commandHandler(commands.handlers));
  return {
    deps,
    close,
    async send(command, input) {
      // A refusal is a decision too: its message is compared like a reply.
      const reply = await deps.bus
        .rpc(QUEUE_SCHEDULER, command, { actor: PORT, input })
        .catch((error: Error) => ({ refused: error.message }));
      await commands.settled();
      return reply;
    },
  };
}

const slotRequest = (vessel: number, eta: number, laytime = '02:00') => ({
  email: `master-${vessel}@vessel.example`,
  imo: vessel,
  vessel_name: `Vessel ${vessel}`,
  loa: '120.5',
  beam: '20',
  draft: '7.5',
  laytime,
  eta: isoUtc(eta),
  agent: true,
});
const nomination = (vessel: number, berthIds: number[], end = W0 + 10 * HOUR) => ({
  company_name: 'Cargo Oy',
  email: 'consignee@cargo.example',
  imo: vessel,
  vessel_name: `Vessel ${vessel}`,
  window_start: isoUtc(W0),
  window_end: isoUtc(end),
  berth_ids: berthIds,
});
const [A, B, C, D] = [imo(960_001), imo(960_002), imo(960_003), imo(960_004)];

/** The commands recorded before the rebuild: berths, a port block, nominations, slot requests placed and changed. */
const RECORDED: [string, Record<string, unknown>][] = [
  [QueueCommands.createBerth, { code: 'N1', name: 'North one', nominatable: true }],
  [QueueCommands.createBerth, { code: 'N2', name: 'North two', nominatable: true }],
  [
    QueueCommands.createBerthReservation,
    {
      berth_id: 2,
      berth_reservation_type: 'port_blocked',
      reservation_start: isoUtc(W0),
      reservation_end: isoUtc(W0 + 6 * HOUR),
    },
  ],
  [QueueCommands.createNomination, nomination(A, [1, 2])],
  [QueueCommands.createNomination, nomination(B, [1], W0 + 3 * HOUR)],
  [QueueCommands.createSlotRequest, slotRequest(A, W0 + HOUR)],
  [QueueCommands.createSlotRequest, slotRequest(B, W0 + HOUR)],
  [QueueCommands.createSlotRequest, slotRequest(C, W0 + 2 * HOUR)],
  [QueueCommands.updateSlotRequest, { id: 1, laytime: '02:00', jit_eta: isoUtc(W0 + HOUR), agent: true }],
];

/** The commands after it: each decides on what the recorded ones left. */
const FURTHER: [string, Record<string, unknown>][] = [
  [QueueCommands.createNomination, nomination(C, [2])],
  [QueueCommands.updateBerthReservation, { id: 1, reservation_start: isoUtc(W0), reservation_end: isoUtc(W0 + HOUR) }],
  [QueueCommands.updateSlotRequest, { id: 1, laytime: '03:00', jit_eta: isoUtc(W0 + HOUR), agent: true }],
  [QueueCommands.cancelSlotRequest, { id: 1, by_vessel: true }],
  [QueueCommands.createNomination, nomination(D, [1], W0 + 2 * HOUR)],
  [QueueCommands.createSlotRequest, slotRequest(D, W0 + 20 * MIN, '01:00')],
  [QueueCommands.createSlotRequest, slotRequest(A, W0 + 3 * HOUR)],
  [QueueCommands.updateSlotRequest, { id: 99, laytime: '01:00', agent: true }],
];

/** The queue's rows without the times they were written at (not from the events). */
async function rows(queue: Queue) {
  const read = async (sql: string) => (await queue.deps.db.query(sql)).rows;
  const times = "to_char(%s AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS')";
  const at = (column: string) => times.replace('%s', column);
  return {
    berths: await read('SELECT id, code, name, nominatable, version FROM queue.berths ORDER BY id'),
    reservations: await read(
      `SELECT id, berth_id, berth_reservation_type, ${at('reservation_start')} AS s, ${at('reservation_end')} AS e,
              slot_reservation_id FROM queue.berth_reservations ORDER BY id`,
    ),
    nominations: await read(
      `SELECT id, imo, nomination_status, ${at('window_start')} AS s, ${at('window_end')} AS e, berth_ids,
              slot_reservation_id, version FROM queue.nominations ORDER BY id`,
    ),
    slots: await read(
      `SELECT id, imo, nomination_id, berth_id, berth_reservation_id, laytime::text, ${at('eta')} AS eta,
              ${at('rta_window_start')} AS rs, ${at('rta_window_end')} AS re, ${at('jit_eta')} AS jit,
              slot_reservation_status, jit_eta_alert_state, version FROM queue.slot_reservations ORDER BY id`,
    ),
  };
}

/** The queue's events after the first `from`, as decided (type, stream, position, data). */
async function eventsAfter(queue: Queue, from: number) {
  const { rows: events } = await queue.deps.db.query<{ stream_id: string; n: number; type: string; data: unknown }>(
    `SELECT stream_id, stream_position AS n, event_type AS type, data FROM eventstore.events
      WHERE split_part(stream_id, '-', 1) IN ('berth', 'nomination', 'slotrequest') ORDER BY global_position`,
  );
  return events.slice(from);
}

let kept: Queue;
let rebuilt: Queue;

beforeAll(async () => {
  [kept, rebuilt] = await Promise.all([startQueue('queue_rebuild_kept'), startQueue('queue_rebuild_rebuilt')]);
}, 60_000);

afterAll(async () => {
  for (const queue of [kept, rebuilt]) await queue?.close();
});

describe('the rows rebuilt from the streams', () => {
  it('equal the rows the commands wrote, and the further commands decide alike on them', async () => {
    for (const queue of [kept, rebuilt]) for (const [command, input] of RECORDED) await queue.send(command, input);
    const written = await rows(rebuilt);
    // The recorded commands placed, refused and accepted (else the comparison below would prove little).
    expect(written.slots.map((s) => (s as { slot_reservation_status: string }).slot_reservation_status)).toEqual([
      'accepted',
      'no_free_slot',
      'no_nomination',
    ]);
    const before = (await eventsAfter(rebuilt, 0)).length;

    await rebuilt.deps.db.query('UPDATE queue.berths SET version = 0, name = $1', ['dropped']);
    expect(await rebuildQueueRows(rebuilt.deps.db, rebuilt.deps.store)).toBe(before);
    expect(await rows(rebuilt)).toEqual(written);

    const replies = { kept: [] as unknown[], rebuilt: [] as unknown[] };
    for (const [command, input] of FURTHER) {
      replies.kept.push(await kept.send(command, input));
      replies.rebuilt.push(await rebuilt.send(command, input));
    }
    expect(replies.rebuilt).toEqual(replies.kept);
    expect(replies.kept.at(-1)).toMatchObject({ refused: expect.any(String) });
    const decided = await eventsAfter(kept, before);
    expect(decided.length).toBeGreaterThan(FURTHER.length);
    expect(await eventsAfter(rebuilt, before)).toEqual(decided);
    expect(await rows(rebuilt)).toEqual(await rows(kept));
  }, 120_000);
});
