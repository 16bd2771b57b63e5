// The peer client against a stand-in peer on loopback: batches go to `/batch` (whose answer carries the
// acknowledgements); a peer that does not know that path (404, an earlier version) gets `/messages`, signed for
// that path, and is not asked at `/batch` again for a while. Each post is signed from us to that peer, anew.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { directionKey, PEER_HEADERS, verifyPeerRequest } from '../domain/signature.ts';
import { httpPostBatch } from './peer-client.ts';

const SECRET = 'a-secret-of-thirty-two-characters-or-more';
const US = 'urn:us';
const PEER = 'urn:peer';
const batch = [{ seq: 1, message_id: 'm1', operation: 'textMessage' as const, body: { message: '<x/>' }, bytes: 20 }];

describe('httpPostBatch', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function peer(known: readonly string[]) {
    const seen: { path: string; verified: boolean; signature: unknown }[] = [];
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => {
        text += chunk;
      });
      req.on('end', () => {
        const path = (req.url ?? '').replace(/^\/vis/, '');
        const verdict = verifyPeerRequest(
          { method: 'POST', path, headers: req.headers, body: JSON.parse(text) },
          {
            ownServiceId: PEER,
            inboundKey: (sender) => (sender === US ? directionKey(SECRET, { sender, recipient: PEER }) : undefined),
            nowMs: Date.now(),
            skewSeconds: 60,
          },
        );
        seen.push({ path, verified: verdict.ok, signature: req.headers[PEER_HEADERS.signature] });
        res.writeHead(known.includes(path) ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify(known.includes(path) ? { results: [{ message_id: 'm1', status: 'stored' }] } : {}));
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/vis`;
    return { seen, link: { service_id: PEER, url, secret: SECRET } };
  }

  it('posts to /batch, signed for it', async () => {
    const { seen, link } = await peer(['/batch', '/messages']);
    const post = httpPostBatch(US, 5_000);
    expect(await post(link, batch)).toMatchObject({ kind: 'answered', status: 200 });
    expect(seen).toMatchObject([{ path: '/batch', verified: true }]);
  });

  it('reports a peer that cannot be reached, or answers too late, as unreachable', async () => {
    const { link } = await peer(['/batch']);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    expect(await httpPostBatch(US, 5_000)(link, batch)).toEqual({ kind: 'unreachable', error: 'ECONNREFUSED' });
    server = createServer(() => {});
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const silent = { ...link, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/vis` };
    expect(await httpPostBatch(US, 200)(silent, batch)).toMatchObject({ kind: 'unreachable' });
  });

  it('falls back to /messages for a peer without /batch, and keeps to it', async () => {
    const { seen, link } = await peer(['/messages']);
    const post = httpPostBatch(US, 5_000);
    expect(await post(link, batch)).toMatchObject({ kind: 'answered', status: 200 });
    expect(await post(link, batch)).toMatchObject({ kind: 'answered', status: 200 });
    expect(seen).toMatchObject([
      { path: '/batch', verified: true },
      { path: '/messages', verified: true },
      { path: '/messages', verified: true },
    ]);
    // The same batch posted twice is two requests, not a replay.
    expect(seen[1].signature).not.toBe(seen[2].signature);
  });
});
