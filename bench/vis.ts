// `pnpm bench:vis [-- --n 3000 --c 16 --rate 100 --outage 60]`: VIS direct mode port to port. Two fleets (port A
// and port B: separate processes on the real PostgreSQL, RabbitMQ and Redis, each with its own database and vhost),
// linked as peers over loopback (A reaches B through a forwarder the benchmark can cut). First, in the same run,
// bench:append's baseline (its bare single-row INSERTs/s at 16 writers, run as bench:append itself).
//
// 1. Throughput: N text messages sent through A's API (POST /vis-text-messages, C keep-alive connections);
//    messages/s from the first send to the last acknowledgement back at A, and per message the delivery latency
//    (queued at A → stored at B and answered) and the acknowledgement latency (→ B's acknowledgement recorded at A),
//    read from A's outbox.
// 2. Outage: messages sent at RATE/s while B cannot be reached for OUTAGE seconds (the forwarder refuses
//    connections); the outbox's draining time from B's return until every message sent before it is delivered.
//    Traffic keeps flowing meanwhile. At the end B holds each message exactly once (duplicates and lost counted).
// `cpu_ms_per_message`: the CPU time each fleet process of A and of B spent per message of phase 1 (from the first
// send to the last acknowledgement and the 3 s after it), less what it spends idle (measured over 3 s before)
// (Linux: read from /proc, as bench:queue does; `postgres` is the backends serving the fleet's database, RabbitMQ and
// Redis are not included), so the cost of a message can be followed process by process on a shared machine.
// `--cpu-prof DIR`: every fleet process writes a V8 CPU profile into DIR when the fleets stop.
// Prints one JSON line.

import net from 'node:net';
import path from 'node:path';
import { openDb } from '@pcas/sql';
import { ApiClient, freePort, startFleet } from '@pcas/testing';
import { Pool } from 'undici';
import { benchOptions, cpuMsPer, fleetCpu, insertBaseline, round } from './support.ts';

const values = benchOptions({
  n: 3000,
  c: 16,
  rate: 100,
  outage: 60,
  warmup: 300,
  // A folder: each fleet process writes its V8 CPU profile there when the fleets stop (bench/cpu-profile-hook.mjs).
  'cpu-prof': '',
});
const { n: N, c: C, rate: RATE, outage: OUTAGE_S, warmup: WARMUP } = values;
const IDLE_MS = 3_000;

const A = 'urn:mrn:stm:service:instance:bench:port-a';
const B = 'urn:mrn:stm:service:instance:bench:port-b';
const SECRET = 'bench-port-a-and-port-b-shared-secret-2026';
const ADMIN = { email: 'admin@port.local', password: 'e2e-admin-password' };

/** A fleet process's port, told by the VIS service id in its environment. */
const fleetOf = (environ: string) => {
  const urn = /(?:^|\0)VIS_SERVICE_INSTANCE_URN=([^\0]*)/.exec(environ)?.[1];
  return urn === A ? 'a' : urn === B ? 'b' : undefined;
};

const databaseOf = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

/** A loopback port forwarding to B's gateway; `cut()` refuses every connection until `restore()`. */
async function forwarder(targetPort: number) {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(targetPort, '127.0.0.1');
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', resolve);
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server?.close(() => resolve());
    });
  await listen();
  return { url: `http://127.0.0.1:${port}`, cut, restore: listen };
}

async function main() {
  const insert16 = await insertBaseline();
  const vis = (urn: string, name: string, locode: string) => ({
    LOG_LEVEL: 'error',
    // The bench measures delivery, not the limit that guards /vis/ from strangers (600 requests a minute per
    // address); here both ports and the bench share one address.
    RATE_LIMIT_VIS_PER_ADDRESS: 'off',
    VIS_SERVICE_INSTANCE_URN: urn,
    VIS_PORT_NAME: name,
    VIS_PORT_UNLOCODE: locode,
    ...(values['cpu-prof']
      ? {
          NODE_OPTIONS: `--import ${path.resolve(import.meta.dirname, 'cpu-profile-hook.mjs')}`,
          BENCH_CPU_PROF_DIR: path.resolve(values['cpu-prof']),
        }
      : {}),
  });
  const [a, b] = await Promise.all([startFleet(vis(A, 'Port A', 'FIRAU')), startFleet(vis(B, 'Port B', 'SEGVX'))]);
  const toB = await forwarder(b.port);
  const dbA = await openDb({ url: a.env.DATABASE_URL, poolSize: 2, applicationName: 'bench-vis' });
  const dbB = await openDb({ url: b.env.DATABASE_URL, poolSize: 2, applicationName: 'bench-vis' });
  try {
    const adminA = await new ApiClient(a.baseUrl).login(ADMIN.email, ADMIN.password);
    const adminB = await new ApiClient(b.baseUrl).login(ADMIN.email, ADMIN.password);
    for (const [admin, other, name, url] of [
      [adminA, B, 'Port B', `${toB.url}/vis`],
      [adminB, A, 'Port A', `${a.baseUrl}/vis`],
    ] as const) {
      await admin.post('/ports', { name, service_id: other, locodes: [] });
      const linked = await admin.post('/port-peer', { service_id: other, url, secret: SECRET });
      if (linked.status !== 200) throw new Error(`link: ${linked.status} ${JSON.stringify(linked.body)}`);
    }

    // The sender: A's operator, over keep-alive connections.
    const pool = new Pool(a.baseUrl, { connections: C, pipelining: 1 });
    const login = await new ApiClient(a.baseUrl).post('/login', ADMIN);
    const authorization = `Bearer ${login.body.session_id as string}`;
    let seq = 0;
    let errors = 0;
    const send = async () => {
      const n = seq++;
      const res = await pool.request({
        method: 'POST',
        path: '/vis-text-messages',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify({ vis_service_id: B, author: 'bench', subject: `m${n}`, body: `message ${n}` }),
      });
      await res.body.text();
      if (res.statusCode !== 200) errors++;
    };
    const burst = async (count: number) => {
      let left = count;
      await Promise.all(
        Array.from({ length: C }, async () => {
          while (left-- > 0) await send();
        }),
      );
    };
    const outbox = async (since: Date) => {
      const { rows } = await dbA.query<{
        total: string;
        pending: string;
        unacked: string;
        seconds: number | null;
        p50: number | null;
        p99: number | null;
        ack_p99: number | null;
      }>(
        `SELECT count(*) AS total, count(*) FILTER (WHERE delivered_at IS NULL AND failed_at IS NULL) AS pending,
                count(*) FILTER (WHERE acked_at IS NULL) AS unacked,
                extract(epoch FROM max(acked_at) - min(created_at))::float8 AS seconds,
                percentile_disc(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM delivered_at - created_at) * 1000) AS p50,
                percentile_disc(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM delivered_at - created_at) * 1000) AS p99,
                percentile_disc(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM acked_at - created_at) * 1000) AS ack_p99
         FROM vis.outbox WHERE peer_service_id = $1 AND operation = 'textMessage' AND created_at >= $2`,
        [B, since],
      );
      return rows[0];
    };
    const until = async (what: string, done: () => Promise<boolean>, ms: number) => {
      const deadline = Date.now() + ms;
      while (!(await done())) {
        if (Date.now() > deadline) throw new Error(`${what} not within ${ms} ms`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    // Warm-up, not measured.
    const warm = new Date();
    await burst(WARMUP);
    await until('warm-up acknowledged', async () => Number((await outbox(warm)).unacked) === 0, 120_000);

    // 1. Throughput and latency.
    const databases = { a: databaseOf(a.env.DATABASE_URL), b: databaseOf(b.env.DATABASE_URL) };
    const idleFrom = fleetCpu(databases, fleetOf);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const cpuBefore = fleetCpu(databases, fleetOf);
    const since = new Date();
    const burstStarted = performance.now();
    await burst(N);
    const sendPerS = N / ((performance.now() - burstStarted) / 1000);
    await until('every message acknowledged', async () => Number((await outbox(since)).unacked) === 0, 600_000);
    const measured = await outbox(since);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const cpuAfter = fleetCpu(databases, fleetOf);
    const measuredS = (performance.now() - burstStarted) / 1000;
    const cpu = cpuMsPer(cpuBefore, cpuAfter, N, 1, {
      from: idleFrom,
      seconds: IDLE_MS / 1000,
      measuredSeconds: measuredS,
    });
    delete cpu.all_services;
    if (cpuAfter.size > 0) {
      const sum = (fleet: string) =>
        round(Object.entries(cpu).reduce((s, [k, v]) => s + (k.startsWith(`${fleet}.`) ? (v ?? 0) : 0), 0));
      cpu.a_all = sum('a');
      cpu.b_all = sum('b');
    }

    // 2. Outage with traffic flowing.
    let flowing = true;
    const traffic = (async () => {
      const interval = 1000 / RATE;
      let next = performance.now();
      const inflight = new Set<Promise<void>>();
      while (flowing) {
        const p = send().catch(() => {
          errors++;
        });
        inflight.add(p);
        void p.finally(() => inflight.delete(p));
        next += interval;
        await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
      }
      await Promise.all(inflight);
    })();
    await new Promise((r) => setTimeout(r, 5_000));
    const outageStart = new Date();
    await toB.cut();
    await new Promise((r) => setTimeout(r, OUTAGE_S * 1000));
    const queuedDuringOutage = Number((await outbox(outageStart)).pending);
    await toB.restore();
    const returned = new Date();
    await until(
      'the outbox drained',
      async () => {
        const { rows } = await dbA.query<{ n: string }>(
          `SELECT count(*) AS n FROM vis.outbox WHERE peer_service_id = $1 AND created_at <= $2
             AND delivered_at IS NULL AND failed_at IS NULL`,
          [B, returned],
        );
        return Number(rows[0].n) === 0;
      },
      600_000,
    );
    const drainS = (Date.now() - returned.getTime()) / 1000;
    await new Promise((r) => setTimeout(r, 2_000));
    flowing = false;
    await traffic;
    await until('every message delivered', async () => Number((await outbox(warm)).pending) === 0, 120_000);

    // Exactly once at B: every message A sent, once.
    const sent = await dbA.query<{ n: string }>(
      `SELECT count(*) AS n FROM vis.outbox WHERE peer_service_id = $1 AND operation = 'textMessage'`,
      [B],
    );
    const stored = await dbB.query<{ n: string; distinct_ids: string }>(
      `SELECT count(*) AS n, count(DISTINCT message_id) AS distinct_ids FROM vis.messages WHERE from_service_id = $1`,
      [A],
    );
    await pool.close();
    const total = Number(sent.rows[0].n);
    console.log(
      JSON.stringify({
        bench: 'vis',
        messages: Number(measured.total),
        messages_per_s: Math.round(Number(measured.total) / (measured.seconds ?? Number.NaN)),
        // How fast A's API took the sends (the upper bound of what can be delivered).
        sent_per_s: Math.round(sendPerS),
        delivery_p50_ms: round(measured.p50),
        delivery_p99_ms: round(measured.p99),
        ack_p99_ms: round(measured.ack_p99),
        cpu_ms_per_message: cpu,
        outage_s: OUTAGE_S,
        outage_rate_per_s: RATE,
        queued_during_outage: queuedDuringOutage,
        drain_s: round(drainS),
        sent_total: total,
        stored_at_peer: Number(stored.rows[0].distinct_ids),
        duplicates: Number(stored.rows[0].n) - Number(stored.rows[0].distinct_ids),
        lost: total - Number(stored.rows[0].distinct_ids),
        http_errors: errors,
        insert_16: insert16,
      }),
    );
  } finally {
    await toB.cut().catch(() => {});
    await dbA.close();
    await dbB.close();
    await Promise.all([a.stop(), b.stop()]);
  }
}

await main();
