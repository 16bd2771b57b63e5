// `pnpm bench:realtime [-- --web 1000 --user 200 --n 10000 --c 16]`: the fleet (separate processes on the real
// PostgreSQL, RabbitMQ and Redis) with WEB sockets of the web UI's client (15) subscribed to `portcalls-changed`
// and USER sockets of the mobile app's client (16), signed in, subscribed to `portcalls-changed-<userId>`, while a
// data source posts N timestamps over C connections (bench:ingest's load) and the user changes their pins twice a
// second. Prints one JSON line:
// - latency p50/p99 from an event's commit to a socket: for each PortCallChanged (or PinnedVesselsSet) event, the
//   first message on the channel that reaches the socket at or after the event's stored time (`created`, its
//   transaction's start), on a sample of the sockets. With coalescing this includes the wait for the window's
//   trailing edge;
// - messages per socket per second after coalescing, during the load;
// - sockets dropped (no socket reconnects by itself), and the gateway's RSS idle, with the sockets connected, its
//   peak, and per socket.

import { readdir, readFile } from 'node:fs/promises';
import { openDb } from '@pcas/sql';
import { ApiClient, connectRealtime, type RealtimeClient, startFleet } from '@pcas/testing';
import { benchOptions, ingestLoad, percentile, round, validImo } from './support.ts';

const {
  web: WEB,
  user: USER,
  n: N,
  c: C,
  warmup: WARMUP,
  /** Sockets per channel whose every message is matched to the events (the rest are counted only). */
  sample: SAMPLE,
} = benchOptions({ web: 1000, user: 200, n: 10000, c: 16, warmup: 500, sample: 100 });

/** The gateway process of the fleet listening on `port` (found by its command line and environment). */
async function gatewayPid(port: number): Promise<number> {
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.includes('services/gateway/src/entry-points/main.ts')) continue;
      const environ = (await readFile(`/proc/${entry}/environ`, 'utf8')).split('\0');
      if (environ.includes(`PORT=${port}`)) return Number(entry);
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  throw new Error(`no gateway process on port ${port}`);
}

/** VmRSS (or VmHWM, the peak) of a process in MiB. */
async function rssMiB(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1]);
  return kb / 1024;
}

/** Connects `count` clients, `batch` at a time, each set up by `prepare`. */
async function connectMany(
  baseUrl: string,
  count: number,
  version: 15 | 16,
  prepare: (client: RealtimeClient) => Promise<void>,
  batch = 50,
): Promise<RealtimeClient[]> {
  const clients: RealtimeClient[] = [];
  for (let i = 0; i < count; i += batch) {
    const connected = await Promise.all(
      Array.from({ length: Math.min(batch, count - i) }, async () => {
        const client = await connectRealtime(baseUrl, version, { connectTimeoutMs: 30_000 });
        await prepare(client);
        return client;
      }),
    );
    clients.push(...connected);
  }
  return clients;
}

/** First index in ascending `sorted` whose value is ≥ x (sorted.length when none). */
function lowerBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Commit-to-socket latencies of the events on one channel, over the sampled sockets; and the events none got. */
function latencies(commits: readonly number[], clients: readonly RealtimeClient[], channel: string) {
  const samples: number[] = [];
  let missed = 0;
  const step = Math.max(1, Math.floor(clients.length / SAMPLE));
  for (let i = 0; i < clients.length; i += step) {
    const arrivals = (clients[i].received.get(channel) ?? []).map((r) => r.at);
    for (const commit of commits) {
      const k = lowerBound(arrivals, commit);
      if (k < arrivals.length) samples.push(arrivals[k] - commit);
      else missed++;
    }
  }
  return { samples: samples.sort((a, b) => a - b), missed };
}

async function main() {
  const fleet = await startFleet({ LOG_LEVEL: 'error' });
  const clients: RealtimeClient[] = [];
  try {
    const login = await new ApiClient(fleet.baseUrl).post('/login', {
      email: 'admin@port.local',
      password: 'e2e-admin-password',
    });
    const admin = new ApiClient(fleet.baseUrl).withSession(login.body.session_id);
    const userId = login.body.user.id as number;
    const userChannel = `portcalls-changed-${userId}`;
    const pid = await gatewayPid(fleet.port);
    const rssIdle = await rssMiB(pid);

    const web = await connectMany(fleet.baseUrl, WEB, 15, (client) => client.subscribe('portcalls-changed'));
    const users = await connectMany(fleet.baseUrl, USER, 16, async (client) => {
      await client.authenticate(login.body.jwt);
      await client.subscribe(userChannel);
    });
    clients.push(...web, ...users);
    // Let the connection burst's garbage go before reading the settled size.
    await new Promise((r) => setTimeout(r, 2_000));
    const rssConnected = await rssMiB(pid);

    const load = await ingestLoad(fleet.baseUrl, admin, C);
    await load.run(WARMUP);
    await new Promise((r) => setTimeout(r, 1_000));
    for (const client of clients) for (const list of client.received.values()) list.length = 0;

    let rssPeak = rssConnected;
    let running = true;
    const sampler = (async () => {
      while (running) {
        rssPeak = Math.max(rssPeak, await rssMiB(pid));
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    const pins = (async () => {
      const lists = [[validImo(300000)], [validImo(300007)]];
      for (let i = 0; running; i++) {
        await admin.put('/pinned-vessel-ids', { vessel_ids: lists[i % 2] });
        await new Promise((r) => setTimeout(r, 500));
      }
    })();

    const from = Date.now();
    let accepted = 0;
    let errors = 0;
    await load.run(N, (_seq, _ms, status) => {
      if (status === 200) accepted++;
      else errors++;
    });
    const loadEnded = Date.now();
    running = false;
    await pins;
    // The last trailing edges, and the messages still on their way.
    await new Promise((r) => setTimeout(r, 1_500));
    await sampler;
    const seconds = (loadEnded - from) / 1000;

    const db = await openDb({ url: fleet.env.DATABASE_URL });
    const commitTimes = async (stream: string, type: string) =>
      (
        await db.query<{ ms: string }>(
          `SELECT (extract(epoch FROM created) * 1000)::float8 AS ms FROM eventstore.events
            WHERE stream_id = $1 AND event_type = $2 AND created >= to_timestamp($3 / 1000.0)
              AND created <= to_timestamp($4 / 1000.0) ORDER BY global_position`,
          [stream, type, from, loadEnded],
        )
      ).rows.map((r) => Number(r.ms));
    const portCallCommits = await commitTimes('portcall-changes', 'PortCallChanged');
    const pinCommits = await commitTimes(`pins-${userId}`, 'PinnedVesselsSet');
    await db.close();

    const webLatency = latencies(portCallCommits, web, 'portcalls-changed');
    const userLatency = latencies(pinCommits, users, userChannel);
    const during = (client: RealtimeClient, channel: string) =>
      (client.received.get(channel) ?? []).filter((r) => r.at >= from && r.at <= loadEnded).length;
    const webMessages = web.reduce((sum, client) => sum + during(client, 'portcalls-changed'), 0);
    const userMessages = users.reduce((sum, client) => sum + during(client, userChannel), 0);
    const dropped = clients.filter((client) => client.socket.state !== 'open').length;
    const rssHwm = await rssMiB(pid, 'VmHWM');

    console.log(
      JSON.stringify({
        bench: 'realtime',
        mode: 'fleet',
        web_sockets: WEB,
        user_sockets: USER,
        timestamps: N,
        connections: C,
        load_s: round(seconds),
        accepted_per_s: Math.round(accepted / seconds),
        errors,
        portcall_changed_events: portCallCommits.length,
        latency_p50_ms: round(percentile(webLatency.samples, 50)),
        latency_p99_ms: round(percentile(webLatency.samples, 99)),
        latency_max_ms: round(webLatency.samples.at(-1) ?? null),
        latency_samples: webLatency.samples.length,
        latency_missed: webLatency.missed,
        pin_events: pinCommits.length,
        user_latency_p50_ms: round(percentile(userLatency.samples, 50)),
        user_latency_p99_ms: round(percentile(userLatency.samples, 99)),
        user_latency_missed: userLatency.missed,
        messages_per_socket_per_s: round(webMessages / WEB / seconds),
        user_messages_per_socket_per_s: round(userMessages / Math.max(1, USER) / seconds),
        sockets_dropped: dropped,
        gateway_rss_mib_idle: round(rssIdle),
        gateway_rss_mib_connected: round(rssConnected),
        gateway_rss_mib_peak: round(Math.max(rssPeak, rssHwm)),
        rss_per_socket_kb: round(((rssConnected - rssIdle) * 1024) / (WEB + USER)),
      }),
    );
    await load.close();
  } finally {
    for (const client of clients) client.close();
    await fleet.stop();
  }
}

await main();
