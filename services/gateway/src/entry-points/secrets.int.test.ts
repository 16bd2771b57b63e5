// No secret leaves the gateway: the relay publishes every event of the log to RabbitMQ, so a queue bound to the
// `events` exchange with `#` sees whatever any consumer could. Users with passwords, API keys, registration codes,
// a sign-up with a code, a password reset by mail and a password change are made over HTTP while such a queue
// collects every message (content, properties, headers); none may hold a password, hash, key, code, token,
// session or signing key, and neither may the stored log or any line the gateway logged. Then the same database
// is turned into what an earlier version left (secrets in read-model columns and in event data): a relay
// re-run from position 0 publishes none, and the gateway's start moves them out of the log for good.

import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { upcastEvent } from '@pcas/contracts';
import { type Bus, createAmqpBus, type Relay, startRelay } from '@pcas/messaging';
import { createLogger } from '@pcas/observability';
import { type ApiClient, parseMail, rabbitmq, uniqueName, withVhost } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccess } from './auth.ts';
import { startGateway } from './service.ts';
import { startTestGateway, type TestGateway } from './testing/gateway-harness.ts';

// amqplib belongs to @pcas/messaging; loaded from there so that this test reads the raw deliveries (the bus
// hands its consumers the parsed body only) without a second copy among the gateway's dependencies.
const fromMessaging = createRequire(createRequire(import.meta.url).resolve('@pcas/messaging'));
const amqplib = fromMessaging('amqplib') as {
  connect(url: string): Promise<{
    createChannel(): Promise<{
      assertExchange(name: string, type: string, options: object): Promise<unknown>;
      assertQueue(name: string, options: object): Promise<{ queue: string }>;
      bindQueue(queue: string, exchange: string, pattern: string): Promise<unknown>;
      consume(queue: string, onMessage: (msg: Delivery | null) => void, options: object): Promise<unknown>;
    }>;
    close(): Promise<void>;
  }>;
};

interface Delivery {
  content: Buffer;
  fields: Record<string, unknown>;
  properties: Record<string, unknown> & { messageId?: string; headers?: Record<string, unknown> };
}

/** Every message the `events` exchange routes, from the moment this returns. */
async function tapEvents(url: string) {
  const connection = await amqplib.connect(url);
  const channel = await connection.createChannel();
  // As the bus declares it (libs/messaging/src/amqp-connection.ts, amqp-rpc.ts), so whichever comes first, both agree.
  await channel.assertExchange('events', 'topic', { durable: true });
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, 'events', '#');
  const deliveries: Delivery[] = [];
  await channel.consume(queue, (msg) => msg && deliveries.push(msg), { noAck: true });
  return { deliveries, close: () => connection.close() };
}

/** Everything of a delivery a consumer can read, as text. */
const deliveryText = (d: Delivery) =>
  [d.content.toString('utf8'), JSON.stringify(d.properties), JSON.stringify(d.fields)].join('\n');

const broker = await rabbitmq();
const password = () => `pw-${randomBytes(12).toString('hex')}`;

describe.skipIf(!broker)('secrets never leave the gateway', () => {
  let vhost: Awaited<ReturnType<typeof withVhost>>;
  let gw: TestGateway;
  let bus: Bus;
  let tap: Awaited<ReturnType<typeof tapEvents>>;
  let relay: Relay | undefined;
  const logLines: string[] = [];
  /** What the second test needs of the first: the user's last password, a key and a code. */
  const state = { email: '', password: '', apiKey: '', code: '' };
  /** Every secret the scenario used or the gateway made. */
  const secrets = new Set<string>();
  const remember = <T extends string>(value: T): T => {
    secrets.add(value);
    return value;
  };
  const relays = (name: string, upcast = true) =>
    startRelay({
      store: gw.store,
      db: gw.db,
      bus,
      log: gw.deps.log,
      name,
      pollIntervalMs: 20,
      ...(upcast && { upcast: upcastEvent }),
    });

  /** Resolves once every event of the log went out since `from` (an index into the deliveries). */
  async function allPublished(from: number) {
    const { rows } = await gw.db.query<{ id: string }>('SELECT event_id::text AS id FROM eventstore.events');
    const ids = rows.map((r) => r.id);
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
      const seen = new Set(tap.deliveries.slice(from).map((d) => d.properties.messageId));
      if (ids.every((id) => seen.has(id))) return tap.deliveries.slice(from);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the relay did not publish the whole log');
  }

  /** Fails naming the first secret found in `text`. Very short ones cannot be told from chance. */
  function expectNoSecret(where: string, text: string) {
    for (const value of secrets) {
      if (value.length < 8) continue;
      expect(text.includes(value), `${where} holds a secret (${value.slice(0, 10)}…)`).toBe(false);
    }
  }

  /** The hashes, keys and codes stored now (called after each change, as a new password replaces a hash). */
  async function storedSecrets() {
    const credentials = await gw.db.query<{ secret: string }>('SELECT secret FROM gateway.credentials');
    for (const { secret } of credentials.rows) remember(secret);
    const keys = await gw.db.query<{ private_key_pem: string }>('SELECT private_key_pem FROM gateway.signing_keys');
    for (const { private_key_pem: pem } of keys.rows) {
      remember(pem);
      // As JSON escapes the line breaks, each line of the key on its own.
      for (const line of pem.split('\n')) if (line.length >= 32 && !line.startsWith('-----')) remember(line);
    }
  }

  async function login(email: string, secret: string): Promise<ApiClient> {
    const res = await gw.anonymous.post('/login', { email, password: secret });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    remember(res.body.session_id);
    remember(res.body.jwt);
    return gw.anonymous.withSession(res.body.session_id);
  }

  /** Signs up with state.code; the new user is logged in. */
  async function signUpWithCode(name: string) {
    const res = await gw.anonymous.post('/register', {
      first_name: name,
      last_name: 'Crew',
      code: state.code,
      email: `${name}-${randomBytes(4).toString('hex')}@test.local`,
      password: remember(password()),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    remember(res.body.session_id);
  }

  beforeAll(async () => {
    vhost = await withVhost(broker!.url);
    const log = createLogger('secrets-it', 'trace', { write: (line: string) => logLines.push(line) });
    gw = await startTestGateway('gateway_secrets', { adminPassword: password() }, { log });
    remember(gw.config.adminPassword!);
    tap = await tapEvents(vhost.url);
    bus = await createAmqpBus({ url: vhost.url, log });
    // As the fleet starts it (libs/runtime), from position 0: the admin's creation goes out too.
    relay = await relays(uniqueName('relay'));
  });

  afterAll(async () => {
    await relay?.stop();
    await tap?.close();
    await bus?.close();
    await gw?.stop();
    await vhost?.drop();
  });

  it('publishes no secret while users, keys, codes, sign-ups, resets and password changes are made', async () => {
    const admin = await login(gw.config.adminEmail, gw.config.adminPassword!);

    // A user made by the admin, with the initial password the answer shows once; then changed by the admin.
    state.email = `user-${randomBytes(4).toString('hex')}@test.local`;
    const created = await admin.post('/users', {
      email: state.email,
      first_name: 'Pat',
      last_name: 'Doe',
      role: 'user',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    await login(state.email, remember(created.body.password));
    await storedSecrets();
    state.password = remember(password());
    expect(await admin.post('/change-password', { email: state.email, password: state.password })).toMatchObject({
      status: 200,
      body: true,
    });
    await login(state.email, state.password);
    await storedSecrets();

    // An API key, shown to the admin in the list as the original does.
    const key = await admin.post('/api-keys', { name: 'Feed' });
    expect(key.status).toBe(200);
    state.apiKey = remember(key.body.key);
    const keys = await admin.get('/api-keys', { limit: 10, offset: 0, sort: 'key' });
    expect(keys.body.data).toContainEqual(expect.objectContaining({ id: key.body.id, key: state.apiKey }));

    // A registration code, and a sign-up with it.
    const codeId = (await admin.post('/registration-codes', { role: 'user', description: 'Crew' })).body;
    const codes = await admin.get('/registration-codes', { limit: 10, offset: 0, sort: 'id' });
    state.code = remember(codes.body.data.find((c: { id: number }) => c.id === codeId).code);
    await signUpWithCode('crew');

    // A password reset: the token comes from the mail in the outbox (no SMTP_URL), the new password works.
    const outbox = path.join(gw.config.dataDir, 'outbox');
    expect(await gw.anonymous.post('/request-password-reset', { email: state.email, port: 'Gävle' })).toMatchObject({
      status: 200,
    });
    let files: string[] = [];
    for (const deadline = Date.now() + 30_000; Date.now() < deadline && files.length === 0; ) {
      files = (await readdir(outbox).catch(() => [])).filter((f) => f.endsWith('.eml'));
      if (files.length === 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const mail = await parseMail(await readFile(path.join(outbox, files[0])));
    const link = new URL(/\S+\/reset-password\?\S+/.exec(mail.text)![0]);
    const token = remember(link.searchParams.get('token')!);
    state.password = remember(password());
    const reset = await gw.anonymous.post('/reset-password', { token, password: state.password });
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(reset.body.email).toBe(state.email);
    await login(state.email, state.password);

    await storedSecrets();
    const published = await allPublished(0);

    // Not vacuous: the secrets are there to find, the changes were published and the log was captured.
    expect(secrets.size).toBeGreaterThan(15);
    const routingKeys = new Set(published.map((d) => d.fields.routingKey));
    for (const routingKey of [
      'user.UserCreated',
      'user.UserPasswordChanged',
      'user.UserLoggedIn',
      'apikey.ApiKeyCreated',
      'regcode.RegistrationCodeCreated',
    ]) {
      expect(routingKeys).toContain(routingKey);
    }
    const logText = logLines.join('');
    for (const line of ['"path":"/reset-password"', 'mail written to the outbox', 'relay active']) {
      expect(logText).toContain(line);
    }

    for (const delivery of published) expectNoSecret(`message ${delivery.fields.routingKey}`, deliveryText(delivery));
    const stored = await gw.db.query<{ t: string }>(
      `SELECT string_agg(data::text || metadata::text, '|') AS t FROM eventstore.events`,
    );
    expectNoSecret('the event log', stored.rows[0].t);
    expectNoSecret('the log', logText);
  });

  it('moves the secrets of an earlier version out of its log; a relay from position 0 publishes none before', async () => {
    await relay!.stop();
    relay = undefined;
    // What an earlier version left: the secrets in read-model columns and in the events that created them.
    await gw.db.transaction(async (tx) => {
      for (const [table, column, kind, type, field] of [
        ['users', 'password_hash', 'password', 'UserCreated', 'password_hash'],
        ['api_keys', 'key', 'api_key', 'ApiKeyCreated', 'key'],
        ['registration_codes', 'code', 'registration_code', 'RegistrationCodeCreated', 'code'],
      ]) {
        await tx.query(`ALTER TABLE gateway.${table} ADD COLUMN ${column} text NOT NULL DEFAULT ''`);
        await tx.query(
          `UPDATE gateway.${table} t SET ${column} = c.secret FROM gateway.credentials c
           WHERE c.kind = $1 AND c.id = t.id`,
          [kind],
        );
        await tx.query(
          `UPDATE eventstore.events e SET data = e.data || jsonb_build_object($2::text, t.${column})
           FROM gateway.${table} t WHERE e.event_type = $1 AND (e.data->>'id')::int = t.id`,
          [type, field],
        );
      }
      await tx.query('DROP TABLE gateway.credentials');
    });
    const legacy = `SELECT count(*)::int AS n FROM eventstore.events WHERE data ?| array['password_hash', 'key', 'code']`;
    expect((await gw.db.query<{ n: number }>(legacy)).rows[0].n).toBeGreaterThanOrEqual(6);

    // Before the gateway starts again (in the fleet, another process's relay may come first): nothing published.
    const before = tap.deliveries.length;
    relay = await relays(uniqueName('relay-rerun'));
    for (const delivery of await allPublished(before)) {
      expectNoSecret(`republished ${delivery.fields.routingKey}`, deliveryText(delivery));
    }
    await relay.stop();
    relay = undefined;

    // The gateway's start moves them: columns dropped, the stored events without them.
    const restarted = await startGateway(gw.deps);
    try {
      expect((await gw.db.query<{ n: number }>(legacy)).rows[0].n).toBe(0);
      const columns = await gw.db.query(
        `SELECT 1 FROM information_schema.columns WHERE table_schema = 'gateway'
         AND (table_name, column_name) IN (('users', 'password_hash'), ('api_keys', 'key'), ('registration_codes', 'code'))`,
      );
      expect(columns.rowCount).toBe(0);
      const stored = await gw.db.query<{ t: string }>(`SELECT string_agg(data::text, '|') AS t FROM eventstore.events`);
      expectNoSecret('the migrated event log', stored.rows[0].t);

      // And everything that needs them still works.
      const admin = await login(gw.config.adminEmail, gw.config.adminPassword!);
      await login(state.email, state.password);
      const keys = await admin.get('/api-keys', { limit: 10, offset: 0, sort: 'id' });
      expect(keys.body.data.map((k: { key: string }) => k.key)).toContain(state.apiKey);
      const access = createAccess(gw.deps);
      expect((await access.authenticate({ authorization: `ApiKey ${state.apiKey}` })).kind).toBe('api_key');
      await signUpWithCode('later');

      // A relay without the upcaster, from position 0: the log itself holds nothing to publish any more.
      const from = tap.deliveries.length;
      relay = await relays(uniqueName('relay-plain'), false);
      await storedSecrets();
      for (const delivery of await allPublished(from)) {
        expectNoSecret(`published ${delivery.fields.routingKey}`, deliveryText(delivery));
      }
      expectNoSecret('the log', logLines.join(''));
    } finally {
      await restarted.stop();
    }
  });
});
