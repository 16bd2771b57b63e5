// Sending to a peer port: one signed POST of a batch of messages, and what came back. Posted to `<peer URL>/batch`,
// whose answer carries the messages' acknowledgements; a peer whose version does not know that path (404) is sent
// `/messages` instead (its acknowledgements come back as messages of their own), and asked again after a while.
// Each post is signed anew (src/domain/signature.ts: from us to the peer, a fresh nonce), so a post tried again is
// a new request to the peer, never a replay.

import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { BatchOutcome } from '../domain/delivery.ts';
import type { QueuedMessage } from '../domain/outbox.ts';
import { signedHeaders } from '../domain/signature.ts';

/** A batch whose acknowledgements come back later, each as a message of its own. */
export const BATCH_PATH = '/messages';
/**
 * A batch whose answer carries the acknowledgements of its messages (`{results, acknowledgements}`), instead of
 * their coming back as messages of their own (queued, delivered and received: most of the work a message cost
 * the two ports).
 */
export const BATCH_ANSWER = { operation: 'batch', path: '/batch' } as const;
/** How long a peer that answered 404 at BATCH_ANSWER's path is sent BATCH_PATH before it is asked again. */
const LEGACY_RETRY_MS = 10 * 60_000;

export type PostBatch = (
  peer: { service_id: string; url: string; secret: string },
  batch: readonly QueuedMessage[],
) => Promise<BatchOutcome>;

/** The real one: a POST with a timeout; a network failure or timeout is "unreachable", anything answered is kept. */
export function httpPostBatch(selfServiceId: string, timeoutMs: number): PostBatch {
  // Peer URLs that answered 404 at BATCH_ANSWER's path, until when.
  const legacy = new Map<string, number>();
  const postTo = (
    peer: { service_id: string; url: string; secret: string },
    path: string,
    body: Record<string, unknown>,
  ) => {
    const link = { sender: selfServiceId, recipient: peer.service_id, secret: peer.secret };
    const nonce = randomBytes(16).toString('hex');
    const headers = signedHeaders(link, { method: 'POST', path, body }, Date.now(), nonce);
    return postJson(`${peer.url.replace(/\/+$/, '')}${path}`, headers, JSON.stringify(body), timeoutMs);
  };
  return async (peer, batch) => {
    const body = { messages: batch.map((m) => ({ message_id: m.message_id, operation: m.operation, body: m.body })) };
    if ((legacy.get(peer.url) ?? 0) < Date.now()) {
      const answered = await postTo(peer, BATCH_ANSWER.path, body);
      if (answered.kind !== 'answered' || answered.status !== 404) return answered;
      legacy.set(peer.url, Date.now() + LEGACY_RETRY_MS);
    }
    return postTo(peer, BATCH_PATH, body);
  };
}

// Kept-alive connections to the peers (node:http rather than fetch: a batch every few tens of milliseconds, and
// fetch's streams cost several times the request itself).
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 8 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 8 }),
};

/** One JSON POST: what was answered (status, the body as JSON, else its start as `error`), or why nothing was. */
function postJson(
  url: string,
  headers: Record<string, string>,
  payload: string,
  timeoutMs: number,
): Promise<BatchOutcome> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch (error) {
      resolve({ kind: 'unreachable', error: (error as Error).message });
      return;
    }
    const secure = target.protocol === 'https:';
    const request = (secure ? https : http).request(
      target,
      {
        method: 'POST',
        agent: secure ? agents['https:'] : agents['http:'],
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
        signal: AbortSignal.timeout(timeoutMs),
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', (error) => resolve({ kind: 'unreachable', error: error.message }));
        response.on('aborted', () => resolve({ kind: 'unreachable', error: 'answer cut off' }));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = null;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            parsed = { error: text.slice(0, 200) };
          }
          resolve({ kind: 'answered', status: response.statusCode ?? 0, body: parsed });
        });
      },
    );
    request.on('error', (error: Error & { code?: string }) =>
      resolve({ kind: 'unreachable', error: error.code ?? error.message }),
    );
    request.end(payload);
  });
}
