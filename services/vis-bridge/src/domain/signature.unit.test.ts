import { describe, expect, it } from 'vitest';
import { canonicalJson, edgeForm, PEER_HEADERS, sign, signedHeaders, verify } from './signature.ts';

const secret = 'shared-secret-of-a-and-b';
const now = Date.parse('2026-11-27T08:00:00Z');
const body = { messages: [{ message_id: 'm-1', operation: 'textMessage', body: { message: '<x/>' } }] };

function signedAt(at: number, overrides: Partial<{ body: unknown; path: string; method: string }> = {}) {
  const headers = signedHeaders('urn:port:a', secret, { method: 'POST', path: '/messages', body }, at);
  return {
    method: overrides.method ?? 'POST',
    path: overrides.path ?? '/messages',
    body: overrides.body ?? body,
    timestamp: headers[PEER_HEADERS.timestamp],
    signature: headers[PEER_HEADERS.signature],
  };
}

describe('canonicalJson', () => {
  it('orders keys at every depth and leaves out absent values, so equal values sign alike', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson(JSON.parse('{"b":2,"a":1}')));
  });

  it('edgeForm trims top-level strings as the edge does, nested ones stay', () => {
    expect(edgeForm({ a: ' x ', b: { c: ' y ' }, d: undefined })).toEqual({ a: 'x', b: { c: ' y ' } });
  });
});

describe('verify', () => {
  it('accepts a request signed with the shared secret within the window', () => {
    expect(verify(secret, signedAt(now), now, 300)).toEqual({ ok: true });
    expect(verify(secret, signedAt(now - 299_000), now, 300)).toEqual({ ok: true });
  });

  it('refuses an unsigned request with 401', () => {
    const request = { ...signedAt(now), signature: undefined };
    expect(verify(secret, request, now, 300)).toMatchObject({ ok: false, status: 401 });
    expect(verify(secret, { ...signedAt(now), timestamp: '' }, now, 300)).toMatchObject({ ok: false, status: 401 });
  });

  it('refuses a request outside the clock-skew window with 401 (a replay later on)', () => {
    const verdict = verify(secret, signedAt(now - 301_000), now, 300);
    expect(verdict).toEqual({ ok: false, status: 401, reason: 'VIS peer request time is outside the allowed window' });
    expect(verify(secret, signedAt(now + 301_000), now, 300)).toMatchObject({ status: 401 });
  });

  it('refuses with 403 a wrong secret, a changed body, path, method or time', () => {
    const good = signedAt(now);
    expect(verify('another-secret', good, now, 300)).toEqual({
      ok: false,
      status: 403,
      reason: 'Invalid VIS peer signature',
    });
    const changed = { messages: [{ ...body.messages[0], body: { message: '<y/>' } }] };
    expect(verify(secret, { ...good, body: changed }, now, 300)).toMatchObject({ status: 403 });
    expect(verify(secret, { ...good, path: '/textMessage' }, now, 300)).toMatchObject({ status: 403 });
    expect(verify(secret, { ...good, method: 'PUT' }, now, 300)).toMatchObject({ status: 403 });
    expect(verify(secret, { ...good, timestamp: String(Number(good.timestamp) + 1) }, now, 300)).toMatchObject({
      status: 403,
    });
    expect(verify(secret, { ...good, signature: 'not-hex' }, now, 300)).toMatchObject({ status: 403 });
  });

  it('signs the method in any case alike and the body in any key order alike', () => {
    const timestamp = '1790000000';
    const a = sign(secret, { method: 'post', path: '/messages', timestamp, body: { a: 1, b: 2 } });
    const b = sign(secret, { method: 'POST', path: '/messages', timestamp, body: { b: 2, a: 1 } });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });
});
