// The queue-scheduler on real PostgreSQL through cmd.queue-scheduler, as the gateway sends its commands: many
// slot requests racing for one gap on a berth (exactly one gets it, the rest are told there is no free slot, the
// calendar never double-booked); a slot request's history read back from its stream; the generated timestamps
// posted through ingest and removed on cancellation, which opens the nomination again. (Over HTTP, with every
// validation message: e2e/queue.e2e.test.ts.)

import { commandHandler } from '@pcas/commands';
import {
  type Actor,
  INGEST,
  IngestCommands,
  QUEUE_SCHEDULER,
  QueueCommands,
  type ServiceDeps,
  type SlotRequestEvent,
} from '@pcas/contracts';
import { RPC_ID_HEADER } from '@pcas/messaging';
import type { Queryable } from '@pcas/sql';
import { imoWithCheckDigit } from '@pcas/values';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSchema } from '../adapters/schema.ts';
import { loadBerth, loadNomination, loadSlotRequest } from '../adapters/states.ts';
import { recordTimestampWork } from '../adapters/timestamp-outbox.ts';
import { emptyBerth, evolveBerth } from '../domain/berths.ts';
import { emptyNomination, evolveNomination } from '../domain/nominations.ts';
import { isoUtc } from '../domain/queue-rules.ts';
import { evolveSlotRequest, type SlotRequestState } from '../domain/slot-requests.ts';
import { type QueueTestDeps, queueTestDeps } from '../testing/deps.ts';
import { createQueueCommands } from './commands.ts';

let queue: QueueTestDeps;
let deps: ServiceDeps;
let commands: ReturnType<typeof createQueueCommands>;
const PORT: Actor = { user_id: 1, api_key_id: null };
const posted: { id: number; input: Record<string, unknown> }[] = [];
const deleted: number[] = [];
// Every post ingest was sent, duplicates included, in the order it arrived.
const received: Record<string, unknown>[] = [];
let ingestBusy = 0;
// As ingest does: a post equal to a stored one (same content, payload included) is a duplicate, answered with the
// stored timestamp's id and stored nothing more.
const stored = new Map<string, number>();
const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v !== null && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
          .join(',')}}`
      : JSON.stringify(v);
const store1 = (input: Record<string, unknown>) => {
  const key = canonical(input);
  const known = stored.get(key);
  if (known !== undefined) return known;
  posted.push({ id: posted.length + 1, input });
  stored.set(key, posted.length);
  return posted.length;
};

const HOUR = 3_600_000;
const MIN = 60_000;
// Tomorrow 00:00 UTC: inside the nomination rules (not before yesterday, at most a month ahead).
const W0 = Math.ceil(Date.now() / (24 * HOUR)) * 24 * HOUR + 24 * HOUR;

/** A valid IMO from six digits (the check digit appended). */
const imo = imoWithCheckDigit;

/** A command as the gateway sends it, then what follows its commit (timestamps, notices) done. */
const send = async (command: string, input: Record<string, unknown>, actor: Actor = PORT) => {
  const reply = await deps.bus.rpc(QUEUE_SCHEDULER, command, { actor, input });
  await commands.settled();
  return reply;
};
/** A consignee's nomination of one berth for the whole test window. */
const nominationInput = (vessel: number, vesselName: string, berthId: number) => ({
  company_name: 'Cargo Oy',
  email: 'consignee@cargo.example',
  imo: vessel,
  vessel_name: vesselName,
  window_start: isoUtc(W0),
  window_end: isoUtc(W0 + 10 * HOUR),
  berth_ids: [berthId],
});
const nominate = (vessel: number, vesselName: string, berthId: number) =>
  send(QueueCommands.createNomination, nominationInput(vessel, vesselName, berthId));
/** A master's slot request arriving at W0+1h by agent, for a vessel of the given size (a 120.5 m one unless said). */
const slotRequestInput = (
  vessel: number,
  vesselName: string,
  size: { loa: string | number; beam: string | number; draft: string | number } = {
    loa: '120.5',
    beam: '20',
    draft: '7.5',
  },
) => ({
  email: 'master@vessel.example',
  imo: vessel,
  vessel_name: vesselName,
  ...size,
  laytime: '02:00',
  eta: isoUtc(W0 + HOUR),
  agent: true,
});
/** The generated timestamps an offer posts, in order. */
const OFFER_TIMESTAMPS = [
  'Estimated Arrival_Vessel_PortArea',
  'Estimated Departure_Vessel_Berth',
  'Recommended Arrival_Vessel_PortArea',
];
/** The posts ingest stored for one slot request, in order. */
const postedFor = (slotId: number) =>
  posted.filter((p) => (p.input.payload as { slot_reservation_id: number }).slot_reservation_id === slotId);
/** The kinds of the posts ingest stored for one slot request, in order. */
const postedKinds = (slotId: number) => postedFor(slotId).map((p) => `${p.input.time_type} ${p.input.state}`);
/**
 * deps.db with each transaction's statements passed through the `through` made for it (which runs the statement
 * with `run`): a test holds or watches statements as a busy server's interleaving would.
 */
const throughTransactions = (perTransaction: () => (text: string, run: () => Promise<unknown>) => Promise<unknown>) =>
  new Proxy(deps.db, {
    get(target, key) {
      if (key !== 'transaction') return Reflect.get(target, key);
      return <T>(fn: (tx: Queryable) => Promise<T>) =>
        target.transaction((tx) => {
          const through = perTransaction();
          return fn({ query: (text, params) => through(text, () => tx.query(text, params)) as never });
        });
    },
  });
/**
 * The Db with each transaction's statements after its placement read held until `n` transactions have read (or 5 s
 * passed): that many decide on the same calendar, as requests arriving together do on a busy server.
 */
const readingTogether = (n: number) => {
  let reads = 0;
  let open = () => {};
  const allRead = new Promise<void>((resolve) => {
    open = resolve;
    setTimeout(resolve, 5_000).unref();
  });
  return throughTransactions(() => {
    let read = false;
    return async (text, run) => {
      if (read) await allRead;
      const result = await run();
      if (!read && text.includes('noms AS')) {
        read = true;
        if (++reads >= n) open();
      }
      return result;
    };
  });
};
const query = async <R>(sql: string, params: unknown[] = []) => (await deps.db.query<R>(sql, params)).rows;

beforeAll(async () => {
  queue = await queueTestDeps('queue_scheduler');
  ({ deps } = queue);
  await ensureSchema(deps.db); // a second start changes nothing
  // Ingest stands in: it records the generated timestamps it is sent and answers with their ids.
  await deps.bus.serveRpc(INGEST, async (command, payload) => {
    const { input } = payload as { input: Record<string, unknown> };
    if (command === IngestCommands.postTimestamps) {
      const { items } = payload as { items: { body: { input: Record<string, unknown> } }[] };
      received.push(...items.map(({ body }) => body.input));
      if (ingestBusy > 0) {
        ingestBusy--;
        // The first post is stored, the others fail as a busy ingest answers.
        return items.map(({ body }, i) => {
          if (i > 0) return { ok: false, status: 500, error: 'Internal server error' };
          return { ok: true, result: { result: 'OK', id: store1(body.input) } };
        });
      }
      return items.map(({ body }) => ({ ok: true, result: { result: 'OK', id: store1(body.input) } }));
    }
    if (command === IngestCommands.deleteTimestamp) deleted.push(input.id as number);
    return { result: 'OK' };
  });
  commands = createQueueCommands(deps);
  await deps.bus.serveRpc(QUEUE_SCHEDULER, commandHandler(commands.handlers));
}, 60_000);

afterAll(async () => {
  await queue?.close();
});

describe('slot requests racing for one gap', () => {
  const RACERS = 12;
  const S = W0 + 90 * MIN; // ETA W0+1h, +30 min travel: the desired berth start
  const L = 3 * HOUR; // laytime 2h + buffer 30 min + RTA window 30 min

  it('exactly one is offered the gap; the others get no_free_slot and the calendar holds one vessel', async () => {
    await send(QueueCommands.createBerth, { code: 'B1', name: 'Berth one', nominatable: true });
    const [{ id: berthId }] = await query<{ id: number }>('SELECT id FROM queue.berths');
    // The berth is blocked by the port from just after one vessel's slot to the nominations' window end.
    await send(QueueCommands.createBerthReservation, {
      berth_id: berthId,
      berth_reservation_type: 'port_blocked',
      reservation_start: isoUtc(S + L + 5 * MIN),
      reservation_end: isoUtc(W0 + 10 * HOUR),
    });
    const imos = Array.from({ length: RACERS }, (_, i) => imo(930_000 + i));
    for (const n of imos) await nominate(n, `Racer ${n}`, berthId);
    // Their writes held until 6 of them have read the calendar (fewer than the pool's connections), so at least
    // 6 decide on the same free gap and all but one must lose the race on the berth's version.
    const racing = createQueueCommands({ ...deps, db: readingTogether(6) });
    const replies = await Promise.all(
      imos.map((n) =>
        racing.handlers[QueueCommands.createSlotRequest]({ actor: PORT, input: slotRequestInput(n, `Racer ${n}`) }, {}),
      ),
    );
    await racing.settled();
    expect(replies).toEqual(imos.map(() => ({ result: 'OK' })));
    const statuses = await query<{ status: string; n: number }>(
      `SELECT slot_reservation_status AS status, count(*)::int AS n FROM queue.slot_reservations GROUP BY 1 ORDER BY 1`,
    );
    expect(statuses).toEqual([
      { status: 'no_free_slot', n: RACERS - 1 },
      { status: 'offered', n: 1 },
    ]);
    const vessels = await query<{ start: string; slot: number }>(
      `SELECT to_char(reservation_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') AS start,
              slot_reservation_id AS slot
         FROM queue.berth_reservations WHERE berth_reservation_type = 'vessel_reserved'`,
    );
    expect(vessels).toHaveLength(1);
    expect(vessels[0].start).toBe(isoUtc(S));
    // The berth's stream agrees with its rows: one vessel reservation made, at the version the row records.
    const stream = await deps.store.readStream(`berth-${berthId}`);
    expect(stream.filter((e) => e.type === 'BerthReservationMade')).toHaveLength(2);
    const [{ version }] = await query<{ version: number }>('SELECT version FROM queue.berths WHERE id = $1', [berthId]);
    expect(version).toBe(stream.length);
    // Only the winner's nomination is reserved.
    const reserved = await query<{ n: number }>(
      "SELECT count(*)::int AS n FROM queue.nominations WHERE nomination_status = 'reserved'",
    );
    expect(reserved[0].n).toBe(1);
  }, 120_000);

  it('the offer posted its timestamps; cancelling removes them, frees the berth and opens the nomination again', async () => {
    const [winner] = await query<{ id: number; nomination_id: number; rta: string }>(
      `SELECT id, nomination_id,
              to_char(rta_window_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') AS rta
         FROM queue.slot_reservations WHERE slot_reservation_status = 'offered'`,
    );
    expect(winner.rta).toBe(isoUtc(S - 30 * MIN));
    const mine = postedFor(winner.id);
    expect(postedKinds(winner.id)).toEqual(OFFER_TIMESTAMPS);
    expect(mine[2].input.payload).toMatchObject({
      source: 'jit_eta_form',
      external_id: `slot_reservation_id${winner.id}`,
    });

    await send(QueueCommands.cancelSlotRequest, { id: winner.id, by_vessel: true });
    expect(deleted.sort()).toEqual(mine.map((p) => p.id).sort());
    const [nomination] = await query<{ status: string }>(
      'SELECT nomination_status AS status FROM queue.nominations WHERE id = $1',
      [winner.nomination_id],
    );
    expect(nomination.status).toBe('open');
    const vessels = await query(
      "SELECT id FROM queue.berth_reservations WHERE berth_reservation_type = 'vessel_reserved'",
    );
    expect(vessels).toEqual([]);
    // The history reads back: received (offered), then cancelled by the vessel, each with who did it.
    const history = await deps.store.readStream(`slotrequest-${winner.id}`);
    expect(history.map((e) => [e.type, (e.data as { status: string }).status])).toEqual([
      ['SlotRequestReceived', 'offered'],
      ['SlotRequestCancelled', 'cancelled_by_vessel'],
    ]);
    expect(history[1].metadata).toMatchObject({ user_id: 1 });
    await expect(send(QueueCommands.cancelSlotRequest, { id: winner.id, by_vessel: false })).rejects.toMatchObject({
      status: 400,
      message: 'Invalid current slot reservation status: cancelled_by_vessel',
    });
  }, 60_000);

  it('ingest busy: the generated timestamps missing are posted again until stored, none twice', async () => {
    const [open] = await query<{ imo: number }>(
      "SELECT imo FROM queue.nominations WHERE nomination_status = 'open' ORDER BY id LIMIT 1",
    );
    ingestBusy = 1;
    await send(QueueCommands.createSlotRequest, slotRequestInput(open.imo, 'Again', { loa: 1, beam: 1, draft: 1 }));
    const [slot] = await query<{ id: number; status: string }>(
      'SELECT id, slot_reservation_status AS status FROM queue.slot_reservations ORDER BY id DESC LIMIT 1',
    );
    expect(slot.status).toBe('offered');
    expect(postedKinds(slot.id)).toEqual(OFFER_TIMESTAMPS);
    const saved = await query<{ n: number }>(
      'SELECT count(*)::int AS n FROM queue.generated_timestamps WHERE slot_reservation_id = $1',
      [slot.id],
    );
    expect(saved[0].n).toBe(3);
  }, 60_000);

  it('a process dying after the reply loses no generated timestamp; the next start does it, posting none twice', async () => {
    /** The queue-scheduler as a process that dies at its first call to ingest (after `forward`ing it or not). */
    const dying = (forward: boolean) =>
      createQueueCommands({
        ...deps,
        bus: new Proxy(deps.bus, {
          get(target, key) {
            if (key !== 'rpc') return Reflect.get(target, key).bind(target);
            return async (service: string, command: string, payload: unknown) => {
              if (service !== INGEST) return target.rpc(service, command, payload);
              if (forward) await target.rpc(service, command, payload);
              return new Promise(() => {}); // the answer never arrives: the process is gone
            };
          },
        }),
      });
    /** The dead process's claims on its work run out (as they do CLAIM_SECONDS after it died). */
    const claimsRunOut = () =>
      query(
        "UPDATE queue.timestamp_outbox SET claimed_until = now() - interval '1 second' WHERE claimed_until IS NOT NULL",
      );
    const generated = async (id: number) =>
      (
        await query<{ n: number }>(
          'SELECT count(*)::int AS n FROM queue.generated_timestamps WHERE slot_reservation_id = $1',
          [id],
        )
      )[0].n;

    // A cancellation replied, then the process died before ingest heard of it: the next start removes them.
    const [offered] = await query<{ id: number; imo: number }>(
      "SELECT id, imo FROM queue.slot_reservations WHERE slot_reservation_status = 'offered' ORDER BY id DESC LIMIT 1",
    );
    const theirs = postedFor(offered.id).map((p) => p.id);
    expect(theirs).toHaveLength(3);
    await dying(false).handlers[QueueCommands.cancelSlotRequest](
      {
        actor: PORT,
        input: { id: offered.id, by_vessel: true },
      },
      {},
    );
    expect(deleted.filter((id) => theirs.includes(id))).toEqual([]);
    // The dying process has claimed the work (it calls ingest, which never answers).
    const claimed = async (id: number) =>
      (
        await query<{ n: number }>(
          'SELECT count(*)::int AS n FROM queue.timestamp_outbox WHERE slot_reservation_id = $1 AND claimed_until > now()',
          [id],
        )
      )[0].n;
    await expect.poll(() => claimed(offered.id), { timeout: 20_000 }).toBeGreaterThan(0);
    // Its claim holds the row until it runs out; then the next start (or another process) takes the row.
    expect(await commands.sweepTimestampWork()).toBe(1);
    await commands.settled();
    expect(deleted.filter((id) => theirs.includes(id))).toEqual([]);
    await claimsRunOut();
    expect(await commands.sweepTimestampWork()).toBe(1);
    await commands.settled();
    expect(deleted.filter((id) => theirs.includes(id)).sort()).toEqual(theirs.sort());
    expect(await generated(offered.id)).toBe(0);

    // An offer whose timestamps ingest stored but whose answer the dying process never got: the next start posts
    // them again, ingest takes them for the duplicates they are, and their ids are kept for a cancellation.
    await dying(true).handlers[QueueCommands.createSlotRequest](
      { actor: PORT, input: slotRequestInput(offered.imo, 'Again', { loa: 1, beam: 1, draft: 1 }) },
      {},
    );
    const [next] = await query<{ id: number; status: string }>(
      'SELECT id, slot_reservation_status AS status FROM queue.slot_reservations ORDER BY id DESC LIMIT 1',
    );
    expect(next.status).toBe('offered');
    // The dying process's post reaches ingest.
    await expect.poll(() => postedFor(next.id).length, { timeout: 20_000 }).toBe(3);
    expect(await generated(next.id)).toBe(0);
    await claimsRunOut();
    expect(await commands.sweepTimestampWork()).toBe(1);
    await commands.settled();
    expect(await commands.sweepTimestampWork()).toBe(0);
    expect(postedKinds(next.id)).toEqual(OFFER_TIMESTAMPS);
    expect(await generated(next.id)).toBe(3);
  }, 60_000);

  it('two processes sweeping at once post each recorded row once, and the rows of a slot request in order', async () => {
    // Work left by decisions whose process died before doing it: two rows for each of five slot requests.
    const slots = [900_001, 900_002, 900_003, 900_004, 900_005];
    const ts = (slot: number, tag: string) => ({
      time_type: 'Estimated',
      state: 'Arrival_Vessel_PortArea',
      time: isoUtc(W0 + HOUR),
      payload: { slot_reservation_id: slot, tag },
    });
    await deps.db.transaction((tx) =>
      recordTimestampWork(
        tx,
        slots.flatMap((slot) => [
          { slot_reservation_id: slot, timestamps: [ts(slot, 'first-1'), ts(slot, 'first-2')], actor: PORT },
          { slot_reservation_id: slot, timestamps: [ts(slot, 'second')], actor: PORT },
        ]),
      ),
    );
    const from = received.length;
    const one = createQueueCommands(deps);
    const other = createQueueCommands(deps);
    const swept = await Promise.all([one.sweepTimestampWork(), other.sweepTimestampWork()]);
    expect(swept).toEqual([slots.length, slots.length]);
    await Promise.all([one.settled(), other.settled()]);
    expect(await query('SELECT seq FROM queue.timestamp_outbox')).toEqual([]);
    const sent = received.slice(from).map((input) => input.payload as { slot_reservation_id: number; tag: string });
    for (const slot of slots) {
      // Each post once (no row posted by both), the second row's after the first's.
      expect(sent.filter((p) => p.slot_reservation_id === slot).map((p) => p.tag)).toEqual([
        'first-1',
        'first-2',
        'second',
      ]);
    }
    const saved = await query<{ n: number }>(
      'SELECT count(*)::int AS n FROM queue.generated_timestamps WHERE slot_reservation_id = ANY($1::int[])',
      [slots],
    );
    expect(saved[0].n).toBe(3 * slots.length);
  }, 60_000);

  it('the jobs record expiry and completion once due; every stream replayed gives its row', async () => {
    const later = createQueueCommands({ ...deps, now: () => W0 + 11 * HOUR });
    const [open] = await query<{ id: number }>(
      "SELECT id FROM queue.nominations WHERE nomination_status = 'open' LIMIT 1",
    );
    await createQueueCommands(deps).expireNomination(open.id); // not due yet: nothing
    expect((await loadNomination(deps.db, open.id)).state.status).toBe('open');
    await later.expireNomination(open.id);
    await later.expireNomination(open.id); // a job run twice records it once
    expect((await loadNomination(deps.db, open.id)).state.status).toBe('expired');
    const [waiting] = await query<{ id: number }>(
      "SELECT id FROM queue.slot_reservations WHERE slot_reservation_status = 'no_free_slot' LIMIT 1",
    );
    await later.completeSlotRequest(waiting.id);
    expect((await loadSlotRequest(deps.db, waiting.id))?.state.status).toBe('completed');
    expect((await deps.store.readStream(`nomination-${open.id}`)).map((e) => e.type)).toEqual([
      'NominationCreated',
      'NominationExpired',
    ]);

    for (const { id } of await query<{ id: number }>('SELECT id FROM queue.slot_reservations')) {
      const events = await deps.store.readStream(`slotrequest-${id}`);
      let replayed: SlotRequestState = null;
      for (const e of events) replayed = evolveSlotRequest(replayed, e as unknown as SlotRequestEvent);
      const loaded = await loadSlotRequest(deps.db, id);
      expect({ ...replayed, version: events.length }).toEqual({ ...loaded?.state, version: loaded?.version });
    }
    for (const { id } of await query<{ id: number }>('SELECT id FROM queue.nominations')) {
      const events = await deps.store.readStream(`nomination-${id}`);
      const loaded = await loadNomination(deps.db, id);
      expect(events.reduce((s, e) => evolveNomination(s, e as never), emptyNomination())).toEqual(loaded.state);
      expect(loaded.version).toBe(events.length);
    }
    for (const { id } of await query<{ id: number }>('SELECT id FROM queue.berths')) {
      const events = await deps.store.readStream(`berth-${id}`);
      const loaded = await loadBerth(deps.db, id);
      expect(events.reduce((s, e) => evolveBerth(s, e as never), emptyBerth())).toEqual(loaded.state);
      expect(loaded.version).toBe(events.length);
    }
  });
});

describe('a create request the broker delivers twice (its first reply lost)', () => {
  it('creates one nomination and one slot request, takes one reservation, and answers both deliveries alike', async () => {
    await send(QueueCommands.createBerth, { code: 'RD', name: 'Redelivery berth', nominatable: true });
    const [{ id: berthId }] = await query<{ id: number }>("SELECT id FROM queue.berths WHERE code = 'RD'");
    const vessel = imo(940_001);
    const twice = async (command: string, input: Record<string, unknown>, rpcId: string) => {
      const payload = { actor: PORT, input };
      const headers = { [RPC_ID_HEADER]: rpcId };
      const first = await commands.handlers[command](payload, headers);
      const again = await commands.handlers[command](payload, headers);
      await commands.settled();
      expect(again).toEqual(first);
    };
    await twice(QueueCommands.createNomination, nominationInput(vessel, 'Twice', berthId), 'nomination-request-1');
    expect(await query('SELECT id FROM queue.nominations WHERE imo = $1', [vessel])).toHaveLength(1);
    await twice(QueueCommands.createSlotRequest, slotRequestInput(vessel, 'Twice'), 'slot-request-1');
    const slots = await query<{ id: number; status: string }>(
      'SELECT id, slot_reservation_status AS status FROM queue.slot_reservations WHERE imo = $1',
      [vessel],
    );
    expect(slots.map((s) => s.status)).toEqual(['offered']);
    const reservations = await query('SELECT id FROM queue.berth_reservations WHERE berth_id = $1', [berthId]);
    expect(reservations).toHaveLength(1);
    const [nomination] = await query<{ status: string; slot: number }>(
      'SELECT nomination_status AS status, slot_reservation_id AS slot FROM queue.nominations WHERE imo = $1',
      [vessel],
    );
    expect(nomination).toEqual({ status: 'reserved', slot: slots[0].id });
    // One SlotRequestReceived in the log, and one set of generated timestamps posted.
    const streams = await query<{ n: number }>(
      "SELECT count(*)::int AS n FROM eventstore.events WHERE event_type = 'SlotRequestReceived' AND (data->>'imo')::int = $1",
      [vessel],
    );
    expect(streams[0].n).toBe(1);
    expect(
      received.filter((p) => (p.payload as { slot_reservation_id: number }).slot_reservation_id === slots[0].id),
    ).toHaveLength(3);
  }, 60_000);
});

describe('the round trips of a slot request', () => {
  const shown = (text: string) => text.replace(/\s+/g, ' ').trim().slice(0, 80);
  /** The Db with every statement counted, each transaction's apart (BEGIN and COMMIT not among them). */
  const counting = () => {
    const log = { transactions: [] as string[][], outside: [] as string[] };
    const db = new Proxy(deps.db, {
      get(target, key) {
        if (key === 'query')
          return (text: string, params?: unknown[]) => {
            log.outside.push(shown(text));
            return target.query(text, params);
          };
        if (key === 'transaction')
          return <T>(fn: (tx: Queryable) => Promise<T>) => {
            const statements: string[] = [];
            log.transactions.push(statements);
            return target.transaction((tx) =>
              fn({
                query: (text, params) => {
                  // Whether the gateway's settings table exists yet: asked until it does (this test has no gateway).
                  if (!text.includes("to_regclass('gateway.settings')")) statements.push(shown(text));
                  return tx.query(text, params);
                },
              }),
            );
          };
        return Reflect.get(target, key);
      },
    });
    return { db, log };
  };

  it('a create is one transaction of 3 statements (reads, one append for 3 streams, writes); an accept of 3 (its berth lock with the reads)', async () => {
    await send(QueueCommands.createBerth, { code: 'RT', name: 'Round trip berth', nominatable: true });
    const [{ id: berthId }] = await query<{ id: number }>("SELECT id FROM queue.berths WHERE code = 'RT'");
    const vessel = imo(950_001);
    await nominate(vessel, 'Counted', berthId);
    const { db, log } = counting();
    const counted = createQueueCommands({ ...deps, db });

    const input = slotRequestInput(vessel, 'Counted');
    await counted.handlers[QueueCommands.createSlotRequest]({ actor: PORT, input }, { [RPC_ID_HEADER]: 'rt-1' });
    expect(log.transactions).toHaveLength(1);
    expect(log.transactions[0]).toEqual([
      expect.stringMatching(/^WITH claim AS \(INSERT INTO queue\.decided_commands/),
      expect.stringMatching(/^WITH locks AS MATERIALIZED/),
      expect.stringMatching(/^WITH write_0 AS \(INSERT INTO queue\.slot_reservations/),
    ]);
    const [slot] = await query<{ id: number; status: string; rta: string }>(
      `SELECT id, slot_reservation_status AS status,
              to_char(rta_window_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') AS rta
         FROM queue.slot_reservations WHERE imo = $1`,
      [vessel],
    );
    expect(slot.status).toBe('offered');
    // The three streams at the versions their rows record.
    const versions = await query<{ stream: string; version: number; row: number }>(
      `SELECT s.stream, (SELECT max(stream_position) FROM eventstore.events WHERE stream_id = s.stream)::int AS version,
              s.row FROM (VALUES
                ('slotrequest-' || $1::int, (SELECT version FROM queue.slot_reservations WHERE id = $1)),
                ('berth-' || $2::int, (SELECT version FROM queue.berths WHERE id = $2)),
                ('nomination-' || $3::int, (SELECT version FROM queue.nominations WHERE imo = $4))
              ) AS s(stream, row)`,
      [
        slot.id,
        berthId,
        (await query<{ id: number }>('SELECT id FROM queue.nominations WHERE imo = $1', [vessel]))[0].id,
        vessel,
      ],
    );
    for (const v of versions) expect(v.row).toBe(v.version);
    // Delivered again: the claim finds it decided, and nothing more is appended or written.
    log.transactions.length = 0;
    await counted.handlers[QueueCommands.createSlotRequest]({ actor: PORT, input }, { [RPC_ID_HEADER]: 'rt-1' });
    expect(log.transactions.map((t) => t.length)).toEqual([1]);
    expect(await query('SELECT id FROM queue.slot_reservations WHERE imo = $1', [vessel])).toHaveLength(1);

    // After the commit: its timestamps, recorded claimed, posted and their row deleted in one statement.
    await counted.settled();
    expect(log.outside).toEqual([expect.stringMatching(/^WITH saved AS \( INSERT INTO queue\.generated_timestamps/)]);
    expect(
      received.filter((p) => (p.payload as { slot_reservation_id: number }).slot_reservation_id === slot.id),
    ).toHaveLength(3);
    log.transactions.length = 0;
    log.outside.length = 0;
    await counted.handlers[QueueCommands.updateSlotRequest](
      {
        actor: PORT,
        input: { id: slot.id, laytime: '02:00', jit_eta: slot.rta, agent: true },
      },
      {},
    );
    expect(log.transactions).toHaveLength(1);
    expect(log.transactions[0]).toEqual([
      expect.stringMatching(/^WITH s AS MATERIALIZED \(SELECT id, email/),
      expect.stringMatching(/^INSERT INTO eventstore\.events/),
      expect.stringMatching(/^WITH write_0 AS \(UPDATE queue\.slot_reservations/),
    ]);
    await counted.settled();
    expect(log.outside).toEqual([expect.stringMatching(/^WITH saved AS/)]);
    const [accepted] = await query<{ status: string }>(
      'SELECT slot_reservation_status AS status FROM queue.slot_reservations WHERE id = $1',
      [slot.id],
    );
    expect(accepted.status).toBe('accepted');
  }, 60_000);
  it('an accept whose berth changed after its reads (a placement took a gap) decides again', async () => {
    await send(QueueCommands.createBerth, { code: 'RS', name: 'Stale read berth', nominatable: true });
    const [{ id: berthId }] = await query<{ id: number }>("SELECT id FROM queue.berths WHERE code = 'RS'");
    const [first, second] = [imo(950_002), imo(950_003)];
    for (const vessel of [first, second]) await nominate(vessel, `Stale ${vessel}`, berthId);
    const slotInput = (vessel: number) => slotRequestInput(vessel, `Stale ${vessel}`);
    await send(QueueCommands.createSlotRequest, slotInput(first));
    const [slot] = await query<{ id: number; rta: string }>(
      `SELECT id, to_char(rta_window_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') AS rta
         FROM queue.slot_reservations WHERE imo = $1`,
      [first],
    );
    // The accept's first transaction waits after its reads until the other vessel's placement has committed.
    let reads = 0;
    let paused = () => {};
    const isPaused = new Promise<void>((resolve) => {
      paused = resolve;
    });
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let transactions = 0;
    const db = throughTransactions(() => {
      transactions++;
      return async (text, run) => {
        const result = await run();
        if (text.includes('WITH s AS MATERIALIZED') && ++reads === 1) {
          paused();
          await released;
        }
        return result;
      };
    });
    const accepting = createQueueCommands({ ...deps, db });
    const accepted = accepting.handlers[QueueCommands.updateSlotRequest](
      { actor: PORT, input: { id: slot.id, laytime: '02:00', jit_eta: slot.rta, agent: true } },
      {},
    );
    await isPaused;
    await send(QueueCommands.createSlotRequest, slotInput(second));
    const [{ version }] = await query<{ version: number }>('SELECT version FROM queue.berths WHERE id = $1', [berthId]);
    release();
    expect(await accepted).toEqual({ result: 'OK' });
    await accepting.settled();
    // The berth moved on (the second vessel's reservation): the first transaction was refused, the second accepted.
    expect(transactions).toBe(2);
    const rows = await query<{ imo: number; status: string; version: number }>(
      'SELECT imo, slot_reservation_status AS status, version FROM queue.slot_reservations WHERE imo = ANY($1) ORDER BY id',
      [[first, second]],
    );
    expect(rows).toEqual([
      { imo: first, status: 'accepted', version: 2 },
      { imo: second, status: 'offered', version: 1 },
    ]);
    expect(version).toBe((await deps.store.readStream(`berth-${berthId}`)).length);
  }, 60_000);
});
