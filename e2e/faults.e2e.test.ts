// Proof under faults: the fleet with two processes of every service (FLEET_REPLICAS=2) on real
// PostgreSQL, RabbitMQ and Redis. 16 writers post 10,000 timestamps over HTTP across 128 vessels, while port
// notifications (Expo pushes to a local stand-in), slot requests (mails to an SMTP server started here) and VIS text
// messages (delivered to a stand-in peer port in direct mode) go out; meanwhile one process of each service is
// SIGKILLed in turn (its pid from its /livez; of a service whose process holds the relay, that one), the next only
// once the launcher has started it again (a new pid). The fleet runs from the production build, as in service.
// Then:
//
// - every timestamp answered 2xx is in the log and in the read model exactly once, and none is there twice. A writer
//   sends a post that failed (an answer not 2xx, a connection cut by the kill, no answer in time) again, the same
//   body: ingest derives the event id from the timestamp's content (docs/domain.md, "A timestamp identical to one
//   already stored ... is stored once"), so a retried write must not double either, and is checked as strictly;
// - no push, mail or VIS message was sent twice: each notification pushed once, each VESSEL push (pinned vessels)
//   once per placed heaviest timestamp, each slot request mailed once; a VIS message stored by the peer once. VIS
//   delivery between ports is at least once by design (docs/vis.md: a deliverer that dies after the peer answered
//   sends the batch again, answered `duplicate`): the peer stores by message id, so "sent twice" there is one text
//   under two message ids, or one missing; raw redeliveries are counted and printed;
// - each vessel's timestamps were projected in stream order: the projector's PortCallChanged lists each timestamp
//   it placed (`placed`, naming its TimestampReceived's global position), appended in the transaction that places
//   it under the vessel's lock, so a vessel's placements in the log, transaction after transaction, must name its
//   timestamps in stream order, each once;
// - the read models equal a rebuild from the log: the fleet stopped, the live schema set aside, `pnpm
//   rebuild:portcalls` into an empty one, and the two compared table by table (the replay-equality comparison of
//   services/portcall-projector/src/testing/replay.ts).

import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Db, openDb } from '@pcas/sql';
import {
  type ApiClient,
  type ExpoServerForTest,
  type RunningSystem,
  repoRoot,
  type SmtpServerForTest,
  startExpoServer,
  startFleet,
  startSmtpServer,
} from '@pcas/testing';
import { imoWithCheckDigit } from '@pcas/values';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareSchemas } from '../services/portcall-projector/src/testing/replay.ts';
import {
  eventually,
  type FleetProcess,
  fleetProcesses,
  freeOpsPorts,
  holdsRelay,
  killAndAwaitRestart,
  stopLauncher,
} from './fleet-processes.ts';
import { ADMIN, adminAndDataSource, allowEstimatedArrivals, HOUR, iso } from './timestamps.ts';

const TIMESTAMPS = 10_000;
const WRITERS = 16;
const VESSELS = 128;
/** Two processes of each of the fleet's 8 services. */
const PROCESSES = 16;
/** The services in the order they are killed: the writes' path first. */
const KILL_ORDER = [
  'ingest',
  'gateway',
  'portcall-projector',
  'notifier',
  'queue-scheduler',
  'vis-bridge',
  'logistics',
  'dcsa-bridge',
];
/** Vessels whose timestamps are pushed to the phone (pinned by its user). */
const PINNED = 2;

const PEER = 'urn:mrn:stm:service:instance:faults:peer';
const vesselImo = (v: number) => imoWithCheckDigit(961_000 + v);

/** The stand-in peer port: takes `/vis/batch`, stores each message id once, answers as a port does. */
function standInPeer() {
  const deliveries: { message_id: string; operation: string; body: unknown }[] = [];
  const stored = new Map<string, unknown>();
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/vis/batch') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
        return;
      }
      const { messages } = JSON.parse(text) as { messages: { message_id: string; operation: string; body: unknown }[] };
      const results = messages.map((m) => {
        deliveries.push(m);
        const seen = stored.has(m.message_id);
        if (!seen) stored.set(m.message_id, m.body);
        return { message_id: m.message_id, status: seen ? 'duplicate' : 'stored' };
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results, acknowledgements: [] }));
    });
  });
  return { server, deliveries, stored };
}

/** What a write ended as: 2xx at some attempt, or never (refused, or every attempt failed). */
interface Write {
  id: string;
  imo: number;
  accepted: boolean;
  attempts: number;
  last: string;
}

describe('proof under faults: two processes of every service, one of each SIGKILLed in turn under load', () => {
  const expo = { server: undefined as ExpoServerForTest | undefined };
  let smtp: SmtpServerForTest;
  const peer = standInPeer();
  let system: RunningSystem;
  let db: Db;
  let opsBase: number;
  let processes: FleetProcess[];
  let admin: ApiClient;
  let source: ApiClient;

  beforeAll(async () => {
    // The fleet runs the run's production build (e2e/global-setup.ts), as in service: a process restarted from
    // JavaScript is ready in a fraction of the time tsx takes to compile it again on two cores.
    [expo.server, smtp] = await Promise.all([startExpoServer(), startSmtpServer()]);
    await new Promise<void>((resolve) => peer.server.listen(0, '127.0.0.1', resolve));
    opsBase = await freeOpsPorts(PROCESSES);
    system = await startFleet({
      FLEET_REPLICAS: '2',
      // Sixteen processes: a small pool each keeps them within PostgreSQL's connections (docs/operations.md).
      PG_POOL_SIZE: '4',
      OPS_PORT: String(opsBase),
      EXPO_PUSH_URL: expo.server.pushUrl,
      PUSH_RECEIPT_DELAY_MS: '3600000',
      SMTP_URL: smtp.url,
      VIS_SERVICE_INSTANCE_URN: 'urn:mrn:stm:service:instance:faults:port',
      VIS_PORT_NAME: 'Faults port',
      VIS_PORT_UNLOCODE: 'SEGVX',
    });
    process.stderr.write(`[faults] fleet healthy\n`);
    processes = await fleetProcesses(opsBase, PROCESSES);
    process.stderr.write(`[faults] all processes live\n`);
    expect(new Set(processes.map((p) => p.instance_id)).size).toBe(PROCESSES);
    db = await openDb({ url: system.env.DATABASE_URL, applicationName: 'faults-e2e' });

    const made = await adminAndDataSource(system.baseUrl, ADMIN);
    admin = made.admin;
    source = made.api.withApiKey(made.apiKey.key);
    await allowEstimatedArrivals(admin, made.apiKey.id);
    // The phone: a user's device, which every port notification is pushed to (not the sender's), and the pinned
    // vessels' timestamps too.
    const email = `phone-${Date.now()}@faults.test`;
    const user = await admin.post('/users', { email, first_name: 'Pia', last_name: 'Phone', role: 'user' });
    expect(user.status, JSON.stringify(user.body)).toBe(200);
    const phone = await made.api.login(email, user.body.password);
    const device = { installation_id: 'phone', platform: 'android', push_token: 'ExponentPushToken[phone]' };
    expect((await phone.post('/register-push-token', device)).status).toBe(200);
    const pinned = Array.from({ length: PINNED }, (_, v) => vesselImo(v));
    expect((await phone.put('/pinned-vessel-ids', { vessel_ids: pinned })).status).toBe(200);
    // The peer port, linked for direct VIS.
    const { port } = peer.server.address() as AddressInfo;
    expect((await admin.post('/ports', { name: 'Peer', service_id: PEER, locodes: ['FIRAU'] })).status).toBe(200);
    const secret = 'faults-e2e-port-and-its-peer-share-this-2026';
    expect(
      await admin.post('/port-peer', { service_id: PEER, url: `http://127.0.0.1:${port}/vis`, secret }),
    ).toMatchObject({ status: 200, body: { result: 'OK' } });
  }, 300_000);

  afterAll(async () => {
    await db?.close();
    await system?.stop();
    await Promise.all([expo.server?.close(), smtp?.close(), new Promise((resolve) => peer.server.close(resolve))]);
  });

  const writes: Write[] = [];
  const notifications: { message: string; accepted: boolean }[] = [];
  const slotRequests: { email: string; accepted: boolean }[] = [];
  const visSends: { body: string; accepted: boolean }[] = [];
  const kills: { instance: string; restartMs: number; relay: boolean }[] = [];
  let stopped = false;
  /** The launcher and its processes stopped, the database kept (once). */
  const stopFleetProcesses = async () => {
    if (!stopped) await stopLauncher(processes);
    stopped = true;
  };

  /** A call that may fail or hang while a process is killed: its status, or 0 with the reason. */
  const attempt = async (call: () => Promise<{ status: number; body: unknown }>) => {
    try {
      const answer = await Promise.race([
        call(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer in 30 s')), 30_000).unref()),
      ]);
      return { status: answer.status, reason: JSON.stringify(answer.body)?.slice(0, 200) ?? '' };
    } catch (error) {
      return { status: 0, reason: (error as Error).message };
    }
  };

  it('loses, doubles and reorders nothing while one process of each service is killed in turn', async () => {
    const started = Date.now();
    const phase = (what: string) =>
      process.stderr.write(`[faults ${Math.round((Date.now() - started) / 1000)} s] ${what} (posted ${posted})\n`);
    const t0 = Math.ceil((Date.now() + 2 * HOUR) / 60_000) * 60_000;
    // The load runs in steps, one more per kill: the writers may post step k's share only once k kills were made
    // (the k-th process may still be starting again), so every kill falls in the middle of the load, and the last
    // share is posted while or after the last process starts again.
    const steps = KILL_ORDER.length + 1;
    let killsMade = 0;
    let posted = 0;
    const progress = new Set<() => void>();
    const wake = () => {
      for (const resume of progress) resume();
    };
    const until = (done: () => boolean) =>
      new Promise<void>((resolve) => {
        if (done()) return resolve();
        const check = () => {
          if (!done()) return;
          progress.delete(check);
          resolve();
        };
        progress.add(check);
      });
    const allowed = () => Math.floor((TIMESTAMPS * (killsMade + 1)) / steps);

    let next = 0;
    const writer = async () => {
      for (;;) {
        const i = next++;
        if (i >= TIMESTAMPS) return;
        await until(() => i < allowed());
        const v = i % VESSELS;
        const k = Math.floor(i / VESSELS);
        const body = {
          imo: vesselImo(v),
          vessel_name: `Faults ${v}`,
          time_type: 'Estimated',
          state: 'Arrival_Vessel_PortArea',
          time: iso(t0 + k * 15 * 60_000),
          payload: { source: 'faults-e2e', fault_id: `f${i}` },
        };
        const write: Write = { id: `f${i}`, imo: body.imo, accepted: false, attempts: 0, last: '' };
        writes.push(write);
        for (let delay = 100; write.attempts < 20; delay = Math.min(2_000, delay * 2)) {
          write.attempts++;
          const { status, reason } = await attempt(() => source.post('/agent/rest/timestamps', body));
          write.last = `${status} ${reason}`;
          if (status >= 200 && status < 300) {
            write.accepted = true;
            break;
          }
          // A refusal stays one: only a failure of the system is tried again.
          if (status >= 400 && status < 500 && status !== 408 && status !== 429) break;
          await new Promise((r) => setTimeout(r, delay));
        }
        posted++;
        if (posted % 1000 === 0) phase('posted');
        wake();
      }
    };

    // Side effects, a few at each kill, sent once each (never retried: one that fails may or may not have happened).
    let round = 0;
    const sideEffects: Promise<unknown>[] = [];
    const sideEffectRound = () => {
      const r = round++;
      for (let j = 0; j < 3; j++) {
        const message = `faults notification ${r}-${j}`;
        sideEffects.push(
          attempt(() => admin.post('/notifications', { type: 'port', message })).then(({ status }) =>
            notifications.push({ message, accepted: status === 200 }),
          ),
        );
        const body = `faults vis ${r}-${j}`;
        sideEffects.push(
          attempt(() =>
            admin.post('/vis-text-messages', { vis_service_id: PEER, author: 'Faults', subject: 'Faults', body }),
          ).then(({ status }) => visSends.push({ body, accepted: status === 200 })),
        );
      }
      for (let j = 0; j < 2; j++) {
        const n = r * 2 + j;
        const email = `master-${n}@faults.example`;
        sideEffects.push(
          attempt(() =>
            source.post('/agent/rest/slot-reservations', {
              email,
              imo: imoWithCheckDigit(962_000 + n),
              vessel_name: `Slot ${n}`,
              loa: '100',
              beam: '18',
              draft: '6',
              laytime: '01:00',
              eta: iso(t0 + 24 * HOUR + n * HOUR),
            }),
          ).then(({ status }) => slotRequests.push({ email, accepted: status === 200 })),
        );
      }
    };

    const killer = async () => {
      sideEffectRound();
      for (const [step, service] of KILL_ORDER.entries()) {
        // Half-way through this step's share of the load.
        await until(() => posted >= Math.floor((TIMESTAMPS * (step + 0.5)) / steps));
        const replicas = processes.filter((p) => p.service === service);
        expect(replicas.map((p) => p.instance_id).sort()).toEqual([`${service}-1`, `${service}-2`]);
        // The one publishing the log when it is of this service (the relay's failover under load), else either.
        const relay = await Promise.all(replicas.map(holdsRelay));
        const target = replicas[relay.indexOf(true)] ?? replicas[step % 2]!;
        const killed = killAndAwaitRestart(target);
        killsMade++;
        wake();
        sideEffectRound();
        const { restarted, ms } = await killed;
        processes = processes.map((p) => (p === target ? restarted : p));
        kills.push({ instance: target.instance_id, restartMs: ms, relay: relay.includes(true) });
        phase(`killed ${target.instance_id}, restarted in ${ms} ms`);
      }
      sideEffectRound();
    };

    await Promise.all([killer(), ...Array.from({ length: WRITERS }, writer)]);
    phase('load done; waiting for side-effect answers');
    await Promise.all(sideEffects);
    const loadSeconds = (Date.now() - started) / 1000;

    // ---- every write answered 2xx is stored exactly once; none is stored twice ----
    const accepted = writes.filter((w) => w.accepted);
    const retried = writes.filter((w) => w.attempts > 1);
    const failed = writes.filter((w) => !w.accepted);
    expect(writes.length).toBe(TIMESTAMPS);
    expect(failed.map((w) => `${w.id}: ${w.last}`).slice(0, 10)).toEqual([]);
    const countsIn = async (sql: string) => {
      const { rows } = await db.query<{ id: string; n: number }>(sql);
      return new Map(rows.map((row) => [row.id, row.n]));
    };
    const logged = () =>
      countsIn(
        `SELECT data->'payload'->>'fault_id' AS id, count(*)::int AS n FROM eventstore.events
          WHERE event_type = 'TimestampReceived' AND data->'payload' ? 'fault_id' GROUP BY 1`,
      );
    const projected = () =>
      countsIn(
        `SELECT payload->>'fault_id' AS id, count(*)::int AS n FROM portcall.timestamps
          WHERE payload ? 'fault_id' GROUP BY 1`,
      );
    const inLog = await logged();
    const twice = (counts: Map<string, number>) => [...counts].filter(([, n]) => n > 1).slice(0, 10);
    expect(twice(inLog), 'a timestamp twice in the log').toEqual([]);
    expect(
      accepted.filter((w) => inLog.get(w.id) !== 1).map((w) => w.id),
      'an accepted write not in the log',
    ).toEqual([]);
    // Everything in the log reaches the read model, once.
    phase('waiting: every logged timestamp projected');
    const inReadModel = await eventually('every logged timestamp projected', 120_000, async () => {
      const now = await projected();
      return now.size >= inLog.size ? now : undefined;
    });
    expect(twice(inReadModel), 'a timestamp twice in the read model').toEqual([]);
    expect([...inLog.keys()].filter((id) => !inReadModel.has(id))).toEqual([]);

    // ---- each vessel's timestamps projected in stream order, each placed once ----
    const { rows: received } = await db.query<{ position: string; stream_id: string; stream_position: string }>(
      `SELECT global_position::text AS position, stream_id, stream_position::text FROM eventstore.events
        WHERE event_type = 'TimestampReceived' AND data->'payload' ? 'fault_id'`,
    );
    const streamOf = new Map(
      received.map((r) => [Number(r.position), { stream: r.stream_id, at: Number(r.stream_position) }]),
    );
    const placedRows = async () =>
      (
        await db.query<{ imo: string; timestamp_id: string; tx: string; heaviest: boolean }>(
          `SELECT p.news->>'imo' AS imo, p.news->>'timestamp_id' AS timestamp_id, e.transaction_id::text AS tx,
                  (p.news->>'heaviest')::boolean AS heaviest
             FROM eventstore.events e, jsonb_array_elements(e.data->'placed') WITH ORDINALITY AS p(news, n)
            WHERE e.event_type = 'PortCallChanged' AND e.data ? 'placed'
            ORDER BY e.global_position, p.n`,
        )
      ).rows.filter((row) => streamOf.has(Number(row.timestamp_id)));
    phase('waiting: every projected timestamp placed');
    const placed = await eventually('every projected timestamp placed', 60_000, async () => {
      const rows = await placedRows();
      return rows.length >= streamOf.size ? rows : undefined;
    });
    const placements = new Map<number, number>();
    /** Per vessel, its placements transaction by transaction: [transaction, stream positions]. */
    const byVessel = new Map<string, { tx: string; at: number[] }[]>();
    for (const row of placed) {
      const id = Number(row.timestamp_id);
      placements.set(id, (placements.get(id) ?? 0) + 1);
      const txs = byVessel.get(row.imo) ?? [];
      byVessel.set(row.imo, txs);
      if (txs.at(-1)?.tx !== row.tx) txs.push({ tx: row.tx, at: [] });
      txs.at(-1)!.at.push(streamOf.get(id)!.at);
    }
    expect(
      [...placements].filter(([, n]) => n !== 1),
      'a timestamp placed twice',
    ).toEqual([]);
    expect(placements.size).toBe(streamOf.size);
    const outOfOrder: string[] = [];
    for (const [imo, txs] of byVessel) {
      for (let i = 1; i < txs.length; i++) {
        const before = Math.max(...txs[i - 1].at);
        const after = Math.min(...txs[i].at);
        if (after <= before) outOfOrder.push(`${imo}: stream position ${after} placed after ${before}`);
      }
    }
    expect(outOfOrder.slice(0, 10), 'a vessel projected out of stream order').toEqual([]);
    expect(byVessel.size).toBe(VESSELS);

    // ---- no push, mail or VIS message sent twice, and each accepted one sent ----
    const server = expo.server!;
    const pinnedImos = new Set(Array.from({ length: PINNED }, (_, v) => String(vesselImo(v))));
    const vesselPushes = placed.filter((row) => row.heaviest && pinnedImos.has(row.imo)).length;
    expect(vesselPushes).toBeGreaterThan(0);
    const acceptedNotifications = notifications.filter((n) => n.accepted);
    const pushKey = (m: { to: string; title: string; body: string; data: unknown }) =>
      JSON.stringify([m.to, m.title, m.body, m.data]);
    const pushesOf = (type: string) => server.delivered().filter((m) => m.data.type === type);
    phase('waiting: every push made');
    await eventually('every push made', 120_000, async () =>
      pushesOf('NOTIFICATION').length >= acceptedNotifications.length && pushesOf('VESSEL').length >= vesselPushes
        ? true
        : undefined,
    );
    const slotMails = (email: string) => smtp.messages.filter((m) => m.to.includes(email));
    const acceptedSlots = slotRequests.filter((s) => s.accepted);
    phase('waiting: every slot request mailed');
    await eventually('every slot request mailed', 120_000, async () =>
      acceptedSlots.every((s) => slotMails(s.email).length >= 1) ? true : undefined,
    );
    const visBodies = () =>
      [...peer.stored.values()].map((b) => JSON.stringify(b).match(/faults vis \d+-\d+/)?.[0] ?? '');
    const acceptedVis = visSends.filter((s) => s.accepted);
    phase('waiting: every VIS message at the peer');
    await eventually('every VIS message at the peer', 120_000, async () => {
      const at = new Set(visBodies());
      return acceptedVis.every((s) => at.has(s.body)) ? true : undefined;
    });
    // Nothing more is on its way: every recorded mail and VIS message has left its outbox.
    phase('waiting: the outboxes empty');
    await eventually('the outboxes empty', 120_000, async () => {
      const { rows } = await db.query<{ mails: number; vis: number }>(
        `SELECT (SELECT count(*)::int FROM queue.mail_outbox WHERE sent_at IS NULL) AS mails,
                (SELECT count(*)::int FROM vis.outbox WHERE delivered_at IS NULL AND failed_at IS NULL) AS vis`,
      );
      return rows[0].mails === 0 && rows[0].vis === 0 ? true : undefined;
    });
    // Stopped, the fleet can send nothing more: what the stand-ins hold now is all that was sent.
    await stopFleetProcesses();

    const counted = <T>(keys: T[]) => {
      const counts = new Map<T, number>();
      for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
      return counts;
    };
    const pushCounts = counted(server.delivered().map(pushKey));
    expect(
      [...pushCounts].filter(([, n]) => n > 1),
      'a push sent twice',
    ).toEqual([]);
    const notified = counted(pushesOf('NOTIFICATION').map((m) => m.body));
    expect(acceptedNotifications.filter((n) => notified.get(n.message) !== 1).map((n) => n.message)).toEqual([]);
    expect(pushesOf('NOTIFICATION').every((m) => m.to === 'ExponentPushToken[phone]')).toBe(true);
    expect(pushesOf('VESSEL').length, 'VESSEL pushes: one per placed heaviest timestamp of a pinned vessel').toBe(
      vesselPushes,
    );
    const mailCounts = counted(smtp.messages.map((m) => JSON.stringify([m.to, m.subject, m.text])));
    expect(
      [...mailCounts].filter(([, n]) => n > 1),
      'a mail sent twice',
    ).toEqual([]);
    expect(acceptedSlots.filter((s) => slotMails(s.email).length !== 1).map((s) => s.email)).toEqual([]);
    const visCounts = counted(visBodies());
    expect(
      [...visCounts].filter(([, n]) => n > 1),
      'a VIS message under two message ids',
    ).toEqual([]);
    expect(peer.stored.size).toBe(visCounts.size);

    console.info(
      'faults:',
      JSON.stringify({
        load_seconds: Math.round(loadSeconds),
        writes: writes.length,
        accepted: accepted.length,
        retried: retried.length,
        attempts: writes.reduce((n, w) => n + w.attempts, 0),
        kills,
        notifications: `${acceptedNotifications.length}/${notifications.length}`,
        vessel_pushes: vesselPushes,
        slot_requests: `${acceptedSlots.length}/${slotRequests.length}`,
        mails: smtp.messages.length,
        vis: `${acceptedVis.length}/${visSends.length}`,
        vis_deliveries: peer.deliveries.length,
        vis_redelivered: peer.deliveries.length - peer.stored.size,
      }),
    );
  }, 600_000);

  it('the read models equal a rebuild from the log into empty tables', async () => {
    // The fleet stopped (as the test before does): nothing writes the read models while they are compared.
    await stopFleetProcesses();
    await db.query('ALTER SCHEMA portcall RENAME TO portcall_live');
    const built = process.env.PCAS_TEST_BUILD_DIR;
    await promisify(execFile)(
      process.execPath,
      built
        ? [path.join(built, 'rebuild-portcalls.js')]
        : ['--import', 'tsx', 'services/portcall-projector/src/entry-points/rebuild-cli.ts'],
      {
        cwd: repoRoot,
        env: { ...process.env, BASE_URL: 'http://localhost:3000', ...system.env, RUN_MODE: 'fleet' },
        timeout: 120_000,
      },
    );
    // Columns that say when and under which token a row was written, not what it holds (as replay-equality).
    const writeStamps: Record<string, string[]> = { port_calls: ['updated_at'], vessels: ['updated_at', 'revision'] };
    const { sameTables, differences } = await compareSchemas(db, writeStamps);
    expect(sameTables).toBe(true);
    expect(differences).toEqual([]);
    for (const table of ['timestamps', 'port_calls', 'vessels']) {
      const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM portcall_live.${table}`);
      expect(rows[0].n, table).toBeGreaterThan(0);
    }
  }, 180_000);
});
