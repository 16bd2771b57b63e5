// The verifier the gateway runs before anything else, on a stand-in store: a request is taken once (the same
// request again is refused, at this gateway process or another sharing the store), a refusal remembers nothing,
// and the keys are loaded at most once per interval however many requests come, known or not.

import { describe, expect, it } from 'vitest';
import { PEER_HEADERS, signedHeaders } from '../domain/signature.ts';
import { type PeerRequestStore, peerVerifierOver, REPLAY_REFUSAL } from './peer-verifier.ts';

const A = 'urn:mrn:stm:service:instance:port-a';
const B = 'urn:mrn:stm:service:instance:port-b';
const SECRET = 'Shared-secret-of-port-A-and-port-B-2026';
const body = { messages: [] };
let nonces = 0;

function fromA(at: number, secret = SECRET) {
  const nonce = `nonce-${String(++nonces).padStart(12, '0')}`;
  const headers = signedHeaders(
    { sender: A, recipient: B, secret },
    { method: 'POST', path: '/batch', body },
    at,
    nonce,
  );
  return { method: 'POST', path: '/batch', headers, body };
}

/** The database's part, in memory: the peers' secrets and the requests remembered (shared, as the table is). */
function store(peers: Record<string, string> = { [A]: SECRET }) {
  const seen = new Map<string, number>();
  let loads = 0;
  const s: PeerRequestStore & { seen: typeof seen; loads(): number; peers: typeof peers } = {
    peers,
    seen,
    loads: () => loads,
    async secrets() {
      loads++;
      return Object.entries(peers).map(([service_id, secret]) => ({ service_id, secret }));
    },
    async remember(signature, until) {
      if (seen.has(signature)) return false;
      seen.set(signature, until);
      return true;
    },
    async forgetExpired() {},
  };
  return s;
}

describe('the peer verifier', () => {
  let clock = Date.parse('2026-11-27T08:00:00Z');
  const now = () => clock;
  const options = { ownServiceId: B, skewSeconds: 300, refreshMs: 2_000, now };

  it('takes a request once: the same request again is refused with 409, here and at another process', async () => {
    const shared = store();
    const here = peerVerifierOver(shared, options);
    const there = peerVerifierOver(shared, options);
    const captured = fromA(clock);
    expect(await here.verify(captured)).toEqual({ ok: true, sender: A, version: '2' });
    expect(await here.verify(captured)).toEqual({ ok: false, status: 409, reason: REPLAY_REFUSAL });
    expect(await there.verify(captured)).toEqual({ ok: false, status: 409, reason: REPLAY_REFUSAL });
    // Remembered by its signature until its time has left the window (and a minute more).
    expect([...shared.seen]).toEqual([
      [captured.headers[PEER_HEADERS.signature], Number(captured.headers[PEER_HEADERS.timestamp]) + 360],
    ]);
    // The same content signed again is a new request.
    expect(await here.verify(fromA(clock))).toMatchObject({ ok: true });
  });

  it('remembers nothing of a refused request, and loads no key for one that is not signed', async () => {
    const s = store();
    const verifier = peerVerifierOver(s, options);
    const unsigned = { method: 'POST', path: '/batch', headers: {}, body };
    expect(await verifier.verify(unsigned)).toMatchObject({ ok: false, status: 401 });
    expect(s.loads()).toBe(0);
    expect(await verifier.verify(fromA(clock, 'Not-the-shared-secret-of-A-and-B-0000'))).toEqual({
      ok: false,
      status: 403,
      reason: 'Invalid VIS peer signature',
    });
    const reflected = fromA(clock);
    expect(await peerVerifierOver(s, { ...options, ownServiceId: A }).verify(reflected)).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(s.seen.size).toBe(0);
  });

  it('loads the keys at most once per interval, one load at a time, for known and unknown senders alike', async () => {
    const s = store();
    const verifier = peerVerifierOver(s, options);
    const stranger = (i: number) => {
      const request = fromA(clock);
      return { ...request, headers: { ...request.headers, [PEER_HEADERS.serviceId]: `urn:stranger:${i}` } };
    };
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => verifier.verify(stranger(i))));
    expect(answers.every((a) => !a.ok && a.status === 401 && a.reason.startsWith('Unknown VIS peer'))).toBe(true);
    expect(await verifier.verify(fromA(clock))).toMatchObject({ ok: true });
    expect(s.loads()).toBe(1);
    clock += 1_999;
    await verifier.verify(stranger(51));
    expect(s.loads()).toBe(1);
    clock += 1;
    await verifier.verify(stranger(52));
    expect(s.loads()).toBe(2);
  });

  it('knows a peer linked since within the interval, or at once after invalidate', async () => {
    const s = store({});
    const verifier = peerVerifierOver(s, options);
    expect(await verifier.verify(fromA(clock))).toMatchObject({ ok: false, status: 401 });
    s.peers[A] = SECRET;
    expect(await verifier.verify(fromA(clock))).toMatchObject({ ok: false, status: 401 });
    verifier.invalidate();
    expect(await verifier.verify(fromA(clock))).toMatchObject({ ok: true });
    // A new secret: the old one's requests are refused once the interval has passed.
    s.peers[A] = 'A-new-secret-of-port-A-and-port-B-2027';
    clock += 2_000;
    expect(await verifier.verify(fromA(clock))).toMatchObject({ ok: false, status: 403 });
    expect(await verifier.verify(fromA(clock, s.peers[A]))).toMatchObject({ ok: true });
  });
});
