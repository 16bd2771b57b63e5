// The floor under bench:queue's end-to-end figure: what the parts of a slot request that the spec and the design
// fix cost on this machine by themselves, measured in the same run, with no service logic around them. A slot
// request (offered, then accepted) needs at least: two mails (offer, acceptance), each with an RS256-signed link;
// three HTTP requests (the create, the port's read, the accept); every event it causes published persistently to
// RabbitMQ (the relay), and its two commands sent as RPCs (a request and a reply each); two decisions committed in
// PostgreSQL. `floor_ms_per_slot_request` adds those up (CPU of the whole machine: this process, RabbitMQ, and
// PostgreSQL through the bare INSERT baseline) and `ceiling_per_s` is what the machine's cores could do at that
// cost: what is left of a target's budget under it is what the services' own work may cost.

import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '@pcas/observability';
import { ApiClient, withVhost } from '@pcas/testing';
import { createMailer } from '../libs/mail/src/index.ts';
import { createAmqpBus } from '../libs/messaging/src/index.ts';
import { signedLinks } from '../services/queue-scheduler/src/adapters/signed-link.ts';
import { slotRequestMail } from '../services/queue-scheduler/src/domain/mails.ts';
import { fleetCpu, round } from './support.ts';

const cpuMs = (from: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
};

/** This process's CPU ms per call of `work`, after a warm-up. */
async function perCall(times: number, work: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < Math.min(times, 200); i++) await work(i);
  const from = process.cpuUsage();
  for (let i = 0; i < times; i++) await work(i);
  return cpuMs(from) / times;
}

async function signAndMail() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const links = signedLinks({ privateKeyPem: privateKey, publicKeyPem: publicKey });
  const signMs = await perCall(1_000, (i) => links.slotRequest(i));
  const outboxDir = await mkdtemp(path.join(tmpdir(), 'bench-floor-'));
  const mailer = createMailer({
    from: 'Port <noreply@port.local>',
    outboxDir,
    log: createLogger('bench-floor', 'error'),
  });
  try {
    const mailMs = await perCall(500, (i) => {
      const link = links.slotRequest(i);
      const mail = slotRequestMail(
        {
          slot_request_id: i,
          status: i % 2 === 0 ? 'offered' : 'accepted',
          email: 'master@vessel.bench',
          link: `http://127.0.0.1:3000/agent/eta-form/?token=${link.token}`,
          linkExpires: link.expires,
        },
        () => undefined,
        'Europe/Helsinki',
      );
      if (!mail) throw new Error('no slot request mail');
      return mailer.send(mail);
    });
    // The link's signature is counted once, in rs256_sign_ms.
    return { signMs, mailMs: mailMs - signMs };
  } finally {
    await mailer.close();
    await rm(outboxDir, { recursive: true, force: true });
  }
}

/** One JSON request and its answer over a kept-alive connection, client and server (an empty route) both here. */
async function httpRequest(): Promise<number> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('Content-Type', 'application/json');
      res.end('{"id":1}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const api = new ApiClient(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
    return await perCall(2_000, () => api.post('/slot', { imo: 9_000_000, eta: '2026-11-28T10:00:00+00:00' }));
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/**
 * RabbitMQ through the services' own bus, in a vhost of its own: an event published persistently with its confirm
 * and no queue bound (`publish`), and one delivered to a queue and acknowledged (`deliver`). CPU of this process and
 * of RabbitMQ (from /proc: Linux only, else null).
 */
async function amqp(amqpUrl: string): Promise<{ publishMs: number | null; deliverMs: number | null }> {
  const vhost = await withVhost(amqpUrl);
  const bus = await createAmqpBus({ url: vhost.url, log: createLogger('bench-floor', 'error'), reconnect: false });
  const n = 5_000;
  const body = {
    id: '00000000-0000-4000-8000-000000000000',
    type: 'TimestampReceived',
    data: { imo: 9_000_000, time_type: 'Estimated', state: 'Arrival_Vessel_PortArea', time: '2026-11-28T10:00:00Z' },
  };
  const machineMs = (before: Map<string, number>, from: NodeJS.CpuUsage) => {
    const rabbit = fleetCpu().get('rabbitmq');
    const rabbitBefore = before.get('rabbitmq');
    if (rabbit === undefined || rabbitBefore === undefined) return null;
    return ((rabbit - rabbitBefore) * 1000 + cpuMs(from)) / n;
  };
  const burst = async (key: string) => {
    for (let i = 0; i < n; i += 100) {
      await Promise.all(
        Array.from({ length: 100 }, (_, j) => bus.publish(key, body, { messageId: `m-${key}-${i + j}` })),
      );
    }
  };
  try {
    await burst('nobody.Warmup');
    let before = fleetCpu();
    let from = process.cpuUsage();
    await burst('nobody.Listens');
    const publishMs = machineMs(before, from);

    let delivered = 0;
    let done: () => void = () => {};
    const all = new Promise<void>((resolve) => {
      done = resolve;
    });
    const consumer = await bus.consume(
      'bench-floor',
      async (messages) => {
        delivered += messages.length;
        if (delivered >= n) done();
      },
      { bindings: ['vessel.#'] },
    );
    before = fleetCpu();
    from = process.cpuUsage();
    await burst('vessel.TimestampReceived');
    await all;
    const deliverMs = machineMs(before, from);
    await consumer.stop();
    return { publishMs, deliverMs };
  } finally {
    await bus.close();
    await vhost.drop();
  }
}

export async function queueFloor(options: { amqpUrl: string; insert16: number; eventsPerSlotRequest: number }) {
  const cores = cpus().length;
  const { signMs, mailMs } = await signAndMail();
  const httpMs = await httpRequest();
  const { publishMs, deliverMs } = await amqp(options.amqpUrl);
  // The bare INSERT baseline as machine time: its 16 writers keep every core busy.
  const insertMs = (cores * 1000) / options.insert16;
  const floorMs =
    publishMs === null || deliverMs === null
      ? null
      : 2 * (signMs + mailMs) +
        3 * httpMs +
        options.eventsPerSlotRequest * publishMs +
        // Two RPCs: the request and the reply each delivered.
        4 * deliverMs +
        2 * insertMs;
  return {
    cores,
    rs256_sign_ms: round3(signMs),
    mail_ms: round3(mailMs),
    http_request_ms: round3(httpMs),
    amqp_publish_ms: publishMs === null ? null : round3(publishMs),
    amqp_deliver_ms: deliverMs === null ? null : round3(deliverMs),
    bare_insert_ms: round3(insertMs),
    events_per_slot_request: round(options.eventsPerSlotRequest),
    floor_ms_per_slot_request: floorMs === null ? null : round3(floorMs),
    ceiling_per_s: floorMs === null ? null : Math.round((cores * 1000) / floorMs),
  };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
