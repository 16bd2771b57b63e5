// GET /ongoing-port-calls' callers' pins against real PostgreSQL: none while the notifier has not created its
// table (a gateway may start first), then each caller's own list in order from the next call on, read within the
// shared check for a whole batch of callers, and the document without pins made once.

import { gunzipSync } from 'node:zlib';
import { pinnedVessels } from '@pcas/notifier/queries';
import { type Db, openDb } from '@pcas/sql';
import { freshPostgres, type PostgresForTest } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureGatewaySchema } from '../schema.ts';
import { createOngoingPortCalls } from './port-calls.ts';

// The projector and the notifier own these tables; a minimal copy of their shape stands in for them here.
const PORT_CALLS = [
  'CREATE SCHEMA IF NOT EXISTS portcall',
  `CREATE TABLE portcall.port_calls (id bigint PRIMARY KEY, shown boolean NOT NULL, status text NOT NULL,
    atd timestamptz, next_event_ts timestamptz, current_eta timestamptz, ship jsonb NOT NULL, timeline jsonb NOT NULL)`,
];
const PINS = [
  'CREATE SCHEMA IF NOT EXISTS notifier',
  `CREATE TABLE notifier.pinned_vessels (user_id bigint NOT NULL, imo bigint NOT NULL, position int NOT NULL,
    PRIMARY KEY (user_id, imo))`,
];

const A = 9074729;
const B = 9176187;

describe('the callers’ pins of GET /ongoing-port-calls', () => {
  let pg: PostgresForTest;
  let db: Db;

  beforeAll(async () => {
    pg = await freshPostgres('pcas_gw_pins');
    db = pg.url ? await openDb({ url: pg.url }) : await openDb({ dataDir: 'memory://' });
    await ensureGatewaySchema(db);
    for (const statement of PORT_CALLS) await db.query(statement);
  });
  afterAll(async () => {
    await db?.close();
    await pg?.drop();
  });

  it('are none until a user pins, then read fresh on every call', async () => {
    for (const statement of PINS) await db.query(statement);
    const ongoing = createOngoingPortCalls(db);
    expect((await ongoing(1)).pinned).toEqual([]); // built
    expect((await ongoing(1)).pinned).toEqual([]); // checked
    expect(await pinnedVessels(db, 1)).toEqual([]);

    await db.query('INSERT INTO notifier.pinned_vessels VALUES (1, $1, 0), (1, $2, 1), (2, $2, 0)', [B, A]);
    expect((await ongoing(1)).pinned).toEqual([B, A]); // the check read them
    expect(await pinnedVessels(db, 1)).toEqual([B, A]);

    // One batch of callers, one check: each gets its own list and all the same document.
    const batch = await Promise.all([ongoing(1), ongoing(2), ongoing(3), ongoing(null), ongoing(1)]);
    expect(batch.map((o) => o.pinned)).toEqual([[B, A], [A], [], [], [B, A]]);
    expect(new Set(batch.map((o) => o.body)).size).toBe(1);

    await db.query('DELETE FROM notifier.pinned_vessels WHERE user_id = 1');
    await db.query('INSERT INTO notifier.pinned_vessels VALUES (2, $1, 1)', [B]);
    const [one, two] = await Promise.all([ongoing(1), ongoing(2)]);
    expect([one.pinned, two.pinned]).toEqual([[], [A, B]]);
  });

  it('makes the document without pins once, and splices a caller’s pins into the same head', async () => {
    const { body } = await createOngoingPortCalls(db)(null);
    expect(body.gzipped([])).toBe(body.gzipped([]));
    expect(body.json([])).toBe(body.json([]));
    expect(JSON.parse(gunzipSync(body.gzipped([])).toString())).toEqual({ portcalls: [], pinned_vessels: [] });
    expect(JSON.parse(gunzipSync(body.gzipped([B, A])).toString())).toEqual({ portcalls: [], pinned_vessels: [B, A] });
    expect(JSON.parse(body.json([A]).toString())).toEqual({ portcalls: [], pinned_vessels: [A] });
  });
});
