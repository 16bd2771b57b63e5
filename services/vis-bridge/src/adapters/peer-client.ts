// Sending to a peer port: one signed POST of a batch of messages to `<peer URL>/messages`, and what came back.

import type { BatchOutcome } from '../domain/delivery.ts';
import type { QueuedMessage } from '../domain/outbox.ts';
import { signedHeaders } from '../domain/signature.ts';

export const BATCH_PATH = '/messages';

export type PostBatch = (
  peer: { service_id: string; url: string; secret: string },
  batch: readonly QueuedMessage[],
) => Promise<BatchOutcome>;

/** The real one: fetch with a timeout; a network failure or timeout is "unreachable", anything answered is kept. */
export function httpPostBatch(selfServiceId: string, timeoutMs: number): PostBatch {
  return async (peer, batch) => {
    const body = { messages: batch.map((m) => ({ message_id: m.message_id, operation: m.operation, body: m.body })) };
    const headers = signedHeaders(selfServiceId, peer.secret, { method: 'POST', path: BATCH_PATH, body }, Date.now());
    let response: Response;
    try {
      response = await fetch(`${peer.url.replace(/\/+$/, '')}${BATCH_PATH}`, {
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
}
