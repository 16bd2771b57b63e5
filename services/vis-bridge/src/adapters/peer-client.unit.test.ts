// The peer client against a stand-in peer on loopback: batches go to `/batch` (whose answer carries the
// acknowledgements); a peer that does not know that path (404, an earlier version) gets `/messages`, signed for
// that path, and is not asked at `/batch` again for a while.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { verify } from '../domain/signature.ts';
import { httpPostBatch } from './peer-client.ts';

const SECRET = 'a-secret-of-twenty-chars';
const batch = [{ seq: 1, message_id: 'm1', operation: 'textMessage' as const, body: { message: '<x/>' }, bytes: 20 }];

describe('httpPostBatch', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function peer(known: readonly string[]) {
    const seen: { path: string; verified: boolean }[] = [];
    server = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => {
        text += chunk;
      });
      req.on('end', () => {
        const path = (req.url ?? '').replace(/^\/vis/, '');
        const verdict = verify(
          SECRET,
          {
            method: 'POST',
            path,
            timestamp: req.headers['x-vis-timestamp'] as string,
            signature: req.headers['x-vis-signature'] as string,
            body: JSON.parse(text),
          },
          Date.now(),
          60,
        );
        seen.push({ path, verified: verdict.ok });
        res.writeHead(known.includes(path) ? 200 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify(known.includes(path) ? { results: [{ message_id: 'm1', status: 'stored' }] } : {}));
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server!.address() as AddressInfo).port}/vis`;
    return { seen, link: { service_id: 'urn:peer', url, secret: SECRET } };
  }

  it('posts to /batch, signed for it', async () => {
    const { seen, link } = await peer(['/batch', '/messages']);
    const post = httpPostBatch('urn:us', 5_000);
    expect(await post(link, batch)).toMatchObject({ kind: 'answered', status: 200 });
    expect(seen).toEqual([{ path: '/batch', verified: true }]);
  });

  it('reports a peer that cannot be reached, or answers too late, as unreachable', async () => {
    const { link } = await peer(['/batch']);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    expect(await httpPostBatch('urn:us', 5_000)(link, batch)).toEqual({ kind: 'unreachable', error: 'ECONNREFUSED' });
    server = createServer(() => {});
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const silent = { ...link, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/vis` };
    expect(await httpPostBatch('urn:us', 200)(silent, batch)).toMatchObject({ kind: 'unreachable' });
  });

  it('falls back to /messages for a peer without /batch, and keeps to it', async () => {
    const { seen, link } = await peer(['/messages']);
    const post = httpPostBatch('urn:us', 5_000);
    expect(await post(link, batch)).toMatchObject({ kind: 'answered', status: 200 });
    expect(await post(link, batch)).toMatchObject({ kind: 'answered', status: 200 });
    expect(seen).toEqual([
      { path: '/batch', verified: true },
      { path: '/messages', verified: true },
      { path: '/messages', verified: true },
    ]);
  });
});
