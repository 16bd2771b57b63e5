// `pnpm bench:read [-- --n 2000 --vessels 300]`: the fleet (separate processes on the real PostgreSQL, RabbitMQ
// and Redis) with 300 ongoing port calls built through the real path (a data source posts each vessel's ETA,
// berth arrival and ETD; ingest stores them, the portcall-projector builds the port calls), then
// GET /ongoing-port-calls as a logged-in user, N requests at 1 and at 16 keep-alive connections, asking for gzip as
// browsers do (and, for comparison, at 16 connections for plain JSON), then again at 1 and 16 with five vessels
// pinned by the user. A request's time runs until its last byte has arrived. Prints one JSON line: p50/p99 ms and
// requests/s per run, and the response sizes.

import { ApiClient, startFleet } from '@pcas/testing';
import { Pool } from 'undici';
import { benchOptions, percentile, round, validImo } from './support.ts';

const { n: N, vessels: VESSELS, warmup: WARMUP } = benchOptions({ n: 2000, vessels: 300, warmup: 200 });

const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}+00:00`;

const PAIRS: [string, string][] = [
  ['Estimated', 'Arrival_Vessel_PortArea'],
  ['Actual', 'Arrival_Vessel_Berth'],
  ['Estimated', 'Departure_Vessel_Berth'],
];

async function main() {
  const fleet = await startFleet({ LOG_LEVEL: 'error' });
  try {
    const api = new ApiClient(fleet.baseUrl);
    const admin = await api.login('admin@port.local', 'e2e-admin-password');
    const created = (await admin.post('/api-keys', { name: 'bench source' })).body as { id: number; key: string };
    for (const [timestamp_time_type, timestamp_state] of PAIRS) {
      const res = await admin.post('/timestamp-api-key-weights', {
        timestamp_time_type,
        timestamp_state,
        api_key_ids: [created.id],
      });
      if (res.status !== 200) throw new Error(`set weights: ${res.status} ${JSON.stringify(res.body)}`);
    }
    const source = api.withApiKey(created.key);

    // Each vessel's visit: an ETA, for two in three the berth arrival, and an ETD; payloads as agents send them.
    const now = Date.now();
    const imos = Array.from({ length: VESSELS }, (_, i) => validImo(400000 + i * 7));
    const posts = imos.flatMap((imo, i) => {
      const eta = now - 6 * 3_600_000 + i * 60_000;
      const common = { imo, vessel_name: `Bench Vessel ${i}` };
      const payload = { source: 'bench', external_id: `v-${i}`, berth_name: `Quay ${i % 12}`, from_port: 'SEGVX' };
      const out = [
        { ...common, time_type: 'Estimated', state: 'Arrival_Vessel_PortArea', time: iso(eta), payload },
        {
          ...common,
          time_type: 'Estimated',
          state: 'Departure_Vessel_Berth',
          time: iso(eta + 30 * 3_600_000),
          payload: { source: 'bench', next_port: 'FIRAU' },
        },
      ];
      if (i % 3 !== 0) {
        const ata = Math.min(eta + 2 * 3_600_000, now - 60_000);
        out.push({ ...common, time_type: 'Actual', state: 'Arrival_Vessel_Berth', time: iso(ata), payload });
      }
      return out;
    });
    const seeding = performance.now();
    for (let i = 0; i < posts.length; i += 32) {
      const results = await Promise.all(posts.slice(i, i + 32).map((p) => source.post('/agent/rest/timestamps', p)));
      const failed = results.find((r) => r.status !== 200);
      if (failed) throw new Error(`post: ${failed.status} ${JSON.stringify(failed.body)}`);
    }

    // A port-staff user reads the timeline, as the web UI does.
    const email = `bench-viewer-${Date.now()}@port.local`;
    const user = await admin.post('/users', { email, first_name: 'Bench', last_name: 'Viewer', role: 'user' });
    const viewer = await api.anonymous().post('/login', { email, password: user.body.password });
    const authorization = `Bearer ${viewer.body.session_id}`;

    const deadline = Date.now() + 120_000;
    let cards = 0;
    while (cards < VESSELS) {
      if (Date.now() > deadline) throw new Error(`only ${cards} of ${VESSELS} port calls appeared`);
      await new Promise((r) => setTimeout(r, 250));
      const res = await api.withSession(viewer.body.session_id).get('/ongoing-port-calls');
      cards = res.body.portcalls.length;
    }
    const seededMs = performance.now() - seeding;

    const sizes: Record<string, number> = {};
    // As a browser asks (the web UI); `identity` is the plain JSON, for comparison.
    const measure = async (connections: number, count: number, encoding: 'gzip' | 'identity' = 'gzip') => {
      const headers = { authorization, 'accept-encoding': encoding };
      const pool = new Pool(fleet.baseUrl, { connections, pipelining: 1 });
      const latencies: number[] = [];
      let errors = 0;
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: connections }, async () => {
          while (next < count) {
            next++;
            const t0 = performance.now();
            const res = await pool.request({ path: '/ongoing-port-calls', method: 'GET', headers });
            const body = await res.body.arrayBuffer();
            latencies.push(performance.now() - t0);
            if (res.statusCode !== 200) errors++;
            sizes[encoding] = body.byteLength;
          }
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      await pool.close();
      latencies.sort((a, b) => a - b);
      return {
        p50_ms: round(percentile(latencies, 50)),
        p99_ms: round(percentile(latencies, 99)),
        requests_per_s: Math.round(count / elapsed),
        errors,
      };
    };

    await measure(4, WARMUP);
    await measure(4, WARMUP, 'identity');
    const c1 = await measure(1, N);
    const c16 = await measure(16, N);
    const c16_identity = await measure(16, N, 'identity');
    // The same user with vessels pinned: the response then carries its own pins (a per-request tail on the shared
    // document) instead of the document made once.
    const pins = await api
      .withSession(viewer.body.session_id)
      .put('/pinned-vessel-ids', { vessel_ids: imos.slice(0, 5) });
    if (pins.status !== 200) throw new Error(`pin: ${pins.status} ${JSON.stringify(pins.body)}`);
    const pinned_c1 = await measure(1, N);
    const pinned_c16 = await measure(16, N);
    console.log(
      JSON.stringify({
        bench: 'read',
        mode: 'fleet',
        endpoint: 'GET /ongoing-port-calls',
        port_calls: cards,
        timestamps: posts.length,
        seeded_s: round(seededMs / 1000),
        response_bytes: sizes,
        requests: N,
        c1,
        c16,
        c16_identity,
        pinned: { vessels: 5, c1: pinned_c1, c16: pinned_c16 },
      }),
    );
  } finally {
    await fleet.stop();
  }
}

await main();
