// The peer verifier on PostgreSQL, as two gateway processes run it (two pools on one database): a captured request
// sent to both at once is taken exactly once, a refusal writes nothing, the requests remembered are forgotten once
// expired, and a request from a peer not linked is refused.

import { createEventStore } from '@pcas/eventstore';
import { type Db, openDb } from '@pcas/sql';
import { freshPostgres, type PostgresForTest } from '@pcas/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePeerSchema } from '../adapters/peer-schema.ts';
import { linkPeer } from '../adapters/peer-store.ts';
import { ensureSchema } from '../adapters/schema.ts';
import { signedHeaders } from '../domain/signature.ts';
import { createPeerVerifier, REPLAY_REFUSAL } from './peer-verifier.ts';

const A = 'urn:mrn:stm:service:instance:test:port-a';
const B = 'urn:mrn:stm:service:instance:test:port-b';
const SECRET = 'Shared-secret-of-port-A-and-port-B-2026';
const options = { ownServiceId: B, skewSeconds: 300 };
let nonces = 0;

function fromA(secret = SECRET) {
  const nonce = `int-nonce-${String(++nonces).padStart(8, '0')}`;
  const body = { messages: [{ message_id: `m-${nonces}`, operation: 'textMessage', body: { message: '<x/>' } }] };
  const headers = signedHeaders(
    { sender: A, recipient: B, secret },
    { method: 'POST', path: '/batch', body },
    Date.now(),
    nonce,
  );
  return { method: 'POST', path: '/batch', headers, body };
}

const seenRows = async (db: Db) =>
  (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM vis.peer_requests_seen')).rows[0].n;

describe('the peer verifier (PostgreSQL)', () => {
  let pg: PostgresForTest;
  let one: Db;
  let other: Db;

  beforeAll(async () => {
    pg = await freshPostgres('pcas_vis_verifier');
    one = await openDb(pg.url ? { url: pg.url, poolSize: 8 } : { dataDir: 'memory://' });
    other = pg.url ? await openDb({ url: pg.url, poolSize: 8 }) : one;
    const store = createEventStore(one);
    await store.init();
    await ensureSchema(one);
    await ensurePeerSchema(one);
    // Before the link: no peer, so a refusal.
    const early = await createPeerVerifier(one, options).verify(fromA());
    expect(early).toEqual({ ok: false, status: 401, reason: `Unknown VIS peer: ${A}` });
    await linkPeer(one, store, { service_id: A, url: 'http://port-a.invalid/vis', secret: SECRET }, {});
  }, 60_000);

  afterAll(async () => {
    if (other !== one) await other?.close();
    await one?.close();
    await pg?.drop();
  });

  it('takes a captured request sent to two processes at once exactly once', async () => {
    const here = createPeerVerifier(one, options);
    const there = createPeerVerifier(other, options);
    const captured = fromA();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? here : there).verify(captured)),
    );
    expect(answers.filter((a) => a.ok)).toEqual([{ ok: true, sender: A, version: '2' }]);
    expect(answers.filter((a) => !a.ok)).toEqual(
      Array.from({ length: 19 }, () => ({ ok: false, status: 409, reason: REPLAY_REFUSAL })),
    );
    // Another request with the same content is new.
    expect(await there.verify(fromA())).toMatchObject({ ok: true });
  });

  it('writes nothing for a refused request', async () => {
    const before = await seenRows(one);
    const verifier = createPeerVerifier(one, options);
    expect(await verifier.verify(fromA('Not-the-shared-secret-of-A-and-B-0000'))).toMatchObject({ status: 403 });
    expect(await verifier.verify({ ...fromA(), headers: {} })).toMatchObject({ status: 401 });
    expect(await seenRows(one)).toBe(before);
  });

  it('forgets the remembered requests whose time has expired, when it next loads the keys', async () => {
    await one.query(
      "INSERT INTO vis.peer_requests_seen (signature, expires_at) VALUES ('expired', now() - interval '1 second')",
    );
    const kept = await seenRows(one);
    expect(kept).toBeGreaterThan(1);
    // A new verifier loads at its first keyed request.
    expect(await createPeerVerifier(one, options).verify(fromA())).toMatchObject({ ok: true });
    const { rows } = await one.query<{ signature: string }>(
      "SELECT signature FROM vis.peer_requests_seen WHERE signature = 'expired'",
    );
    expect(rows).toEqual([]);
    expect(await seenRows(one)).toBe(kept);
  });
});
