import { describe, expect, it } from 'vitest';
import {
  directionKey,
  edgeForm,
  PEER_HEADERS,
  REPLAY_GRACE_SECONDS,
  sign,
  signedHeaders,
  verifyPeerRequest,
} from './signature.ts';

const A = 'urn:mrn:stm:service:instance:port-a';
const B = 'urn:mrn:stm:service:instance:port-b';
const C = 'urn:mrn:stm:service:instance:port-c';
/** What A shares with B (and, in one case below, with C too). */
const secret = 'Shared-secret-of-port-A-and-port-B-2026';
const now = Date.parse('2026-11-27T08:00:00Z');
const body = { messages: [{ message_id: 'm-1', operation: 'textMessage', body: { message: '<x/>' } }] };
const NONCE = '0123456789abcdef0123456789abcdef';

/** What the check answers when it refuses a request. */
const refusal = (status: 401 | 403, reason: string) => ({ ok: false, status, reason });

/** A request as it arrives: method, path, headers, body. */
type Arrival = { method: string; path: string; headers: Record<string, string | undefined>; body: unknown };

/** A request `from` signs for `to` at `at`. */
function request(from: string, to: string, at = now, nonce = NONCE, useSecret = secret) {
  const link = { sender: from, recipient: to, secret: useSecret };
  const headers = signedHeaders(link, { method: 'POST', path: '/batch', body }, at, nonce);
  return { method: 'POST', path: '/batch', headers, body };
}

/** The check at port `self`, whose peers are `peers` (service id → the secret shared with it). */
function at(self: string, peers: Record<string, string> = { [A]: secret, [B]: secret }, skewSeconds = 300) {
  const looked: string[] = [];
  const context = {
    ownServiceId: self,
    inboundKey: (sender: string) => {
      looked.push(sender);
      return peers[sender] === undefined ? undefined : directionKey(peers[sender], { sender, recipient: self });
    },
    nowMs: now,
    skewSeconds,
  };
  return { check: (r: Arrival) => verifyPeerRequest(r, context), looked };
}

const withHeaders = (r: Arrival, changes: Record<string, string | undefined>): Arrival => ({
  ...r,
  headers: { ...r.headers, ...changes },
});

describe('edgeForm', () => {
  it('edgeForm trims top-level strings as the edge does, nested ones stay', () => {
    expect(edgeForm({ a: ' x ', b: { c: ' y ' }, d: undefined })).toEqual({ a: 'x', b: { c: ' y ' } });
  });
});

describe('directionKey', () => {
  it('gives each direction its own key, none of them the secret', () => {
    const ab = directionKey(secret, { sender: A, recipient: B });
    expect(ab).toHaveLength(32);
    expect(ab.equals(directionKey(secret, { sender: A, recipient: B }))).toBe(true);
    expect(ab.equals(directionKey(secret, { sender: B, recipient: A }))).toBe(false);
    expect(ab.equals(directionKey(secret, { sender: A, recipient: C }))).toBe(false);
    expect(ab.equals(directionKey(`${secret}!`, { sender: A, recipient: B }))).toBe(false);
    expect(ab.toString('utf8')).not.toContain(secret);
  });
});

describe('verifyPeerRequest', () => {
  it('accepts at B a request A signed for B within the window, naming its sender and how long to remember it', () => {
    const sent = request(A, B);
    expect(sent.headers).toMatchObject({
      [PEER_HEADERS.version]: '2',
      [PEER_HEADERS.serviceId]: A,
      [PEER_HEADERS.recipient]: B,
      [PEER_HEADERS.nonce]: NONCE,
    });
    const verdict = at(B).check(sent);
    expect(verdict).toEqual({
      ok: true,
      sender: A,
      replayKey: sent.headers[PEER_HEADERS.signature],
      rememberUntil: now / 1000 + 300 + REPLAY_GRACE_SECONDS,
    });
    expect(at(B).check(request(A, B, now - 299_000))).toMatchObject({ ok: true });
  });

  it('refuses a reflected request: A→B sent back to A, as it was or claiming to come from B', () => {
    const captured = request(A, B);
    expect(at(A).check(captured)).toEqual(refusal(403, `VIS peer request is addressed to ${B}, not to this port`));
    // The headers turned around: B is a peer of A with the same secret, but the key of B→A is not that of A→B.
    const reflected = withHeaders(captured, { [PEER_HEADERS.serviceId]: B, [PEER_HEADERS.recipient]: A });
    expect(at(A).check(reflected)).toEqual(refusal(403, 'Invalid VIS peer signature'));
    // What B would really send to A verifies, so the refusal above is the direction's doing.
    expect(at(A).check(request(B, A))).toMatchObject({ ok: true, sender: B });
  });

  it('refuses a request addressed to another service id, and one whose recipient was changed', () => {
    // A shares the same secret with B and C: what it signed for C is not taken at B.
    const forC = request(A, C);
    expect(at(B).check(forC)).toEqual(refusal(403, `VIS peer request is addressed to ${C}, not to this port`));
    expect(at(B).check(withHeaders(forC, { [PEER_HEADERS.recipient]: B }))).toEqual(
      refusal(403, 'Invalid VIS peer signature'),
    );
    expect(at(B).check(withHeaders(forC, { [PEER_HEADERS.recipient]: undefined }))).toEqual(
      refusal(401, 'VIS peer request names no recipient'),
    );
  });

  it('refuses another signature version, saying which version each side speaks', () => {
    const sent = request(A, B);
    // A port of an earlier version sends no version header.
    expect(at(B).check(withHeaders(sent, { [PEER_HEADERS.version]: undefined }))).toEqual(
      refusal(401, 'VIS signature version 1 is not supported here; this port speaks version 2'),
    );
    expect(at(B).check(withHeaders(sent, { [PEER_HEADERS.version]: '3' }))).toEqual(
      refusal(401, 'VIS signature version 3 is not supported here; this port speaks version 2'),
    );
    expect(at(B).check(withHeaders(sent, { [PEER_HEADERS.version]: 'v2\n<b>' }))).toMatchObject({
      reason: 'VIS signature version "v2\\n<b>" is not supported here; this port speaks version 2',
    });
  });

  it('gives the same request the same replay key, and the same content signed again another', () => {
    const first = at(B).check(request(A, B));
    const again = at(B).check(request(A, B));
    const resigned = at(B).check(request(A, B, now, 'fedcba9876543210fedcba9876543210'));
    expect(first.ok && again.ok && resigned.ok).toBe(true);
    if (!first.ok || !again.ok || !resigned.ok) return;
    expect(again.replayKey).toBe(first.replayKey);
    expect(resigned.replayKey).not.toBe(first.replayKey);
  });

  it('refuses an unsigned request with 401 before looking for a key', () => {
    const check = at(B);
    const sent = request(A, B);
    expect(check.check(withHeaders(sent, { [PEER_HEADERS.signature]: undefined }))).toEqual(
      refusal(401, 'VIS peer request is not signed'),
    );
    expect(check.check(withHeaders(sent, { [PEER_HEADERS.serviceId]: '' }))).toMatchObject({ status: 401 });
    expect(check.check(withHeaders(sent, { [PEER_HEADERS.timestamp]: 'soon' }))).toEqual(
      refusal(401, 'Invalid VIS peer request time'),
    );
    expect(check.check(withHeaders(sent, { [PEER_HEADERS.nonce]: undefined }))).toEqual(
      refusal(401, 'Invalid VIS peer request nonce'),
    );
    expect(check.looked).toEqual([]);
  });

  it('refuses a request outside the clock-skew window with 401 (a replay later on)', () => {
    expect(at(B).check(request(A, B, now - 301_000))).toEqual(
      refusal(401, 'VIS peer request time is outside the allowed window'),
    );
    expect(at(B).check(request(A, B, now + 301_000))).toMatchObject({ status: 401 });
  });

  it('refuses a sender that is not a peer with 401', () => {
    expect(at(B, { [C]: secret }).check(request(A, B))).toEqual(refusal(401, `Unknown VIS peer: ${A}`));
  });

  it('refuses with 403 a wrong secret, a changed body, path, method, time or nonce', () => {
    const good = request(A, B);
    expect(at(B).check(request(A, B, now, NONCE, 'Another-secret-entirely-0123456789'))).toEqual(
      refusal(403, 'Invalid VIS peer signature'),
    );
    const changed = { messages: [{ ...body.messages[0], body: { message: '<y/>' } }] };
    expect(at(B).check({ ...good, body: changed })).toMatchObject({ status: 403 });
    expect(at(B).check({ ...good, path: '/messages' })).toMatchObject({ status: 403 });
    expect(at(B).check({ ...good, method: 'PUT' })).toMatchObject({ status: 403 });
    const later = String(Number(good.headers[PEER_HEADERS.timestamp]) + 1);
    expect(at(B).check(withHeaders(good, { [PEER_HEADERS.timestamp]: later }))).toMatchObject({ status: 403 });
    const nonce = 'ffffffffffffffffffffffffffffffff';
    expect(at(B).check(withHeaders(good, { [PEER_HEADERS.nonce]: nonce }))).toMatchObject({ status: 403 });
    expect(at(B).check(withHeaders(good, { [PEER_HEADERS.signature]: 'not-hex' }))).toMatchObject({ status: 403 });
  });

  it('signs the method in any case alike and the body in any key order alike', () => {
    const key = directionKey(secret, { sender: A, recipient: B });
    const signed = { sender: A, recipient: B, path: '/batch', timestamp: '1790000000', nonce: NONCE };
    const a = sign(key, { ...signed, method: 'post', body: { a: 1, b: 2 } });
    const b = sign(key, { ...signed, method: 'POST', body: { b: 2, a: 1 } });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });
});
