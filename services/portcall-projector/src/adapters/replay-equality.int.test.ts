// Replay equality: a month of traffic — over 200 vessels and 50,000 timestamps, realistic sequences from the first
// ETA to departure, vessels interleaved — with everything else a vessel stream holds mixed in as it happens in
// service: registrations and renames, deletes and restores, every manual correction (force close and scan, port-call
// range, move, detach, attach orphans, visibility, rebuild a vessel) through the projector's own command handlers,
// timer ticks through the timer job's own code, and priority changes on the priorities-* streams. The live
// projection follows the log in batches of varying size, some delivered twice, lagging behind the commands as it
// does in service. Its read models must then equal, table by table and column by column, the ones a full rebuild
// writes into EMPTY tables (the live schema is set aside and a fresh one created), and a second rebuild over those
// rows must change nothing. The tables are taken from the database, so a new read-model table is compared too.
//
// Priorities are inputs of the fold: a changed list applies to what is projected after it, and a rebuild applies it
// to everything, so a change to a pair already posted is followed by the operator's rebuild (as the docs ask) early
// in the run; later changes give a pair its first priority before its first post.
//
// The projection code is driven directly against PostgreSQL (no broker: delivery and deduplication are tested in
// libs/messaging and entry-points/service.int.test.ts).

import {
  ApiError,
  PAYLOAD_KEY_PRIORITIES_STREAM,
  type PriorityEvents,
  TIMESTAMP_PRIORITIES_STREAM,
  type VesselEvents,
  vesselStream,
} from '@pcas/contracts';
import type { EventStore, RecordedEvent } from '@pcas/eventstore';
import type { DelayedJobs } from '@pcas/jobs';
import { createLogger } from '@pcas/observability';
import type { Db } from '@pcas/sql';
import { expect, it } from 'vitest';
import { createPortcallCommands } from '../entry-points/commands.ts';
import { GAVLE_RULES as rules, useProjectorDatabase } from '../testing/database.ts';
import { countedRows, timestampCounts } from '../testing/read-models.ts';
import { appendAsIngest, compareSchemas, LogTail, schemaTables, type TableDifference } from '../testing/replay.ts';
import { type Post, seeded, trafficPosts } from '../testing/traffic.ts';
import { projectBatch } from './projection.ts';
import { rebuildAll } from './rebuild.ts';
import { ensureSchema } from './schema.ts';
import { fireTimer } from './timers.ts';
import { VesselCache } from './vessel-state.ts';

const log = createLogger('replay-equality-test', 'silent');
const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Every event type of a vessel stream and of the priorities streams (the compiler keeps the lists whole). */
const VESSEL_EVENT_TYPES = Object.keys({
  VesselRegistered: true,
  VesselRenamed: true,
  VesselTypeSet: true,
  TimestampReceived: true,
  TimestampDeleted: true,
  TimestampRestored: true,
  PortCallForceClosed: true,
  PortCallForceScanned: true,
  PortCallRangeSet: true,
  TimestampPortCallSet: true,
  TimestampPortCallUnset: true,
  OrphanTimestampsAttachRequested: true,
  VesselVisibilitySet: true,
  PortCallTimersElapsed: true,
  PortCallRtaSet: true,
  PortCallLiveEtaSet: true,
} satisfies Record<keyof VesselEvents, true>);
const PRIORITY_EVENT_TYPES = Object.keys({
  TimestampApiKeyWeightsSet: true,
  PayloadKeyApiKeyWeightsSet: true,
} satisfies Record<keyof PriorityEvents, true>);

/** Columns that say when and under which token a row was written, not what it holds: every write renews them. */
const WRITE_STAMPS: Record<string, string[]> = {
  port_calls: ['updated_at'],
  vessels: ['updated_at', 'revision'],
};

const ROUNDS = 30;
/** The round whose priority change touches pairs already posted; the operator's full rebuild follows it. */
const CHANGE_IN_USE = 6;
/** The round from which a new pair is posted, its priority set just before. */
const NEW_PAIR_ROUND = 15;
const NEW_PAIR = { time_type: 'Estimated', state: 'Arrival_Vessel_Berth' };
const KEYS = [1, 2, 3];

let db: Db;
let store: EventStore;
useProjectorDatabase('pcas_replay', (database) => ({ db, store } = database));

const iso = (ms: number) => `${new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19)}+00:00`;

/** An ordered priority list as ingest records it: the first key weighs N, the last 1. */
const weightsOf = (order: readonly number[]) =>
  order.map((api_key_id, i) => ({ api_key_id, weight: order.length - i }));

/**
 * The traffic, with what it lacks for ingest: some vessels renamed along the way (a few twice), and from round
 * NEW_PAIR_ROUND on a berth ETA beside each port-area ETA (a pair no post had before).
 */
function traffic(now: number): { rounds: Post[][]; pairs: { time_type: string; state: string }[] } {
  const posts = trafficPosts({
    vessels: 210,
    from: now - 30 * DAY,
    to: now,
    seed: 2026,
    interval: [2, 6],
    etas: [20, 40],
    etds: [5, 10],
  });
  const middle = now - 15 * DAY;
  const late = now - 5 * DAY;
  const renamed = (p: Post): Post => {
    const { imo } = p.data;
    if (imo % 17 !== 0 || p.at < middle) return p;
    const name = imo % 34 === 0 && p.at >= late ? `${p.data.vessel_name} (ex II)` : `${p.data.vessel_name} II`;
    return { ...p, data: { ...p.data, vessel_name: name } };
  };
  const size = Math.ceil(posts.length / ROUNDS);
  const rounds: Post[][] = [];
  for (let k = 0; k < ROUNDS; k++) {
    const round: Post[] = [];
    for (const p of posts.slice(k * size, (k + 1) * size).map(renamed)) {
      round.push(p);
      if (k >= NEW_PAIR_ROUND && p.data.time_type === 'Estimated' && p.data.state === 'Arrival_Vessel_PortArea') {
        round.push({ at: p.at, data: { ...p.data, ...NEW_PAIR, time: iso(Date.parse(p.data.time) + HOUR) } });
      }
    }
    rounds.push(round);
  }
  const pairs = new Map(posts.map((p) => [`${p.data.time_type} ${p.data.state}`, p.data]));
  return { rounds, pairs: [...pairs.values()].map(({ time_type, state }) => ({ time_type, state })) };
}

/** Seconds after their posts at which the clock rule of each TIMER_VESSELS vessel comes due. */
const TIMER_DUE_S = [6, 10, 14, 8, 12, 16];
const TIMER_VESSELS = TIMER_DUE_S.map((_, i) => 9_900_001 + i);

/**
 * Vessels whose clock rule comes due while the test runs, so that the timer job appends PortCallTimersElapsed (the
 * month's own port calls are long past: each event's time applies their rules as it is folded). The first three
 * departed 180 minutes ago less a few seconds (departed → done), the others were last heard of 30 days ago less a
 * few seconds (force-depart).
 */
function timerPosts(now: number): Post[] {
  return TIMER_VESSELS.flatMap((imo, i): Post[] => {
    const due = now + TIMER_DUE_S[i] * 1000;
    const post = (time_type: string, state: string, time: number): Post => ({
      at: now,
      data: {
        imo,
        vessel_name: `Timer ${imo}`,
        time_type,
        state,
        time: iso(time),
        payload: {},
        source: 'api_key',
        api_key_id: 1,
        user_id: 101,
      },
    });
    if (i < 3) {
      const atd = due - 180 * 60_000;
      return [post('Actual', 'Arrival_Vessel_Berth', atd - 5 * HOUR), post('Actual', 'Departure_Vessel_Berth', atd)];
    }
    return [post('Estimated', 'Arrival_Vessel_PortArea', due - 30 * DAY)];
  });
}

it('a month of traffic with every vessel-stream event, projected live, gives the read models of a rebuild into empty tables', async () => {
  const r = seeded(7);
  const pick = <T>(xs: readonly T[]): T | undefined => (xs.length > 0 ? xs[Math.floor(r() * xs.length)] : undefined);
  const shuffled = (xs: readonly number[]) => [...xs].sort(() => r() - 0.5);
  const actor = { user_id: 1, api_key_id: null };
  const commands = createPortcallCommands({ db, store, rules, log, projectionWaitMs: 0 });
  const jobs: DelayedJobs = {
    kind: 'in-process',
    schedule: async () => {},
    cancel: async () => {},
    close: async () => {},
  };
  const timerDeps = { db, store, rules, jobs, log };

  // ---- the live projection: batches of 1–150 events in commit order; one in ten delivered again later ----
  const tail = new LogTail(db, store);
  const cache = new VesselCache();
  const again: RecordedEvent[][] = [];
  let redelivered = 0;
  const projectLive = async (events: readonly RecordedEvent[]) => {
    for (let i = 0; i < events.length; ) {
      const size = 1 + Math.floor(r() * 150);
      const batch = events.slice(i, i + size);
      i += size;
      await db.transaction((tx) => projectBatch(tx, store, rules, batch, cache));
      if (r() < 0.1) again.push(batch);
      if (again.length > 0 && r() < 0.1) {
        const old = again.shift()!;
        redelivered += old.length;
        await db.transaction((tx) => projectBatch(tx, store, rules, old, cache));
      }
    }
  };

  // ---- what ingest appends besides the posts ----
  const setPriorities = (stream: string, type: string, data: object) =>
    store.append(stream, [{ type, data, metadata: actor }]);
  const deleted = new Map<number, number>(); // ingest's trash state: id → IMO of the deleted, not restored
  const trash = (imo: number, type: 'TimestampDeleted' | 'TimestampRestored', id: number) =>
    store.append(vesselStream(imo), [{ type, data: { timestamp_id: id }, metadata: actor }]);

  // ---- the corrections, through the projector's command handlers, aimed at what the live read models show ----
  const outcomes = new Map<string, { done: number; refused: number }>();
  const command = async (name: string, run: () => Promise<unknown>) => {
    const o = outcomes.get(name) ?? { done: 0, refused: 0 };
    outcomes.set(name, o);
    try {
      await run();
      o.done++;
    } catch (error) {
      // Aimed at a read model that lags: the port call may have gone meanwhile (400, as for a user).
      if (!(error instanceof ApiError) || error.status !== 400) throw error;
      o.refused++;
    }
  };
  const body = (input: object) => ({ actor, input });
  const hidden: number[] = [];

  async function corrections(round: number) {
    const { rows: portCalls } = await db.query<{ id: string; imo: string; status: string }>(
      'SELECT id, imo, status FROM portcall.port_calls ORDER BY id',
    );
    const { rows: sample } = await db.query<{ id: string; imo: string; port_call_id: string | null }>(
      'SELECT id, imo, port_call_id FROM portcall.timestamps WHERE (id * 7919 + $1) % 97 = 0 ORDER BY id',
      [round],
    );
    const pcs = portCalls.map((p) => ({ id: Number(p.id), imo: Number(p.imo), status: p.status }));
    const ts = sample.map((t) => ({
      id: Number(t.id),
      imo: Number(t.imo),
      pc: t.port_call_id === null ? null : Number(t.port_call_id),
    }));

    const open = pick(pcs.filter((p) => p.status !== 'done'));
    if (open) await command('forceClose', () => commands.forceClose(body({ port_call_id: open.id })));
    for (let i = 0; i < 2; i++) {
      const pc = pick(pcs);
      if (pc) await command('forceScan', () => commands.forceScan(body({ port_call_id: pc.id })));
    }
    const ranged = pick(pcs);
    if (ranged) {
      const { rows } = await db.query<{ start: Date | null; end: Date | null }>(
        'SELECT min(time) AS start, max(time) AS end FROM portcall.timestamps WHERE port_call_id = $1',
        [ranged.id],
      );
      if (rows[0].start && rows[0].end) {
        const start = iso(rows[0].start.getTime() - 3 * HOUR);
        const end = iso(rows[0].end.getTime() + (r() < 0.5 ? 3 : 30) * HOUR);
        await command('setPortCallRange', () =>
          commands.setPortCallRange(body({ port_call_id: ranged.id, start, end })),
        );
      }
    }
    for (let i = 0; i < 2; i++) {
      const t = pick(ts.filter((x) => x.pc !== null));
      const to = t && pick(pcs.filter((p) => p.imo === t.imo && p.id !== t.pc));
      if (t && to)
        await command('updatePortCallId', () => commands.updatePortCallId(body({ id: t.id, portCallId: to.id })));
    }
    for (let i = 0; i < 2; i++) {
      const t = pick(ts.filter((x) => x.pc !== null));
      if (t) await command('unsetPortCallId', () => commands.unsetPortCallId(body({ id: t.id })));
    }
    const { rows: orphans } = await db.query<{ imo: string }>(
      'SELECT DISTINCT imo FROM portcall.timestamps WHERE port_call_id IS NULL ORDER BY imo',
    );
    const orphaned = pick(orphans.map((o) => Number(o.imo)));
    if (orphaned) {
      const input = { imo: orphaned, isFromAgent: r() < 0.5, ignoreStatus: r() < 0.5 };
      await command('attachOrphans', () => commands.attachOrphans(body(input)));
    }
    const hide = pick(pcs);
    if (hide) {
      await command('setVesselVisibility', () => commands.setVesselVisibility(body({ imo: hide.imo, visible: false })));
      hidden.push(hide.imo);
    }
    if (hidden.length > 1 && r() < 0.6) {
      const show = hidden.splice(Math.floor(r() * hidden.length), 1)[0];
      await command('setVesselVisibility', () => commands.setVesselVisibility(body({ imo: show, visible: true })));
    }
    if (round % 3 === 0) {
      const pc = pick(pcs);
      if (pc) await command('rebuildVessel', () => commands.rebuildVessel(body({ imo: pc.imo })));
    }
    // Deletes and restores, as ingest appends them (it only knows deleted or not).
    for (let i = 0; i < 3; i++) {
      const t = pick(ts.filter((x) => !deleted.has(x.id)));
      if (!t) continue;
      await trash(t.imo, 'TimestampDeleted', t.id);
      deleted.set(t.id, t.imo);
    }
    for (let i = 0; i < 2; i++) {
      const id = pick([...deleted.keys()].sort((a, b) => a - b));
      if (id === undefined) continue;
      await trash(deleted.get(id)!, 'TimestampRestored', id);
      deleted.delete(id);
    }
  }

  /** The timer job for every vessel the live read models say is due. */
  async function fireDueTimers() {
    const { rows } = await db.query<{ imo: string }>(
      'SELECT imo FROM portcall.vessels WHERE next_timer_at <= now() ORDER BY imo',
    );
    for (const row of rows) await fireTimer(timerDeps, Number(row.imo));
  }

  // ---- the month ----
  const now = Date.now();
  const { rounds, pairs } = traffic(now);
  const names = new Map<number, string>();
  // A port sets its sources' priorities before they post (ingest refuses a key without one).
  for (const pair of pairs) {
    await setPriorities(TIMESTAMP_PRIORITIES_STREAM, 'TimestampApiKeyWeightsSet', {
      ...pair,
      weights: weightsOf(shuffled(KEYS)),
    });
  }
  for (const payload_key of ['berth_name', 'direction']) {
    await setPriorities(PAYLOAD_KEY_PRIORITIES_STREAM, 'PayloadKeyApiKeyWeightsSet', {
      payload_key,
      weights: weightsOf(shuffled(KEYS)),
    });
  }

  for (let round = 0; round < ROUNDS; round++) {
    if (round === NEW_PAIR_ROUND) {
      await setPriorities(TIMESTAMP_PRIORITIES_STREAM, 'TimestampApiKeyWeightsSet', {
        ...NEW_PAIR,
        weights: weightsOf(shuffled(KEYS)),
      });
    }
    await appendAsIngest(store, rounds[round], names);
    // The live projection lags: part of the round is projected before the corrections, the rest after.
    const events = await tail.next();
    const cut = Math.floor(events.length * r());
    await projectLive(events.slice(0, cut));
    await corrections(round);
    if (round === CHANGE_IN_USE) {
      const pair = pick(pairs)!;
      await setPriorities(TIMESTAMP_PRIORITIES_STREAM, 'TimestampApiKeyWeightsSet', {
        ...pair,
        weights: weightsOf(shuffled(KEYS)),
      });
      await setPriorities(PAYLOAD_KEY_PRIORITIES_STREAM, 'PayloadKeyApiKeyWeightsSet', {
        payload_key: 'berth_name',
        weights: weightsOf(shuffled(KEYS)),
      });
      await setPriorities(PAYLOAD_KEY_PRIORITIES_STREAM, 'PayloadKeyApiKeyWeightsSet', {
        payload_key: 'direction',
        weights: [],
      });
      // The operator's rebuild after a priority change, over the live rows while the projection lags behind.
      await rebuildAll({ db, store, rules, log });
    }
    await projectLive(events.slice(cut));
    await projectLive(await tail.next());
    await fireDueTimers();
    await projectLive(await tail.next());
  }
  // Vessel types set, as ingest appends them (the port calls do not change): after the rounds, so that the
  // corrections' samples (chosen by log position) are those of a run without them, and never on a timer vessel.
  const { rows: typed } = await db.query<{ imo: string }>(
    'SELECT DISTINCT imo FROM portcall.port_calls WHERE NOT (imo = ANY($1::bigint[])) ORDER BY imo LIMIT 5',
    [TIMER_VESSELS],
  );
  for (const [i, row] of typed.entries()) {
    const data = { imo: Number(row.imo), vessel_type: 2 + i, previous_vessel_type: 1 };
    await store.append(vesselStream(data.imo), [{ type: 'VesselTypeSet', data, metadata: actor }]);
  }
  // The port's RTA and a data source's live ETA, through the projector's commands, on vessels with a port call
  // not done (again after the rounds and never on a timer vessel, for the same reason).
  const { rows: open } = await db.query<{ imo: string }>(
    `SELECT DISTINCT imo FROM portcall.port_calls WHERE status <> 'done' AND NOT (imo = ANY($1::bigint[]))
     ORDER BY imo LIMIT 6`,
    [TIMER_VESSELS],
  );
  for (const [i, row] of open.entries()) {
    const imo = Number(row.imo);
    const rta = iso(now + (i + 1) * HOUR);
    await command('setPortCallRta', () =>
      commands.setPortCallRta(body({ imo, rta, eta_min: iso(now + i * HOUR), eta_max: iso(now + (i + 2) * HOUR) })),
    );
    await command('setLiveEta', () =>
      commands.setLiveEta(body({ imo, time: iso(now + (i + 3) * HOUR), payload: { source: 'test' } })),
    );
  }
  // The timer vessels, posted and projected now, after the month: their clock rules come due seconds later, while
  // the test waits, so that the timer job closes them. (Posted with the month's first round, a busy machine could
  // take longer than their due time to project them, and the fold itself then closed them: no tick.)
  const timersAt = Date.now();
  await appendAsIngest(store, timerPosts(timersAt), names);
  await projectLive(await tail.next());
  // The clock rules of the timer vessels all come due; their ticks are appended and projected.
  await new Promise((resolve) =>
    setTimeout(resolve, Math.max(0, timersAt + Math.max(...TIMER_DUE_S) * 1000 - Date.now())),
  );
  // The last redeliveries arrive and the projection catches up with the log first, so the read models hold every
  // timer vessel's due time when the job looks for the due ones (a busy machine may still have them in flight).
  for (const batch of again.splice(0)) await projectLive(batch);
  await projectLive(await tail.next());
  await fireDueTimers();
  // Their ticks projected: the projection has caught up with the log.
  await projectLive(await tail.next());

  // ---- what the run fed ----
  const counts = async (like: string) => {
    const { rows } = await db.query<{ type: string; n: number }>(
      `SELECT event_type AS type, count(*)::int AS n FROM eventstore.events WHERE stream_id LIKE $1 GROUP BY 1`,
      [like],
    );
    return Object.fromEntries(rows.map((row) => [row.type, row.n]));
  };
  const vesselCounts = await counts('vessel-%');
  const priorityCounts = await counts('priorities-%');
  console.info('replay equality fed:', { vesselCounts, priorityCounts, commands: Object.fromEntries(outcomes) });
  for (const type of VESSEL_EVENT_TYPES) expect(vesselCounts[type] ?? 0, type).toBeGreaterThanOrEqual(3);
  expect(Object.keys(vesselCounts).sort()).toEqual([...VESSEL_EVENT_TYPES].sort());
  for (const type of PRIORITY_EVENT_TYPES) expect(priorityCounts[type] ?? 0, type).toBeGreaterThanOrEqual(2);
  for (const [name, o] of outcomes) expect(o.done, name).toBeGreaterThanOrEqual(5);
  const ticked = await db.query<{ imo: string }>(
    "SELECT DISTINCT data->>'imo' AS imo FROM eventstore.events WHERE event_type = 'PortCallTimersElapsed'",
  );
  expect(ticked.rows.map((row) => Number(row.imo))).toEqual(expect.arrayContaining(TIMER_VESSELS));
  expect(vesselCounts.TimestampReceived).toBeGreaterThanOrEqual(50_000);
  expect(redelivered).toBeGreaterThan(1_000);
  expect(await timestampCounts(db)).toEqual(await countedRows(db));

  // ---- the live read models set aside; a rebuild into a fresh, empty schema ----
  await db.query('ALTER SCHEMA portcall RENAME TO portcall_live');
  await ensureSchema(db);
  const rebuilt = await schemaTables(db, 'portcall');
  for (const [table, { columns }] of rebuilt) {
    const { rows } = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM portcall."${table}"`);
    expect(Number(rows[0].n), `portcall.${table} is empty before the rebuild`).toBe(0);
    for (const column of WRITE_STAMPS[table] ?? []) expect(columns, table).toContain(column);
  }
  const summary = await rebuildAll({ db, store, rules, log });
  expect(summary.vessels).toBe(210 + TIMER_VESSELS.length);

  const compare = async (): Promise<TableDifference[]> => {
    const { sameTables, differences, liveRows } = await compareSchemas(db, WRITE_STAMPS);
    expect(sameTables).toBe(true);
    // Not vacuous: every read-model table holds rows.
    for (const [table, n] of liveRows) expect(n, `portcall_live.${table} rows`).toBeGreaterThan(0);
    return differences;
  };
  expect(await compare()).toEqual([]);
  // A rebuild over rows it already has changes nothing, and keeps the per-vessel counts exact.
  await rebuildAll({ db, store, rules, log });
  expect(await compare()).toEqual([]);
  expect(await timestampCounts(db)).toEqual(await countedRows(db));
}, 900_000);
