// Db over node-postgres: a pool for queries and transactions, one dedicated connection for LISTEN, and one
// dedicated connection per advisory-lock holder (session locks live and die with their connection).

import { createHash } from 'node:crypto';
import { createLogger } from '@pcas/observability';
import pg from 'pg';
import { INT8_ARRAY_OID, INT8_OID, int8ArrayOf, parseInt8 } from './parsers.ts';
import type { Db, OpenDbOptions, Queryable, QueryResult } from './types.ts';

const log = createLogger('sql');

// pg's own parsers, typed loosely: its TypeId enum does not list array types.
const defaultParser = pg.types.getTypeParser as (oid: number, format?: string) => (value: string) => unknown;
const parseInt8Array = (value: string) => int8ArrayOf(defaultParser(INT8_ARRAY_OID)(value) as (string | null)[]);

// Per pool rather than pg.types.setTypeParser, so other pg users in the process keep the defaults.
const types = {
  getTypeParser(oid: number, format?: string) {
    if (format !== 'binary' && oid === INT8_OID) return parseInt8;
    if (format !== 'binary' && oid === INT8_ARRAY_OID) return parseInt8Array;
    return defaultParser(oid, format);
  },
} as pg.CustomTypesConfig;

const HEARTBEAT_MS = 5_000;
const RECONNECT_MAX_MS = 5_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Parameterised statements are prepared once per connection and reused: PostgreSQL then skips parsing and
// planning on every call (measured: planning dominated the gateway's per-request lookups). The set of names is
// bounded, so statements built from user input (sort clauses) cannot grow the server's memory without limit.
const MAX_PREPARED = 512;
const preparedNames = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = preparedNames.get(text);
  if (name === undefined && preparedNames.size < MAX_PREPARED) {
    name = `pcas_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    preparedNames.set(text, name);
  }
  return name;
}

async function run<R>(
  on: pg.Pool | pg.PoolClient | pg.Client,
  text: string,
  params?: unknown[],
): Promise<QueryResult<R>> {
  const name = params && params.length > 0 ? statementName(text) : undefined;
  const result = name
    ? await on.query({ name, text, values: params as unknown[] })
    : await on.query(text, params as unknown[]);
  return { rows: result.rows as R[], rowCount: result.rowCount ?? result.rows.length };
}

/** One connection that holds every LISTEN of this Db and comes back (re-LISTENing) when it drops. */
class Listener {
  private readonly channels = new Map<string, Set<(payload: string) => void>>();
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private closed = false;

  constructor(private readonly config: pg.ClientConfig) {}

  async add(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    let callbacks = this.channels.get(channel);
    const first = !callbacks;
    if (!callbacks) {
      callbacks = new Set();
      this.channels.set(channel, callbacks);
    }
    callbacks.add(onNotify);
    try {
      const client = await this.connection();
      if (first) await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch (error) {
      callbacks.delete(onNotify);
      if (callbacks.size === 0) this.channels.delete(channel);
      throw error;
    }
    return async () => {
      const set = this.channels.get(channel);
      if (!set?.delete(onNotify) || set.size > 0) return;
      this.channels.delete(channel);
      const current = this.client;
      if (current && !this.closed) await current.query(`UNLISTEN ${current.escapeIdentifier(channel)}`).catch(() => {});
    };
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client(this.config);
    client.on('notification', (msg) => {
      for (const cb of this.channels.get(msg.channel) ?? []) cb(msg.payload ?? '');
    });
    client.on('error', (error) => log.warn({ error: error.message }, 'LISTEN connection error'));
    client.on('end', () => {
      if (this.client !== client) return;
      this.client = undefined;
      if (!this.closed) void this.reconnect();
    });
    await client.connect();
    for (const channel of this.channels.keys()) await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    this.client = client;
    return client;
  }

  private async reconnect() {
    for (let attempt = 0; !this.closed && !this.client; attempt++) {
      await sleep(Math.min(100 * 2 ** attempt, RECONNECT_MAX_MS));
      if (this.closed) return;
      try {
        await this.connection();
        log.info('LISTEN connection restored');
        // Notifications sent while we were away are gone: wake everyone so they re-read.
        for (const callbacks of this.channels.values()) for (const cb of callbacks) cb('');
      } catch (error) {
        log.warn({ error: (error as Error).message, attempt }, 'LISTEN reconnect failed');
      }
    }
  }

  async close() {
    this.closed = true;
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    await client?.end().catch(() => {});
  }
}

export function openPostgres(options: OpenDbOptions & { url: string }): Db {
  const clientConfig: pg.ClientConfig = {
    connectionString: options.url,
    application_name: options.applicationName,
    types,
    keepAlive: true,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    ...(options.idleInTransactionTimeoutMs
      ? { idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs }
      : {}),
  };
  const pool = new pg.Pool({ ...clientConfig, max: options.poolSize ?? 10 });
  // An idle client dropping (server restart) must not crash the process; the pool replaces it.
  pool.on('error', (error) => log.warn({ error: error.message }, 'idle pool client error'));
  // pool.end() resolves once it has asked its clients to end, not once they have: close() waits for them.
  const connected = new Set<pg.PoolClient>();
  pool.on('connect', (client) => {
    connected.add(client);
    client.once('end', () => connected.delete(client));
  });
  const listener = new Listener(clientConfig);
  const lockHolders = new Set<pg.Client>();

  return {
    kind: 'postgres',

    query: (text, params) => run(pool, text, params),

    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      const tx: Queryable = { query: (text, params) => run(client, text, params) };
      try {
        await client.query('BEGIN');
        const result = await fn(tx);
        await client.query('COMMIT');
        client.release();
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
          client.release();
        } catch (rollbackError) {
          // The connection is in an unknown state: drop it instead of handing it to the next caller.
          client.release(rollbackError as Error);
        }
        throw error;
      }
    },

    listen: (channel, onNotify) => listener.add(channel, onNotify),

    async tryWithAdvisoryLock(lockId, fn) {
      const client = new pg.Client(clientConfig);
      const lost = new AbortController();
      let done = false;
      const lose = (reason: unknown) => {
        if (!done && !lost.signal.aborted) lost.abort(reason ?? new Error('advisory lock connection lost'));
      };
      client.on('error', lose);
      client.on('end', () => lose(new Error('advisory lock connection ended')));
      await client.connect();
      lockHolders.add(client);
      let heartbeat: NodeJS.Timeout | undefined;
      try {
        const { rows } = await run<{ ok: boolean }>(client, 'SELECT pg_try_advisory_lock($1::bigint) AS ok', [lockId]);
        if (!rows[0].ok) return { acquired: false };
        // A silently dead connection (no RST) would otherwise go unnoticed while we believe we hold the lock.
        heartbeat = setInterval(() => {
          client.query('SELECT 1').catch(lose);
        }, HEARTBEAT_MS);
        heartbeat.unref();
        const result = await fn(lost.signal);
        if (!lost.signal.aborted) await client.query('SELECT pg_advisory_unlock($1::bigint)', [lockId]);
        return { acquired: true, result };
      } finally {
        done = true;
        clearInterval(heartbeat);
        lockHolders.delete(client);
        await client.end().catch(() => {});
      }
    },

    async close() {
      await listener.close();
      await Promise.all([...lockHolders].map((c) => c.end().catch(() => {})));
      const ending = [...connected].map((c) => new Promise((resolve) => c.once('end', resolve)));
      await pool.end();
      await Promise.all(ending);
    },
  };
}
