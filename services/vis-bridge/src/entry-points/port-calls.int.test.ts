// The port-call watch on PostgreSQL, a delivery batch at a time: its port calls asked of the projector and read with
// what was sent in one query (a port call changed several times once), the voyage-plan request sent only to a vessel
// with a VIS service, and the markers of the batch recorded in one transaction, once per port call however often the signal comes, whichever of two
// consumers records it, and for the others when one port call's marker cannot be stored.

import { loadConfig } from '@pcas/config';
import {
  PORTCALL_CHANGED_ROUTING_KEY,
  PORTCALL_CHANGES_STREAM,
  PORTCALL_PROJECTOR,
  PortcallLookups,
  type ServiceDeps,
} from '@pcas/contracts';
import { createEventStore, type EventStore } from '@pcas/eventstore';
import { type Consumer, createInProcessBus, type InProcessBus } from '@pcas/messaging';
import { createLogger } from '@pcas/observability';
import { type Db, openDb, type Queryable } from '@pcas/sql';
import { freshPostgres, type PostgresForTest } from '@pcas/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureSchema } from '../adapters/schema.ts';
import type { VisTransport } from '../adapters/transport.ts';
import type { VisCommandSet } from './commands.ts';
import { startPortCallWatch } from './port-calls.ts';

const log = createLogger('vis-portcalls-test', 'silent');
const ETA = '2026-12-01T10:00:00+00:00';

/** The statements the watch sends, by kind: one `query` per statement, a transaction's BEGIN and COMMIT too. */
function counting(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const counted = (q: Queryable): Queryable => ({
    query: (text, params) => {
      statements.push(text.trim().split(/\s+/).slice(0, 4).join(' '));
      return q.query(text, params);
    },
  });
  const wrapped: Db = Object.create(db);
  wrapped.query = counted(db).query;
  wrapped.transaction = (fn) => {
    statements.push('BEGIN');
    return db.transaction((tx) => fn(counted(tx))).finally(() => statements.push('COMMIT'));
  };
  return { db: wrapped, statements };
}

describe('the port-call watch (PostgreSQL)', () => {
  let pg: PostgresForTest;
  let raw: Db;
  let store: EventStore;
  let bus: InProcessBus;
  const consumers: Consumer[] = [];
  /** The voyage-plan requests sent, by service id; the service lookups asked, by IMO. */
  let sent: string[] = [];
  let lookedUp: number[] = [];
  let published = 0;
  /** What a send waits for first (the race test holds both consumers there). */
  let beforeSend: (serviceId: string) => Promise<void> = async () => {};

  const vis = {
    settings: {
      portName: 'Test',
      portUnlocode: 'FITST',
      rtaPointLocationName: 'Pilot',
      syncPointLat: 60,
      syncPointLon: 20,
      syncPointRadius: 1000,
    },
    async sendText(to: { service_id: string }) {
      await beforeSend(to.service_id);
      sent.push(to.service_id);
      return `urn:mrn:stm:txt:${to.service_id}:${sent.length}`;
    },
  } as unknown as VisCommandSet;
  const transport = () =>
    ({
      mode: 'direct',
      async findServices(filter: { imo?: number }) {
        lookedUp.push(filter.imo ?? 0);
        return [];
      },
    }) as unknown as VisTransport;

  /**
   * The portcall-projector's lookup of port calls by id (its RPC), served on each test's bus from the test's copy of
   * its table (outside the statements counted: the watch reads no projector table).
   */
  const served = new WeakSet<InProcessBus>();
  async function serveProjectorLookup(): Promise<void> {
    if (served.has(bus)) return;
    served.add(bus);
    await bus.serveRpc(PORTCALL_PROJECTOR, async (command, payload) => {
      if (command !== PortcallLookups.portCallsByIds) throw new Error(`unexpected ${command}`);
      const { ids } = (payload as { input: { ids: number[] } }).input;
      const { rows } = await raw.query(
        `SELECT id::int AS id, imo::int AS imo, vessel_name, status,
                to_char(current_eta AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') AS current_eta,
                to_char(current_etd AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"') AS current_etd,
                next_port, is_vis
           FROM portcall.port_calls WHERE id = ANY($1::bigint[])`,
        [ids],
      );
      return rows;
    });
  }

  async function watch(name: string, db: Db = raw): Promise<void> {
    await serveProjectorLookup();
    const deps: ServiceDeps = { config: loadConfig({}), db, store, bus, log };
    consumers.push(await startPortCallWatch(deps, vis, transport, { name }));
  }

  /** The signals, published together so they reach the consumer as one batch; `ids` are reused for redeliveries. */
  function signal(portCallIds: readonly number[], ids: readonly (string | undefined)[] = []): Promise<string[]> {
    const messageIds = portCallIds.map(
      (_, i) => ids[i] ?? `00000000-0000-4000-8000-${String(++published).padStart(12, '0')}`,
    );
    return Promise.all(
      portCallIds.map((port_call_id, i) =>
        bus.publish(
          PORTCALL_CHANGED_ROUTING_KEY,
          {
            id: messageIds[i],
            streamId: PORTCALL_CHANGES_STREAM,
            streamPosition: 1,
            globalPosition: 1,
            type: 'PortCallChanged',
            data: { port_call_id, imo: 9_000_000 + port_call_id, deleted: false },
            metadata: {},
            created: new Date().toISOString(),
          },
          { messageId: messageIds[i] as string },
        ),
      ),
    ).then(() => messageIds);
  }

  async function portCall(id: number, fields: { status?: string; is_vis?: boolean; eta?: string | null } = {}) {
    await raw.query(
      `INSERT INTO portcall.port_calls (id, imo, vessel_name, status, current_eta, is_vis) VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        id,
        9_000_000 + id,
        `Vessel ${id}`,
        fields.status ?? 'planned',
        fields.eta === undefined ? ETA : fields.eta,
        fields.is_vis ?? false,
      ],
    );
  }

  async function vessel(imo: number, serviceId: string, url = 'http://ship.invalid/vis') {
    await raw.query('INSERT INTO vis.vessels (imo, vessel_name, service_id, service_url) VALUES ($1, $2, $3, $4)', [
      imo,
      'Ship',
      serviceId,
      url,
    ]);
  }

  /** The markers stored, by port call id (each is a VoyagePlanRequested on its visportcall stream). */
  async function markers(): Promise<Record<number, number>> {
    const { rows } = await raw.query<{ port_call_id: number; n: number }>(
      `SELECT (data->>'port_call_id')::int AS port_call_id, count(*)::int AS n FROM eventstore.events
        WHERE event_type = 'VoyagePlanRequested' GROUP BY 1 ORDER BY 1`,
    );
    return Object.fromEntries(rows.map((r) => [r.port_call_id, r.n]));
  }

  async function requested(): Promise<number[]> {
    const { rows } = await raw.query<{ id: number }>(
      'SELECT port_call_id::int AS id FROM vis.port_calls WHERE voyage_plan_requested ORDER BY 1',
    );
    return rows.map((r) => r.id);
  }

  beforeAll(async () => {
    pg = await freshPostgres('pcas_vis_portcalls');
    raw = await openDb(pg.url ? { url: pg.url, poolSize: 8 } : { dataDir: 'memory://' });
    store = createEventStore(raw);
    await store.init();
    await ensureSchema(raw);
    // The projector's read model, the columns its lookup answers with (served by the test below).
    await raw.query('CREATE SCHEMA IF NOT EXISTS portcall');
    await raw.query(`CREATE TABLE portcall.port_calls (
      id bigint PRIMARY KEY, imo bigint NOT NULL, vessel_name text NOT NULL DEFAULT '', status text NOT NULL,
      current_eta timestamptz NULL, current_etd timestamptz NULL, next_port text NULL,
      is_vis boolean NOT NULL DEFAULT false)`);
  }, 60_000);

  afterEach(async () => {
    for (const c of consumers.splice(0)) await c.stop();
    await bus?.close();
    sent = [];
    lookedUp = [];
    beforeSend = async () => {};
  });

  afterAll(async () => {
    await raw?.close();
    await pg?.drop();
  });

  it('handles a batch in one read and one transaction, one marker per port call even when redelivered', async () => {
    bus = createInProcessBus({ log });
    const { db, statements } = counting(raw);
    await watch('vis-bridge-portcalls-batch', db);
    await vessel(9_000_001, 'urn:ship:1');
    await vessel(9_000_002, 'urn:ship:2-old');
    await vessel(9_000_002, 'urn:ship:2');
    await raw.query("UPDATE vis.vessels SET modified_at = now() + interval '1 minute' WHERE service_id = 'urn:ship:2'");
    await vessel(9_000_003, 'urn:ship:3-no-url', '');
    await portCall(1); // a VIS service: asked
    await portCall(2); // two services: the newest asked
    await portCall(3); // a service without a URL: not asked, marked
    await portCall(4); // no service: marked
    await portCall(5, { is_vis: true }); // reports through VIS, service unknown: looked up, marked
    await portCall(6, { status: 'departed' }); // closed: nothing
    await portCall(7, { eta: null }); // no ETA yet: nothing

    // Port call 1 changed three times in the batch, 99 is gone (deleted meanwhile).
    const first = await signal([1, 2, 1, 3, 4, 5, 6, 7, 1, 99]);
    expect(statements).toEqual([
      'SELECT k.id::int AS id,',
      'BEGIN',
      'WITH locks AS MATERIALIZED', // the five markers' append
      'INSERT INTO vis.port_calls (port_call_id,',
      'COMMIT',
    ]);
    expect(sent.sort()).toEqual(['urn:ship:1', 'urn:ship:2']);
    expect(lookedUp).toEqual([9_000_005]);
    expect(await markers()).toEqual({ 1: 1, 2: 1, 3: 1, 4: 1, 5: 1 });
    expect(await requested()).toEqual([1, 2, 3, 4, 5]);
    const { rows } = await raw.query<{ port_call_id: number; service_id: string | null; message_id: string | null }>(
      `SELECT (data->>'port_call_id')::int AS port_call_id, data->>'service_id' AS service_id,
              data->>'message_id' AS message_id
         FROM eventstore.events WHERE event_type = 'VoyagePlanRequested' ORDER BY 1`,
    );
    expect(rows.map((r) => [r.port_call_id, r.service_id, r.message_id !== null])).toEqual([
      [1, 'urn:ship:1', true],
      [2, 'urn:ship:2', true],
      [3, 'urn:ship:3-no-url', false],
      [4, null, false],
      [5, null, false],
    ]);

    // The same signals again (a redelivery) with a new port call among them: only that one is asked and marked.
    statements.length = 0;
    await portCall(8);
    await vessel(9_000_008, 'urn:ship:8');
    await signal([1, 2, 8, 3], [first[0], first[1], undefined, first[3]]);
    expect(sent.sort()).toEqual(['urn:ship:1', 'urn:ship:2', 'urn:ship:8']);
    expect(statements.filter((s) => s === 'BEGIN')).toHaveLength(1);
    expect(await markers()).toEqual({ 1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 8: 1 });

    // Only signals of port calls asked before: one read, nothing written.
    statements.length = 0;
    await signal([1, 2, 3]);
    expect(statements).toEqual(['SELECT k.id::int AS id,']);
    expect(sent).toHaveLength(3);
  });

  it('stores a marker once when two consumers handle the same port calls at the same time', async () => {
    bus = createInProcessBus({ log });
    await watch('vis-bridge-portcalls-a');
    await watch('vis-bridge-portcalls-b');
    const ids = [21, 22, 23, 24, 25, 26];
    for (const id of ids) {
      await portCall(id);
      await vessel(9_000_000 + id, `urn:ship:${id}`);
    }
    // Each send waits until the other consumer's send of the same port call came too: both read the port call
    // before either recorded its marker, so only the append can keep the second one out.
    const waiting = new Map<string, () => void>();
    beforeSend = (serviceId) =>
      new Promise<void>((resolve) => {
        const other = waiting.get(serviceId);
        if (other) {
          other();
          resolve();
        } else {
          waiting.set(serviceId, resolve);
          // Only against a hang should the other never come: a loaded machine may be seconds behind.
          setTimeout(resolve, 20_000);
        }
      });
    await signal([...ids, 21, 23]);
    expect(sent.sort()).toEqual(ids.flatMap((id) => [`urn:ship:${id}`, `urn:ship:${id}`]));
    const stored = await markers();
    expect(ids.map((id) => stored[id])).toEqual([1, 1, 1, 1, 1, 1]);
    expect(await requested()).toEqual(expect.arrayContaining(ids));
  });

  it('records the other port calls of a batch when one marker cannot be stored, and tries that one again', async () => {
    bus = createInProcessBus({ log, retryBaseMs: 1 });
    await raw.query(`CREATE FUNCTION vis_test_refuse_31() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.port_call_id = 31 THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`);
    await raw.query(
      'CREATE TRIGGER refuse_31 BEFORE INSERT ON vis.port_calls FOR EACH ROW EXECUTE FUNCTION vis_test_refuse_31()',
    );
    try {
      await watch('vis-bridge-portcalls-failing');
      for (const id of [30, 31, 32]) {
        await portCall(id);
        await vessel(9_000_000 + id, `urn:ship:${id}`);
      }
      await signal([30, 31, 32]);
      const stored = await markers();
      expect([stored[30], stored[31], stored[32]]).toEqual([1, undefined, 1]);
      // 30 and 32 asked once (the batch, then each alone from their marker); 31 on each of its attempts.
      expect(sent.filter((s) => s !== 'urn:ship:31').sort()).toEqual(['urn:ship:30', 'urn:ship:32']);
      expect(sent.filter((s) => s === 'urn:ship:31').length).toBeGreaterThan(1);
      expect(bus.deadLetters('vis-bridge-portcalls-failing')).toHaveLength(1);
    } finally {
      await raw.query('DROP TRIGGER refuse_31 ON vis.port_calls');
      await raw.query('DROP FUNCTION vis_test_refuse_31()');
    }
  });
});
