// Issue 16, VIS direct mode, black-box: two instances of the system in the fleet (port A at Rauma, port B at Gävle,
// each with its own database and RabbitMQ vhost) on loopback, linked as peers with a shared secret and no VIS
// agent. A departure from A towards B's UN/LOCODE becomes an inbound vessel at B; text messages go both ways and
// are acknowledged; a voyage plan uploaded to A gets its RTZ state and A's RTA reaches the sender with its window;
// while B is stopped A's sends are answered at once and, after B returns, each arrives exactly once; a request
// not signed, signed wrongly or too old, from a peer not linked or not whitelisted, is refused and stores nothing;
// so is a captured request sent again, sent back to its sender, or one addressed to another port, and a port of
// another signature version is told which version this one speaks (docs/security.md#vis-peers).

import { execFile } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import net from 'node:net';
import { promisify } from 'node:util';
import { openDb } from '@pcas/sql';
import {
  ApiClient,
  DEFAULT_URLS,
  freePort,
  freshPostgres,
  type RunningSystem,
  rabbitmq,
  startFleet,
  withVhost,
} from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The vis-bridge's own signing, so these requests are signed exactly as a port's outbox signs them.
import { canonicalJson, signedHeaders } from '../services/vis-bridge/src/domain/signature.ts';
import { ADMIN, adminAndDataSource, isoSecondsAgo } from './timestamps.ts';

// amqplib belongs to @pcas/messaging: loaded from there to read the broker's raw deliveries.
const fromMessaging = createRequire(createRequire(import.meta.url).resolve('@pcas/messaging'));
const amqplib = fromMessaging('amqplib') as {
  connect(url: string): Promise<{
    createChannel(): Promise<{
      assertQueue(name: string, options: object): Promise<{ queue: string }>;
      bindQueue(queue: string, exchange: string, pattern: string): Promise<unknown>;
      consume(
        queue: string,
        onMessage: (msg: { content: Buffer; properties: object } | null) => void,
      ): Promise<unknown>;
    }>;
    close(): Promise<void>;
  }>;
};

/**
 * Every message published or delivered in the virtual host of `amqpUrl`, RPC commands and replies included:
 * RabbitMQ's firehose tracer (`rabbitmqctl trace_on`), which copies each to `amq.rabbitmq.trace`.
 */
async function traceBroker(amqpUrl: string) {
  const vhost = decodeURIComponent(new URL(amqpUrl).pathname.slice(1)) || '/';
  await promisify(execFile)('rabbitmqctl', ['trace_on', '-p', vhost]);
  const connection = await amqplib.connect(amqpUrl);
  const channel = await connection.createChannel();
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, 'amq.rabbitmq.trace', '#');
  const seen: string[] = [];
  await channel.consume(queue, (msg) => {
    if (msg) seen.push(`${JSON.stringify(msg.properties)} ${msg.content.toString('utf8')}`);
  });
  return {
    seen,
    async stop() {
      await connection.close();
      await promisify(execFile)('rabbitmqctl', ['trace_off', '-p', vhost]);
    },
  };
}

const A = 'urn:mrn:stm:service:instance:pcas:port-a';
const B = 'urn:mrn:stm:service:instance:pcas:port-b';
const C = 'urn:mrn:stm:service:instance:pcas:port-c';
const SECRET = 'port-a-and-port-b-share-this-secret-2026';

// A's synchronisation point: the Rauma pilot boarding area, 2 km around it.
const SYNC = { lat: 61.1, lon: 21.2 };
const ROUTE = `<?xml version="1.0" encoding="UTF-8"?>
<route xmlns="http://www.cirm.org/RTZ/1/1" version="1.1">
  <routeInfo routeName="SEGVX-FIRAU e2e" vesselName="E2E CARRIER" vesselIMO="9074729"/>
  <waypoints>
    <waypoint id="1" name="Gavle berth"><position lat="60.684" lon="17.21"/></waypoint>
    <waypoint id="2" name="Sea of Bothnia"><position lat="61.0" lon="19.5"/></waypoint>
    <waypoint id="3" name="Rauma pilot"><position lat="61.1005" lon="21.2005"/></waypoint>
    <waypoint id="4" name="Rauma berth"><position lat="61.128" lon="21.46"/></waypoint>
  </waypoints>
  <schedules>
    <schedule id="1">
      <calculated>
        <scheduleElement waypointId="1" etd="2026-12-01T06:00:00Z"/>
        <scheduleElement waypointId="2" eta="2026-12-01T12:00:00Z"/>
        <scheduleElement waypointId="3" eta="2026-12-01T18:00:00Z"/>
        <scheduleElement waypointId="4" eta="2026-12-01T19:00:00Z"/>
      </calculated>
    </schedule>
  </schedules>
</route>`;

/** The headers of a request from `as.serviceId` to `as.to`, signed as a port's outbox signs it (a fresh nonce). */
function peerHeaders(
  path: string,
  body: Record<string, unknown>,
  as: { serviceId: string; to: string; secret: string; skewSeconds?: number },
): Record<string, string> {
  const link = { sender: as.serviceId, recipient: as.to, secret: as.secret };
  const at = Date.now() + (as.skewSeconds ?? 0) * 1000;
  return signedHeaders(link, { method: 'POST', path, body }, at, randomBytes(16).toString('hex'));
}

/**
 * What a port of the earlier version sends: signature version 1 (no version header, no recipient, no nonce; the
 * secret itself the key, in both directions), restated here since this version no longer makes it.
 */
function version1Headers(path: string, body: Record<string, unknown>, serviceId: string, secret: string) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const digest = createHash('sha256').update(canonicalJson(body)).digest('hex');
  const signature = createHmac('sha256', secret)
    .update(['VIS-HMAC-SHA256', 'POST', path, timestamp, digest].join('\n'))
    .digest('hex');
  return { 'x-vis-service-id': serviceId, 'x-vis-timestamp': timestamp, 'x-vis-signature': signature };
}

/** Posts `body` to `base`'s /vis`path` with these headers, exactly as given (a capture can be sent again). */
async function peerPost(base: string, path: string, body: Record<string, unknown>, headers: Record<string, string>) {
  const res = await fetch(`${base}/vis${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

async function signedPost(
  base: string,
  path: string,
  body: Record<string, unknown>,
  as: { serviceId: string; to: string; secret: string; skewSeconds?: number },
) {
  return peerPost(base, path, body, peerHeaders(path, body, as));
}

/** What a system stored of one message: events naming it, its receipt, the acknowledgement queued for it. */
async function tracesOf(system: RunningSystem, messageId: string) {
  const db = await openDb({ url: system.env.DATABASE_URL, poolSize: 1 });
  try {
    const { rows } = await db.query<{ events: number; received: number; acknowledgements: number }>(
      `SELECT (SELECT count(*)::int FROM eventstore.events WHERE strpos(data::text, $1) > 0) AS events,
              (SELECT count(*)::int FROM vis.peer_received WHERE message_id = $1) AS received,
              (SELECT count(*)::int FROM vis.outbox WHERE message_id = 'ack:' || $1) AS acknowledgements`,
      [messageId],
    );
    return rows[0];
  } finally {
    await db.close();
  }
}

const NOTHING = { events: 0, received: 0, acknowledgements: 0 };

/** A TCP port on loopback that forwards each connection to wherever `target()` says (refused while it is down). */
async function forwarder(target: () => string): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target()), '127.0.0.1');
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
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms; last: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 200));
    value = await read();
  }
  return value;
}

const textMessage = (id: string, body: string) =>
  `<textMessage xmlns="http://stmvalidation.eu/schemas/textMessageSchema_1_3.xsd"><textMessageId>${id}</textMessageId>` +
  `<author>Test</author><from>${A}</from><createdAt>2026-11-27T08:00:00Z</createdAt><subject>Probe</subject>` +
  `<body>${body}</body></textMessage>`;

describe('VIS direct mode: two ports in the fleet', () => {
  let a: RunningSystem;
  let b: RunningSystem | undefined;
  let bEnv: Record<string, string>;
  let bAddress: { url: string; close(): Promise<void> };
  let adminA: ApiClient;
  let adminB: ApiClient;
  const cleanup: (() => Promise<void>)[] = [];

  const startB = async () => {
    b = await startFleet(bEnv);
    adminB = await new ApiClient(b.baseUrl).login(ADMIN.email, ADMIN.password);
  };

  beforeAll(async () => {
    // B keeps its own database, vhost and port across a stop and a start.
    const database = await freshPostgres('pcas_vis_b');
    const vhost = await withVhost((await rabbitmq())?.url ?? DEFAULT_URLS.amqp);
    cleanup.push(
      () => vhost.drop(),
      () => database.drop(),
    );
    bEnv = {
      DATABASE_URL: database.url!,
      AMQP_URL: vhost.url,
      VIS_SERVICE_INSTANCE_URN: B,
      VIS_PORT_NAME: 'Port B',
      VIS_PORT_UNLOCODE: 'SEGVX',
    };
    const aEnv = {
      VIS_SERVICE_INSTANCE_URN: A,
      VIS_PORT_NAME: 'Port A',
      VIS_PORT_UNLOCODE: 'FIRAU',
      RTA_POINT_LOCATION_NAME: 'Rauma pilot',
      VIS_SYNC_POINT_LAT: String(SYNC.lat),
      VIS_SYNC_POINT_LON: String(SYNC.lon),
      VIS_SYNC_POINT_RADIUS: '2000',
    };
    [a] = await Promise.all([startFleet(aEnv), startB()]);
    // B's address for A stays the same across B's restart (a new fleet gets a new port): a loopback forwarder.
    bAddress = await forwarder(() => new URL(b!.baseUrl).port);
    cleanup.unshift(() => bAddress.close());
    adminA = await new ApiClient(a.baseUrl).login(ADMIN.email, ADMIN.password);
    // Each port lists the other with its UN/LOCODE and links it as a peer (URL and the shared secret).
    for (const [admin, other, name, locode, url] of [
      [adminA, B, 'Port B', 'SEGVX', `${bAddress.url}/vis`],
      [adminB, A, 'Port A', 'FIRAU', `${a.baseUrl}/vis`],
    ] as const) {
      expect((await admin.post('/ports', { name, service_id: other, locodes: [locode] })).status).toBe(200);
      const linked = await admin.post('/port-peer', { service_id: other, url, secret: SECRET });
      expect(linked).toMatchObject({ status: 200, body: { result: 'OK' } });
    }
  }, 300_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    for (const step of cleanup) await step().catch(() => {});
  });

  const messages = (admin: ApiClient, query: Record<string, unknown>) =>
    admin.get('/vis-text-messages', { ...query, limit: 100 }).then((r) => r.body.data as any[]);

  it('links a peer only with a URL and a secret long and varied enough, and only for port administrators', async () => {
    expect(await adminA.post('/port-peer', { service_id: B, url: 'ftp://x', secret: SECRET })).toMatchObject({
      status: 400,
      body: { error: 'Invalid peer URL: ftp://x' },
    });
    const url = `${b!.baseUrl}/vis`;
    for (const secret of ['short', 'port-a-and-port-b-share-this']) {
      expect(await adminA.post('/port-peer', { service_id: B, url, secret })).toMatchObject({
        status: 400,
        body: { error: 'Peer secret must be 32 to 128 characters' },
      });
    }
    for (const secret of ['x'.repeat(40), 'abcdefghijklmnopqrstuvwxyzabcdefgh', 'ab12'.repeat(10)]) {
      expect(await adminA.post('/port-peer', { service_id: B, url, secret })).toMatchObject({
        status: 400,
        body: { error: expect.stringMatching(/^Peer secret is too easy to guess: use at least 10 different/) },
      });
    }
    expect(
      (await new ApiClient(a.baseUrl).post('/port-peer', { service_id: B, url: 'http://x', secret: SECRET })).status,
    ).toBe(403);
    // The secret is nowhere in the log nor in what the configuration shows.
    const config = await adminA.get('/vis-configuration');
    expect(config.body).toMatchObject({ mode: 'direct', peers: [{ service_id: B, url: `${bAddress.url}/vis` }] });
    expect(JSON.stringify(config.body)).not.toContain(SECRET);
  });

  it('keeps the peer secret out of every event, broker message, log line and answer', async () => {
    // Linked again while every message of A's virtual host is traced (the RPC command to the vis-bridge too), and
    // a message sent and acknowledged, which signs with the secret on both sides.
    const trace = await traceBroker(a.env.AMQP_URL);
    const answers: string[] = [];
    try {
      const linked = await adminA.post('/port-peer', { service_id: B, url: `${bAddress.url}/vis`, secret: SECRET });
      expect(linked).toMatchObject({ status: 200, body: { result: 'OK' } });
      answers.push(JSON.stringify(linked.body));
      const sent = await adminA.post('/vis-text-messages', {
        vis_service_id: B,
        author: 'A ops',
        subject: 'secret check',
        body: 'signed with the shared secret',
      });
      expect(sent.status).toBe(200);
      answers.push(JSON.stringify(sent.body));
      await waitFor(
        'the acknowledgement at A',
        () => messages(adminA, { to_service_id: B }),
        (all) => all.some((r) => r.subject === 'secret check' && r.ack === true),
      );
      for (const path of ['/vis-configuration', '/vis-text-messages']) {
        answers.push(JSON.stringify((await adminA.get(path)).body));
      }
      // The trace shows the link's command went through the broker (so the check below looked at it).
      await waitFor(
        'the link command in the trace',
        async () => trace.seen,
        (seen) => seen.some((m) => m.includes(bAddress.url)),
      );
    } finally {
      await trace.stop();
    }
    expect(trace.seen.filter((m) => m.includes(SECRET))).toEqual([]);
    expect(answers.filter((m) => m.includes(SECRET))).toEqual([]);
    for (const system of [a, b!]) {
      expect(system.output()).not.toContain(SECRET);
      const db = await openDb({ url: system.env.DATABASE_URL, poolSize: 1 });
      try {
        const { rows } = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM eventstore.events
            WHERE strpos(data::text, $1) > 0 OR strpos(metadata::text, $1) > 0`,
          [SECRET],
        );
        expect(rows[0].n).toBe(0);
      } finally {
        await db.close();
      }
    }
  });

  it('sends a vessel departing A towards B’s UN/LOCODE to B, which lists it among its inbound vessels', async () => {
    const made = await adminAndDataSource(a.baseUrl, ADMIN);
    for (const state of ['Arrival_Vessel_PortArea', 'Departure_Vessel_Berth']) {
      const weight = await adminA.post('/timestamp-api-key-weights', {
        timestamp_time_type: 'Estimated',
        timestamp_state: state,
        api_key_ids: [made.apiKey.id],
      });
      expect(weight.status).toBe(200);
    }
    const source = made.api.withApiKey(made.apiKey.key);
    const post = (state: string, seconds: number) =>
      source.post('/agent/rest/timestamps', {
        imo: 9074729,
        vessel_name: 'E2E CARRIER',
        time_type: 'Estimated',
        state,
        time: isoSecondsAgo(seconds),
        payload: { source: 'e2e', next_port: 'SEGVX' },
      });
    expect((await post('Arrival_Vessel_PortArea', -3600)).status).toBe(200);
    expect((await post('Departure_Vessel_Berth', -7200)).status).toBe(200);
    const inbound = await waitFor(
      'the inbound vessel at B',
      () => adminB.get('/inbound-vessels').then((r) => r.body.data as any[]),
      (rows) => rows.some((r) => Number(r.imo) === 9074729),
      60_000,
    );
    expect(inbound.find((r) => Number(r.imo) === 9074729)).toMatchObject({
      vessel_name: 'E2E CARRIER',
      from_service_id: A,
      from_service_name: 'Port A',
    });
  }, 180_000);

  it('carries a text message from B to A and one back, each acknowledged to its sender', async () => {
    const toA = await adminB.post('/vis-text-messages', {
      vis_service_id: A,
      author: 'B ops',
      subject: 'Hi A',
      body: 'from B',
    });
    expect(toA).toMatchObject({ status: 200, body: { result: 'OK' } });
    const atA = await waitFor(
      'B’s message at A',
      () => messages(adminA, { from_service_id: B }),
      (rows) => rows.some((r) => r.subject === 'Hi A'),
    );
    const received = atA.find((r) => r.subject === 'Hi A');
    expect(received).toMatchObject({ author: 'B ops', body: 'from B', to_service_id: A });
    await waitFor(
      'A’s acknowledgement at B',
      () => messages(adminB, { to_service_id: A }),
      (rows) => rows.some((r) => r.message_id === received.message_id && r.ack === true),
    );

    expect(
      (await adminA.post('/vis-text-messages', { vis_service_id: B, author: 'A ops', subject: 'Hi B', body: 'reply' }))
        .status,
    ).toBe(200);
    const back = await waitFor(
      'A’s reply at B',
      () => messages(adminB, { from_service_id: A }),
      (rows) => rows.some((r) => r.subject === 'Hi B'),
    );
    const reply = back.find((r) => r.subject === 'Hi B');
    await waitFor(
      'B’s acknowledgement at A',
      () => messages(adminA, { to_service_id: B }),
      (rows) => rows.some((r) => r.message_id === reply.message_id && r.ack === true),
    );
  }, 180_000);

  it('gives a voyage plan uploaded to A its RTZ state, and A’s RTA reaches the sender with its window', async () => {
    const uploaded = await signedPost(
      a.baseUrl,
      '/voyagePlans',
      { message: ROUTE, uvid: 'urn:mrn:stm:voyage:id:e2e:1' },
      { serviceId: B, to: A, secret: SECRET },
    );
    expect(uploaded).toMatchObject({ status: 200, body: { result: 'OK', status: 'stored' } });
    const plans = await adminA.get('/vis-voyage-plans', { from_service_id: B });
    expect(plans.body.data[0]).toMatchObject({
      message_id: 'urn:mrn:stm:voyage:id:e2e:1',
      rtz_state_name: 'SYNC_WITH_ETA_FOUND',
      route_name: 'SEGVX-FIRAU e2e',
    });
    const rta = {
      rta: '2026-12-01T18:30:00+00:00',
      eta_min: '2026-12-01T18:15:00+00:00',
      eta_max: '2026-12-01T18:45:00+00:00',
    };
    expect(await adminA.post('/vis-send-rta', { vis_service_id: B, ...rta })).toMatchObject({ status: 200 });
    const atSender = await waitFor(
      'the RTA at B',
      () => adminB.get('/vis-voyage-plans', { from_service_id: A }).then((r) => r.body.data as any[]),
      (rows) => rows.length > 0,
    );
    expect(atSender[0].rtz_state_name).toBe('RTA_SENT');
    for (const key of ['rta', 'eta_min', 'eta_max'] as const)
      expect(Date.parse(atSender[0][key])).toBe(Date.parse(rta[key]));
    expect(atSender[0].rtz).toContain('etaWindowBefore="PT15M"');
  }, 180_000);

  it('answers A’s sends while B is stopped, and after B returns each message arrives exactly once', async () => {
    await b!.stop();
    const subjects = ['down 1', 'down 2', 'down 3'];
    for (const subject of subjects) {
      const sent = await adminA.post('/vis-text-messages', {
        vis_service_id: B,
        author: 'A ops',
        subject,
        body: 'while down',
      });
      expect(sent).toMatchObject({ status: 200, body: { result: 'OK' } });
      // A second apart: each keeps its time of sending at B, which the list shows to the second.
      await new Promise((r) => setTimeout(r, 1_100));
    }
    const waiting = await adminA.get('/vis-configuration');
    expect(waiting.body.peers.find((p: any) => p.service_id === B).pending).toBeGreaterThanOrEqual(3);
    await startB();
    const rows = await waitFor(
      'the messages sent while B was down',
      () => messages(adminB, { from_service_id: A }),
      (all) => subjects.every((s) => all.some((r) => r.subject === s)),
      // B's processes may still be starting behind its gateway, and A retries with a backoff of up to 4 s.
      90_000,
    );
    for (const subject of subjects) expect(rows.filter((r) => r.subject === subject)).toHaveLength(1);
    // Stored at B in the order A sent them: B's row ids follow the order it stored them in (the time shown is the
    // sender's time of sending, which says nothing of the order on the wire).
    const order = rows
      .filter((r) => subjects.includes(r.subject))
      .sort((x, y) => Number(x.id) - Number(y.id))
      .map((r) => r.subject);
    expect(order).toEqual(subjects);
    await waitFor(
      'acknowledgements of all three at A',
      () => messages(adminA, { to_service_id: B }),
      (all) => subjects.every((s) => all.some((r) => r.subject === s && r.ack === true)),
    );
    // A redelivery (the same batch again) is answered "duplicate" and stores nothing more.
    const message_id = rows.find((r) => r.subject === 'down 1').message_id;
    const again = await signedPost(
      b!.baseUrl,
      '/messages',
      { messages: [{ message_id, operation: 'textMessage', body: { message: textMessage(message_id, 'again') } }] },
      { serviceId: A, to: B, secret: SECRET },
    );
    expect(again).toMatchObject({ status: 200, body: { results: [{ message_id, status: 'duplicate' }] } });
    expect((await messages(adminB, { from_service_id: A })).filter((r) => r.message_id === message_id)).toHaveLength(1);
  }, 360_000);

  it('refuses a captured request sent again (409), storing nothing more', async () => {
    const id = 'urn:mrn:stm:txt:e2e:captured-1';
    const body = { message: textMessage(id, 'captured on its way') };
    const captured = peerHeaders('/textMessage', body, { serviceId: A, to: B, secret: SECRET });
    expect(await peerPost(b!.baseUrl, '/textMessage', body, captured)).toMatchObject({
      status: 200,
      body: { result: 'OK', status: 'stored' },
    });
    const stored = await tracesOf(b!, id);
    expect(stored).toMatchObject({ received: 1, acknowledgements: 1 });
    expect(stored.events).toBeGreaterThan(0);
    // The same request again, byte for byte: refused before it reaches the vis-bridge.
    expect(await peerPost(b!.baseUrl, '/textMessage', body, captured)).toEqual({
      status: 409,
      body: { error: 'VIS peer request was received before: a replayed request is refused' },
    });
    expect(await tracesOf(b!, id)).toEqual(stored);
    // The same message signed anew is a new request (answered "duplicate", as a redelivery is).
    expect(await signedPost(b!.baseUrl, '/textMessage', body, { serviceId: A, to: B, secret: SECRET })).toMatchObject({
      status: 200,
      body: { status: 'duplicate' },
    });
  });

  it('refuses a request sent back to its sender, or addressed to another port, storing nothing', async () => {
    // A's request to B, captured on its way, then taken to A: as it was, and claiming to come from B.
    const id = 'urn:mrn:stm:txt:e2e:reflected-1';
    const body = { message: textMessage(id, 'reflected') };
    const captured = peerHeaders('/textMessage', body, { serviceId: A, to: B, secret: SECRET });
    expect(await peerPost(a.baseUrl, '/textMessage', body, captured)).toEqual({
      status: 403,
      body: { error: `VIS peer request is addressed to ${B}, not to this port` },
    });
    const reflected = { ...captured, 'x-vis-service-id': B, 'x-vis-recipient-id': A };
    expect(await peerPost(a.baseUrl, '/textMessage', body, reflected)).toEqual({
      status: 403,
      body: { error: 'Invalid VIS peer signature' },
    });
    expect(await tracesOf(a, id)).toEqual(NOTHING);
    // Only then does it reach B, where it is good (B's acknowledgement to A would name the message at A).
    expect(await peerPost(b!.baseUrl, '/textMessage', body, captured)).toMatchObject({ status: 200 });
    // B signs for a third port (with the secret it shares with A, as a careless port might): not taken at A.
    const elsewhere = 'urn:mrn:stm:txt:e2e:elsewhere-1';
    const toC = { message: textMessage(elsewhere, 'for port C') };
    expect(await signedPost(a.baseUrl, '/textMessage', toC, { serviceId: B, to: C, secret: SECRET })).toEqual({
      status: 403,
      body: { error: `VIS peer request is addressed to ${C}, not to this port` },
    });
    expect(await tracesOf(a, elsewhere)).toEqual(NOTHING);
  });

  it('tells a port that signs with another version which version it speaks, storing nothing', async () => {
    const id = 'urn:mrn:stm:txt:e2e:version-1';
    const body = { message: textMessage(id, 'from an earlier version') };
    expect(await peerPost(a.baseUrl, '/textMessage', body, version1Headers('/textMessage', body, B, SECRET))).toEqual({
      status: 401,
      body: { error: 'VIS signature version 1 is not supported here; this port speaks version 2' },
    });
    const later = { ...peerHeaders('/textMessage', body, { serviceId: B, to: A, secret: SECRET }) };
    later['x-vis-signature-version'] = '3';
    expect(await peerPost(a.baseUrl, '/textMessage', body, later)).toEqual({
      status: 401,
      body: { error: 'VIS signature version 3 is not supported here; this port speaks version 2' },
    });
    expect(await tracesOf(a, id)).toEqual(NOTHING);
  });

  it('refuses what is not signed, signed wrongly or too old, from a peer not linked or not whitelisted, storing nothing', async () => {
    const before = (await messages(adminB, {})).length;
    const probe = (n: number) => ({ message: textMessage(`urn:mrn:stm:txt:e2e:refused-${n}`, 'refused') });
    const anonymous = await new ApiClient(b!.baseUrl).post('/vis/textMessage', probe(1));
    expect(anonymous).toMatchObject({ status: 401, body: { error: 'VIS peer request is not signed' } });
    expect(
      await signedPost(b!.baseUrl, '/textMessage', probe(2), {
        serviceId: A,
        to: B,
        secret: 'Not-the-shared-secret-of-A-and-B-0000',
      }),
    ).toEqual({
      status: 403,
      body: { error: 'Invalid VIS peer signature' },
    });
    expect(
      await signedPost(b!.baseUrl, '/textMessage', probe(3), {
        serviceId: A,
        to: B,
        secret: SECRET,
        skewSeconds: -600,
      }),
    ).toEqual({
      status: 401,
      body: { error: 'VIS peer request time is outside the allowed window' },
    });
    const stranger = 'urn:mrn:stm:service:instance:elsewhere';
    expect(
      await signedPost(b!.baseUrl, '/textMessage', probe(4), { serviceId: stranger, to: B, secret: SECRET }),
    ).toEqual({
      status: 401,
      body: { error: `Unknown VIS peer: ${stranger}` },
    });
    // B stops taking data from A: A's message is refused at B for good, recorded as such at A.
    expect((await adminB.post('/port-whitelist-in', { service_id: A, whitelist: false })).body).toEqual({
      result: 'OK',
    });
    expect(await signedPost(b!.baseUrl, '/textMessage', probe(5), { serviceId: A, to: B, secret: SECRET })).toEqual({
      status: 403,
      body: { error: `Service ID is not whitelisted to send data: ${A}` },
    });
    expect(
      await signedPost(
        b!.baseUrl,
        '/departure',
        {
          message_id: 'dep-refused',
          from_locode: 'FIRAU',
          to_locode: 'SEGVX',
          vessel_imo: 9306172,
          vessel_name: 'REFUSED',
          to_lat: 60.67,
          to_lon: 17.17,
          time: '2026-12-01T10:00:00+00:00',
        },
        { serviceId: A, to: B, secret: SECRET },
      ),
    ).toEqual({ status: 400, body: { error: `Service ID is not whitelisted to post inbound vessel data: ${A}` } });
    expect(
      (await adminA.post('/vis-text-messages', { vis_service_id: B, author: 'A', subject: 'blocked', body: 'x' }))
        .status,
    ).toBe(200);
    await waitFor(
      'the refusal recorded at A',
      () => adminA.get('/vis-configuration'),
      (r) => r.body.peers.some((p: any) => p.service_id === B && p.refused >= 1 && p.pending === 0),
    );
    expect((await messages(adminB, {})).length).toBe(before);
    const inbound = await adminB.get('/inbound-vessels');
    expect(inbound.body.data.some((r: any) => Number(r.imo) === 9306172)).toBe(false);
  }, 180_000);
});
