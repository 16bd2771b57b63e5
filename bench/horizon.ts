// `pnpm bench:horizon [-- --hold 30]`: how long a timestamp takes to reach the activity timeline on the fleet
// (separate processes on the real PostgreSQL, RabbitMQ and Redis) while another session holds a writing
// transaction open (docs/architecture.md#the-event-store). Prints one JSON line, in ms:
// - `alone`: nothing else open;
// - `other_database`: a transaction with an id held open in another database of the same server (`postgres`) for
//   up to HOLD seconds;
// - `own_database`: one held open in the fleet's own database for HOLD seconds: `degraded_after` (held → the
//   health answer names it), `visible_after_release` (released → on the timeline).

import { ApiClient, holdWritingTransaction, startFleet } from '@pcas/testing';
import { benchOptions, insertBaseline } from './support.ts';

const HOLD_MS = benchOptions({ hold: 30 }).hold * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A writing transaction on `url`, held until released or for HOLD_MS at most. */
async function holdWriter(url: string, applicationName: string) {
  const writer = await holdWritingTransaction(url, applicationName);
  const timer = setTimeout(() => void writer.end(), HOLD_MS);
  return {
    release() {
      clearTimeout(timer);
      return writer.end();
    },
  };
}

async function main() {
  const insert16 = await insertBaseline();
  // A threshold below the hold, so that the health answer can name the writer during it.
  const fleet = await startFleet({ LOG_LEVEL: 'error', EVENT_LOG_HOLD_WARN_MS: '2000' });
  try {
    const api = new ApiClient(fleet.baseUrl);
    const admin = await api.login('admin@port.local', 'e2e-admin-password');
    const key = (await admin.post('/api-keys', { name: `bench-${Date.now()}` })).body as { id: number; key: string };
    await admin.post('/timestamp-api-key-weights', {
      timestamp_time_type: 'Estimated',
      timestamp_state: 'Arrival_Vessel_PortArea',
      api_key_ids: [key.id],
    });
    const source = api.withApiKey(key.key);
    const imos = [9074729, 9201827, 9176187];
    let next = 0;
    /** Posts an ETA of a vessel not on the timeline yet; resolves with the time the post was answered. */
    const post = async () => {
      const imo = imos[next++];
      const time = `${new Date(Date.now() + 3_600_000).toISOString().slice(0, 19)}+00:00`;
      const res = await source.post('/agent/rest/timestamps', {
        imo,
        vessel_name: `Horizon ${imo}`,
        time_type: 'Estimated',
        state: 'Arrival_Vessel_PortArea',
        time,
        payload: { source: 'bench' },
      });
      if (res.status !== 200) throw new Error(`post: ${res.status} ${JSON.stringify(res.body)}`);
      return { imo, at: performance.now() };
    };
    const visible = async (imo: number, limitMs: number) => {
      const until = performance.now() + limitMs;
      while (performance.now() < until) {
        const calls = (await admin.get('/ongoing-port-calls')).body.portcalls as
          | { ship: { imo: number } }[]
          | undefined;
        if (calls?.some((c) => Number(c.ship.imo) === imo)) return performance.now();
        await sleep(10);
      }
      return undefined;
    };
    const ms = (from: number, to: number | undefined) => (to === undefined ? null : Math.round(to - from));

    const alone = await post();
    const aloneMs = ms(alone.at, await visible(alone.imo, 60_000));

    const adminUrl = new URL(fleet.env.DATABASE_URL);
    adminUrl.pathname = '/postgres';
    const elsewhere = await holdWriter(adminUrl.toString(), 'bench-other-application');
    const other = await post();
    const otherMs = ms(other.at, await visible(other.imo, HOLD_MS + 30_000));
    await elsewhere.release();

    const ours = await holdWriter(fleet.env.DATABASE_URL, 'bench-held-writer');
    const heldAt = performance.now();
    const own = await post();
    let degradedAt: number | undefined;
    while (performance.now() - heldAt < HOLD_MS - 1_000) {
      const health = (await api.get('/health-check')).body as { status: string };
      if (health.status === 'DEGRADED') {
        degradedAt = performance.now();
        break;
      }
      await sleep(100);
    }
    const shownWhileHeld = await visible(own.imo, Math.max(0, HOLD_MS - (performance.now() - heldAt) - 500));
    const releasedAt = performance.now();
    await ours.release();
    const ownVisible = shownWhileHeld ?? (await visible(own.imo, 60_000));
    console.log(
      JSON.stringify({
        bench: 'horizon',
        hold_s: HOLD_MS / 1000,
        alone_ms: aloneMs,
        other_database_ms: otherMs,
        own_database: {
          visible_while_held: shownWhileHeld !== undefined,
          degraded_after_ms: ms(heldAt, degradedAt),
          visible_after_release_ms: ms(releasedAt, ownVisible),
        },
        insert_16: insert16,
      }),
    );
  } finally {
    await fleet.stop();
  }
}

await main();
