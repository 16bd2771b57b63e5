// `pnpm bench:queue [-- --n 500 --c 16]`: the just-in-time queue, in one run, printing one JSON line:
//  - search: the best-slot search (services/queue-scheduler's pure function) over 50 berths holding 10,000
//    reservations, each search over all 50 berths in a random priority order (the widest nomination), a random ETA
//    and laytime: searches/s and p50/p99 ms; `search_dense` the same with 10,000 reservations on every berth;
//    `calendars_ms` building the 50 calendars from unsorted reservations (what a search reads from a berth's state).
//  - e2e: slot requests accepted/s through HTTP in the fleet (separate processes on the real PostgreSQL, RabbitMQ
//    and Redis): 50 berths and N nominations set up first; then per vessel, over C connections, its agent posts
//    the slot request (`offered` with an RTA window), reads it back and accepts it with a JIT ETA at the RTA
//    window start (`accepted`). Checked afterwards: every request accepted, no two reservations of a berth overlap.
//    `cpu_ms_per_request`: the CPU time each fleet process spent per slot request during that run and the 3 s after
//    it, less what it spends idle (measured over 3 s before) (Linux: read from /proc for the bench's child
//    processes, and as `postgres` the fleet database's backends; `rabbitmq` and `redis` the local servers, outside
//    `all_services` and inside `all_with_brokers`), so the cost of a request can be followed service by service even
//    when the machine is shared.
//  - insert_16: a bare single-row INSERT's rate at 16 writers on the same PostgreSQL just before (bench:append's
//    baseline), so figures from different machines can be compared.

import { openDb } from '@pcas/sql';
import { ApiClient, startFleet } from '@pcas/testing';
import { MINUTE_MS, queueSettings } from '../services/queue-scheduler/src/domain/queue-rules.ts';
import {
  type BerthCalendar,
  berthCalendar,
  type CalendarEntry,
  findBestSlot,
} from '../services/queue-scheduler/src/domain/slot-search.ts';
import { queueFloor } from './queue-floor.ts';
import {
  benchOptions,
  cpuMsPer,
  fleetCpu,
  insertBaseline,
  percentile,
  printFleetErrors,
  round,
  slotRequest,
  validImo,
} from './support.ts';

const values = benchOptions({ n: 500, c: 16, searches: 20000, 'search-only': false });
const { n: N, c: C, searches: SEARCHES } = values;
const BERTHS = 50;
const IDLE_MS = 3_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

// A fixed seed, so every run searches the same calendars.
let seed = 15;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

/** A copy in random order (Fisher–Yates). */
function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Reservations of one berth from `from`: 1–12 hour slots with 0–12 hour gaps, none overlapping. */
function berthReservations(berth: number, count: number, from: number): CalendarEntry[] {
  const out: CalendarEntry[] = [];
  let at = from;
  for (let i = 0; i < count; i++) {
    at += Math.floor(random() * 12 * 60) * MINUTE_MS;
    const end = at + (60 + Math.floor(random() * 11 * 60)) * MINUTE_MS;
    out.push({ id: berth * 1_000_000 + i, start: at, end });
    at = end + MINUTE_MS;
  }
  // Unsorted, as a berth's state holds them.
  return shuffled(out);
}

function searchBench(perBerth: number) {
  const settings = queueSettings();
  const from = Date.UTC(2026, 0, 1);
  const reservations = Array.from({ length: BERTHS }, (_, b) => berthReservations(b + 1, perBerth, from));
  const t0 = performance.now();
  const calendars = new Map<number, BerthCalendar>(reservations.map((list, b) => [b + 1, berthCalendar(b + 1, list)]));
  const calendarsMs = performance.now() - t0;
  const span = reservations.flat().reduce((max, r) => Math.max(max, r.end), from) - from;
  const ids = Array.from({ length: BERTHS }, (_, b) => b + 1);
  const searches = Array.from({ length: SEARCHES }, () => {
    const eta = from + Math.floor(random() * span);
    return {
      eta,
      laytimeMs: (1 + Math.floor(random() * 12)) * HOUR_MS,
      windowEnd: eta + 14 * DAY_MS,
      berthIds: shuffled(ids),
    };
  });
  const lookup = (id: number) => calendars.get(id);
  let found = 0;
  for (let i = 0; i < Math.min(2_000, SEARCHES); i++) findBestSlot(searches[i], lookup, settings);
  const times: number[] = [];
  const started = performance.now();
  for (const s of searches) {
    const a = performance.now();
    if (findBestSlot(s, lookup, settings) !== null) found++;
    times.push(performance.now() - a);
  }
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return {
    berths: BERTHS,
    reservations: BERTHS * perBerth,
    searches: SEARCHES,
    found,
    searches_per_s: Math.round(SEARCHES / elapsed),
    p50_ms: Number((percentile(times, 50) as number).toFixed(3)),
    p99_ms: Number((percentile(times, 99) as number).toFixed(3)),
    max_ms: Number((times[times.length - 1] as number).toFixed(3)),
    calendars_ms: round(calendarsMs),
  };
}

/** The (time type, state) pairs of the timestamps slot requests generate. */
const GENERATED = [
  ['Estimated', 'Arrival_Vessel_PortArea'],
  ['Estimated', 'Departure_Vessel_Berth'],
  ['Recommended', 'Arrival_Vessel_PortArea'],
  ['Planned', 'Arrival_Vessel_PortArea'],
  ['Planned', 'Departure_Vessel_Berth'],
] as const;

const isoUtc = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}+00:00`;

async function expectOk(what: string, answer: Promise<{ status: number; body: any }>) {
  const res = await answer;
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function endToEnd() {
  const fleet = await startFleet({ LOG_LEVEL: 'error' });
  try {
    const admin = await new ApiClient(fleet.baseUrl).login('admin@port.local', 'e2e-admin-password');
    const probe = await admin.get('/berths', { limit: 1 });
    if (probe.status === 404) return { e2e: null, e2e_reason: 'the queue routes answer 404 in this tree' };
    for (let b = 1; b <= BERTHS; b++) {
      await expectOk(
        'POST /berths',
        admin.post('/berths', { code: `B${b}`, name: `Bench berth ${b}`, nominatable: true }),
      );
    }
    const berths = (await expectOk('GET /berths', admin.get('/berths', { limit: 1000 }))).data as { id: number }[];
    const berthIds = berths.map((b) => b.id).sort((a, b) => a - b);

    // Nominations (setup, not measured): vessel i on berths i, i+1, i+2; a row of 50 vessels every 3 h 10 min
    // from tomorrow, each wanting 2 h of laytime (3 h at the berth with buffer and RTA window).
    const tomorrow = Math.ceil(Date.now() / DAY_MS) * DAY_MS + DAY_MS;
    const vessels = Array.from({ length: N }, (_, i) => ({
      imo: validImo(400_000 + i * 11),
      name: `BQ${i}X`,
      eta: tomorrow + 2 * HOUR_MS + Math.floor(i / BERTHS) * (3 * HOUR_MS + 10 * MINUTE_MS),
      berths: [0, 1, 2].map((k) => berthIds[(i + k) % berthIds.length]),
    }));
    const lastEta = vessels[vessels.length - 1]?.eta ?? tomorrow;
    await runPool(C, vessels, async (v) => {
      await expectOk(
        'POST /own-nominations',
        admin.post('/own-nominations', {
          company_name: 'Bench consignee',
          email: 'consignee@bench.local',
          imo: v.imo,
          vessel_name: v.name,
          window_start: isoUtc(tomorrow),
          window_end: isoUtc(Math.min(tomorrow + 25 * DAY_MS, lastEta + 2 * DAY_MS)),
          berth_ids: v.berths,
        }),
      );
    });

    // The vessel's agent: an API key allowed the timestamps its slot requests generate.
    const key = (await expectOk('POST /api-keys', admin.post('/api-keys', { name: `bench-queue-${Date.now()}` }))) as {
      id: number;
      key: string;
    };
    for (const [timeType, state] of GENERATED) {
      await expectOk(
        'POST /timestamp-api-key-weights',
        admin.post('/timestamp-api-key-weights', {
          timestamp_time_type: timeType,
          timestamp_state: state,
          api_key_ids: [key.id],
        }),
      );
    }
    const agent = admin.anonymous().withApiKey(key.key);

    const create: number[] = [];
    const accept: number[] = [];
    // What the services spend idle (polling, timers) is measured first and taken off, so the figure is the
    // requests' own cost whatever the run's length; the run's trailing work (posts to ingest, mails) is counted.
    const database = new URL(fleet.env.DATABASE_URL).pathname.slice(1);
    const store = await openDb({ url: fleet.env.DATABASE_URL, poolSize: 1, applicationName: 'bench-queue' });
    const eventCount = async () =>
      Number((await store.query<{ n: string }>('SELECT count(*) AS n FROM eventstore.events')).rows[0]?.n);
    const eventsBefore = await eventCount();
    const idleFrom = fleetCpu(database);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const cpuBefore = fleetCpu(database);
    const benchCpu = process.cpuUsage();
    const started = performance.now();
    await runPool(C, vessels, async (v) => {
      const t0 = performance.now();
      await expectOk(
        'POST /agent/rest/slot-reservations',
        agent.post('/agent/rest/slot-reservations', slotRequest('master@vessel.bench', v, isoUtc(v.eta))),
      );
      const t1 = performance.now();
      const rows = (await expectOk('GET /slot-reservations', admin.get('/slot-reservations', { search: v.name })))
        .data as { id: number; imo: number; rta_window_start: string | null; slot_reservation_status: string }[];
      const row = rows.find((r) => Number(r.imo) === v.imo);
      if (row?.slot_reservation_status !== 'offered' || !row.rta_window_start) {
        throw new Error(`slot request of ${v.name} not offered: ${JSON.stringify(row)}`);
      }
      const t2 = performance.now();
      await expectOk(
        'PUT /agent/rest/slot-reservations',
        agent.put('/agent/rest/slot-reservations', {
          id: row.id,
          laytime: '02:00',
          jit_eta: isoUtc(Date.parse(row.rta_window_start.replace(' ', 'T').replace(/\+00$/, '+00:00'))),
        }),
      );
      create.push(t1 - t0);
      accept.push(performance.now() - t2);
    });
    const elapsed = (performance.now() - started) / 1000;
    const benchUsed = process.cpuUsage(benchCpu);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const cpuAfter = fleetCpu(database);
    const measuredS = (performance.now() - started) / 1000;
    const eventsPerSlotRequest = ((await eventCount()) - eventsBefore) / N;
    await store.close();
    const cpu = cpuMsPer(cpuBefore, cpuAfter, N, 1, {
      from: idleFrom,
      seconds: IDLE_MS / 1000,
      measuredSeconds: measuredS,
    });
    if (cpuAfter.size > 0) cpu.bench_client = round((benchUsed.user + benchUsed.system) / 1000 / N);

    const all = await allRows<{ slot_reservation_status: string }>(admin, '/slot-reservations', {});
    const accepted = all.filter((r) => r.slot_reservation_status === 'accepted').length;
    let overlaps = 0;
    for (const berthId of berthIds) {
      const list = await allRows<{ reservation_start: string; reservation_end: string }>(admin, '/berth-reservations', {
        berth_id: berthId,
      });
      const spans = list
        .map((r) => [Date.parse(r.reservation_start), Date.parse(r.reservation_end)] as const)
        .sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < spans.length; i++) if ((spans[i]?.[0] as number) <= (spans[i - 1]?.[1] as number)) overlaps++;
    }
    create.sort((a, b) => a - b);
    accept.sort((a, b) => a - b);
    return {
      e2e: {
        slot_requests: N,
        connections: C,
        accepted,
        accepted_per_s: Math.round(accepted / elapsed),
        create_p50_ms: round(percentile(create, 50)),
        create_p99_ms: round(percentile(create, 99)),
        accept_p50_ms: round(percentile(accept, 50)),
        accept_p99_ms: round(percentile(accept, 99)),
        overlapping_reservations: overlaps,
        events_per_slot_request: round(eventsPerSlotRequest),
        cpu_ms_per_request: cpu,
      },
      amqpUrl: fleet.env.AMQP_URL as string,
      eventsPerSlotRequest,
    };
  } catch (error) {
    printFleetErrors(fleet);
    throw error;
  } finally {
    await fleet.stop();
  }
}

/** Every row of a paginated list, 1,000 (the most the API gives) at a time. */
async function allRows<T>(api: ApiClient, path: string, params: Record<string, unknown>): Promise<T[]> {
  const rows: T[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = (await expectOk(`GET ${path}`, api.get(path, { ...params, limit: 1000, offset }))).data as T[];
    rows.push(...page);
    if (page.length < 1000) return rows;
  }
}

/** Runs `work` on every item over `connections` concurrent loops. */
async function runPool<T>(connections: number, items: readonly T[], work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

async function main() {
  const search = searchBench(10_000 / BERTHS);
  const searchDense = searchBench(10_000);
  let line: Record<string, unknown> = { bench: 'queue', search, search_dense: searchDense };
  if (!values['search-only']) {
    const insert16 = await insertBaseline();
    const { amqpUrl, eventsPerSlotRequest, ...e2e } = await endToEnd();
    line = { ...line, insert_16: insert16, ...e2e };
    // Measured once the fleet has stopped, on a machine as quiet as the run found it.
    if (amqpUrl && eventsPerSlotRequest !== undefined) {
      line.floor = await queueFloor({ amqpUrl, insert16, eventsPerSlotRequest });
    }
  }
  console.log(JSON.stringify(line));
}

await main();
