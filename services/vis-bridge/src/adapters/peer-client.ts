// Sending to a peer port: one signed POST of a batch of messages, and what came back. Posted to `<peer URL>/batch`,
// whose answer carries the messages' acknowledgements; a peer whose version does not know that path (404) is sent
// `/messages` instead (its acknowledgements come back as messages of their own), and asked again after a while.

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

/** The real one: fetch with a timeout; a network failure or timeout is "unreachable", anything answered is kept. */
export function httpPostBatch(selfServiceId: string, timeoutMs: number): PostBatch {
  // Peer URLs that answered 404 at BATCH_ANSWER's path, until when.
  const legacy = new Map<string, number>();
  const postTo = async (
    peer: { url: string; secret: string },
    path: string,
    body: Record<string, unknown>,
  ): Promise<BatchOutcome> => {
    const headers = signedHeaders(selfServiceId, peer.secret, { method: 'POST', path, body }, Date.now());
    let response: Response;
    try {
      response = await fetch(`${peer.url.replace(/\/+$/, '')}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      return { kind: 'unreachable', error: cause ?? (error as Error).message };
    }
    const text = await response.text().catch(() => '');
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = { error: text.slice(0, 200) };
    }
    return { kind: 'answered', status: response.status, body: parsed };
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
