// `pnpm bench:soak [-- --minutes 30 --replicas 1 --rate 40 --sockets 50 --cache-timestamps 1000]`: the fleet
// (REPLICAS processes of each service) under a steady mixed load for MINUTES: a data source posting RATE timestamps
// a second, people reading the activity view, SOCKETS web UI sockets on `portcalls-changed`, an AIS agent posting
// vessel positions, an agent asking for JIT slots, and an operator sending VIS text messages (to the port itself,
// linked as its own peer). Prints one JSON line: each process's RSS and the projections' lag at the end of the
// warm-up (a fifth of the run, at most 5 minutes), in the middle and at the end, with the slope after the warm-up
// (per 10 minutes, in % of the mean for RSS) and every RSS and JS-heap sample after the warm-up (`by_minute`,
// `heap_by_minute`), the operations done, errors and sockets dropped, and bench:append's insert_16. The fleet runs
// the production build, as an operator's does.
//
// The soak asks whether memory stays flat once everything bounded is full. The projector's vessel cache is bounded
// by the timestamps it holds (PORT_CALL_CACHE_TIMESTAMPS, 50,000 by default): at the soak's rate it would fill in
// some three and a half hours and grow by design until then, so the soak bounds it at CACHE_TIMESTAMPS, which fills
// during the warm-up (docs/operations.md#memory).

import { readFile } from 'node:fs/promises';
import { ApiClient, connectRealtime, type RealtimeClient, startFleet } from '@pcas/testing';
import { benchOptions, ingestLoad, insertBaseline, slotRequest, useProductionBuild, validImo } from './support.ts';

const {
  minutes: MINUTES,
  replicas: REPLICAS,
  rate: RATE,
  sockets: SOCKETS,
  'cache-timestamps': CACHE_TIMESTAMPS,
} = benchOptions({ minutes: 30, replicas: 1, rate: 40, sockets: 50, 'cache-timestamps': 1000 });
const SERVICES = 8;
const URN = 'urn:mrn:stm:service:instance:bench:soak';
const SECRET = 'Soak-bench-peer-secret-2026-long-enough';
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

const isoUtc = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
}

/** A process's JS heap in use (prom-client's `nodejs_heap_size_used_bytes`), MiB: tells a heap's growth from RSS's. */
async function heapUsedMiB(opsPort: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${opsPort}/metrics`)).text();
  const line = text.split('\n').find((l) => /^nodejs_heap_size_used_bytes[ {]/.test(l));
  return line ? Number(line.split(' ').pop()) / 2 ** 20 : 0;
}

/**
 * The projections' worst lag in seconds, as the fleet's metrics give it (`projection_lag_seconds`, reported by
 * whichever process reports the fleet-wide gauges).
 */
async function projectionLagSeconds(opsPorts: readonly number[]): Promise<number> {
  let worst = 0;
  for (const port of opsPorts) {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    for (const line of text.split('\n'))
      if (line.startsWith('projection_lag_seconds{')) worst = Math.max(worst, Number(line.split(' ').pop()));
  }
  return worst;
}

/** Least-squares slope of (minute, value) samples, per 10 minutes. */
function slopePer10Min(samples: readonly { minute: number; value: number }[]): number {
  const n = samples.length;
  if (n < 2) return 0;
  const mx = samples.reduce((a, s) => a + s.minute, 0) / n;
  const my = samples.reduce((a, s) => a + s.value, 0) / n;
  const num = samples.reduce((a, s) => a + (s.minute - mx) * (s.value - my), 0);
  const den = samples.reduce((a, s) => a + (s.minute - mx) ** 2, 0);
  return den === 0 ? 0 : (num / den) * 10;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * A loop doing `work` every `everyMs` until `until`, counting what it did and what failed (`work` answers true, or
 * what went wrong; the first of each is kept).
 */
function every(everyMs: number, until: number, work: () => Promise<true | string>) {
  const tally = { done: 0, errors: 0, first_error: undefined as string | undefined };
  const failed = (what: string) => {
    tally.errors++;
    tally.first_error ??= what;
  };
  const running = (async () => {
    while (Date.now() < until) {
      const started = Date.now();
      try {
        const outcome = await work();
        if (outcome === true) tally.done++;
        else failed(outcome);
      } catch (error) {
        failed((error as Error).message);
      }
      await sleep(Math.max(0, everyMs - (Date.now() - started)));
    }
  })();
  return { tally, running };
}

/** Berths and nominations for `count` vessels, and an agent allowed to ask for their slots. */
async function queueSetup(admin: ApiClient, count: number) {
  for (let b = 1; b <= 3; b++)
    await admin.post('/berths', { code: `S${b}`, name: `Soak berth ${b}`, nominatable: true });
  const berths = ((await admin.get('/berths', { limit: 100 })).body.data as { id: number }[]).map((b) => b.id);
  const start = Math.ceil(Date.now() / DAY_MS) * DAY_MS + DAY_MS;
  const vessels = Array.from({ length: count }, (_, i) => ({ imo: validImo(700_000 + i * 13), name: `SOAK${i}X` }));
  for (const v of vessels) {
    await admin.post('/own-nominations', {
      company_name: 'Soak consignee',
      email: 'consignee@soak.local',
      imo: v.imo,
      vessel_name: v.name,
      window_start: isoUtc(start),
      window_end: isoUtc(start + 25 * DAY_MS),
      berth_ids: berths,
    });
  }
  const key = (await admin.post('/api-keys', { name: `soak-queue-${Date.now()}` })).body as { key: string };
  return { vessels, start, agent: admin.anonymous().withApiKey(key.key) };
}

async function main() {
  await useProductionBuild();
  const insert16 = await insertBaseline();
  const opsBase = 20_000 + Math.floor(Math.random() * 20_000);
  const fleet = await startFleet({
    LOG_LEVEL: 'error',
    FLEET_REPLICAS: String(REPLICAS),
    OPS_PORT: String(opsBase),
    RATE_LIMIT_VIS_PER_ADDRESS: 'off',
    VIS_SERVICE_INSTANCE_URN: URN,
    VIS_PORT_NAME: 'Soak port',
    VIS_PORT_UNLOCODE: 'SEGVX',
    PORT_CALL_CACHE_TIMESTAMPS: String(CACHE_TIMESTAMPS),
  });
  const sockets: RealtimeClient[] = [];
  try {
    const admin = await new ApiClient(fleet.baseUrl).login('admin@port.local', 'e2e-admin-password');
    const processes: { instance: string; pid: number; opsPort: number }[] = [];
    const opsPorts = Array.from({ length: SERVICES * REPLICAS }, (_, i) => opsBase + i);
    for (let i = 0; i < SERVICES * REPLICAS; i++) {
      const live = (await (await fetch(`http://127.0.0.1:${opsBase + i}/livez`)).json()) as {
        instance_id: string;
        pid: number;
      };
      processes.push({ instance: live.instance_id, pid: live.pid, opsPort: opsBase + i });
    }

    // The load's parties.
    const load = await ingestLoad(fleet.baseUrl, admin, 4);
    const ais = (await admin.post('/api-keys', { name: 'soak ais' })).body as { key: string };
    const aisAgent = admin.anonymous().withApiKey(ais.key);
    const MMSI = 266_100_000;
    for (let v = 0; v < 20; v++)
      await admin.post('/sea-chart/fixed-vessel', { vesselType: 37, vesselName: `Soak tug ${v}`, mmsi: MMSI + v });
    const queue = await queueSetup(admin, Math.ceil((MINUTES * 60) / 10) + 1);
    await admin.post('/ports', { name: 'Soak port', service_id: URN, locodes: [] });
    const linked = await admin.post('/port-peer', { service_id: URN, url: `${fleet.baseUrl}/vis`, secret: SECRET });
    const visLinked = linked.status === 200;
    for (let i = 0; i < SOCKETS; i++) {
      const socket = await connectRealtime(fleet.baseUrl, 15, { connectTimeoutMs: 30_000 });
      await socket.subscribe('portcalls-changed');
      sockets.push(socket);
    }

    const started = Date.now();
    const until = started + MINUTES * MINUTE_MS;
    let slot = 0;
    let fix = 0;
    const loops = {
      timestamps: every(250, until, async () => {
        let outcome: true | string = true;
        await load.run(Math.max(1, Math.round(RATE / 4)), (_seq, _ms, status) => {
          if (status !== 200) outcome = `POST /agent/rest/timestamps: ${status}`;
        });
        return outcome;
      }),
      reads: every(500, until, async () => {
        const [view, list] = await Promise.all([
          admin.get('/ongoing-port-calls'),
          admin.get('/timestamps', { limit: 50 }),
        ]);
        if (view.status !== 200) return `GET /ongoing-port-calls: ${view.status} ${JSON.stringify(view.body)}`;
        return list.status === 200 || `GET /timestamps: ${list.status} ${JSON.stringify(list.body)}`;
      }),
      positions: every(1_000, until, async () => {
        fix++;
        const res = await aisAgent.post('/sea-chart/vessels', {
          locations: Array.from({ length: 20 }, (_, v) => ({
            mmsi: MMSI + v,
            latitude: 60.6 + 0.05 * Math.sin((fix + v) / 30),
            longitude: 17.2 + 0.1 * Math.cos((fix + v) / 30),
            headingDegrees: (fix + v) % 360,
            speedKnots: 5,
            courseOverGroundDegrees: (fix + v) % 360,
            locationTimestamp: isoUtc(Date.now() - 1_000),
          })),
        });
        return res.status === 200 || `POST /sea-chart/vessels: ${res.status} ${JSON.stringify(res.body)}`;
      }),
      slotRequests: every(10_000, until, async () => {
        const v = queue.vessels[slot++ % queue.vessels.length]!;
        const res = await queue.agent.post(
          '/agent/rest/slot-reservations',
          slotRequest('master@vessel.soak', v, isoUtc(queue.start + (slot % 50) * 4 * 3_600_000)),
        );
        return res.status === 200 || `POST /agent/rest/slot-reservations: ${res.status} ${JSON.stringify(res.body)}`;
      }),
      visSends: every(5_000, until, async () => {
        if (!visLinked) return true;
        const res = await admin.post('/vis-text-messages', {
          vis_service_id: URN,
          author: 'soak',
          subject: 'soak',
          body: `soak ${Date.now()}`,
        });
        return res.status === 200 || `POST /vis-text-messages: ${res.status} ${JSON.stringify(res.body)}`;
      }),
    };

    // A sample a minute: every process's RSS and JS heap in use, and the projections' worst lag.
    const samples: { minute: number; rss: Record<string, number>; heap: Record<string, number>; lag: number }[] = [];
    const sample = async () => {
      const rss: Record<string, number> = {};
      const heap: Record<string, number> = {};
      for (const p of processes) {
        rss[p.instance] = round1(await rssMiB(p.pid));
        heap[p.instance] = round1(await heapUsedMiB(p.opsPort));
      }
      const lag = await projectionLagSeconds(opsPorts);
      samples.push({ minute: (Date.now() - started) / MINUTE_MS, rss, heap, lag: round1(lag) });
      for (const socket of sockets) socket.received.get('portcalls-changed')?.splice(0);
    };
    await sample();
    while (Date.now() < until) {
      await sleep(Math.min(MINUTE_MS, until - Date.now()));
      await sample();
    }
    await Promise.all(Object.values(loops).map((l) => l.running));
    await load.close();

    const warmUp = Math.min(5, MINUTES / 5);
    const after = samples.filter((s) => s.minute >= warmUp - 0.01);
    const at = (minute: number) =>
      after.reduce((a, b) => (Math.abs(b.minute - minute) < Math.abs(a.minute - minute) ? b : a));
    const points = [at(warmUp), at((warmUp + MINUTES) / 2), at(MINUTES)];
    const rss = Object.fromEntries(
      processes.map(({ instance }) => {
        const series = after.map((s) => ({ minute: s.minute, value: s.rss[instance] ?? 0 }));
        const mean = series.reduce((a, s) => a + s.value, 0) / Math.max(1, series.length);
        const [start, middle, end] = points.map((s) => s.rss[instance]);
        const slope = round1((100 * slopePer10Min(series)) / mean);
        // Every sample after the warm-up too: a slope set by one collector's peak shows as such.
        const heap = after.map((s) => s.heap[instance] ?? 0);
        return [
          instance,
          {
            start,
            middle,
            end,
            slope_pct_per_10min: slope,
            by_minute: series.map((s) => s.value),
            heap_by_minute: heap,
          },
        ];
      }),
    );
    const lagSeries = after.map((s) => ({ minute: s.minute, value: s.lag }));
    console.log(
      JSON.stringify({
        bench: 'soak',
        minutes: MINUTES,
        replicas: REPLICAS,
        warm_up_minutes: warmUp,
        cache_timestamps: CACHE_TIMESTAMPS,
        operations: Object.fromEntries(Object.entries(loops).map(([name, l]) => [name, l.tally.done])),
        errors: Object.values(loops).reduce((a, l) => a + l.tally.errors, 0),
        errors_by_kind: Object.fromEntries(
          Object.entries(loops).map(([name, l]) => [name, { errors: l.tally.errors, first: l.tally.first_error }]),
        ),
        vis_linked: visLinked,
        sockets: SOCKETS,
        sockets_dropped: sockets.filter((s) => s.socket.state !== 'open').length,
        rss_mib: rss,
        projection_lag_s: {
          start: points[0].lag,
          middle: points[1].lag,
          end: points[2].lag,
          slope_s_per_10min: round1(slopePer10Min(lagSeries)),
        },
        insert_16: insert16,
      }),
    );
  } finally {
    for (const socket of sockets) socket.close();
    await fleet.stop();
  }
}

await main();
